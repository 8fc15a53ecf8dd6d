"""The WHOIS layers on the demo region's Key West hotels: WHOIS over port 43 (registry, then the
registrar it refers to) and the archived WHOIS records of the privacy-masked ones; what they
write agrees with the sandbox's truth, names only the hotels' own people, and a re-run changes
nothing."""

from __future__ import annotations

from typing import Any

import pytest
from dagster import materialize

from sadie_pipeline.core.enrichment.layers import LAYER_WHOIS, LAYER_WHOIS_HISTORY
from sadie_pipeline.core.entity_resolution import website_parts
from sadie_pipeline.core.hotel_status import DETECTED_OR_ENRICHED
from sadie_pipeline.hotels.enrichment.owner import rdap_owner
from sadie_pipeline.hotels.enrichment.whois import whois_assets, whois_history, whois_owner
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline.sandbox.services.whois import registrar_host, registration
from sadie_pipeline_tests.hotels.conftest import sandbox_resources

pytestmark = [pytest.mark.slow, pytest.mark.browser]
ASSETS = [rdap_owner, *whois_assets]


def _run(database, store, instance, sb) -> dict[str, dict[str, Any]]:
    result = materialize(ASSETS, partition_key="US-FL", instance=instance,
                         resources=sandbox_resources(database, store, sb))
    assert result.success
    return {a.op.name: {k: v.value for k, v in result.asset_materializations_for_node(a.op.name)[0].metadata.items()}
            for a in ASSETS}


def _state(database) -> tuple[list[Any], list[Any], int]:
    with database.connect() as conn:
        rows = conn.execute(
            """SELECT h.id, h.name, h.website, e.layers_completed, e.whois_server, e.whois_registrant_org,
                      e.whois_privacy, e.whois_history_date, e.whois_history_org, e.sources, e.confidence
                 FROM sadie_gtm.hotels h
                 JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
                 JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
                 LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id
                WHERE be.tier = 1 AND h.status = ANY(%s) ORDER BY h.id""", (list(DETECTED_OR_ENRICHED),)).fetchall()
        people = conn.execute(
            """SELECT hotel_id, full_name, title, email, sources, confidence, raw_source_url
                 FROM sadie_gtm.hotel_decision_makers
                WHERE sources && ARRAY['whois', 'whois_history']::text[] ORDER BY id""").fetchall()
        dead = conn.execute("SELECT count(*) FROM pipeline.dead_letters").fetchone()[0]
    return rows, people, dead


def _check_whois(row: tuple[Any, ...], reg: Any, truth: Any, people: list[Any]) -> bool:
    _, name, _, layers, server, org, privacy, *_ = row
    assert layers & LAYER_WHOIS, name
    if reg is None:  # not registered: completed, nothing found
        assert (server, org, privacy) == (None, None, None), name
        return False
    assert server == registrar_host(reg.registrar), name
    assert privacy is reg.current.masked, name
    assert org == (None if reg.current.masked else reg.current.org), name
    whois_people = [(p[1], p[3]) for p in people if "whois" in p[4]]
    if reg.current.masked or reg.current.name not in truth.true_people():
        assert not whois_people, name
        return False
    assert whois_people == [(reg.current.name, reg.current.email)], name  # merged with RDAP's row when it has one
    return True


def _check_history(row: tuple[Any, ...], reg: Any, truth: Any, people: list[Any]) -> bool:
    _, name, _, layers, _, _, _, day, org, *_ = row
    assert layers & LAYER_WHOIS_HISTORY, name
    archived = [s for s in reg.history if not s.masked] if reg is not None and reg.current.masked else []
    if not archived:
        assert (day, org) == (None, None), name
        assert not [p for p in people if "whois_history" in p[4]], name
        return False
    newest = archived[-1]
    assert (day.isoformat(), org) == (newest.date, newest.org), name
    named = [p for p in people if "whois_history" in p[4]]
    if truth.agency_registrant is None:
        assert [(p[1], p[3]) for p in named] == [(newest.name, newest.email)], name
        assert named[0][5] == 0.5 and "/web/" in named[0][6]  # 0.65, stale (archived 2017): -0.15
    return True


def test_whois_layers_find_registrants_and_their_archived_records(detected, database, local_object_store,
                                                                   instance, sb) -> None:
    meta = _run(database, local_object_store, instance, sb)
    rows, people, dead = _state(database)
    assert len(rows) >= 2 and dead == 0
    for asset in (whois_owner, whois_history):
        assert (meta[asset.op.name]["hotels"], meta[asset.op.name]["ok"]) == (len(rows), len(rows)), meta
    histories = named_by_whois = 0
    for row in rows:
        hotel_id, name, website = row[:3]
        place = sb.world.hotel(name)
        domain = website_parts(website)[0]
        reg, truth = registration(sb.world, domain), owner_truth(place)
        mine = [p for p in people if p[0] == hotel_id]
        named_by_whois += _check_whois(row, reg, truth, mine)
        histories += _check_history(row, reg, truth, mine)
        for person in mine:  # owner precision: only the hotel's own people, never a role or an agency
            assert person[1] in truth.true_people(), (name, person)
            assert person[2] == "Domain Registrant" and 0 < person[5] <= 1
    assert histories >= 1, "no masked hotel had its archived record read"
    assert named_by_whois >= 1, "no registrant named by WHOIS"
    assert meta["whois_owner"]["referrals_followed"] == meta["whois_owner"]["records_found"] >= 2
    assert meta["whois_history"]["archived_records_found"] == histories

    again = _run(database, local_object_store, instance, sb)
    assert again["whois_owner"]["hotels"] == again["whois_history"]["hotels"] == 0
    assert _state(database) == (rows, people, dead)

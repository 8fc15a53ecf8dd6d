"""Common Crawl layers on the demo region's tier-1 hotels, against the sandbox's CC index and WARC
files: pages harvested for hotels in the crawl (0 for the others), people read from them as
``cc_harvest`` decision makers only where the crawl names them; a re-run changes nothing.

The demo region's Key West tier-1 hotels are not in the crawl, so `crawled` adds Orlando (whose
tier-1 hotels are, one of them on a brand's shared domain) to the `detected` fixture's market."""

from __future__ import annotations

import gzip
import json

import pytest
from dagster import materialize

from sadie_pipeline.core.enrichment.layers import LAYER_CC_CONTACTS, LAYER_CC_HARVEST
from sadie_pipeline.core.hotel_status import DETECTED_OR_ENRICHED
from sadie_pipeline.hotels.enrichment.common_crawl import cc_contacts, common_crawl_assets, manifest_key
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline_tests.hotels.conftest import DETECTION, sandbox_resources

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture
def crawled(detected, database, local_object_store, instance, sb):
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Orlando"])
    assert materialize(DETECTION, partition_key="US-FL", instance=instance,
                       resources=sandbox_resources(database, local_object_store, sb)).success


def _run(database, store, instance, sb):
    result = materialize(common_crawl_assets, partition_key="US-FL", instance=instance,
                         resources=sandbox_resources(database, store, sb))
    assert result.success
    return {a.op.name: {k: v.value for k, v in result.asset_materializations_for_node(a.op.name)[0].metadata.items()}
            for a in common_crawl_assets}


def _tier1(database):
    with database.connect() as conn:
        rows = conn.execute(
            """SELECT h.id, h.name, h.state, h.city, h.website FROM sadie_gtm.hotels h
                 JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
                 JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
                WHERE be.tier = 1 AND h.status = ANY(%s) ORDER BY h.id""", (list(DETECTED_OR_ENRICHED),)).fetchall()
    return [dict(zip(("id", "name", "state", "city", "website"), r)) for r in rows]


def _snapshot(database, store):
    with database.connect() as conn:
        enrichment = conn.execute(
            """SELECT hotel_id, layers_completed, cc_crawl, cc_pages, sources, confidence
                 FROM sadie_gtm.hotel_owner_enrichment ORDER BY hotel_id""").fetchall()
        people = conn.execute(
            """SELECT id, hotel_id, full_name, title, email, phone, sources, confidence, raw_source_url, updated_at
                 FROM sadie_gtm.hotel_decision_makers ORDER BY id""").fetchall()
        dead = conn.execute("SELECT count(*) FROM pipeline.dead_letters").fetchone()[0]
    objects = {k: store.get_bytes(k) for k in store.list_keys("website-content/") if ".cc" in k}
    return enrichment, people, dead, objects


def test_cc_layers_harvest_pages_and_name_the_crawled_people(crawled, database, local_object_store, instance, sb):
    tier1 = _tier1(database)
    assert len(tier1) >= 2
    meta = _run(database, local_object_store, instance, sb)
    for name in ("cc_harvest", "cc_contacts"):
        assert (meta[name]["hotels"], meta[name]["ok"]) == (len(tier1), len(tier1)), (name, meta[name])
    assert meta["cc_contacts"]["skipped"] == 0  # Dagster ran the harvest first

    enrichment, people, dead, objects = _snapshot(database, local_object_store)
    assert dead == 0
    rows = {r[0]: r for r in enrichment}
    found = {}
    for _, hotel_id, name, _title, email, _phone, sources, confidence, url, _ in people:
        assert sources == ["cc_harvest"] and 0 < confidence <= 0.45 and url.startswith("http")
        found.setdefault(hotel_id, {})[name] = email
    in_crawl = 0
    for hotel in tier1:
        place = sb.world.hotel(hotel["name"])
        truth = owner_truth(place)
        layers, crawl, pages = rows[hotel["id"]][1:4]
        assert layers & (LAYER_CC_HARVEST | LAYER_CC_CONTACTS) == LAYER_CC_HARVEST | LAYER_CC_CONTACTS
        assert crawl == "CC-MAIN-2026-08"
        if not truth.in_common_crawl:  # not crawled: done with nothing found
            assert pages == 0 and hotel["id"] not in found
            assert json.loads(local_object_store.get_bytes(manifest_key(hotel)))["pages"] == []
            continue
        in_crawl += 1
        assert 1 <= pages <= 5
        manifest = json.loads(local_object_store.get_bytes(manifest_key(hotel)))
        assert manifest["crawl"] == crawl and len(manifest["pages"]) == pages
        assert manifest["pages"][0]["url"].endswith("/contact")  # contact pages first
        html = gzip.decompress(local_object_store.get_bytes(manifest["pages"][0]["key"])).decode()
        assert place.name in html
        # only the people the crawl names, never a former manager of a stale capture
        named = {p.name: p.email for p in truth.cc_people}
        assert set(found.get(hotel["id"], {})) <= set(named) <= truth.true_people()
        assert all(email in (None, named[name]) for name, email in found.get(hotel["id"], {}).items())
        assert bool(found.get(hotel["id"])) == bool(truth.cc_people)
    assert in_crawl >= 2 and len(tier1) > in_crawl and found
    assert meta["cc_harvest"]["hotels_with_pages"] == in_crawl
    assert meta["cc_contacts"]["decision_makers_found"] == len(people)

    again = _run(database, local_object_store, instance, sb)
    assert again["cc_harvest"]["hotels"] == again["cc_contacts"]["hotels"] == 0
    assert _snapshot(database, local_object_store) == (enrichment, people, dead, objects)


def test_cc_contacts_waits_for_the_harvest(detected, database, local_object_store, instance, sb):
    tier1 = _tier1(database)
    result = materialize([cc_contacts], partition_key="US-FL", instance=instance,
                         resources=sandbox_resources(database, local_object_store, sb))
    assert result.success
    meta = result.asset_materializations_for_node("cc_contacts")[0].metadata
    assert meta["skipped"].value == len(tier1) and meta["ok"].value == 0
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM sadie_gtm.hotel_decision_makers").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM sadie_gtm.hotel_owner_enrichment WHERE layers_completed & %s > 0",
                            (LAYER_CC_CONTACTS,)).fetchone()[0] == 0

"""The certificate transparency layer (`certificate_orgs`) and the ABN / ASIC layer (`abn_asic`)
as assets: on the demo region (Key West, discovered and detected) the certificate layer waits
for RDAP and WHOIS, then finds the OV/EV organisations and sibling domains the world's owner
truth gives and cross-references them with WHOIS; ABN Lookup completes US hotels as not
applicable without a call. An Australian region (hotels written straight into the tables, a
sandbox whose world has them) gets each hotel's ABN, entity, business names, state and status."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from dagster import materialize

from sadie_pipeline.core.enrichment.certificates import org_matches
from sadie_pipeline.core.enrichment.layers import LAYER_ABN_ASIC, LAYER_CT_CERTS
from sadie_pipeline.core.entity_resolution import website_parts
from sadie_pipeline.hotels.enrichment.abn import abn_asic
from sadie_pipeline.hotels.enrichment.certificates import WAITING, certificate_orgs
from sadie_pipeline.hotels.enrichment.owner import rdap_owner
from sadie_pipeline.hotels.enrichment.whois import whois_owner
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.resources.abn import AbnLookupResource
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline.sandbox.world import AU_CITIES, World, generate_hotels
from sadie_pipeline_tests.hotels.conftest import sandbox_resources
from sadie_pipeline_tests.hotels.leads_data import add_hotel

GUID = "6d1c2b7e-31aa-4f0e-8c55-0b9e7f3a2d41"


def _run(assets, partition, resources, instance):
    result = materialize(assets, partition_key=partition, instance=instance, resources=resources)
    assert result.success
    return {a.op.name: {k: v.value for k, v in result.asset_materializations_for_node(a.op.name)[0].metadata.items()}
            for a in assets}


def _enrichment(database):
    with database.connect() as conn:
        rows = conn.execute(
            """SELECT h.id, h.name, h.website, coalesce(e.layers_completed, 0), e.cert_orgs, e.cert_sibling_domains,
                      e.cert_org_matches_whois, e.registrant_org, e.whois_registrant_org, e.abn, e.abn_entity_name,
                      e.abn_trading_names, e.abn_state, e.abn_status
                 FROM sadie_gtm.hotels h
                 JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
                 JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id AND be.tier = 1
                 LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id ORDER BY h.id""").fetchall()
    names = ("id", "name", "website", "layers", "cert_orgs", "siblings", "matches", "rdap_org", "whois_org", "abn",
             "entity", "trading", "abn_state", "abn_status")
    return [dict(zip(names, r)) for r in rows]


def _own_domains(world: World) -> dict[str, list[str]]:
    shared = Counter(p.domain for p in world.hotels)
    out: dict[str, list[str]] = {}
    for p in world.hotels:
        if p.domain and world.domains[p.domain].resolves and shared[p.domain] == 1:
            out.setdefault(owner_truth(p).company, []).append(p.domain)
    return out


@pytest.mark.slow
@pytest.mark.browser
def test_certificate_orgs_after_rdap_and_whois(detected, database, local_object_store, instance, sb):
    resources = sandbox_resources(database, local_object_store, sb)
    _run([rdap_owner], "US-FL", resources, instance)
    waiting = _run([certificate_orgs], "US-FL", resources, instance)["certificate_orgs"]
    assert waiting["hotels"] >= 2 and waiting["skipped"] == waiting["hotels"]  # WHOIS has not run yet
    assert sb.stats("crtsh")["requests"] == 0
    assert all(not r["layers"] & LAYER_CT_CERTS for r in _enrichment(database)), WAITING

    meta = _run([whois_owner, certificate_orgs], "US-FL", resources, instance)["certificate_orgs"]
    rows = _enrichment(database)
    assert (meta["hotels"], meta["ok"]) == (len(rows), len(rows))
    by_company = _own_domains(sb.world)
    validated = 0
    for row in rows:
        assert row["layers"] & LAYER_CT_CERTS, row["name"]
        domain = website_parts(row["website"])[0]
        place = next(p for p in sb.world.hotels if p.domain == domain)
        truth = owner_truth(place)
        if truth.cert_type == "DV":
            assert (row["cert_orgs"], row["siblings"], row["matches"]) == (None, None, None), row
            continue
        validated += 1
        assert row["cert_orgs"] == [truth.cert_org], row
        siblings = sorted(set(by_company.get(truth.company, [])) - {domain})
        assert (row["siblings"] or []) == siblings, row
        registered = [o for o in (row["rdap_org"], row["whois_org"]) if o]
        expected = any(org_matches(truth.cert_org, o) for o in registered) if registered else None
        assert row["matches"] is expected, row
    assert validated >= 1 and meta["hotels_with_cert_org"] == validated
    # a certificate names a company, never a person
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM sadie_gtm.hotel_decision_makers WHERE 'crt_sh' = ANY(sources)"
                            ).fetchone()[0] == 0


@pytest.mark.slow
@pytest.mark.browser
def test_abn_asic_completes_us_hotels_as_not_applicable(detected, database, local_object_store, instance, sb):
    meta = _run([abn_asic], "US-FL", sandbox_resources(database, local_object_store, sb), instance)["abn_asic"]
    rows = _enrichment(database)
    assert (meta["hotels"], meta["ok"], meta["not_applicable"], meta["abns_found"]) == (len(rows), len(rows),
                                                                                          len(rows), 0)
    assert all(r["layers"] & LAYER_ABN_ASIC and r["abn"] is None for r in rows)
    assert sb.stats("abr")["requests"] == 0


# --- an Australian region -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def au_sandbox() -> Iterator[Sandbox]:
    world = World(generate_hotels(12, seed=5, country="AU", state="NSW", cities=AU_CITIES, id_prefix="au"))
    with Sandbox(world=world, api_keys={"abr": GUID}, dns_port=None, https_port=None) as sb:
        yield sb


def test_abn_asic_finds_australian_hotels_in_the_register(au_sandbox, database, local_object_store, instance):
    hotels = [p for p in au_sandbox.world.hotels if p.website][:6]
    with database.connect() as conn:
        ids = {add_hotel(conn, p.name, region="AU-NSW", city=p.city, website=p.website): p for p in hotels}
        ids[add_hotel(conn, "Unregistered Guest House Sydney", region="AU-NSW", city="Sydney")] = None
        # the hotels as detection leaves them: the ABN layer not run yet
        conn.execute("UPDATE sadie_gtm.hotel_owner_enrichment SET layers_completed = layers_completed & ~%s::int",
                     (LAYER_ABN_ASIC,))
    resources = {"database": database, "object_store": local_object_store,
                 **io_manager_resources(database, local_object_store),
                 "abn_lookup": AbnLookupResource(base_url=au_sandbox.base_url("abr"), guid=GUID,
                                                 requests_per_second=100, backoff_base_s=0.01)}
    meta = _run([abn_asic], "AU-NSW", resources, instance)["abn_asic"]
    assert (meta["hotels"], meta["ok"], meta["abns_found"], meta["no_register_match"]) == (7, 7, 6, 1)
    rows = {r["id"]: r for r in _enrichment(database)}
    for hotel_id, place in ids.items():
        row = rows[hotel_id]
        assert row["layers"] & LAYER_ABN_ASIC
        if place is None:
            assert row["abn"] is None
            continue
        record = owner_truth(place).abn
        assert (row["abn"], row["entity"], row["trading"], row["abn_state"], row["abn_status"]) == (
            record.abn, record.entity_name, list(record.trading_names), "NSW", "Active"), row
    with database.connect() as conn:
        sources = conn.execute("SELECT sources FROM sadie_gtm.hotel_owner_enrichment WHERE abn IS NOT NULL").fetchall()
        # the register's entities are companies: no person is named (ASIC's directors are not read)
        assert conn.execute("SELECT count(*) FROM sadie_gtm.hotel_decision_makers WHERE 'abn_lookup' = ANY(sources)"
                            ).fetchone()[0] == 0
    assert all("abn_lookup" in s[0] for s in sources)
    again = _run([abn_asic], "AU-NSW", resources, instance)["abn_asic"]
    assert again["hotels"] == 0  # every hotel completed: nothing left to look up

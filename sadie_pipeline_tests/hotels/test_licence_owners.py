"""Licence registers over real HTTP into PostgreSQL (COPY, a file loaded once per content), and
the `licence_owners` layer on the demo region (Key West, US-FL): each tier-1 hotel's licence from
the sandbox's DBPR extracts, its owner (a person, never the licensee company) as a decision maker."""

from __future__ import annotations

import json

import pytest
from dagster import materialize

from sadie_pipeline.core.enrichment.confidence import contact_confidence
from sadie_pipeline.core.enrichment.layers import LAYER_GOV_DATA
from sadie_pipeline.hotels.enrichment.licences import NO_REGISTRY, licence_owners, licences_assets, load_registry
from sadie_pipeline.resources.licences import BUNDLED_REGISTERS, LicenceRegisterResource
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline_tests.hotels.conftest import sandbox_resources, tier1_hotels

pytestmark = pytest.mark.slow
FAST = {"backoff_base_s": 0.05, "backoff_max_s": 0.2, "requests_per_second": 100}


def _registers(sb, **fields) -> LicenceRegisterResource:
    return LicenceRegisterResource(base_url=sb.base_url("licences"), **FAST, **fields)


def _records(database):
    with database.connect() as conn:
        return conn.execute("""SELECT registry, licence_number, owner_name, file_hash, loaded_at
                                 FROM sadie_gtm.licence_records ORDER BY 1, 2""").fetchall()


def test_registers_load_over_http_once(database, sb):
    registers = _registers(sb)
    fl, tx = registers.catalog().registries
    loads = load_registry(database, registers, fl, max_age_s=0)
    assert [f.status for f in loads] == ["loaded"] * 7
    first = _records(database)
    assert len(first) == sum(f.records for f in loads) and sum(f.filtered for f in loads) >= 3
    licensed = {owner_truth(p).licence.number: owner_truth(p).licence for p in sb.world.hotels
                if owner_truth(p).licence}
    stored = {number: owner for _, number, owner, _, _ in first}
    assert all(stored[n] == lic.owner_name for n, lic in licensed.items())
    assert all(len(h) == 64 for *_, h, _ in first)

    sb.reset_stats("licences")
    again = load_registry(database, registers, fl, max_age_s=0)  # downloaded, same content: not loaded
    assert [f.status for f in again] == ["unchanged"] * 7 and sb.stats("licences")["requests"] == 7
    assert _records(database) == first
    fresh = load_registry(database, registers, fl)  # within refresh_after_hours: not even downloaded
    assert [f.status for f in fresh] == ["fresh"] * 7 and sb.stats("licences")["requests"] == 7

    assert [f.status for f in load_registry(database, registers, tx)] == ["loaded"]  # the header format
    assert len(_records(database)) > len(first)


def test_a_register_that_fails_is_reported_not_loaded(database, sb):
    sb.configure("licences", error_rate=1.0)
    registers = _registers(sb, max_attempts=2)
    loads = load_registry(database, registers, registers.catalog().registries[0], max_age_s=0)
    assert {f.status for f in loads} == {"failed"} and all(f.error for f in loads)
    assert _records(database) == []




def _state(database):
    with database.connect() as conn:
        rows = conn.execute("""SELECT hotel_id, layers_completed, licence_registry, licence_number, licensee_name,
                                      licence_mailing_address, sources, confidence
                                 FROM sadie_gtm.hotel_owner_enrichment ORDER BY hotel_id""").fetchall()
        people = conn.execute("""SELECT hotel_id, full_name, title, sources, confidence, raw_source_url
                                   FROM sadie_gtm.hotel_decision_makers ORDER BY id""").fetchall()
    return rows, people


def _run(database, store, instance, sb, registers=None):
    resources = sandbox_resources(database, store, sb)
    if registers is not None:
        resources["licence_registers"] = registers
    result = materialize(licences_assets, partition_key="US-FL", instance=instance, resources=resources)
    assert result.success
    return {k: v.value for k, v in result.asset_materializations_for_node("licence_owners")[0].metadata.items()}


@pytest.mark.browser
def test_licence_owners_on_key_west(detected, database, local_object_store, instance, sb):
    tier1 = tier1_hotels(database, "id", "name")
    assert tier1
    meta = _run(database, local_object_store, instance, sb)
    assert (meta["hotels"], meta["ok"]) == (len(tier1), len(tier1))
    rows, people = _state(database)
    by_hotel = {r[0]: r for r in rows}
    truth = {p.name: owner_truth(p) for p in sb.world.hotels}
    matched = 0
    for hotel_id, name in tier1:
        _, layers, registry, number, licensee, mailing, sources, confidence = by_hotel[hotel_id]
        assert layers & LAYER_GOV_DATA
        lic = truth[name].licence
        if number is None:
            continue
        matched += 1
        assert lic is not None and (registry, number, licensee) == ("fl_dbpr_lodging", lic.number, lic.licensee.upper())
        assert mailing.startswith("PO BOX") and "gov_registry" in sources
        owners = [p for p in people if p[0] == hotel_id and "gov_registry" in p[3]]
        expected = [lic.owner_name] if lic.owner_name else []
        assert [p[1] for p in owners] == expected, (name, owners)
        for _, _, title, _, conf, url in owners:
            assert title == "Owner" and conf == pytest.approx(contact_confidence("gov_registry"))
            assert url.endswith(f"#licence={lic.number}") and "/licences/sto/file_download/" in url
    assert matched >= max(2, 0.8 * sum(1 for _, name in tier1 if truth[name].licence))
    assert meta["licences_matched"] == matched
    # the licensee is a company: never a person
    assert not any("LLC" in p[1].upper() or "HOSPITALITY" in p[1].upper() for p in people if "gov_registry" in p[3])

    before = _state(database)
    assert _run(database, local_object_store, instance, sb)["hotels"] == 0  # done: nothing to do again
    assert _state(database) == before


@pytest.mark.browser
def test_a_region_without_a_register(detected, database, local_object_store, instance, sb, tmp_path):
    catalog = json.loads(BUNDLED_REGISTERS.read_text())
    catalog["registries"] = [r for r in catalog["registries"] if r["region"] != "US-FL"]
    path = tmp_path / "registers.json"
    path.write_text(json.dumps(catalog))
    meta = _run(database, local_object_store, instance, sb, _registers(sb, config_file=str(path)))
    tier1 = tier1_hotels(database, "id", "name")
    assert (meta["ok"], meta["licences_matched"], meta["outcomes"]) == (len(tier1), 0, {NO_REGISTRY: len(tier1)})
    rows, people = _state(database)
    assert all(r[1] & LAYER_GOV_DATA and r[3] is None for r in rows) and len(rows) == len(tier1)
    assert not people and sb.stats("licences")["requests"] == 0
    assert licence_owners.op.name == "licence_owners"

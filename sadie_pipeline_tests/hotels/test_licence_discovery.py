"""Licence registers as a discovery source (issue 32): `licence_discovery` on the sandbox's
registers over real HTTP, files loaded once and shared with the licence_owners layer; and
`discovery.save_sources` writing hotel_sources rows with COPY."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from dagster import build_schedule_context, materialize
from pydantic import ValidationError

from sadie_pipeline.core.licence_discovery import is_active
from sadie_pipeline.core.licences import parse_catalog
from sadie_pipeline.hotels import discovery
from sadie_pipeline.hotels.discovery_licences import NO_REGISTER, licence_discovery
from sadie_pipeline.hotels.enrichment.licences import load_registry
from sadie_pipeline.hotels.licence_schedules import build_licence_schedules, licence_discovery_job
from sadie_pipeline.resources.licences import BUNDLED_REGISTERS
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline.sandbox.services.licences import licence_only
from sadie_pipeline_tests.hotels.conftest import sandbox_resources

FL = "fl_dbpr_lodging"


def _run(database, store, instance, sb, region="US-FL") -> dict:
    result = materialize([licence_discovery], partition_key=region, instance=instance,
                         resources=sandbox_resources(database, store, sb))
    assert result.success
    [mat] = result.asset_materializations_for_node("licence_discovery")
    return {k: v.value for k, v in mat.metadata.items()}


def _sources(database) -> dict[str, dict]:
    with database.connect() as conn:
        return {e: r for e, r in conn.execute(
            "SELECT external_id, record FROM sadie_gtm.hotel_sources WHERE source = 'licence'")}


def _records(database) -> list[tuple]:
    with database.connect() as conn:
        return conn.execute("""SELECT licence_number, status, loaded_at FROM sadie_gtm.licence_records
                                WHERE registry = %s ORDER BY 1""", (FL,)).fetchall()


def _errors(database) -> list[tuple]:
    with database.connect() as conn:
        return conn.execute("""SELECT j.dmo_id, j.data_domain, j.source_name, e.error_type, e.original_record
                                 FROM pipeline.job_errors e JOIN pipeline.jobs j ON j.id = e.job_id
                                ORDER BY e.id""").fetchall()


@pytest.mark.slow
def test_licence_discovery_on_the_sandbox(database, local_object_store, instance, sb):
    meta = _run(database, local_object_store, instance, sb)
    records = _records(database)
    active = {n for n, status, _ in records if is_active(status)}
    sources = _sources(database)
    # every open lodging licence of the register once; the closed ones left aside and counted
    assert set(sources) == {f"{FL}:{n}" for n in active} and len(active) < len(records)
    assert meta["source_records"] == len(active) and meta["skipped"]["inactive"] == len(records) - len(active)
    assert sum(meta["by_licence_type"].values()) == len(active)
    assert set(meta["by_licence_type"]) <= {"HOTL", "MOTL", "BDBK", "TRAN"}   # lodging only
    assert "/licences/sto/file_download/extracts/hrlodge1.csv" in meta["register_files"]
    # the hotels search lists, and the independents only the register knows, with a person's casing
    licensed = {owner_truth(p).licence.number for p in sb.world.hotels if owner_truth(p).licence}
    only = [i for i in licence_only(sb.world) if i["state"] == "FL"]
    assert licensed and only and {f"{FL}:{n}" for n in licensed} <= set(sources)
    for i in only:
        record = sources[f"{FL}:{i['licence_number']}"]
        assert [record[k].lower() for k in ("name", "address", "city")] == [str(i[k]).lower() for k in
                                                                           ("name", "street", "city")]
        assert record["city"] == str(i["city"]).title() != str(i["city"]).upper()     # not as registers shout
        assert record["registry"] == FL and record["licence_type"] and record["state"] == "FL"
        assert record["phone"] == i.get("phone")
    # unreadable rows: job_errors of the file's load (no DMO), the rest of the file loaded
    errors = _errors(database)
    assert len(errors) == meta["skipped"]["unreadable_rows_at_load"] > 0
    assert all(e[:4] == (None, "licences", FL, "bad_record") and isinstance(e[4], list) for e in errors)

    # again: nothing downloaded (fresh), nothing loaded, nothing written, no new error rows
    sb.reset_stats("licences")
    again = _run(database, local_object_store, instance, sb)
    assert again["source_records"] == 0 and sb.stats("licences")["requests"] == 0
    assert _sources(database) == sources and _records(database) == records and len(_errors(database)) == len(errors)

    # the licence_owners layer's loading afterwards: fresh, or downloaded and unchanged; never loaded again
    registers = sandbox_resources(database, local_object_store, sb)["licence_registers"]
    [fl] = registers.for_region("US-FL")
    assert {f.status for f in load_registry(database, registers, fl)} == {"fresh"}
    assert {f.status for f in load_registry(database, registers, fl, max_age_s=0)} == {"unchanged"}
    assert _records(database) == records and len(_errors(database)) == len(errors)


@pytest.mark.slow
def test_a_region_without_a_register(database, local_object_store, instance, sb):
    meta = _run(database, local_object_store, instance, sb, region="US-CA")
    assert (meta["source_records"], meta["registers"]) == (0, NO_REGISTER)
    assert sb.stats("licences")["requests"] == 0 and not _sources(database)


@pytest.mark.slow
def test_a_register_that_cannot_be_downloaded_is_reported(database, local_object_store, instance, sb):
    sb.configure("licences", error_rate=1.0)
    meta = _run(database, local_object_store, instance, sb)
    assert meta["source_records"] == 0 and len(meta["failed_files"]) == 7 and not _sources(database)
    sb.configure("licences", error_rate=0.0)
    assert _run(database, local_object_store, instance, sb)["source_records"] > 0   # the next run loads them


# --- save_sources: COPY into a temporary table, one upsert ---------------------------------------

def _row(k: int, tag: str = "a") -> tuple[str, dict, str]:
    return f"x:{k}", {"name": f"Hotel {k} {tag}", "city": f"City {k % 7}", "lat": 1.5, "n": k}, f"raw/{tag}"


def _table(database) -> dict[str, tuple]:
    with database.connect() as conn:
        return {r[0]: r[1:] for r in conn.execute(
            """SELECT external_id, id, record, city, raw_s3_path, first_seen_at, last_seen_at, region
                 FROM sadie_gtm.hotel_sources WHERE source = 'crawl'""")}


def test_save_sources_ten_thousand_rows_from_a_generator(database):
    result = discovery.DiscoveryResult()
    with database.connect() as conn:
        discovery.save_sources(conn, "US-FL", "crawl", (_row(k) for k in range(10_000)), result)
    rows = _table(database)
    assert len(rows) == 10_000 and result.by_source == {"crawl": 10_000}
    assert sum(s["crawl"] for s in result.by_city.values()) == 10_000 and len(result.by_city) == 7
    _, record, city, raw, *_, region = rows["x:42"]
    assert (record, city, raw, region) == (_row(42)[1], "City 0", "raw/a", "US-FL")


def test_save_sources_upserts(database):
    with database.connect() as conn:
        discovery.save_sources(conn, "US-FL", "crawl", [_row(k) for k in range(100)], discovery.DiscoveryResult())
    before = _table(database)
    result = discovery.DiscoveryResult()
    # rows 50..149 again, changed; within the batch the last copy of x:60 wins
    batch = [_row(k, "b") for k in range(50, 150)] + [("x:60", {"name": "last", "city": "Elsewhere"}, None)]
    with database.connect() as conn:
        discovery.save_sources(conn, "US-FL", "crawl", iter(batch), result)
    after = _table(database)
    assert len(after) == 150 and result.by_source == {"crawl": 101}
    assert after["x:10"] == before["x:10"]                                  # not in the batch: untouched
    for key in ("x:50", "x:99"):
        assert after[key][0] == before[key][0] and after[key][4] == before[key][4]   # same row, first seen kept
        assert after[key][1]["name"].endswith(" b") and after[key][3] == "raw/b" and after[key][5] > before[key][5]
    assert after["x:60"][1:4] == ({"name": "last", "city": "Elsewhere"}, "Elsewhere", None)
    # nothing given, nothing done
    empty = discovery.DiscoveryResult()
    with database.connect() as conn:
        discovery.save_sources(conn, "US-FL", "crawl", iter(()), empty)
    assert empty.by_source == {"crawl": 0} and _table(database) == after


def test_save_sources_keeps_awkward_values(database):
    record = {"name": "Nul\x00 and \\u0000 and tab\t", "city": "Key West", "lat": float("nan"), 3: "int key"}
    with database.connect() as conn:
        conn.autocommit = True  # its own transaction then
        discovery.save_sources(conn, "US-FL", "crawl", [("x:1", record, None)], discovery.DiscoveryResult())
    [(_, stored, *_)] = _table(database).values()
    assert stored == {"name": "Nul and \\u0000 and tab\t", "city": "Key West", "lat": None, "3": "int key"}


# --- the registers' refresh schedules ----------------------------------------------------------

def test_a_schedule_per_register_at_its_refresh():
    catalog = json.loads(BUNDLED_REGISTERS.read_text())
    schedules = {s.name: s for s in build_licence_schedules("UTC", parse_catalog(json.dumps(catalog)))}
    assert {n: s.cron_schedule for n, s in schedules.items()} == {
        f"licence_refresh_{r['id']}": r["refresh"] for r in catalog["registries"]}
    request = schedules[f"licence_refresh_{FL}"](
        build_schedule_context(scheduled_execution_time=dt.datetime(2026, 12, 2, 5, tzinfo=dt.UTC)))
    assert (request.partition_key, request.run_key) == ("US-FL", f"licences-{FL}-2026-12-02")
    assert licence_discovery_job.name == "licence_discovery_job"

    catalog["registries"][0]["refresh"] = "manual"
    assert [s.name for s in build_licence_schedules("UTC", parse_catalog(json.dumps(catalog)))] == [
        "licence_refresh_tx_hotel_occupancy_tax"]
    for wrong in ("monthly", "0 5 * *", "61 5 1 * *"):
        catalog["registries"][0]["refresh"] = wrong
        with pytest.raises(ValidationError, match="refresh"):
            parse_catalog(json.dumps(catalog))

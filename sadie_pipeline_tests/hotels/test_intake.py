"""The hotel side started without a person: the CSV inbox sensor, the weekly discovery schedule,
the DMO promotion sensor (against the real database and a local object store), and the
automation conditions that carry a discovered region on to its scores."""

from __future__ import annotations

import json

from dagster import (
    AssetMaterialization,
    DefaultScheduleStatus,
    DefaultSensorStatus,
    SkipReason,
    build_schedule_context,
    build_sensor_context,
    evaluate_automation_conditions,
)

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.definitions import defs
from sadie_pipeline.hotels.automation import AUTOMATED_ASSETS
from sadie_pipeline.hotels.discovery import dmo_lodging
from sadie_pipeline.hotels.enrichment.proximity import attractions
from sadie_pipeline.hotels.intake import dmo_promotion_sensor, hotel_inbox_sensor
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.settings import SAMPLE_DIR
from sadie_pipeline_tests.hotels.leads_data import add_hotel
from sadie_pipeline_tests.hotels.test_schedules_sensors import SIX_AM
from sadie_pipeline_tests.listings.helpers import import_file, metadata, register, sample

CSV = SAMPLE_DIR / "hotels-us-fl.csv"


def _inbox_tick(instance, database, store, cursor=None):
    context = build_sensor_context(instance=instance, cursor=cursor,
                                   resources={"database": database, "object_store": store})
    return hotel_inbox_sensor(context)


def test_each_new_hotel_list_starts_one_discovery_run_of_its_region(database, local_object_store, instance):
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Key West"])
    local_object_store.put_file("inbox/hotels/US-FL/keys.csv", CSV)
    local_object_store.put_file("inbox/hotels/US-FL/more.csv", CSV)
    local_object_store.put_file("inbox/hotels/NOT-A-REGION/x.csv", CSV)

    first = _inbox_tick(instance, database, local_object_store)
    [request] = first.run_requests          # two new files of one region: one run reads both
    assert request.partition_key == "US-FL" and request.job_name in (None, "hotel_discovery_job")
    assert json.loads(first.cursor) == {"US-FL": ["inbox/hotels/US-FL/keys.csv", "inbox/hotels/US-FL/more.csv"]}

    again = _inbox_tick(instance, database, local_object_store, first.cursor)
    assert again.run_requests == [] and again.skip_reason

    local_object_store.put_file("inbox/hotels/US-FL/later.csv", CSV)
    [later] = _inbox_tick(instance, database, local_object_store, again.cursor).run_requests
    assert later.partition_key == "US-FL" and later.run_key != request.run_key


def test_a_list_for_a_region_without_markets_waits_for_them(database, local_object_store, instance):
    local_object_store.put_file("inbox/hotels/US-GA/savannah.csv", CSV)
    waiting = _inbox_tick(instance, database, local_object_store)
    assert waiting.run_requests == [] and "US-GA" in waiting.skip_reason.skip_message
    with database.connect() as conn:
        add_market(conn, "US-GA", ["Savannah"])
    [request] = _inbox_tick(instance, database, local_object_store, waiting.cursor).run_requests
    assert request.partition_key == "US-GA"


def test_weekly_discovery_requests_one_run_per_market_region(database):
    schedule = defs.get_schedule_def("weekly_discovery_schedule")
    assert schedule.cron_schedule == "0 4 * * 1"
    assert schedule.default_status == DefaultScheduleStatus.STOPPED   # it spends Serper queries: opt in
    context = build_schedule_context(resources={"database": database}, scheduled_execution_time=SIX_AM)
    assert isinstance(schedule(context), SkipReason)
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Miami", "Key West"])
        add_market(conn, "CA-PE", ["Charlottetown"])
    requests = schedule(build_schedule_context(resources={"database": database}, scheduled_execution_time=SIX_AM))
    assert [(r.partition_key, r.run_key) for r in requests] == [
        ("CA-PE", "discover-2026-W48-CA-PE"), ("US-FL", "discover-2026-W48-US-FL")]


def _promotion_tick(instance, database, cursor):
    return dmo_promotion_sensor(build_sensor_context(instance=instance, cursor=cursor,
                                                     resources={"database": database}))


def test_promoted_lodging_and_attractions_start_discovery_and_proximity(database, local_object_store, instance,
                                                                         tmp_path):
    register(database, instance, "visit-pei")
    with database.connect() as conn:
        add_market(conn, "CA-PE", ["Charlottetown"])
    start = _promotion_tick(instance, database, None)       # the first tick only takes its bearings
    assert start.run_requests == [] and start.cursor

    result, summary = import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    assert result.success and summary["stage"] == "promoted"
    tick = _promotion_tick(instance, database, start.cursor)
    # no hotel of CA-PE waits for its proximity layer yet: the attractions start nothing
    assert [(r.job_name, r.partition_key) for r in tick.run_requests] == [("hotel_discovery_job", "CA-PE")]
    assert _promotion_tick(instance, database, tick.cursor).run_requests == []

    with database.connect() as conn:
        add_hotel(conn, "Harbour Inn", region="CA-PE", city="Charlottetown", status=HotelStatus.DETECTED)
    # the next file of the DMO: the same listings and a new museum in Charlottetown
    revised = tmp_path / "visit-pei.csv"
    revised.write_text(sample("visit-pei.csv").read_text(encoding="utf-8-sig").rstrip("\n") + "\n"
                       "Island Maritime Museum,Museum,1 Wharf Rd,Charlottetown,PE,C1A 1A1,46.2300,-63.1300,"
                       ",,,,,Ships of the island.,,,,\n", encoding="utf-8")
    import_file(database, local_object_store, instance, "visit-pei", revised)
    after = _promotion_tick(instance, database, tick.cursor)
    jobs = {(r.job_name, r.partition_key) for r in after.run_requests}
    assert ("attraction_proximity_job", "CA-PE") in jobs, after
    [proximity] = [r for r in after.run_requests if r.job_name == "attraction_proximity_job"]
    assert proximity.run_config["ops"]["attraction_proximity"]["config"] == {"force_refresh": True}


def test_sensors_start_running():
    for name in ("hotel_inbox_sensor", "dmo_promotion_sensor", "hotel_automation_sensor"):
        assert defs.get_sensor_def(name).default_status == DefaultSensorStatus.RUNNING, name


def _materialized(instance, names, partition="US-FL"):
    for name in names:
        instance.report_runless_asset_event(AssetMaterialization(asset_key=name, partition=partition))


def _requested(result) -> dict[str, set]:
    graph = defs.resolve_asset_graph()
    return {k.to_user_string(): result.get_requested_partitions(k) for k in graph.get_all_asset_keys()
            if result.get_num_requested(k)}


def test_discovery_of_a_region_carries_it_to_scores_and_no_further(instance):
    first = evaluate_automation_conditions(defs, instance)
    assert first.total_requested == 0      # existing regions are not "newly missing": nothing runs at start

    _materialized(instance, ["hotel_discovery"])
    tick = evaluate_automation_conditions(defs, instance, cursor=first.cursor)
    requested = _requested(tick)
    assert set(requested) == set(AUTOMATED_ASSETS)   # not the launch, the export nor discovery itself
    assert all(parts == {"US-FL"} for parts in requested.values())

    _materialized(instance, AUTOMATED_ASSETS)       # the run the sensor launched
    settled = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
    assert settled.total_requested == 0

    _materialized(instance, ["attraction_proximity"])   # the promotion sensor's proximity run
    follow = evaluate_automation_conditions(defs, instance, cursor=settled.cursor)
    assert _requested(follow) == {"golden_hotels": {"US-FL"}, "lead_scores": {"US-FL"}}


def test_discovery_reads_dmo_lodging_by_its_mapped_category(database, local_object_store, instance, tmp_path):
    """The DMO's own value ("Auberge") mapped by its category_map is lodging; a restaurant named
    "... Inn ..." is not, and a value nothing maps is counted on the stage, not guessed."""
    config = {"transform": {"map_fields": {"listings.name": "Name", "listings.category": "Kind",
                                           "locations.address1": "Address", "locations.city": "City",
                                           "locations.state": "Prov", "locations.lat": "Lat",
                                           "locations.lng": "Lng"},
                            "category_map": {"Auberge": "lodging.inn"}},
              "validate": {"required_fields": ["listings.name", "locations.city"]}}
    register(database, instance, "terroir", config)
    rows = [("Auberge du Vieux-Port", "Auberge", "12 Queen St"), ("Inn Kitchen", "Restaurant", "3 Kent St"),
            ("Harbour Hotel", "Hotel", "8 Water St"), ("Sugar Shack", "Cabane a sucre", "1 Mill Rd"),
            ("Old Mill Museum", "Heritage Museum", "2 Mill Rd"), ("Harbour Kayak", "Kayak Tours", "9 Water St")]
    csv_path = tmp_path / "terroir.csv"
    csv_path.write_text("Name,Kind,Address,City,Prov,Lat,Lng\n" + "".join(
        f"{name},{kind},{address},Charlottetown,PE,46.23{k},-63.13{k}\n" for k, (name, kind, address) in enumerate(rows)),
        encoding="utf-8")
    result, _ = import_file(database, local_object_store, instance, "terroir", csv_path)
    stage = metadata(result, "listing_stage")
    assert stage["categories"] == {"lodging": 2, "restaurant": 1, "attraction": 1, "activity": 1}
    assert stage["categories_unmapped"] == 1
    assert stage["unmapped_category_values"] == {"cabane a sucre": 1}

    with database.connect() as conn:
        found = sorted(record["name"] for _, record, _ in dmo_lodging(conn, "CA-PE", ["Charlottetown"]))
    assert found == ["Auberge du Vieux-Port", "Harbour Hotel"]
    # proximity's points of interest: attractions and activities, nothing else
    with database.connect() as conn:
        assert sorted(a.name for a in attractions(conn)) == ["Harbour Kayak", "Old Mill Museum"]

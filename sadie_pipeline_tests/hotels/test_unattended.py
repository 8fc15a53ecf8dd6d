"""End to end without a person, on the sandbox world: a CSV hotel list lands in the inbox, the
inbox sensor's tick starts discovery, and the automation ticks (evaluated in-process, each
requested run executed in-process as the daemon would launch it) carry the region's hotels to
status 4 (SCORED)."""

from __future__ import annotations

from collections import defaultdict

import pytest
from dagster import AssetSelection, build_sensor_context, evaluate_automation_conditions, materialize

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.definitions import defs
from sadie_pipeline.hotels import definitions as hotel_definitions
from sadie_pipeline.hotels.intake import hotel_inbox_sensor
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.resource_defs import configured
from sadie_pipeline.settings import SAMPLE_DIR
from sadie_pipeline_tests.hotels.conftest import sandbox_resources

pytestmark = pytest.mark.slow  # passes without Chromium too: JavaScript-only sites become dead ends
MAX_TICKS = 5


def _run_automation(instance, resources, cursor) -> int:
    """Automation ticks until one requests nothing; each tick's requests run as one run per region
    (what the automation sensor launches). Returns the number of runs. `cursor` is that of a tick
    before discovery: the sensor is running all along, and a first evaluation only takes stock."""
    runs = 0
    for _ in range(MAX_TICKS):
        tick = evaluate_automation_conditions(defs, instance, cursor=cursor)
        cursor = tick.cursor
        if not tick.total_requested:
            return runs
        by_region: dict[str, list] = defaultdict(list)
        for key in defs.resolve_asset_graph().get_all_asset_keys():
            for region in tick.get_requested_partitions(key):
                by_region[region].append(key)
        for region, keys in sorted(by_region.items()):
            assert materialize(hotel_definitions.defs.assets, selection=AssetSelection.assets(*keys),
                               partition_key=region, instance=instance, resources=resources).success
            runs += 1
    raise AssertionError(f"automation still requesting after {MAX_TICKS} ticks")


def test_a_csv_in_the_inbox_reaches_scores_with_no_manual_step(database, local_object_store, instance, sb,
                                                                 monkeypatch):
    for name, value in sb.client_env().items():
        monkeypatch.setenv(name, value)
    sb.configure("sites", hang_s=2.0)
    resources = {**sandbox_resources(database, local_object_store, sb), "onedrive": configured("onedrive"),
                 "slack": configured("slack")}
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Key West"])
    local_object_store.put_file("inbox/hotels/US-FL/hotels.csv", SAMPLE_DIR / "hotels-us-fl.csv")

    before = evaluate_automation_conditions(defs, instance)
    assert before.total_requested == 0
    tick = hotel_inbox_sensor(build_sensor_context(instance=instance, resources={
        "database": database, "object_store": local_object_store}))
    [request] = tick.run_requests
    discovery = defs.resolve_job_def("hotel_discovery_job").execute_in_process(
        instance=instance, partition_key=request.partition_key, tags=request.tags, resources=resources)
    assert discovery.success
    # one tick requests the whole chain for the region (each step 'will be requested' upstream)
    assert _run_automation(instance, resources, before.cursor) == 1

    with database.connect() as conn:
        statuses = dict(conn.execute(
            """SELECT h.name, h.status FROM sadie_gtm.hotels h WHERE h.region = 'US-FL'""").fetchall())
        from_csv = [r[0] for r in conn.execute(
            """SELECT DISTINCT h.name FROM sadie_gtm.hotels h JOIN sadie_gtm.hotel_sources s ON s.hotel_id = h.id
                WHERE s.source = 'csv' AND h.status <> %s""", (HotelStatus.DUPLICATE,))]
    assert from_csv, "the CSV's Key West hotels were discovered"
    # every hotel with a booking engine is scored; the rest are dead ends or wait for engine review
    waiting = {n: s for n, s in statuses.items()
               if s in (HotelStatus.SCRAPED, HotelStatus.DETECTED, HotelStatus.ENRICHED)}
    assert not waiting, waiting
    assert HotelStatus.SCORED in statuses.values()
    assert any(statuses[n] == HotelStatus.SCORED for n in from_csv), {n: statuses[n] for n in from_csv}

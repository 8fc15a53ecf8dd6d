"""A release that changes the entity resolver reaches every region without a person: the region's
stored resolver version differs from the running one, resolver_release_sensor requests
hotel_entities for it, the run re-resolves all its records (no discovery needed) and stores the
running version; the hotels whose entity did not change are left as they were, so the later layers,
which pick their work per hotel, find nothing to redo for them."""

from __future__ import annotations

import pytest
from dagster import DefaultSensorStatus, SkipReason, build_sensor_context

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.definitions import defs
from sadie_pipeline.hotels.enrichment.common import LAYER_ASSETS, LayerConfig, hotels_needing
from sadie_pipeline.hotels.entities import RESOLVER_VERSION
from sadie_pipeline.hotels.resolver_release import resolver_release_sensor
from sadie_pipeline.hotels.websites import hotels_to_fetch
from sadie_pipeline_tests.hotels.leads_data import add_hotel

pytestmark = pytest.mark.slow  # a Dagster run against PostgreSQL

HARBOR = {"name": "Sunset Harbor Hotel", "address": "12 Duval St", "phone": "+13055550100",
          "website": "https://www.sunsetharborhotel.com/"}


def _hotels(conn) -> dict[int, tuple]:
    return {r[0]: r[1:] for r in conn.execute(
        "SELECT id, status, updated_at FROM sadie_gtm.hotels WHERE region = 'US-FL' ORDER BY id")}


def _resolved_with(conn, region: str, version: str) -> None:
    conn.execute("INSERT INTO sadie_gtm.hotel_region_resolutions (region, resolver_version) VALUES (%s, %s)",
                 (region, version))


def _tick(instance, database):
    return resolver_release_sensor(build_sensor_context(instance=instance, resources={"database": database}))


def test_a_new_resolver_re_resolves_each_region_of_another_version_and_leaves_unchanged_hotels_alone(
        database, instance):
    with database.connect() as conn:
        alone = [add_hotel(conn, "Coral Reef Inn", status=HotelStatus.SCORED),
                 add_hotel(conn, "Palm Shore Motel", status=HotelStatus.ENRICHED)]
        # One hotel that an older resolver left as two (a Serper record and a CSV row)
        kept = add_hotel(conn, "Sunset Harbor Hotel", status=HotelStatus.SCORED, sources={"serper": HARBOR})
        twin = add_hotel(conn, "Sunset Harbor Hotel", status=HotelStatus.SCORED, sources={"csv": HARBOR})
        add_hotel(conn, "Savannah House", region="US-GA", city="Savannah", status=HotelStatus.SCORED)
        _resolved_with(conn, "US-FL", "an older resolver")
        _resolved_with(conn, "US-GA", RESOLVER_VERSION)
        before = _hotels(conn)

    [request] = _tick(instance, database)
    assert (request.partition_key, request.run_key) == ("US-FL", f"resolver-{RESOLVER_VERSION}-US-FL")
    run = defs.resolve_job_def("hotel_entities_job").execute_in_process(
        instance=instance, partition_key=request.partition_key, tags=request.tags, resources={"database": database})
    assert run.success

    with database.connect() as conn:
        after = _hotels(conn)
        sources = {r[0] for r in conn.execute(
            "SELECT hotel_id FROM sadie_gtm.hotel_sources WHERE record ->> 'name' = 'Sunset Harbor Hotel'")}
        assert conn.execute("SELECT resolver_version FROM sadie_gtm.hotel_region_resolutions WHERE region = 'US-FL'"
                            ).fetchone()[0] == RESOLVER_VERSION
        # the later layers: nothing to fetch, detect or enrich again for the hotels left alone
        assert hotels_to_fetch(conn, "US-FL", ["Miami"], refresh=False) == []
        for bit in LAYER_ASSETS:
            assert hotels_needing(conn, "US-FL", bit, LayerConfig()) == [], LAYER_ASSETS[bit]
    assert sources == {kept}  # the two records are one hotel now: the older one
    assert after[twin][0] == HotelStatus.DUPLICATE  # out of the later layers' selections
    for hotel_id in (*alone, kept):  # rows untouched: no layer is asked to redo them
        assert after[hotel_id] == before[hotel_id]
    assert isinstance(_tick(instance, database), SkipReason)  # every region on the running resolver now


def test_hotel_entities_carries_the_resolver_version_and_the_sensor_runs_unattended():
    [spec] = defs.resolve_assets_def("hotel_entities").specs
    assert spec.code_version == RESOLVER_VERSION
    assert defs.get_sensor_def("resolver_release_sensor").default_status == DefaultSensorStatus.RUNNING

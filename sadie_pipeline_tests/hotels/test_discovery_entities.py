"""Discovery and entity resolution of a region, against the sandbox's Serper and bundled data."""

from __future__ import annotations

import json

import pytest
from dagster import materialize

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.assets import hotel_discovery, hotel_entities
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.resources.serper import SerperResource
from sadie_pipeline.settings import PROJECT_ROOT
from sadie_pipeline_tests.fixtures.sandbox import KEY

pytestmark = pytest.mark.slow
DEMO = json.loads((PROJECT_ROOT / "sadie_pipeline/sandbox/fixtures/demo_region.json").read_text())


def _run(database, store, serper, instance, cities=None):
    config = {"ops": {"hotel_discovery": {"config": {"cities": cities or []}}}}
    return materialize([hotel_discovery, hotel_entities], partition_key="US-FL", instance=instance, run_config=config,
                       resources={"database": database, "object_store": store, "serper": serper})


def test_discovery_and_entities_for_a_region(database, local_object_store, instance, sb):
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Miami", "Miami Beach", "Orlando", "Key West"])
    local_object_store.put_bytes("inbox/hotels/US-FL/list.csv", (
        b"name,address,city,state,zip,phone,website\n"
        b"The Biscayne Bay Inn,1200 Brickell Bay Drive,Miami,FL,33131,305.555.0101,biscaynebayinn.test\n"
        b"Harbor Light Motel,77 Causeway Blvd,Miami,FL,33132,(305) 555-0199,\n"))
    serper = SerperResource(api_key=KEY, base_url=sb.base_url("serper"), requests_per_minute=6000)

    result = _run(database, local_object_store, serper, instance)
    assert result.success
    [disc] = result.asset_materializations_for_node("hotel_discovery")
    assert disc.metadata["by_source"].value["csv"] == 2
    assert disc.metadata["skipped_not_lodging"].value >= 1          # rental agencies are not hotels
    keys = local_object_store.list_keys("api-responses/serper/")
    assert keys and all(KEY not in local_object_store.get_bytes(k).decode() for k in keys)

    lodging = len(DEMO["hotels"])
    with database.connect() as conn:
        hotels = conn.execute("SELECT count(*) FROM sadie_gtm.hotels WHERE status = %s",
                              (HotelStatus.SCRAPED,)).fetchone()[0]
        inn = conn.execute(
            """SELECT array_agg(s.source ORDER BY s.source) FROM sadie_gtm.hotel_sources s
                JOIN sadie_gtm.hotels h ON h.id = s.hotel_id WHERE h.name = 'Biscayne Bay Inn'""").fetchone()[0]
    assert hotels == lodging + 1                 # every sandbox hotel once, plus the CSV-only motel
    assert inn == ["csv", "serper"]              # the CSV copy merged into the Serper hotel

    again = _run(database, local_object_store, serper, instance)   # a re-run adds nothing
    [ent] = again.asset_materializations_for_node("hotel_entities")
    assert ent.metadata["hotels_created"].value == 0
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM sadie_gtm.hotels").fetchone()[0] == lodging + 1


def test_run_config_narrows_to_some_cities(database, local_object_store, instance, sb):
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Miami", "Orlando"])
    serper = SerperResource(api_key=KEY, base_url=sb.base_url("serper"), requests_per_minute=6000)
    _run(database, local_object_store, serper, instance, cities=["Orlando"])
    with database.connect() as conn:
        cities = {r[0] for r in conn.execute("SELECT DISTINCT record ->> 'query_city' FROM sadie_gtm.hotel_sources")}
    assert cities == {"Orlando"}


def test_without_a_key_serper_is_skipped_with_a_reason(database, local_object_store, instance, monkeypatch):
    monkeypatch.delenv("SERPER_API_KEY", raising=False)
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Miami"])
    result = _run(database, local_object_store, SerperResource(), instance)
    [disc] = result.asset_materializations_for_node("hotel_discovery")
    assert "no API key" in disc.metadata["serper"].value

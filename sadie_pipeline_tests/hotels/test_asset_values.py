"""The hotel-lead assets' values through the IO managers, on the real database and object store:
the scores and the launched hotels as tables replaced per region (sadie_leads.*), the launch's
value as what lead_exports exports, the exports' manifest as JSON, an enrichment layer's outcomes."""

import json

import psycopg
from dagster import materialize

from sadie_pipeline.core.enrichment.layers import LAYER_PROXIMITY
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.core.scoring import COMPONENTS
from sadie_pipeline.hotels.enrichment.proximity import attraction_proximity
from sadie_pipeline.hotels.lead_assets import golden_hotels, launched_leads, lead_exports, lead_scores
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.partitions import range_tags
from sadie_pipeline.resource_defs import configured
from sadie_pipeline_tests.hotels.leads_data import add_hotel

LAUNCH_ALL = {"ops": {"launched_leads": {"config": {"min_score": 0}}}}


def _resources(database, store):
    return {"database": database, "object_store": store, "onedrive": configured("onedrive"),
            "slack": configured("slack"), **io_manager_resources(database, store)}


def _rows(database, sql, params=()):
    with psycopg.connect(database.url) as conn:
        return conn.execute(sql, params).fetchall()


def test_scores_and_launches_are_stored_per_region_and_replaced_per_region(database, local_object_store, instance):
    with database.connect() as conn:
        florida = [add_hotel(conn, name) for name in ("Seabreeze Inn", "Palm Court")]
        georgia = add_hotel(conn, "Peach Inn", region="US-GA", city="Savannah")
    assets = [golden_hotels, lead_scores, launched_leads]
    assert materialize(assets, instance=instance, resources=_resources(database, local_object_store),
                       tags=range_tags("US-FL", "US-GA"), run_config=LAUNCH_ALL).success
    stored = _rows(database, f"""SELECT s.hotel_id, s.region, s.score, {' + '.join(f's.{c}' for c in COMPONENTS)},
                                        h.score, h.score_details
                                   FROM sadie_leads.lead_scores s JOIN sadie_gtm.hotels h ON h.id = s.hotel_id
                                  ORDER BY s.hotel_id""")
    assert [(r[0], r[1]) for r in stored] == [(florida[0], "US-FL"), (florida[1], "US-FL"), (georgia, "US-GA")]
    for _, _, score, points, hotel_score, details in stored:
        assert score == hotel_score and abs(points - sum(details[c]["points"] for c in COMPONENTS)) < 1e-9
    assert _rows(database, "SELECT hotel_id, region FROM sadie_leads.launched_leads ORDER BY hotel_id") == [
        (florida[0], "US-FL"), (florida[1], "US-FL"), (georgia, "US-GA")]

    with database.connect() as conn:   # Florida again, with a new hotel: Georgia's rows stay as they were
        newcomer = add_hotel(conn, "Coral Suites")
    georgia_before = _rows(database, "SELECT * FROM sadie_leads.lead_scores WHERE region = 'US-GA'")
    result = materialize([golden_hotels, lead_scores], partition_key="US-FL", instance=instance,
                         resources=_resources(database, local_object_store))
    assert _rows(database, "SELECT hotel_id FROM sadie_leads.lead_scores WHERE region = 'US-FL' ORDER BY 1") == [
        (florida[0],), (florida[1],), (newcomer,)]
    assert _rows(database, "SELECT * FROM sadie_leads.lead_scores WHERE region = 'US-GA'") == georgia_before
    meta = result.asset_materializations_for_node("lead_scores")[0].metadata
    assert meta["dagster/row_count"].value == 3 and meta["dagster/table_name"].value.endswith("sadie_leads.lead_scores")
    assert meta["run_hotels_scored"].value == 1 and "run_preview" in meta   # the asset's own metadata stays


def test_exports_export_the_launchs_value_and_store_a_manifest(database, local_object_store, instance, monkeypatch):
    for name in ("SADIE_GRAPH_TENANT_ID", "SADIE_SLACK_BOT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    with database.connect() as conn:
        launched = [add_hotel(conn, name) for name in ("Seabreeze Inn", "Palm Court")]
    resources = _resources(database, local_object_store)
    assert materialize([golden_hotels, lead_scores, launched_leads], partition_key="US-FL", instance=instance,
                       resources=resources, run_config=LAUNCH_ALL).success
    with database.connect() as conn:   # live, but not in the launch's value: not exported until a launch has it
        stray = add_hotel(conn, "Backdoor Motel", status=HotelStatus.LIVE)
    result = materialize([launched_leads, lead_exports], selection=[lead_exports], partition_key="US-FL",
                         instance=instance, resources=resources)
    assert result.success
    manifest = json.loads(local_object_store.get_bytes("assets/lead_exports/US-FL.json"))
    assert manifest["region"] == "US-FL" and manifest["hotels_exported"] == 2
    assert sorted((f["scope"], f["city"], f["hotels"]) for f in manifest["written"]) == [
        ("city", "Miami", 2), ("state", "", 2)]
    meta = result.asset_materializations_for_node("lead_exports")[0].metadata
    assert meta["files_written"].value == 2 and meta["path"].value.endswith("assets/lead_exports/US-FL.json")
    statuses = dict(_rows(database, "SELECT id, status FROM sadie_gtm.hotels"))
    assert statuses == {launched[0]: HotelStatus.EXPORTED, launched[1]: HotelStatus.EXPORTED, stray: HotelStatus.LIVE}


def test_an_enrichment_layer_keeps_each_hotels_latest_outcome(database, local_object_store, instance):
    with database.connect() as conn:
        hotel = add_hotel(conn, "Seabreeze Inn", status=HotelStatus.DETECTED)
        conn.execute("UPDATE sadie_gtm.hotel_owner_enrichment SET layers_completed = layers_completed & ~%s",
                     (LAYER_PROXIMITY,))
    resources = _resources(database, local_object_store)
    first = materialize([attraction_proximity], partition_key="US-FL", instance=instance, resources=resources)
    stored = _rows(database, "SELECT hotel_id, region, layer, outcome, value FROM sadie_leads.attraction_proximity")
    assert stored == [(hotel, "US-FL", "attraction_proximity", "ok", {})]
    # run again: nothing left to measure; the partition keeps its outcomes and says it had nothing to do
    second = materialize([attraction_proximity], partition_key="US-FL", instance=instance, resources=resources)
    assert _rows(database, "SELECT hotel_id, region, layer, outcome, value FROM sadie_leads.attraction_proximity") \
        == stored
    before, after = (r.asset_materializations_for_node("attraction_proximity")[0].metadata for r in (first, second))
    assert (before["dagster/row_count"].value, after["dagster/row_count"].value) == (1, 1)
    assert (before["nothing_to_do"].value, after["nothing_to_do"].value) == (False, True)
    assert (before["hotels"].value, after["hotels"].value) == (1, 0)   # what each run took up

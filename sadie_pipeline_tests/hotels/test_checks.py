"""The hotel-lead asset checks on real runs: each passes on a good run and fails, naming the bad
rows, once bad data is written; a failed blocking check stops the downstream assets of its run.
And the metadata the assets report: typed preview tables, row counts, the score histogram."""

import io

from dagster import (
    AssetSelection,
    Definitions,
    IntMetadataValue,
    TableMetadataValue,
    define_asset_job,
    materialize,
)
from openpyxl import load_workbook

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.checks import HotelCheck, hotel_checks
from sadie_pipeline.hotels.lead_assets import golden_hotels, launched_leads, lead_exports, lead_scores
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.partitions import range_tags, region_partitions
from sadie_pipeline.resources.onedrive import OneDriveResource
from sadie_pipeline.resources.slack import SlackResource
from sadie_pipeline_tests.hotels.leads_data import add_hotel

LEADS = [golden_hotels, lead_scores, launched_leads, lead_exports]
LAUNCH_ALL = {"ops": {"launched_leads": {"config": {"min_score": 0}}}}
PEOPLE = [{"full_name": "Maria Lopez", "title": "General Manager", "email": "maria@example.com",
           "email_status": "valid_domain"}]


def _resources(database, store):
    return {"database": database, "object_store": store, "onedrive": OneDriveResource(), "slack": SlackResource(),
            **io_manager_resources(database, store)}


def _run(database, store, instance, assets=LEADS):
    return materialize([*assets, *hotel_checks], partition_key="US-FL", instance=instance,
                       resources=_resources(database, store),
                       run_config=LAUNCH_ALL if launched_leads in assets else None, raise_on_error=False)


def _checks_only(database, store, instance, asset):
    """The asset's checks alone, over the data as it is (no asset run repairs it first)."""
    job = define_asset_job("checks_only", selection=AssetSelection.checks_for_assets(asset),
                           partitions_def=region_partitions)
    defs = Definitions(assets=LEADS, asset_checks=hotel_checks, jobs=[job], resources=_resources(database, store))
    # the partition as a run tag, as the UI's "execute check" for a partition launches it
    # (execute_in_process(partition_key=...) wants a partitioned asset in the selection)
    return defs.get_job_def("checks_only").execute_in_process(tags={"dagster/partition": "US-FL"}, instance=instance,
                                                               raise_on_error=False)


def _materialized(result):
    return {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}


def _evaluations(result):
    return {e.check_name: e for e in result.get_asset_check_evaluations()}


def _hotels(database):
    with database.connect() as conn:
        return [add_hotel(conn, name, people=PEOPLE) for name in ("Seabreeze Inn", "Palm Court")] + [
            add_hotel(conn, "Lakeside Lodge", city="Orlando")]


def test_a_good_run_passes_every_check_and_reports_typed_metadata(database, local_object_store, instance):
    _hotels(database)
    result = _run(database, local_object_store, instance)
    assert result.success
    evaluations = _evaluations(result)
    assert set(evaluations) == {c.value for c in HotelCheck}
    assert all(e.passed for e in evaluations.values()), {k: e.description for k, e in evaluations.items()}
    assert evaluations[HotelCheck.EXPORT_FILES_MATCH_DATABASE].metadata["checked"].value == 3   # 2 cities, 1 state
    assert evaluations[HotelCheck.EXPORT_FILES_MATCH_DATABASE].partition == "US-FL"

    meta = {node: result.asset_materializations_for_node(node)[0].metadata
            for node in ("golden_hotels", "lead_scores", "launched_leads", "lead_exports")}
    for node, rows in (("golden_hotels", 3), ("lead_scores", 3), ("launched_leads", 3)):
        assert meta[node]["dagster/row_count"] == IntMetadataValue(rows)
    preview = meta["golden_hotels"]["preview"]
    assert isinstance(preview, TableMetadataValue) and len(preview.records) == 3
    assert [c.name for c in preview.schema.columns][:3] == ["hotel", "name", "city"]
    assert preview.schema.columns[0].type == "int"
    assert isinstance(meta["launched_leads"]["launched_hotels"], TableMetadataValue)
    assert isinstance(meta["lead_scores"]["run_preview"], TableMetadataValue)
    files = meta["lead_exports"]["files"]
    assert isinstance(files, TableMetadataValue) and {r.data["hotels"] for r in files.records} == {2, 1, 3}
    bands = {k: v for k, v in meta["lead_scores"].items() if k.startswith("score_")}
    assert len(bands) == 10 and "score_0_9" in bands and "score_90_100" in bands
    assert all(isinstance(v, IntMetadataValue) for v in bands.values())
    assert sum(v.value for v in bands.values()) == 3


def test_a_stray_golden_row_fails_its_check_and_stops_the_scores(database, local_object_store, instance):
    _hotels(database)
    with database.connect() as conn:
        dead_end = add_hotel(conn, "No Engine Motel", status=HotelStatus.NO_BOOKING_ENGINE)
        conn.execute("""INSERT INTO sadie_gtm.golden_hotels (hotel_id, region, name, record_hash)
                        VALUES (%s, 'US-FL', 'No Engine Motel', 'x')""", (dead_end,))
    result = _run(database, local_object_store, instance)
    assert not result.success
    check = _evaluations(result)[HotelCheck.ONE_GOLDEN_ROW_PER_HOTEL]
    assert not check.passed
    assert check.description.startswith("1 of 4 golden rows fail")
    assert f"{dead_end} (US-FL Miami)" in check.description and "not in the region's pipeline" in check.description
    assert _materialized(result) == {"golden_hotels"}        # the scores are blocked

    with database.connect() as conn:
        conn.execute("DELETE FROM sadie_gtm.golden_hotels WHERE hotel_id = %s", (dead_end,))
        missing = conn.execute("SELECT min(hotel_id) FROM sadie_gtm.golden_hotels").fetchone()[0]
        conn.execute("DELETE FROM sadie_gtm.golden_hotels WHERE hotel_id = %s", (missing,))
    again = _evaluations(_checks_only(database, local_object_store, instance, golden_hotels))
    assert "no golden row" in again[HotelCheck.ONE_GOLDEN_ROW_PER_HOTEL].description


def test_a_score_that_is_not_its_components_fails_and_stops_the_launch(database, local_object_store, instance):
    _hotels(database)
    assert _run(database, local_object_store, instance, [golden_hotels, lead_scores]).success
    with database.connect() as conn:
        # a live hotel keeps its score through re-scoring: the bad score survives the next run
        bad = add_hotel(conn, "Tampered Inn", status=HotelStatus.LIVE)
        conn.execute("""UPDATE sadie_gtm.hotels h SET score = 97, score_details = s.score_details
                          FROM sadie_gtm.hotels s WHERE h.id = %s AND s.id = (SELECT min(id) FROM sadie_gtm.hotels)""",
                     (bad,))
    result = _run(database, local_object_store, instance)
    assert not result.success
    check = _evaluations(result)[HotelCheck.SCORES_ARE_THEIR_COMPONENTS]
    assert not check.passed and check.metadata["problems"].value == 1
    assert f"{bad} (US-FL Miami)" in check.description and "details' total" in check.description
    assert _materialized(result) == {"golden_hotels", "lead_scores"}        # the launch is blocked

    with database.connect() as conn:   # the total agrees now; the components still do not
        conn.execute("""UPDATE sadie_gtm.hotels SET score_details = jsonb_set(score_details, '{total}', '97')
                         WHERE id = %s""", (bad,))
    again = _evaluations(_checks_only(database, local_object_store, instance, lead_scores))
    assert "not the sum of its components" in again[HotelCheck.SCORES_ARE_THEIR_COMPONENTS].description


def test_a_launched_hotel_that_no_longer_meets_the_criteria_fails(database, local_object_store, instance):
    seabreeze, *_ = _hotels(database)
    assert _run(database, local_object_store, instance, [golden_hotels, lead_scores, launched_leads]).success
    with database.connect() as conn:
        conn.execute("UPDATE sadie_gtm.golden_hotels SET website = NULL WHERE hotel_id = %s", (seabreeze,))
    result = _checks_only(database, local_object_store, instance, launched_leads)
    check = _evaluations(result)[HotelCheck.LAUNCHED_MEET_CRITERIA]
    assert not check.passed and not result.success
    assert check.description == f"1 of 3 launched hotels fail: {seabreeze} (US-FL Miami): missing website"
    assert check.metadata["criteria"].value["US-FL"]["min_score"] == 0     # the launch's own criteria


def test_an_export_file_that_differs_from_the_database_fails(database, local_object_store, instance):
    _hotels(database)
    assert _run(database, local_object_store, instance).success
    # the Miami file loses its last hotel row after it was recorded
    key = "exports/Florida/Miami.xlsx"
    book = load_workbook(io.BytesIO(local_object_store.get_bytes(key)))
    book["Leads"].delete_rows(book["Leads"].max_row)
    out = io.BytesIO()
    book.save(out)
    local_object_store.put_bytes(key, out.getvalue())
    with database.connect() as conn:   # and the state file's record says one hotel more than it holds
        conn.execute("UPDATE sadie_gtm.lead_exports SET hotels = hotels + 1 WHERE scope = 'state'")
    result = _checks_only(database, local_object_store, instance, lead_exports)
    check = _evaluations(result)[HotelCheck.EXPORT_FILES_MATCH_DATABASE]
    assert not check.passed and check.metadata["problems"].value == 2
    assert "exports/Florida/Miami.xlsx (US-FL Miami): file has 1 hotels and 2 decision makers, the database 2 and 2" \
        in check.description
    rows = {r.data["city"]: r.data["problem"] for r in check.metadata["problem_rows"].records}
    assert rows["(state)"] == "file has 3 hotels and 2 decision makers, the database 4 and 2"


def test_a_run_of_several_regions_checks_each_of_them(database, local_object_store, instance):
    with database.connect() as conn:
        add_hotel(conn, "Seabreeze Inn", people=PEOPLE)
        stray = add_hotel(conn, "Peach Motel", region="US-GA", city="Savannah", status=HotelStatus.DUPLICATE)
        conn.execute("""INSERT INTO sadie_gtm.golden_hotels (hotel_id, region, name, record_hash)
                        VALUES (%s, 'US-GA', 'Peach Motel', 'x')""", (stray,))
    result = materialize([golden_hotels, *hotel_checks], instance=instance, resources=_resources(database, local_object_store),
                         tags=range_tags("US-FL", "US-GA"), raise_on_error=False)
    check = _evaluations(result)[HotelCheck.ONE_GOLDEN_ROW_PER_HOTEL]
    assert not check.passed and check.metadata["checked"].value == 2
    assert check.description.startswith(f"1 of 2 golden rows fail: {stray} (US-GA Savannah)")

"""Figures you can trust: a listings run that had nothing to do says so (its metadata and `sadie
listings run`'s line, not an older job's figures); a promotion that changed no listing starts no
geocodes and images run (its data version stays); a failed image download is not counted as
downloaded, and what cannot work is not tried forever."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from dagster import AssetKey, AssetRecordsFilter, DagsterInstance, evaluate_automation_conditions, materialize

from sadie_pipeline.cli import main
from sadie_pipeline.definitions import defs
from sadie_pipeline.listings.assets import listing_promotion, listing_raw_files, listing_stage
from sadie_pipeline.listings.enrichment_assets import listing_geocodes, listing_images
from sadie_pipeline.listings.geocoder import GeocoderResource
from sadie_pipeline.listings.image_fetcher import ImageFetcher
from sadie_pipeline.partitions import dmo_partitions
from sadie_pipeline_tests.listings.helpers import (
    GRILL,
    INN,
    PUB,
    SIMPLE_CONFIG,
    import_file,
    metadata,
    promote,
    register,
    run_assets,
    write_csv,
)
from sadie_pipeline_tests.listings.test_geocodes import CONFIG as IMAGES_CONFIG
from sadie_pipeline_tests.listings.test_geocodes import write as write_images_csv

pytestmark = pytest.mark.slow  # runs through Dagster against PostgreSQL

SLUG = "dmo-a"
ENRICHMENT = ("listing_geocodes", "listing_images")
GONE = "http://127.0.0.1:9"  # nothing listens there: an image host or geocoder that is gone


def _stage_and_promote(database, store, instance, **kwargs):
    """What `sadie listings run` runs for a DMO: its stage and its promotion."""
    return run_assets(database, store, instance, SLUG, assets=[listing_stage, listing_promotion], **kwargs)


def _check(result) -> dict:
    [evaluation] = result.get_asset_check_evaluations()
    return {"passed": evaluation.passed, **{k: v.value for k, v in evaluation.metadata.items()}}


def test_a_stage_with_no_job_to_stage_reports_nothing_to_do(tmp_path, database, local_object_store, instance):
    register(database, instance, SLUG, SIMPLE_CONFIG)
    imported, _ = import_file(database, local_object_store, instance, SLUG, write_csv(tmp_path / "a.csv", [GRILL, INN]))
    assert metadata(imported, "listing_stage")["records_read"] == 2

    again = _stage_and_promote(database, local_object_store, instance)

    stage = metadata(again, "listing_stage")
    assert stage["nothing_to_do"] is True and stage["jobs_staged"] == []
    assert not {k for k in stage if k in ("job_id", "records_read", "errors") or k.startswith("action_")}, stage
    assert _check(again)["passed"] and _check(again)["records_read"] == 0
    promotion = metadata(again, "listing_promotion")
    assert promotion["nothing_to_do"] is True and promotion["jobs_promoted"] == [] and promotion["promoted_total"] == 0
    assert promotion["live_listings"] == 2


def test_a_job_promoted_with_its_errors_accepted_is_not_judged_again(tmp_path, database, local_object_store,
                                                                     instance):
    guarded = {**SIMPLE_CONFIG, "validate": {"max_error_rate": 0.1}}
    register(database, instance, SLUG, guarded)
    bad = [{"Name": "", "Address": "1 Main St", "City": "Souris"}] * 3  # 3 of 5 rejected: over 0.1
    blocked, _ = import_file(database, local_object_store, instance, SLUG,
                             write_csv(tmp_path / "bad.csv", [GRILL, INN, *bad]), raise_on_error=False)
    assert not blocked.success and not _check(blocked)["passed"]  # the check blocked the run's promotion
    materialize([listing_promotion], partition_key=SLUG, instance=instance,
                resources={"database": database, "object_store": local_object_store},
                run_config={"ops": {"listing_promotion": {"config": {"accept_errors": True, "accepted_by": "ana"}}}})

    again = _stage_and_promote(database, local_object_store, instance, raise_on_error=False)

    # the promoted job's error rate is no figure of this run: its check passes and its promotion runs
    assert again.success and _check(again)["passed"] and _check(again)["records_read"] == 0
    assert metadata(again, "listing_stage")["nothing_to_do"] is True
    # a job an earlier run staged that waits for promotion is what this run's promotion would take:
    # the check judges it (and says which), and blocks the promotion
    _, later = import_file(database, local_object_store, instance, SLUG, write_csv(tmp_path / "bad2.csv", [PUB, *bad]),
                           assets=[listing_raw_files, listing_stage], raise_on_error=False)
    waiting = _stage_and_promote(database, local_object_store, instance, raise_on_error=False)
    assert not waiting.success and not _check(waiting)["passed"] and _check(waiting)["records_read"] == 4
    stage = metadata(waiting, "listing_stage")
    assert stage["nothing_to_do"] and stage["checked_job_waiting_for_promotion"] == later["job_id"]
    assert not waiting.asset_materializations_for_node("listing_promotion")


def _cli(*args: str):
    return CliRunner().invoke(main, list(args))


def _last_stage_metadata() -> dict:
    instance = DagsterInstance.get()
    [record] = instance.fetch_materializations(
        AssetRecordsFilter(asset_key=AssetKey("listing_stage"), asset_partitions=[SLUG]), limit=1).records
    return {k: v.value for k, v in record.asset_materialization.metadata.items()}


def test_sadie_listings_run_with_nothing_to_stage_says_so(sadie_env, tmp_path, database):
    config = tmp_path / "config.json"
    config.write_text(json.dumps(SIMPLE_CONFIG))
    assert _cli("dmo", "add", SLUG, "--name", "A", "--config", str(config)).exit_code == 0
    imported = _cli("import", SLUG, str(write_csv(tmp_path / "a.csv", [GRILL, INN])))
    assert imported.exit_code == 0 and f"{SLUG}: job 1: 2 read; 2 inserted" in imported.output, imported.output

    nothing = _cli("listings", "run", "--dmo", SLUG, "--in-process")

    assert nothing.exit_code == 0, nothing.output
    assert f"{SLUG}: nothing to stage or promote; 2 listings live" in nothing.output, nothing.output
    assert "job 1" not in nothing.output and "read;" not in nothing.output and "inserted" not in nothing.output
    assert _last_stage_metadata()["nothing_to_do"] is True

    # a job staged by an earlier run and promoted by this one: that job's line
    staged = _cli("import", SLUG, str(write_csv(tmp_path / "b.csv", [GRILL, INN, PUB])), "--no-promote")
    assert staged.exit_code == 0, staged.output
    promoted = _cli("listings", "run", "--dmo", SLUG, "--in-process")
    assert promoted.exit_code == 0, promoted.output
    assert f"{SLUG}: job 2: 3 read; 1 inserted" in promoted.output and "3 listings now live" in promoted.output


def _requested(result) -> dict[str, set]:
    return {name: result.get_requested_partitions(AssetKey(name)) for name in ENRICHMENT
            if result.get_num_requested(AssetKey(name))}


def _enrich(database, store, instance) -> None:
    """The geocodes and images runs the sensor would start (geocoding off, no image URLs: no network)."""
    result = materialize([listing_geocodes, listing_images], partition_key=SLUG, instance=instance,
                         resources={"database": database, "object_store": store,
                                    "geocoder": GeocoderResource(provider="off"), "image_fetcher": ImageFetcher()})
    assert result.success


def test_only_a_promotion_that_changed_listings_starts_geocodes_and_images(tmp_path, database, local_object_store,
                                                                           instance):
    register(database, instance, SLUG, SIMPLE_CONFIG)
    tick = evaluate_automation_conditions(defs, instance)
    import_file(database, local_object_store, instance, SLUG, write_csv(tmp_path / "a.csv", [GRILL, INN]))
    tick = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
    assert _requested(tick) == {name: {SLUG} for name in ENRICHMENT}
    _enrich(database, local_object_store, instance)
    tick = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
    assert _requested(tick) == {}

    # stage and promotion with nothing to do (sadie listings run), a promotion of its own, the same
    # records delivered again: each materialises listing_promotion, none changes a listing
    assert metadata(_stage_and_promote(database, local_object_store, instance), "listing_promotion")["nothing_to_do"]
    promote(database, local_object_store, instance, SLUG)
    _, same = import_file(database, local_object_store, instance, SLUG, write_csv(tmp_path / "b.csv", [GRILL, INN]))
    assert same["unchanged"] == 2
    tick = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
    assert _requested(tick) == {}

    _, changed = import_file(database, local_object_store, instance, SLUG,
                             write_csv(tmp_path / "c.csv", [dict(GRILL, Description="Lobster too."), INN]))
    assert changed["updated"] == 1
    tick = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
    assert _requested(tick) == {name: {SLUG} for name in ENRICHMENT}


def test_no_dmo_partitioned_asset_runs_several_dmos_in_one_run():
    # Each run is one DMO (context.partition_key), so the metadata of a run is that DMO's alone.
    graph = defs.resolve_asset_graph()
    dmo_assets = [graph.get(k) for k in graph.get_all_asset_keys() if graph.get(k).partitions_def == dmo_partitions]
    assert {a.key.to_user_string() for a in dmo_assets} >= {"listing_raw_files", "listing_stage", *ENRICHMENT}
    assert all(a.backfill_policy is None or a.backfill_policy.max_partitions_per_run == 1 for a in dmo_assets)


def _images(database, store, instance, **config) -> tuple[dict, list[str]]:
    result = materialize([listing_images], partition_key=SLUG, instance=instance,
                         resources={"database": database, "object_store": store,
                                    "image_fetcher": ImageFetcher(backoff_base_s=0.01)},
                         run_config={"ops": {"listing_images": {"config": config}}} if config else None)
    assert result.success
    logs = [e.user_message for e in instance.all_logs(result.run_id) if e.user_message.startswith("images:")]
    return metadata(result, "listing_images"), logs


def test_a_failed_image_download_is_not_counted_as_downloaded(tmp_path, database, local_object_store, instance, sb):
    register(database, instance, SLUG, IMAGES_CONFIG)
    rows = [{"Name": "Harbour Grill", "Address": "12 Water St", "City": "Charlottetown",
             "Images": f"{GONE}/photo/1.jpg"},
            {"Name": "Blue Heron Inn", "Address": "4 Main St", "City": "Souris",
             "Images": f"{sb.base_url('images')}/photo/3.jpg"}]
    import_file(database, local_object_store, instance, SLUG, write_images_csv(tmp_path / "a.csv", rows))

    meta, logs = _images(database, local_object_store, instance, max_attempts=2)

    assert (meta["downloaded"], meta["download_failures"], meta["images_ok"], meta["errors"]) == (1, 1, 1, 1)
    assert logs == ["images: 2 of 2 listings done, 1 downloaded, 1 failed"]
    again, logs = _images(database, local_object_store, instance, max_attempts=2)
    assert (again["downloaded"], again["download_failures"], again["given_up"]) == (0, 1, 1)
    assert logs == ["images: 1 of 1 listings done, 0 downloaded, 1 failed"]
    spent, _ = _images(database, local_object_store, instance, max_attempts=2)
    assert (spent["listings"], spent["downloaded"], spent["download_failures"]) == (0, 0, 0)


def test_a_geocoder_that_is_gone_is_not_asked_forever(tmp_path, database, local_object_store, instance):
    register(database, instance, SLUG, IMAGES_CONFIG)
    rows = [{"Name": "Blue Heron Inn", "Address": "4 Main St", "City": "Souris", "Province": "PE"}]
    import_file(database, local_object_store, instance, SLUG, write_images_csv(tmp_path / "a.csv", rows))
    gone = GeocoderResource(provider="nominatim", base_url=GONE, max_attempts=1, backoff_base_s=0.01)

    def geocode() -> dict:
        result = materialize([listing_geocodes], partition_key=SLUG, instance=instance,
                             resources={"database": database, "geocoder": gone},
                             run_config={"ops": {"listing_geocodes": {"config": {"max_attempts": 2}}}})
        return metadata(result, "listing_geocodes")

    assert [(m["asked"], m["errors"], m["given_up"]) for m in (geocode(), geocode(), geocode())] == [
        (1, 1, 0), (1, 1, 0), (0, 0, 1)]

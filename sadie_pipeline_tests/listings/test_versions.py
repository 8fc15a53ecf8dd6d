"""Versioned reuse: a job records the code versions that made its raw lines and its staged data, and
an earlier job's work (thin rows, redelivered raw files) is reused only under the same versions.

The stage transforms in its own process here (one raw file: fewer than stage.PARALLEL_FROM_FILES),
so a monkeypatch of the transform reaches it; spawned workers would import the module afresh."""

from __future__ import annotations

import pytest

from sadie_pipeline.core import transform
from sadie_pipeline.listings import versions
from sadie_pipeline.listings.stage import PARALLEL_FROM_FILES
from sadie_pipeline_tests.listings.helpers import (
    GRILL,
    INN,
    PUB,
    SIMPLE_CONFIG,
    import_file,
    metadata,
    register,
    write_csv,
)

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL

SLUG = "dmo-a"
CONFIG = {**SIMPLE_CONFIG, "import": {"max_records_per_file": 1000}}  # one raw file: staged in-process
RECORDS = [GRILL, INN, PUB]
DESCRIPTIONS = {r["Description"] for r in RECORDS}


def _shout_descriptions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another normalisation, as a release could bring: descriptions come out upper-cased."""
    original = transform.clean_whitespace

    def upper_descriptions(value: str | None) -> str | None:
        cleaned = original(value)
        return cleaned.upper() if cleaned in DESCRIPTIONS else cleaned

    monkeypatch.setattr(transform, "clean_whitespace", upper_descriptions)


def _import(database, store, instance, path) -> tuple[int, dict, dict, dict]:
    """The job, its raw and stage metadata, and its summary."""
    result, summary = import_file(database, store, instance, SLUG, path)
    return summary["job_id"], metadata(result, "listing_raw_files"), metadata(result, "listing_stage"), summary


def _versions(database, job_id: int) -> tuple[str, str]:
    with database.connect() as conn:
        return conn.execute("SELECT raw_version, transform_version FROM pipeline.jobs WHERE id = %s",
                            (job_id,)).fetchone()


def _transformed_records(database, job_id: int) -> int:
    with database.connect() as conn:
        return conn.execute("SELECT coalesce(sum(record_count), 0) FROM pipeline.job_files "
                            "WHERE job_id = %s AND stage = 'transformed'", (job_id,)).fetchone()[0]


def _descriptions(database) -> set[str]:
    with database.connect() as conn:
        return {r[0] for r in conn.execute("SELECT description FROM public.listing_info")}


def _first_two_imports(database, store, instance, path) -> int:
    """The file imported, then again unchanged (its raw files derived, its records reused)."""
    register(database, instance, SLUG, CONFIG)
    first, _, _, _ = _import(database, store, instance, path)
    assert _versions(database, first) == (versions.RAW_VERSION, versions.TRANSFORM_VERSION)
    assert _transformed_records(database, first) == len(RECORDS)
    second, raw, stage, summary = _import(database, store, instance, path)
    assert raw["same_file_as_jobs"] == [first] and stage["records_reused"] == len(RECORDS)
    assert _transformed_records(database, second) == 0 and summary["unchanged"] == len(RECORDS)
    assert _descriptions(database) == DESCRIPTIONS
    return second


def test_a_new_transform_version_transforms_every_record_again(tmp_path, database, local_object_store, instance,
                                                               monkeypatch):
    assert len(RECORDS) <= CONFIG["import"]["max_records_per_file"] and PARALLEL_FROM_FILES > 1
    path = write_csv(tmp_path / "a.csv", RECORDS)
    second = _first_two_imports(database, local_object_store, instance, path)
    monkeypatch.setattr(versions, "TRANSFORM_VERSION", "another-transform")
    _shout_descriptions(monkeypatch)

    third, raw, stage, summary = _import(database, local_object_store, instance, path)

    assert _versions(database, third) == (versions.RAW_VERSION, "another-transform")
    assert raw["same_file_as_jobs"] == [second]  # the raw lines' code did not change: still derived
    assert (stage["records_reused"], stage["records_copied"]) == (0, 0)
    assert _transformed_records(database, third) == len(RECORDS)
    assert (summary["updated"], summary["unchanged"]) == (len(RECORDS), 0)
    assert _descriptions(database) == {d.upper() for d in DESCRIPTIONS}


def test_the_same_version_would_reuse_stale_data(tmp_path, database, local_object_store, instance, monkeypatch):
    """The contrast: the normalisation changed but not the version, so the records are reused and
    keep the data the old code made. This is what the version prevents."""
    path = write_csv(tmp_path / "a.csv", RECORDS)
    _first_two_imports(database, local_object_store, instance, path)
    _shout_descriptions(monkeypatch)

    third, _, stage, summary = _import(database, local_object_store, instance, path)

    assert stage["records_reused"] == len(RECORDS) and _transformed_records(database, third) == 0
    assert summary["unchanged"] == len(RECORDS)
    assert _descriptions(database) == DESCRIPTIONS  # stale: not upper-cased


def test_a_new_raw_version_parses_a_redelivered_file(tmp_path, database, local_object_store, instance, monkeypatch):
    path = write_csv(tmp_path / "a.csv", RECORDS)
    second = _first_two_imports(database, local_object_store, instance, path)
    monkeypatch.setattr(versions, "RAW_VERSION", "another-raw")

    third, raw, stage, summary = _import(database, local_object_store, instance, path)

    assert _versions(database, third) == ("another-raw", versions.TRANSFORM_VERSION)
    assert raw["same_file_as_jobs"] == [] and raw["raw_files_written"] == 1 and raw["records_read"] == len(RECORDS)
    # Nor are its records staged thin: the earlier job's raw lines came from other code.
    assert stage["records_reused"] == 0 and _transformed_records(database, third) == len(RECORDS)
    assert summary["unchanged"] == len(RECORDS)  # found unchanged the long way
    fourth, raw, stage, _ = _import(database, local_object_store, instance, path)
    assert raw["same_file_as_jobs"] == [third] and stage["records_reused"] == len(RECORDS)  # same version again
    assert second < third < fourth

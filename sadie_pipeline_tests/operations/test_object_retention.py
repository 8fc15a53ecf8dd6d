"""Retention of the object store's raw material (seed 000: raw API responses and website text, one
year), run by the retention job: on the local store by file time, on moto's S3 against a moved clock
(S3 objects cannot be backdated)."""

from __future__ import annotations

import datetime as dt
import os
import time

from dagster import RunConfig

from sadie_pipeline.operations.object_retention import DEFAULT_OBJECT_PREFIXES, delete_old_objects, object_prefixes
from sadie_pipeline.operations.retention import RetentionConfig, retention_job

OLD = ["api-responses/serper/2025-01-02/hotels-in-miami-p01.json", "api-responses/llm/groq/2025-01-02/ab12.json",
       "website-content/fl/miami/7.txt"]
NEW = ["api-responses/llm/anthropic/2026-11-01/cd34.json", "website-content/fl/miami/8.txt"]
ELSEWHERE = "archive/retention/sadie_gtm.audit_log/000000000001-000000000002.jsonl.gz"  # not raw material


def test_the_retention_job_deletes_raw_objects_older_than_a_year(database, local_object_store, instance):
    for key in [*OLD, *NEW, ELSEWHERE]:
        local_object_store.put_bytes(key, b"{}")
    year_and_a_day = time.time() - 366 * 86400
    for key in [*OLD, ELSEWHERE]:
        os.utime(local_object_store._path(key), (year_and_a_day, year_and_a_day))
    result = retention_job.execute_in_process(
        instance=instance, resources={"database": database, "object_store": local_object_store},
        run_config=RunConfig(ops={"archive_old_rows_op": RetentionConfig(days=90)}))
    assert result.success
    assert local_object_store.list_keys("") == sorted([*NEW, ELSEWHERE])
    [output] = [e for e in result.all_events if e.event_type_value == "STEP_OUTPUT"]
    metadata = {k: v.value for k, v in output.event_specific_data.metadata.items()}
    assert metadata["objects_deleted"] == 3 and metadata["objects_kept"] == 2
    assert metadata["objects_deleted:api-responses/"] == 2 and metadata["object_retention_days"] == 365


def test_on_s3_age_is_measured_from_a_configurable_now(s3_object_store):
    for key in [*OLD, ELSEWHERE]:
        s3_object_store.put_bytes(key, b"{}")
    now = dt.datetime.now(dt.UTC)
    kept = delete_old_objects(s3_object_store, DEFAULT_OBJECT_PREFIXES, 365, now + dt.timedelta(days=364))
    assert kept == {"api-responses/": {"deleted": 0, "kept": 2}, "website-content/": {"deleted": 0, "kept": 1}}
    gone = delete_old_objects(s3_object_store, ["api-responses/"], 365, now + dt.timedelta(days=366))
    assert gone == {"api-responses/": {"deleted": 2, "kept": 0}}
    assert s3_object_store.list_keys("") == sorted(["website-content/fl/miami/7.txt", ELSEWHERE])


def test_prefixes_are_configurable(monkeypatch):
    assert object_prefixes() == list(DEFAULT_OBJECT_PREFIXES)
    monkeypatch.setenv("SADIE_OBJECT_RETENTION_PREFIXES", "api-responses/llm/, exports/ ")
    assert object_prefixes() == ["api-responses/llm/", "exports/"]

"""The listings cycle with the object store on S3 (moto's server over HTTP, through boto3)."""

from __future__ import annotations

import boto3
import pytest

from sadie_pipeline_tests.listings.helpers import import_file, metadata, register, sample

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL


def test_import_stage_promote_on_s3(database, s3_object_store, s3_server, instance):
    register(database, instance, "charlottetown-eats")
    result, summary = import_file(database, s3_object_store, instance, "charlottetown-eats",
                                  sample("charlottetown-eats.csv"))
    assert result.success and summary["inserted"] == 20

    client = boto3.client("s3", endpoint_url=s3_server, region_name="us-east-1")
    keys = [o["Key"] for o in client.list_objects_v2(Bucket=s3_object_store.bucket)["Contents"]]
    assert any(k.startswith("raw/listings/charlottetown-eats/") and k.endswith("job-000001-01.jsonl.gz") for k in keys)
    assert any(k.startswith("transformed/listings/charlottetown-eats/") for k in keys)
    raw_meta = metadata(result, "listing_raw_files")
    assert f"s3://{s3_object_store.bucket}/raw/listings/charlottetown-eats/" in raw_meta["raw_files"]
    with database.connect() as conn:
        paths = [r[0] for r in conn.execute("SELECT s3_path FROM pipeline.job_files ORDER BY stage")]
    assert all(p.startswith(f"s3://{s3_object_store.bucket}/") for p in paths)


def test_a_file_delivered_again_on_s3_has_its_raw_files_derived(database, s3_object_store, instance):
    register(database, instance, "charlottetown-eats")
    import_file(database, s3_object_store, instance, "charlottetown-eats", sample("charlottetown-eats.csv"))

    result, summary = import_file(database, s3_object_store, instance, "charlottetown-eats",
                                  sample("charlottetown-eats.csv"))

    raw_meta = metadata(result, "listing_raw_files")
    assert raw_meta["same_file_as_jobs"] == [summary["job_id"] - 1] and raw_meta["records_read"] == 20
    assert "job-000002-01.jsonl.gz" in raw_meta["raw_files"]
    assert summary["unchanged"] == 20 and summary["inserted"] == 0

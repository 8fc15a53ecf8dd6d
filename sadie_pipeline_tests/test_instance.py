"""Dagster's own storage: SQLite under the data folder by default, PostgreSQL when configured."""

from __future__ import annotations

import pytest
from dagster import DagsterInstance

from sadie_pipeline.instance import ensure_dagster_home
from sadie_pipeline.resources.database import to_sqlalchemy_url


def test_default_instance_is_sqlite_under_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.delenv("SADIE_DAGSTER_PG_URL", raising=False)
    monkeypatch.setenv("SADIE_HOME", str(tmp_path / "home"))
    home = ensure_dagster_home()
    assert home == tmp_path / "home" / "dagster"
    with DagsterInstance.get() as instance:
        assert type(instance.run_storage).__name__ == "SqliteRunStorage"


@pytest.mark.slow
def test_postgres_storage_through_dagster_postgres(tmp_path, monkeypatch, pg_url):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster"))
    monkeypatch.setenv("SADIE_DAGSTER_PG_URL", to_sqlalchemy_url(pg_url, "psycopg2"))
    ensure_dagster_home()
    with DagsterInstance.get() as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        instance.add_dynamic_partitions("dmo", ["kept-in-postgres"])
    with DagsterInstance.get() as instance:
        assert "kept-in-postgres" in instance.get_dynamic_partitions("dmo")
    # Switching back to the default rewrites the generated file.
    monkeypatch.delenv("SADIE_DAGSTER_PG_URL")
    ensure_dagster_home()
    assert "postgres" not in (tmp_path / "dagster" / "dagster.yaml").read_text()


def test_the_production_instance_config_is_valid_and_limits_every_service(monkeypatch):
    """deploy/dagster.yaml as Dagster reads it: PostgreSQL storage, a queue with limits per
    external service, pools, run retries and the ECS launcher from dagster-aws."""
    import importlib.util

    from dagster._core.instance.config import dagster_instance_config

    from sadie_pipeline.hotels.jobs import hotel_leads_job
    from sadie_pipeline.settings import PROJECT_ROOT

    for name in ("SADIE_DAGSTER_PG_URL", "SADIE_ECS_TASK_DEFINITION", "SADIE_S3_BUCKET"):
        monkeypatch.setenv(name, "set-in-production")
    config, _ = dagster_instance_config(str(PROJECT_ROOT / "deploy"), "dagster.yaml")
    assert "postgres" in config["storage"]
    assert config["run_coordinator"]["class"] == "QueuedRunCoordinator"
    assert config["run_launcher"]["class"] == "EcsRunLauncher" and config["run_launcher"]["module"] == "dagster_aws.ecs"
    assert config["run_retries"]["enabled"] is True
    limited = {limit["key"] for limit in config["concurrency"]["runs"]["tag_concurrency_limits"]}
    assert set(hotel_leads_job.tags) <= limited   # every service tag a job carries has a limit
    [per_partition] = [limit for limit in config["concurrency"]["runs"]["tag_concurrency_limits"]
                       if limit["key"] == "dagster/partition"]
    # a DMO's imports (runs of its partition) one at a time, in the queue's order
    assert per_partition["value"] == {"applyLimitPerUniqueValue": True} and per_partition["limit"] == 1
    assert importlib.util.find_spec("dagster_aws.ecs") is not None   # the launcher's module is installed

"""Dagster's own storage: SQLite under the data folder by default, PostgreSQL when configured."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest
import yaml
from dagster import DagsterInstance, asset, materialize
from dagster._core.instance.config import dagster_instance_config

from sadie_pipeline.instance import LOCAL_CONFIG, MARKER, ensure_dagster_home, local_instance_yaml
from sadie_pipeline.resources.database import to_sqlalchemy_url
from sadie_pipeline.resources.reliability import ServiceCallFailed, ServiceGuard, ServicePolicy
from sadie_pipeline.settings import PROJECT_ROOT


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
    assert "storage" not in yaml.safe_load((tmp_path / "dagster" / "dagster.yaml").read_text())


def test_the_production_instance_config_is_valid_and_limits_every_service(monkeypatch):
    """deploy/dagster.yaml as Dagster reads it: PostgreSQL storage, a queue with limits per
    external service, pools, run retries and the ECS launcher from dagster-aws."""
    import importlib.util

    from sadie_pipeline.hotels.jobs import hotel_leads_job

    for name in ("SADIE_DAGSTER_PG_URL", "SADIE_ECS_TASK_DEFINITION", "SADIE_S3_BUCKET"):
        monkeypatch.setenv(name, "set-in-production")
    config, _ = dagster_instance_config(str(PROJECT_ROOT / "deploy"), "dagster.yaml")
    assert "postgres" in config["storage"]
    assert config["run_coordinator"]["class"] == "QueuedRunCoordinator"
    assert config["run_launcher"]["class"] == "EcsRunLauncher" and config["run_launcher"]["module"] == "dagster_aws.ecs"
    assert config["run_retries"]["enabled"] is True
    limited = {limit["key"] for limit in config["concurrency"]["runs"]["tag_concurrency_limits"]}
    assert set(hotel_leads_job.tags) <= limited   # every service tag a job carries has a limit
    assert importlib.util.find_spec("dagster_aws.ecs") is not None   # the launcher's module is installed


@pytest.mark.parametrize("folder", [".", "deploy"])
def test_local_and_production_configs_queue_one_run_per_partition_and_capture_project_logs(
        folder, tmp_path, monkeypatch):
    """dagster.yaml (local) and deploy/dagster.yaml (production) as Dagster validates them: a DMO's
    imports (runs of its partition) one at a time, in the queue's order; the project's log lines."""
    for name in ("SADIE_DAGSTER_PG_URL", "SADIE_ECS_TASK_DEFINITION", "SADIE_S3_BUCKET"):
        monkeypatch.setenv(name, "set-in-production")
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    config, _ = dagster_instance_config(str(PROJECT_ROOT / folder), "dagster.yaml")
    assert config["run_coordinator"]["class"] == "QueuedRunCoordinator"
    assert {"key": "dagster/partition", "value": {"applyLimitPerUniqueValue": True}, "limit": 1} \
        in config["concurrency"]["runs"]["tag_concurrency_limits"]
    assert config["concurrency"]["pools"]["default_limit"] == 1
    # the parent logger takes every module's getLogger(__name__) lines, once each
    assert config["python_logs"]["managed_python_loggers"] == ["sadie_pipeline"]
    assert config["python_logs"]["python_log_level"] == "INFO"
    assert config["telemetry"]["enabled"] is False


def test_the_instance_file_is_the_project_file_with_only_its_storage_switched(tmp_path, monkeypatch):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster"))
    monkeypatch.delenv("SADIE_DAGSTER_PG_URL", raising=False)
    written = ensure_dagster_home() / "dagster.yaml"
    assert written.read_text() == f"{MARKER}\n{LOCAL_CONFIG.read_text()}"
    local = yaml.safe_load(local_instance_yaml(postgres=False))
    assert "storage" not in local   # SQLite under DAGSTER_HOME, Dagster's default
    postgres = yaml.safe_load(local_instance_yaml(postgres=True))
    assert postgres == {**local, "storage": {"postgres": {"postgres_url": {"env": "SADIE_DAGSTER_PG_URL"}}}}
    written.write_text(written.read_text().replace(MARKER + "\n", ""))   # a person took the file over
    monkeypatch.setenv("SADIE_DAGSTER_PG_URL", "postgresql+psycopg2://elsewhere/dagster")
    ensure_dagster_home()
    assert written.read_text() == LOCAL_CONFIG.read_text()


def test_retry_lines_of_the_project_loggers_reach_the_run_event_log(tmp_path, monkeypatch):
    """What the UI shows of a run: its event log, with the retry lines of a service guard."""
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster"))
    monkeypatch.delenv("SADIE_DAGSTER_PG_URL", raising=False)
    ensure_dagster_home()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when the block ends: nothing listens there

    @asset
    def unreachable_service() -> None:
        guard = ServiceGuard(ServicePolicy(name="nowhere", max_attempts=2, backoff_base_s=0, backoff_jitter_s=0))

        async def call() -> None:
            async with httpx.AsyncClient() as client:
                await guard.call(lambda: client.get(f"http://127.0.0.1:{port}/"))

        with pytest.raises(ServiceCallFailed):
            asyncio.run(call())

    with DagsterInstance.get() as instance:
        result = materialize([unreachable_service], instance=instance)
        messages = [entry.user_message for entry in instance.all_logs(result.run_id)]
    assert any(m.startswith("nowhere: attempt 1 failed (transient") for m in messages), messages

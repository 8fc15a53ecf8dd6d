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

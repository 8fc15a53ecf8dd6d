"""Shared fixtures: a fresh PostgreSQL database per test session on the real server (an embedded
one when none answers), emptied between tests; the object stores (local folder, moto's S3 server
over HTTP); a Dagster instance."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from dagster import DagsterInstance

from sadie_pipeline.migrations import upgrade
from sadie_pipeline.partitions import DMO_PARTITIONS_NAME
from sadie_pipeline.resources.database import Database
from sadie_pipeline_tests.fixtures.postgres import admin_url, database_url

# `make test` exports the developer's DAGSTER_HOME (.sadie/dagster): a run a test starts without a
# webserver (the web app runs it in-process) goes to a throwaway instance, never to theirs.
os.environ["DAGSTER_HOME"] = tempfile.mkdtemp(prefix="sadie-test-dagster-")

pytest_plugins = ["sadie_pipeline_tests.fixtures.s3", "sadie_pipeline_tests.fixtures.sandbox",
                  "sadie_pipeline_tests.fixtures.postgres", "sadie_pipeline_tests.fixtures.chromium"]


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    name = f"sadie_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = database_url(admin_url(), name)
    upgrade(url)
    yield url
    with psycopg.connect(admin_url(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _truncate_all(url: str) -> None:
    with psycopg.connect(url) as conn:
        tables = [r[0] for r in conn.execute(
            """SELECT format('%I.%I', schemaname, tablename) FROM pg_tables
                WHERE schemaname IN ('public', 'pipeline', 'staging', 'sadie_gtm', 'sadie_leads')
                  AND tablename NOT IN ('ref_days') AND tablename NOT LIKE '\\_%'""")]
        conn.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")


@pytest.fixture
def database(pg_url: str) -> Database:
    """The session database, empty at the start of each test."""
    _truncate_all(pg_url)
    return Database(url=pg_url)


@pytest.fixture
def instance() -> Iterator[DagsterInstance]:
    with DagsterInstance.ephemeral() as inst:
        yield inst


@pytest.fixture
def sadie_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database: Database) -> Path:
    """Environment of a person running `sadie` against the test database and a local store."""
    monkeypatch.setenv("SADIE_HOME", str(tmp_path / "sadie"))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster"))
    monkeypatch.setenv("SADIE_DATABASE_URL", database.url)
    monkeypatch.delenv("SADIE_S3_BUCKET", raising=False)
    return tmp_path


def add_partition(instance: DagsterInstance, slug: str) -> None:
    if not instance.has_dynamic_partition(DMO_PARTITIONS_NAME, slug):
        instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, [slug])

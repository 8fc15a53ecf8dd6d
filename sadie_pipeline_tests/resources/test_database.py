"""The Database resource: configured server, SADIE_DATABASE_URL through the definitions, and the
embedded server."""

from __future__ import annotations

import os
import signal

import pytest
from dagster import EnvVar

from sadie_pipeline.migrations import upgrade
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.database import Database, to_sqlalchemy_url
from sadie_pipeline.settings import SQL_DIR
from sadie_pipeline_tests.fixtures.postgres import database_name


def test_the_resource_reads_no_environment(monkeypatch, pg_url):
    monkeypatch.setenv("SADIE_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    assert Database(url=pg_url).resolved_url() == pg_url


def test_environment_url_through_the_definitions_is_read_when_the_run_starts(monkeypatch, pg_url):
    monkeypatch.setenv("SADIE_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    db = configured("database")
    assert db.url == EnvVar("SADIE_DATABASE_URL")  # the name, not the value: what the UI shows
    monkeypatch.setenv("SADIE_DATABASE_URL", pg_url)
    with resolved(db).connect() as conn:
        assert conn.execute("SELECT current_database()").fetchone()[0] == database_name(pg_url)


def test_sqlalchemy_urls_for_each_driver():
    assert to_sqlalchemy_url("postgresql://u@h:5432/d") == "postgresql+psycopg://u@h:5432/d"
    assert to_sqlalchemy_url("postgres://u@h/d", "psycopg2") == "postgresql+psycopg2://u@h/d"


@pytest.mark.slow
def test_embedded_server_when_nothing_is_configured(tmp_path, monkeypatch):
    import pgserver

    monkeypatch.delenv("SADIE_DATABASE_URL", raising=False)
    monkeypatch.setenv("SADIE_HOME", str(tmp_path / "home"))
    db = resolved(configured("database"))  # no url: the embedded server under SADIE_HOME
    try:
        url = db.resolved_url()
        assert str(tmp_path / "home" / "pg") in url
        assert upgrade(url) == sorted(p.stem for p in SQL_DIR.glob("*.sql"))
        assert upgrade(url) == []
        with db.connect() as conn:
            assert conn.execute("SELECT count(*) FROM public.ref_days").fetchone()[0] == 7
    finally:
        # The embedded server outlives its process by design (cleanup_mode=None): stop this one.
        pid = pgserver.get_server(str(tmp_path / "home" / "pg"), cleanup_mode=None).get_pid()
        if pid:
            os.kill(pid, signal.SIGINT)  # PostgreSQL's fast shutdown

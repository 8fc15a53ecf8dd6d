"""Upload and promote with no Dagster webserver (issue 30): `sadie web` alone runs the jobs in the
app itself; with a Dagster daemon on the instance (no webserver) they go to the daemon as a
backfill. Either way the upload ends promoted and visible, and the runs are on the instance."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from dagster import DagsterInstance, DagsterRunStatus

from sadie_pipeline.instance import create_instance_storage
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline_tests.fixtures.dagster_services import QUEUED_INSTANCE, dagster_daemon, ended_runs
from sadie_pipeline_tests.listings.helpers import register, sample
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.server import logged_in, page_token, serving

pytestmark = pytest.mark.slow

RUN_S = 300  # a run loads the definitions first: slow on a small machine
FLASH = re.compile(r'<p class="flash"[^>]*>([^<]*)')


@pytest.fixture
def dagster_home(tmp_path, monkeypatch, database) -> Path:
    """A queued instance as `make dev` has (SQLite under DAGSTER_HOME), with no webserver or daemon."""
    home = tmp_path / "dagster"
    home.mkdir()
    (home / "dagster.yaml").write_text(QUEUED_INSTANCE)
    create_instance_storage(home)
    for name, value in {"DAGSTER_HOME": str(home), "SADIE_HOME": str(tmp_path / "sadie"),
                        "SADIE_DATABASE_URL": database.url}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("SADIE_S3_BUCKET", raising=False)
    return home


def _until(client, url: str, text: str) -> str:
    deadline = time.monotonic() + RUN_S
    while True:
        page = client.get(url).text
        if text in page:
            return page
        assert 'role="alert"' not in page, re.sub(r"\s+", " ", page)[-1500:]
        assert time.monotonic() < deadline, f"no {text!r} after {RUN_S} s"
        time.sleep(2)


def _upload_and_promote(web: str, database, launched: str) -> None:
    with logged_in(web, "rita", PASSWORD) as rita:
        token = page_token(rita, "/upload")
        sent = rita.post("/upload", data={"dmo": "visit-pei", "csrf_token": token},
                         files={"file": ("visit-pei.csv", sample("visit-pei.csv").read_bytes(), "text/csv")})
        assert sent.status_code == 303, sent.text[:500]
        status_url = sent.headers["location"]
        first = rita.get(status_url).text
        assert launched in FLASH.search(first).group(1)
        _until(rita, status_url, "Confirm: promote")
        confirmed = rita.post(status_url.split("?")[0] + "/confirm", data={"csrf_token": token})
        assert confirmed.status_code == 303
        done = _until(rita, confirmed.headers["location"], "Promoted:")
        assert re.search(r"Promoted: [1-9][0-9]* inserted", done)
        found = rita.get("/listings", params={"q": "holman ice cream"}).text
        assert "Holman&#39;s Ice Cream Parlour" in found or "Holman's Ice Cream Parlour" in found
    with database.connect() as conn:
        live = conn.execute("SELECT count(*) FROM public.listing_info WHERE info_visible").fetchone()[0]
    assert live > 0


def _runs(home: Path) -> dict[str, DagsterRunStatus]:
    """Each job's status once both runs ended: the page shows the promotion when it committed, and
    its run records its end a moment later."""
    with DagsterInstance.from_config(str(home)) as instance:
        return {run.job_name: run.status for run in ended_runs(instance, count=2, timeout_s=RUN_S)}


def test_sadie_web_alone_runs_upload_and_promote_itself(dagster_home, database, local_object_store, instance,
                                                        users):
    register(database, instance, "visit-pei")
    with serving(database, local_object_store) as web:   # its SADIE_DAGSTER_URL answers nothing
        _upload_and_promote(web, database, "in the web app")
    runs = _runs(dagster_home)
    assert runs == {"listing_stage_job": DagsterRunStatus.SUCCESS, "listing_promote_job": DagsterRunStatus.SUCCESS}
    with DagsterInstance.from_config(str(dagster_home)) as dagster:
        assert {r.tags.get("dagster/user") for r in dagster.get_runs()} == {"rita"}


def test_with_a_daemon_and_no_webserver_the_daemon_runs_them(dagster_home, database, tmp_path, instance, users):
    register(database, instance, "visit-pei")
    store = ObjectStore(home=str(tmp_path / "sadie"))   # the store the daemon's runs find in the environment
    with dagster_daemon(dagster_home), serving(database, store) as web:
        _upload_and_promote(web, database, "for the Dagster daemon")
        # the page shows the promotion once it committed; its run ends a moment later
        with DagsterInstance.from_config(str(dagster_home)) as dagster:
            runs = ended_runs(dagster, count=2, timeout_s=RUN_S)
            backfills = dagster.get_backfills()
    assert len(backfills) == 2 and all(r.status == DagsterRunStatus.SUCCESS for r in runs) and len(runs) == 2

"""The data team's sources without a terminal, over real HTTP on the real database: an admin creates a
DMO, renames it, sets its type, deactivates and reactivates it, deletes it (refused while it has
live listings); configs are validated as `sadie dmo validate` validates a file (nothing saved on a
problem) and every version is kept with who saved it; each action leaves an audit row, needs its
role and the CSRF token. The files browser lists a real import's files and shows their first
records. Against a real Dagster webserver and daemon: a queued run is canceled and a failed job is
retried (its run re-executed from its failure); with no webserver, on the instance: a retry is a
fresh run of the same job, which imports the failed file again."""

from __future__ import annotations

import io
import re
import time
import zipfile

import pytest
from dagster import DagsterInstance, DagsterRunStatus

from sadie_pipeline.listings.assets import listing_raw_files, listing_stage
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.web.users import add_user
from sadie_pipeline_tests.fixtures.dagster_services import QUEUED_INSTANCE, dagster_webserver
from sadie_pipeline_tests.listings.helpers import drop_in_inbox, import_file, register, run_assets, sample
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.server import logged_in, page_token, serving
from sadie_pipeline_tests.web.test_upload_without_webserver import dagster_home  # noqa: F401 (a fixture)

FLASH = re.compile(r'<p class="flash"[^>]*>([^<]*)')


def _flash(html: str) -> str:
    found = FLASH.search(html)
    return found.group(1) if found else ""


def _audit(database, target: str) -> list[tuple[str, str]]:
    with database.connect() as conn:
        return [tuple(r) for r in conn.execute(
            "SELECT user_name, action FROM pipeline.web_audit WHERE target = %s ORDER BY id", (target,))]


def test_an_admin_creates_renames_types_and_deactivates_a_dmo(web, database):
    with logged_in(web, "ada", PASSWORD) as ada:
        token = page_token(ada, "/sources")
        created = ada.post("/dmos", data={"slug": "coast-guide", "name": "Coast Guide", "dmo_type": "PARTNER",
                                          "csrf_token": token}, follow_redirects=True)
        assert created.status_code == 200 and "DMO coast-guide created as PARTNER" in _flash(created.text)
        assert "Coast Guide" in created.text and "PARTNER" in created.text
        again = ada.post("/dmos", data={"slug": "coast-guide", "name": "Other", "csrf_token": token})
        assert again.status_code == 422 and "exists already" in again.text
        bad = ada.post("/dmos", data={"slug": "Bad Slug!", "name": "X", "csrf_token": token})
        assert bad.status_code == 422 and "bad DMO slug" in bad.text
        bad_type = ada.post("/dmos", data={"slug": "x-1", "name": "X", "dmo_type": "AIRLINE", "csrf_token": token})
        assert bad_type.status_code == 422 and "unknown DMO type" in bad_type.text

        renamed = ada.post("/dmos/coast-guide/rename", data={"name": "Coast Guide West", "csrf_token": token},
                           follow_redirects=True)
        assert "renamed to Coast Guide West" in _flash(renamed.text) and "<h1>Coast Guide West" in renamed.text
        typed = ada.post("/dmos/coast-guide/type", data={"dmo_type": "scraped", "csrf_token": token},
                         follow_redirects=True)
        assert "type set to SCRAPED" in _flash(typed.text)
        off = ada.post("/dmos/coast-guide/active", data={"active": "false", "csrf_token": token},
                       follow_redirects=True)
        assert "deactivated" in _flash(off.text) and "Reactivate" in off.text
        assert "inactive" in ada.get("/sources").text
        refused = ada.post("/dmos/coast-guide/run", data={"csrf_token": token}, follow_redirects=True)
        assert "coast-guide is deactivated: reactivate it to run it" in _flash(refused.text)
        on = ada.post("/dmos/coast-guide/active", data={"active": "true", "csrf_token": token}, follow_redirects=True)
        assert "reactivated" in _flash(on.text) and 'id="run-now"' not in on.text  # a file source: no Run now
        not_pulled = ada.post("/dmos/coast-guide/run", data={"csrf_token": token}, follow_redirects=True)
        assert "source is not pulled" in _flash(not_pulled.text)
    with database.connect() as conn:
        row = conn.execute("SELECT name, dmo_type_id, active FROM public.dmos WHERE slug = 'coast-guide'").fetchone()
        assert conn.execute("SELECT count(*) FROM public.dmos").fetchone()[0] == 1  # the refused ones: nothing
    assert row == ("Coast Guide West", 1, True)
    assert _audit(database, "dmo:coast-guide") == [
        ("ada", "dmo.create"), ("ada", "dmo.rename"), ("ada", "dmo.type"), ("ada", "dmo.deactivate"),
        ("ada", "dmo.activate")]


def test_configs_are_validated_as_the_cli_does_and_every_version_is_kept(web, database):
    with logged_in(web, "ada", PASSWORD) as ada:
        token = page_token(ada, "/sources")
        ada.post("/dmos", data={"slug": "lake-trails", "name": "Lake Trails", "csrf_token": token})
        wrong = '{\n  "import": {"source_type": "csv"},\n  "transform": {"defualt_country": "CA"}\n}'
        refused = ada.post("/sources/lake-trails/config", data={"config": wrong, "csrf_token": token})
        assert refused.status_code == 422 and "Not saved" in refused.text
        # as `sadie dmo validate` says it of a file: where, which key, what is wrong
        assert re.search(r"config:3:\d+: transform\.defualt_country", refused.text), refused.text[-3000:]
        assert "defualt_country" in refused.text  # the text typed is kept in the form
        broken = ada.post("/sources/lake-trails/config", data={"config": '{"import": ', "csrf_token": token})
        assert broken.status_code == 422 and "config:1:" in broken.text
        good = ada.post("/sources/lake-trails/config", data={
            "config": '{"import": {"source_type": "csv"}, "transform": {"default_country": "CA"}}', "csrf_token": token},
            follow_redirects=True)
        assert "saved as config version 2" in _flash(good.text)
        page = ada.get("/sources/lake-trails").text
        versions = page[page.index('id="versions"'):page.index('id="runs"')]
        assert "v2" in versions and "v1" in versions and "ada" in versions
        old = ada.get("/sources/lake-trails/versions/1")
        assert old.status_code == 200 and "saved by ada" in old.text.lower()
        assert "default_country" in ada.get("/sources/lake-trails/versions/2").text
        assert ada.get("/sources/lake-trails/versions/9").status_code == 404
    with database.connect() as conn:
        kept = conn.execute("SELECT v.version, v.saved_by FROM pipeline.config_versions v JOIN public.dmos d "
                            "ON d.id = v.dmo_id WHERE d.slug = 'lake-trails' ORDER BY v.version").fetchall()
        current = conn.execute("SELECT c.version, c.config_params FROM pipeline.configs c JOIN public.dmos d "
                               "ON d.id = c.dmo_id WHERE d.slug = 'lake-trails'").fetchone()
    assert kept == [(1, "ada"), (2, "ada")]  # the refused configs saved nothing
    assert current == (2, {"import": {"source_type": "csv"}, "transform": {"default_country": "CA"}})


def test_only_an_admin_with_the_csrf_token_changes_a_dmo(web, database, instance):
    register(database, instance, "visit-pei")
    with logged_in(web, "rita", PASSWORD) as rita:
        token = page_token(rita, "/sources")
        for path, data in (("/dmos", {"slug": "x", "name": "X"}), ("/dmos/visit-pei/rename", {"name": "X"}),
                           ("/dmos/visit-pei/type", {"dmo_type": "PARTNER"}),
                           ("/dmos/visit-pei/active", {"active": "false"}), ("/dmos/visit-pei/delete", {})):
            assert rita.post(path, data={**data, "csrf_token": token}).status_code == 403, path
        assert "Add a DMO" not in rita.get("/sources").text
    with logged_in(web, "vera", PASSWORD) as vera:  # runs are the reviewer's: a viewer reads
        token = page_token(vera, "/sources")
        for path in ("/dmos/visit-pei/run", "/jobs/1/retry", "/runs/00000000-0000-0000-0000-000000000000/cancel"):
            assert vera.post(path, data={"csrf_token": token}).status_code == 403, path
    with logged_in(web, "ada", PASSWORD) as ada:
        no_token = ada.post("/dmos/visit-pei/rename", data={"name": "Hijacked"})
        assert no_token.status_code == 403 and "CSRF" in no_token.text
    with database.connect() as conn:
        assert conn.execute("SELECT name, active FROM public.dmos WHERE slug = 'visit-pei'").fetchone() == \
            ("Visit Pei", True)
    assert _audit(database, "dmo:visit-pei") == []


def test_a_dmo_with_live_listings_is_deactivated_not_deleted(web, database, local_object_store, instance):
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    register(database, instance, "charlottetown-eats")  # staged, never promoted: nothing public
    key = drop_in_inbox(local_object_store, "charlottetown-eats", sample("charlottetown-eats.csv"))
    run_assets(database, local_object_store, instance, "charlottetown-eats", key, assets=[listing_raw_files, listing_stage])
    with logged_in(web, "ada", PASSWORD) as ada:
        token = page_token(ada, "/sources")
        refused = ada.post("/dmos/visit-pei/delete", data={"csrf_token": token}, follow_redirects=True)
        assert re.search(r"not deleted: visit-pei has [1-9]\d* live listing\(s\); deactivate it instead",
                         _flash(refused.text))
        deleted = ada.post("/dmos/charlottetown-eats/delete", data={"csrf_token": token}, follow_redirects=True)
        assert "DMO charlottetown-eats deleted with its 1 job(s)" in _flash(deleted.text)
        assert ada.get("/sources/charlottetown-eats").status_code == 404
    with database.connect() as conn:
        slugs = [r[0] for r in conn.execute("SELECT slug FROM public.dmos ORDER BY slug")]
        staged = conn.execute("SELECT count(*) FROM staging.listings").fetchone()[0]
        jobs = conn.execute("SELECT count(*) FROM pipeline.jobs").fetchone()[0]
    assert slugs == ["visit-pei"] and jobs == 1 and staged > 0  # visit-pei's rows stay, the other's are gone
    assert _audit(database, "dmo:charlottetown-eats") == [("ada", "dmo.delete")]
    assert _audit(database, "dmo:visit-pei") == []


def test_the_files_browser_lists_and_previews_a_real_import(web, database, local_object_store, instance):
    register(database, instance, "visit-pei")
    register(database, instance, "charlottetown-eats")
    _, summary = import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    with database.connect() as conn:
        add_user(conn, "lena", PASSWORD, "viewer", dmos=["charlottetown-eats"])
        files = dict(conn.execute("SELECT stage, id FROM pipeline.job_files WHERE job_id = %s AND batch = 1",
                                  (summary["job_id"],)).fetchall())
        day = conn.execute("SELECT file_date FROM pipeline.job_files WHERE id = %s", (files["raw"],)).fetchone()[0]
    with logged_in(web, "vera", PASSWORD) as vera:
        listed = vera.get(f"/files?dmo=visit-pei&date={day:%Y-%m-%d}")
        assert listed.status_code == 200
        assert f'href="/files/{files["raw"]}"' in listed.text and f'href="/files/{files["transformed"]}"' in listed.text
        assert f'href="/files/source/{summary["job_id"]}"' in listed.text
        assert "no files" in vera.get("/files?dmo=visit-pei&date=1999-01-01").text
        assert vera.get("/files?date=yesterday").status_code == 422
        for path in (f"/files/{files['raw']}", f"/files/{files['transformed']}", f"/files/source/{summary['job_id']}"):
            page = vera.get(path)
            assert page.status_code == 200 and "First 20 records" in page.text, path
            assert "The Great George Hotel" in page.text, path  # the first record of the sample, in the table
        raw = vera.get(f"/files/{files['raw']}").text
        assert "<th>rec_num</th>" in raw and "<th>raw_hash</th>" in raw  # the raw line's metadata columns
        download = vera.get(f"/files/{files['raw']}/download")
        assert download.status_code == 200 and download.content[:2] == b"\x1f\x8b"  # the gzipped file as stored
    with logged_in(web, "lena", PASSWORD) as lena:  # limited to another DMO
        assert lena.get(f"/files/{files['raw']}").status_code == 403
        assert lena.get(f"/files/source/{summary['job_id']}").status_code == 403
        assert lena.get("/files?dmo=visit-pei").status_code == 403
        assert "visit-pei" not in lena.get("/files").text


def broken_workbook() -> bytes:
    """An .xlsx whose ZIP holds no workbook: the upload check passes it (a ZIP), the import cannot read it."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("hello.txt", "not a workbook")
    return out.getvalue()


# Runs of the DMO "held-pull" stay queued (a tag concurrency limit of 0 on their partition): a queued
# run to cancel, while every other DMO's runs are started by the daemon.
HELD_INSTANCE = QUEUED_INSTANCE.replace(
    "    dequeue_interval_seconds: 1\n",
    "    dequeue_interval_seconds: 1\n    tag_concurrency_limits:\n"
    "      - key: dagster/partition\n        value: held-pull\n        limit: 0\n")
PULLED = '{"import": {"source_type": "wordpress", "url": "http://127.0.0.1:9/wp-json/wp/v2/listing"}}'


@pytest.fixture
def dagster_stack(tmp_path, database, users, monkeypatch):
    """The web app and a real Dagster webserver and daemon on one database, object store and instance."""
    home = tmp_path / "dagster"
    env = {"SADIE_DATABASE_URL": database.url, "SADIE_HOME": str(tmp_path / "sadie")}
    for name, value in {**env, "DAGSTER_HOME": str(home)}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("SADIE_S3_BUCKET", raising=False)
    store = ObjectStore(home=str(tmp_path / "sadie"))
    with dagster_webserver(home, HELD_INSTANCE, env) as dagster_url, \
            serving(database, store, dagster_url=dagster_url) as web:
        yield web, DagsterInstance.get()


def _until(check, timeout_s: float = 300, what: str = ""):
    deadline = time.monotonic() + timeout_s
    while not (found := check()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(1)
    return found


def _run_of(response) -> str:
    return re.search(r"run=([0-9a-f-]{36})", response.headers["location"]).group(1)


@pytest.mark.slow
def test_a_queued_run_is_canceled_and_a_failed_job_retried_through_dagster(dagster_stack, database):
    web, instance = dagster_stack
    with logged_in(web, "ada", PASSWORD) as ada:
        token = page_token(ada, "/sources")
        for slug, config in (("held-pull", PULLED), ("broken-xlsx", "")):
            made = ada.post("/dmos", data={"slug": slug, "name": slug, "config": config, "csrf_token": token})
            assert made.status_code == 303
        assert instance.has_dynamic_partition("dmo", "held-pull")  # added through the webserver's GraphQL API
    with logged_in(web, "rita", PASSWORD) as rita:  # a reviewer runs, cancels and retries
        token = page_token(rita, "/sources/held-pull")
        launched = rita.post("/dmos/held-pull/run", data={"csrf_token": token})
        run_id = _run_of(launched)
        assert _until(lambda: instance.get_run_by_id(run_id), what="the run").status == DagsterRunStatus.QUEUED
        page = rita.get("/sources/held-pull").text
        assert run_id[:8] in page and "queued" in page and f'action="/runs/{run_id}/cancel"' in page
        canceled = rita.post(f"/runs/{run_id}/cancel", data={"csrf_token": token}, follow_redirects=True)
        assert f"run {run_id[:8]} canceled through the Dagster webserver" in _flash(canceled.text)
        assert instance.get_run_by_id(run_id).status == DagsterRunStatus.CANCELED
        again = rita.post(f"/runs/{run_id}/cancel", data={"csrf_token": token}, follow_redirects=True)
        assert "could not be terminated" in _flash(again.text)

        # a workbook the import cannot read fails its job and its run
        uploaded = rita.post("/upload", data={"dmo": "broken-xlsx", "csrf_token": token},
                             files={"file": ("listings.xlsx", broken_workbook(), "application/octet-stream")})
        assert uploaded.status_code == 303
        job_id, root = _until(lambda: _failed_job(database, "broken-xlsx"), what="the failed job")
        _until(lambda: instance.get_run_by_id(root).status == DagsterRunStatus.FAILURE, what="the run's failure")
        job_page = rita.get(f"/jobs/{job_id}").text
        assert "not a valid .xlsx workbook" in job_page and f'action="/jobs/{job_id}/retry"' in job_page
        retried = rita.post(f"/jobs/{job_id}/retry", data={"csrf_token": token})
        child = _run_of(retried)
        run = instance.get_run_by_id(child)
        assert run.parent_run_id == root and run.root_run_id == root  # the job stays the run family's own
        _until(lambda: instance.get_run_by_id(child).is_finished, what="the re-execution")
        after = rita.get(f"/jobs/{job_id}").text
        assert f"re-execution of {root[:8]}" in after and "job.retry" in after
        rerun = rita.post(f"/jobs/{job_id}/rerun", data={"step": "promote", "csrf_token": token},
                          follow_redirects=True)
        assert "the promote step of broken-xlsx launched through the Dagster webserver" in _flash(rerun.text)
    assert [a for _, a in _audit(database, f"run:{run_id}")] == ["run.cancel"]
    assert [a for _, a in _audit(database, "dmo:held-pull")] == ["dmo.create", "dmo.run"]
    assert _audit(database, f"job:{job_id}") == [("rita", "job.retry"), ("rita", "job.rerun")]


def _failed_job(database, slug: str) -> tuple[int, str] | None:
    with database.connect() as conn:
        row = conn.execute("SELECT j.id, j.dagster_run_id FROM pipeline.jobs j JOIN public.dmos d ON d.id = j.dmo_id "
                           "WHERE d.slug = %s AND j.status = 'failed'", (slug,)).fetchone()
    return tuple(row) if row else None


@pytest.mark.slow
def test_without_a_webserver_a_retry_is_a_fresh_run_on_the_instance(dagster_home, database,  # noqa: F811
                                                                    local_object_store, instance, users):
    register(database, instance, "visit-pei")
    dagster = DagsterInstance.from_config(str(dagster_home))
    with serving(database, local_object_store) as web, logged_in(web, "rita", PASSWORD) as rita:  # no webserver
        token = page_token(rita, "/sources/visit-pei")
        rita.post("/upload", data={"dmo": "visit-pei", "csrf_token": token},
                  files={"file": ("listings.xlsx", broken_workbook(), "application/octet-stream")})
        job_id, root = _until(lambda: _failed_job(database, "visit-pei"), what="the failed job")
        _until(lambda: dagster.get_run_by_id(root).status == DagsterRunStatus.FAILURE, what="the run's failure")
        ended = rita.post(f"/runs/{root}/cancel", data={"csrf_token": token}, follow_redirects=True)
        assert f"run {root[:8]} is failure: only a queued or running run is canceled" in _flash(ended.text)
        retried = rita.post(f"/jobs/{job_id}/retry", data={"csrf_token": token})
        fresh = _run_of(retried)
        message = _flash(rita.get(retried.headers["location"]).text)
        assert f"no Dagster webserver answers to re-execute run {root[:8]}: listing_stage_job launched afresh in " \
               f"the web app" in message
        _until(lambda: (r := dagster.get_run_by_id(fresh)) is not None and r.is_finished, what="the fresh run")
    with database.connect() as conn:  # the fresh run imported the failed file again: the job is its own now
        row = conn.execute("SELECT status, dagster_run_id FROM pipeline.jobs WHERE id = %s", (job_id,)).fetchone()
    assert row == ("failed", fresh)
    assert [a for _, a in _audit(database, f"job:{job_id}")] == ["job.retry"]
    assert _audit(database, f"run:{root}") == []  # nothing was canceled

"""Playwright on Debian's Chromium: an admin runs sources without a terminal, with a real Dagster
webserver and daemon running what the pages launch. They add a DMO with its config on the sources
page, upload a file for it and promote it, add a pulled DMO (WordPress, from the sandbox) and run it
now, upload a workbook the import cannot read and retry the failed job (its run re-executed from
its failure), and look at a raw file's first records. Saves docs/screenshots/dmo.png."""

from __future__ import annotations

import json
import re

import pytest

from sadie_pipeline.settings import SAMPLE_DIR
from sadie_pipeline_tests.listings.helpers import sample
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.test_browser import ARGS, CHROMIUM, RUN_S, SCREENSHOTS, _live, _until, _upload_and_confirm
from sadie_pipeline_tests.web.test_dmo_admin import broken_workbook

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def admin_stack(tmp_path, database, users, monkeypatch, sandbox_server):
    """dagster_stack (test_dmo_admin.py) with runs started at once, geocoding off (no internet) and
    the sandbox's WordPress site to pull."""
    from sadie_pipeline.resources.object_store import ObjectStore
    from sadie_pipeline_tests.fixtures.dagster_services import QUEUED_INSTANCE, dagster_webserver
    from sadie_pipeline_tests.web.server import serving

    home = tmp_path / "dagster"
    env = {"SADIE_DATABASE_URL": database.url, "SADIE_HOME": str(tmp_path / "sadie"), "SADIE_GEOCODER": "off"}
    for name, value in {**env, "DAGSTER_HOME": str(home)}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("SADIE_S3_BUCKET", raising=False)
    store = ObjectStore(home=str(tmp_path / "sadie"))
    with dagster_webserver(home, QUEUED_INSTANCE, env) as dagster_url, \
            serving(database, store, dagster_url=dagster_url) as web:
        yield web


def _add_dmo(page, web: str, slug: str, name: str, dmo_type: str, config: str) -> None:
    page.goto(f"{web}/sources")
    page.fill("form.dmo-add input[name=slug]", slug)
    page.fill("form.dmo-add input[name=name]", name)
    page.select_option("form.dmo-add select[name=dmo_type]", dmo_type)
    page.fill("form.dmo-add textarea[name=config]", config)
    page.click("text=Add the DMO")
    page.wait_for_selector(f"text=DMO {slug} created as {dmo_type}")


def test_an_admin_adds_uploads_runs_and_retries_from_the_browser(admin_stack, sandbox_server, tmp_path):
    from playwright import sync_api

    web = admin_stack
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    wordpress = (SAMPLE_DIR / "source-types" / "demo-wordpress.config.json").read_text()
    broken = tmp_path / "listings.xlsx"
    broken.write_bytes(broken_workbook())
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        page.set_default_timeout(30_000)
        try:
            page.goto(f"{web}/login")
            page.fill("input[name=username]", "ada")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(re.compile(r".*/review$"))

            # a file source: added with its config, a file uploaded and promoted
            _add_dmo(page, web, "harbour-trail", "Harbour Trail", "CLIENT",
                     (SAMPLE_DIR / "visit-pei.config.json").read_text())
            done = _upload_and_confirm(page, web, "harbour-trail", sample("visit-pei.csv"))
            assert re.search(r"Promoted: [1-9][0-9]* inserted", done)
            assert _live(page, web, "harbour-trail") > 0

            # a pulled source: Run now pulls it through Dagster
            _add_dmo(page, web, "harbour-wp", "Harbour WordPress", "PARTNER",
                     wordpress.replace("{sandbox}", sandbox_server.url))
            page.click("#run-now")
            page.wait_for_selector("text=pull of harbour-wp launched through the Dagster webserver")
            _until(page, lambda: _live(page, web, "harbour-wp") == 12, f"{web}/sources/harbour-wp", RUN_S / 1000)

            # a workbook the import cannot read: the job fails, the admin retries it
            page.goto(f"{web}/upload?dmo=harbour-trail")
            page.set_input_files("input[name=file]", str(broken))
            page.click("text=Upload and stage")
            page.wait_for_selector("text=The import failed", timeout=RUN_S)
            page.click("#upload-status a[href^='/jobs/']")
            page.wait_for_selector("#retry")
            _until(page, lambda: "failure" in page.inner_text("#job-run"), page.url, RUN_S / 1000)
            page.click("#retry")
            page.wait_for_selector("text=re-executed from its failure as run")
            job_url = page.url.split("?")[0]
            _until(page, lambda: "re-execution of" in page.inner_text("#job-run")
                   and "failure" in page.inner_text("#job-run"), job_url, RUN_S / 1000)
            assert "job.retry" in page.inner_text("table.trail")

            # the promoted upload's raw file, its first records in the page
            page.goto(f"{web}/files?dmo=harbour-trail")
            page.click("table.files tr:has(td:text-is('raw')) >> text=first records")
            assert "The Great George Hotel" in page.inner_text("table.preview")

            page.goto(f"{web}/sources/harbour-trail")
            assert "re-execution of" in page.inner_text("table.runs")
            assert json.loads(page.input_value("textarea[name=config]"))["transform"]
            page.screenshot(path=str(SCREENSHOTS / "dmo.png"), full_page=True)
        finally:
            browser.close()

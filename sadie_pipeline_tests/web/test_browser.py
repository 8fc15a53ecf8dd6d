"""Playwright on Debian's Chromium drives the app as people would, with a real Dagster webserver
running what the pages launch: log in; upload a file, see phase one's summary, confirm; approve and
reject review items and see the live listings change; edit a listing, re-import and see the edit
protected; restore a soft delete; decide a hotel pair; requeue a dead letter; see the health charts.
It saves screenshots of the review page and the health page (docs/screenshots/)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from dagster import DagsterInstance

from sadie_pipeline.hotels.entity_reviews import record_pairs
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.settings import PROJECT_ROOT
from sadie_pipeline_tests.conftest import add_partition
from sadie_pipeline_tests.fixtures.dagster_services import QUEUED_INSTANCE, dagster_webserver
from sadie_pipeline_tests.hotels.leads_data import add_hotel
from sadie_pipeline_tests.listings.helpers import register, sample
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.server import serving

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
SCREENSHOTS = PROJECT_ROOT / "docs" / "screenshots"
RUN_S = 240_000  # a run starts a process that loads the code location: slow on a small machine


def _seed_operations(conn) -> None:
    """A hotel pair waiting for a decision and a dead letter, as the hotel runs leave them."""
    ids = [conn.execute("INSERT INTO sadie_gtm.hotel_sources (region, city, source, external_id, record) "
                        "VALUES ('US-FL', 'Miami', %s, %s, %s) RETURNING id",
                        (source, ext, psycopg_json(record))).fetchone()[0]
           for source, ext, record in [
               ("serper", "p1", {"name": "Surfside Inn", "city": "Miami", "phone": "+13055550100"}),
               ("csv", "c1", {"name": "The Surfside Inn", "city": "Miami Beach", "phone": "+13055550100"})]]
    record_pairs(conn, "US-FL", [(ids[0], ids[1], 0.71, {"name": {"level": "similar", "weight": 5.1}})])
    hotel = add_hotel(conn, "Surfside Inn")
    conn.execute("INSERT INTO pipeline.dead_letters (item_key, layer, error_class, attempts, last_error) "
                 "VALUES (%s, 'rdap_owner', 'timeout', 3, 'read timed out'), "
                 "(%s, 'dns_email_provider', 'server_error', 3, 'SERVFAIL')", (f"hotel:{hotel}", f"hotel:{hotel}"))


def psycopg_json(value):
    from psycopg.types.json import Jsonb

    return Jsonb(value)


@pytest.fixture
def stack(tmp_path, database, users, monkeypatch):
    """The web app and a Dagster webserver on one database, object store and Dagster instance."""
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("no system Chromium in CI")
        pytest.skip("no system Chromium (apt-get install chromium)")
    home = tmp_path / "dagster"
    env = {"SADIE_DATABASE_URL": database.url, "SADIE_HOME": str(tmp_path / "sadie")}
    for name, value in {**env, "DAGSTER_HOME": str(home)}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("SADIE_S3_BUCKET", raising=False)
    store = ObjectStore(home=str(tmp_path / "sadie"))
    with dagster_webserver(home, QUEUED_INSTANCE, env) as dagster_url:
        instance = DagsterInstance.get()
        for slug in ("visit-pei", "charlottetown-eats"):
            register(database, instance, slug)
            add_partition(instance, slug)
        with database.connect() as conn:
            _seed_operations(conn)
        with serving(database, store, dagster_url=dagster_url) as web:
            yield web


def _upload_and_confirm(page, web: str, dmo: str, path: Path) -> str:
    """Phase one (upload, summary), then phase two (confirm); returns the status page's text."""
    page.goto(f"{web}/upload?dmo={dmo}")
    page.set_input_files("input[name=file]", str(path))
    page.click("text=Upload and stage")
    page.wait_for_selector("#confirm", timeout=RUN_S)
    summary = page.inner_text("table.summary")
    assert "insert" in summary
    page.click("#confirm")
    page.wait_for_selector("text=Promoted:", timeout=RUN_S)
    return page.inner_text("#upload-status")


def _live(page, web: str, dmo: str) -> int:
    page.goto(f"{web}/sources/{dmo}")
    return int(page.inner_text(".card .big"))


def _promote_from_review(page, web: str, dmo: str) -> None:
    page.goto(f"{web}/review?dmo={dmo}")
    page.click(f"text=Promote {dmo}")
    page.wait_for_selector("text=promotion of", timeout=30_000)


def _until(page, check, url: str, timeout_s: float = 240) -> None:
    import time

    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(2000)
        page.goto(url)


def test_people_run_the_listings_from_the_browser(stack, database):
    from playwright import sync_api

    web = stack
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(30_000)
        try:
            page.goto(f"{web}/review")
            assert "/login" in page.url
            page.fill("input[name=username]", "ada")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(re.compile(r".*/review$"))

            # two-phase upload: phase one's summary, then confirm
            done = _upload_and_confirm(page, web, "visit-pei", sample("visit-pei.csv"))
            assert re.search(r"Promoted: [1-9][0-9]* inserted", done)

            # edit a listing, re-import, the edit is protected (the change waits for review)
            page.goto(f"{web}/listings?q=holman")
            page.click("text=Holman's Ice Cream Parlour")
            listing_url = page.url
            page.click("text=Edit the listing")
            page.fill("form[action$='/edit'] input[name=name]", "Holman's Ice Cream (edited)")
            page.click("form[action$='/edit'] >> text=Save")
            page.wait_for_selector("text=marked as edited by hand")
            _upload_and_confirm(page, web, "visit-pei", sample("visit-pei.revision.csv"))
            page.goto(f"{web}/review?dmo=visit-pei&reason=edited")
            assert "was edited by hand" in page.inner_text("main")
            page.goto(listing_url)
            assert "Holman's Ice Cream (edited)" in page.inner_text("h1")

            # approve and reject review items (the revision's deletions), promote, see the live listings change
            before = _live(page, web, "visit-pei")
            page.goto(f"{web}/review?dmo=visit-pei")
            page.screenshot(path=str(SCREENSHOTS / "review.png"), full_page=False)
            page.goto(f"{web}/review?dmo=visit-pei&reason=absent")
            gone, kept = page.locator("article.item", has_text="Receiver Coffee"), \
                page.locator("article.item", has_text="Farmers' Market")
            gone.locator("text=Approve").click()
            page.wait_for_selector("article.item:has-text('approved')")
            kept.locator("text=Reject").click()
            page.wait_for_selector("article.item:has-text('rejected')")
            _promote_from_review(page, web, "visit-pei")
            _until(page, lambda: _live(page, web, "visit-pei") == before - 1, f"{web}/sources/visit-pei")

            # restore the soft delete: the listing is live again
            page.goto(f"{web}/listings/deleted")
            row = page.locator("table tbody tr", has_text="Receiver Coffee")
            row.locator("text=Restore").click()
            page.wait_for_selector("text=restored Receiver Coffee")
            assert page.locator("table tbody tr", has_text="Receiver Coffee").count() == 0
            assert _live(page, web, "visit-pei") == before

            # decide a hotel pair; requeue a dead letter
            page.goto(f"{web}/hotels/reviews")
            page.click("text=Same hotel (merge)")
            page.wait_for_selector("text=merge by ada")
            page.goto(f"{web}/deadletters")
            page.locator("input[name=ids]").first.check()
            page.click("text=Requeue the ticked")
            page.wait_for_selector("text=1 requeued by ada")

            # the health charts render (uPlot draws each into a canvas)
            page.goto(f"{web}/health")
            page.wait_for_function("document.querySelectorAll('.chart canvas').length >= 6")
            page.screenshot(path=str(SCREENSHOTS / "health.png"), full_page=True)
        finally:
            browser.close()
    with database.connect() as conn:
        name, manual = conn.execute("SELECT name, manually_modified FROM public.listings "
                                    "WHERE name LIKE 'Holman%%'").fetchone()
        requeued = conn.execute("SELECT array_agg(requeued_by) FROM pipeline.dead_letters "
                                "WHERE requeued_by IS NOT NULL").fetchone()[0]
        pair = conn.execute("SELECT decision, decided_by FROM sadie_gtm.hotel_entity_reviews").fetchone()
    assert (name, manual) == ("Holman's Ice Cream (edited)", True)
    assert requeued == ["ada"] and pair == ("merge", "ada")

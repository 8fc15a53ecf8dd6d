"""Playwright on Debian's Chromium walks a reviewer through decisions they can trust: an in-place
decision undone; a bulk rejection confirmed with its count, one of it undone; a change that meets
a hand edit approved field by field; the promotion (run by the app itself, as no Dagster webserver
answers) writes the values chosen to the live listing."""

from __future__ import annotations

import csv
import re
import shutil
import time
from decimal import Decimal

import pytest

from sadie_pipeline.listings import curation
from sadie_pipeline_tests.listings.helpers import import_file, register, sample
from sadie_pipeline_tests.web.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
HOLMAN = "Holman's Ice Cream Parlour"
OUR_NAME = "Holman's (our name)"
THEIR_TEXT = "Small-batch ice cream, now with a café."


def _revision(tmp_path) -> str:
    """The sample's revision, where Holman's is renamed, described anew and sent without coordinates."""
    with sample("visit-pei.revision.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        if row["Business Name"] == HOLMAN:
            row.update({"Business Name": "Holman's Ice Cream Parlour & Café", "Description": THEIR_TEXT,
                        "Latitude": "", "Longitude": ""})
    path = tmp_path / "visit-pei.revision.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.fixture
def holman(tmp_path, sadie_env, database, local_object_store, instance) -> int:
    """visit-pei imported; Holman's name and description edited by hand; the revision imported."""
    (sadie_env / "dagster").mkdir()  # the instance the app's own runs use
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    with database.connect() as conn:
        listing, info = conn.execute("SELECT l.id, li.id FROM public.listings l JOIN public.listing_info li "
                                     "ON li.listing_id = l.id WHERE l.name = %s", (HOLMAN,)).fetchone()
        editor = curation.Editor("ada")
        curation.edit_listing(conn, listing, curation.ListingEdit(name=OUR_NAME), editor)
        curation.edit_info(conn, listing, info, curation.InfoEdit(description="Our own words."), editor)
    import_file(database, local_object_store, instance, "visit-pei", _revision(tmp_path))
    return listing


def _live(database, listing: int) -> tuple:
    with database.connect() as conn:
        return conn.execute("""SELECT l.name, loc.address1, loc.lat, li.description FROM public.listings l
                                 JOIN public.locations loc ON loc.id = l.location_id
                                 JOIN public.listing_info li ON li.listing_id = l.id WHERE l.id = %s""",
                            (listing,)).fetchone()


def _promoted(database, listing: int, timeout_s: float = 240) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with database.connect() as conn:
            if conn.execute("SELECT bool_or(promoted_at IS NOT NULL) FROM staging.listings WHERE target_listing_id = %s "
                            "AND review_status = 'approved'", (listing,)).fetchone()[0]:
                return
        time.sleep(1)
    raise AssertionError("the promotion did not apply the decision")


def _sign_in(page, web: str) -> None:
    page.goto(f"{web}/review")
    page.fill("input[name=username]", "rita")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/review$"))


def _undo_in_place(page, web: str) -> None:
    page.goto(f"{web}/review?dmo=visit-pei&reason=absent")
    before = page.inner_text("#pending-count")
    first = page.locator("article.item").first
    row_id = first.get_attribute("id")
    first.locator("button", has_text="Approve").click()
    page.wait_for_selector(f"#{row_id} >> text=approved")
    assert page.inner_text("#pending-count") != before  # the count follows the decision
    page.locator(f"#{row_id} button", has_text="Undo").click()
    page.wait_for_selector(f"#{row_id} button:has-text('Approve')")
    assert page.inner_text("#pending-count") == before


def _bulk_reject_confirmed(page, web: str) -> int:
    page.goto(f"{web}/review?dmo=visit-pei&reason=absent")
    count = int(re.search(r"(\d+) with these filters", page.inner_text("#pending-count")).group(1))
    page.select_option("select[name=scope]", "filtered")
    page.click("#bulk button[value=reject]")
    page.wait_for_selector(f"h1:has-text('Reject {count} row')")
    assert page.locator("#confirm-bulk input[name=confirm]").get_attribute("value") == str(count)
    page.click(f"#confirm-bulk >> text=Reject {count} row")
    page.wait_for_selector(f"text={count} rejected by rita")
    return count


def _choose_per_field(page, web: str, listing: int) -> None:
    # renamed and moved, the record is an unsure match to the listing a person edited
    page.goto(f"{web}/review?dmo=visit-pei&reason=fuzzy")
    item = page.locator("article.item", has_text=OUR_NAME)
    assert f"Maybe the same place as listing {listing} “{OUR_NAME}”" in item.inner_text()
    assert item.locator(".badge.update").inner_text() == f"update listing {listing}"
    assert item.get_by_label("name: keep mine").is_checked()  # a field edited by hand is kept unless changed
    lat = item.locator("tbody tr").filter(has_text=re.compile(r"^lat\s"))
    assert "no value: the live value stays" in lat.inner_text()
    item.get_by_label("description: take theirs").check()
    item.locator("button", has_text="Approve").click()
    page.wait_for_selector("article.item:has-text('keeping name')")


def test_a_reviewer_decides_with_confirmation_undo_and_field_choices(holman, web, database):
    from playwright import sync_api

    listing = holman
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(30_000)
        try:
            _sign_in(page, web)
            _undo_in_place(page, web)
            rejected = _bulk_reject_confirmed(page, web)
            page.locator("form[action$='/undo'] button", has_text="Undo").first.click()
            page.wait_for_selector("text=decision undone by rita")
            _choose_per_field(page, web, listing)
            page.goto(f"{web}/review?dmo=visit-pei")
            page.click("text=Promote visit-pei")
            page.wait_for_selector("text=promotion of visit-pei launched")
            _promoted(database, listing)
            page.goto(f"{web}/review?dmo=visit-pei")
            holman_row = page.locator("table tr", has_text="keeping name")
            assert "keeping name" in holman_row.inner_text() and holman_row.locator("text=Undo").count() == 0
        finally:
            browser.close()
    name, address, lat, description = _live(database, listing)
    assert (name, address, description) == (OUR_NAME, "9 Summer St", THEIR_TEXT)
    assert lat == Decimal("46.39600000")  # sent blank: the coordinates stayed
    with database.connect() as conn:
        states = dict(conn.execute("SELECT review_status, count(*) FROM staging.listings WHERE review_reason = "
                                   "'absent from a full import' GROUP BY 1").fetchall())
    assert states == {"rejected": rejected - 1, "pending": 1}

"""Playwright on Debian's Chromium: an admin edits a listing with bad values and sees each refused
beside its field, with what was typed kept; clears a field explicitly; and a hostile address typed
into the form never reaches an API response, nor runs in the page."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator

import httpx
import pytest

from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.web.users import add_api_key, add_user
from sadie_pipeline_tests.conftest import _truncate_all
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.data import add_dmo, add_listing
from sadie_pipeline_tests.web.server import serving

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]


@pytest.fixture(scope="module")
def app(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Database, str, int, int]]:
    """The app on its own database with an admin, an API key and one listing: (url, database, key, listing, record)."""
    _truncate_all(pg_url)
    database = Database(url=pg_url)
    with database.connect() as conn:
        add_user(conn, "ada", PASSWORD, "admin")
        listing, record = add_listing(conn, add_dmo(conn, "pei"), "Harbour Grill")
        key = add_api_key(conn, "website")
    store = ObjectStore(local_root=str(tmp_path_factory.mktemp("objects")))
    with serving(database, store) as base:
        yield base, database, key, listing, record


@pytest.fixture
def page(app):
    from playwright import sync_api

    base = app[0]
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            tab = browser.new_page(viewport={"width": 1400, "height": 1000})
            tab.set_default_timeout(30_000)
            dialogs: list[str] = []
            tab.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            tab.goto(f"{base}/login")
            tab.fill("input[name=username]", "ada")
            tab.fill("input[name=password]", PASSWORD)
            tab.click("button[type=submit]")
            tab.wait_for_url(re.compile(r".*/review$"))
            yield tab
            assert dialogs == [], f"a script ran in the page: {dialogs}"
        finally:
            browser.close()


def _contact(database: Database, record: int) -> tuple:
    with database.connect() as conn:
        return conn.execute("SELECT c.email, c.local_phone, c.international_phone, c.website_url "
                            "FROM public.listing_info li JOIN public.contact_info c ON c.id = li.contact_info_id "
                            "WHERE li.id = %s", (record,)).fetchone()


def test_an_admin_sees_field_errors_clears_a_field_and_no_hostile_value_is_served(app, page):
    base, database, key, listing, record = app
    before = _contact(database, record)
    page.goto(f"{base}/listings/{listing}")
    form = f"#edit-record-{record}"
    page.click(f"#record-{record} summary")
    page.fill(f"{form} input[name=email]", "not-an-email")
    page.fill(f"{form} input[name=local_phone]", "call us maybe")
    page.fill(f"{form} input[name=website_url]", "javascript:alert(4)")
    page.click(f"{form} >> text=Save")

    page.wait_for_selector(f"#error-{record}-website_url")
    assert "only http:// and https://" in page.inner_text(f"#error-{record}-website_url")
    assert "@-sign" in page.inner_text(f"#error-{record}-email")
    assert "not a phone number" in page.inner_text(f"#error-{record}-local_phone")
    assert page.input_value(f"{form} input[name=website_url]") == "javascript:alert(4)"  # kept, to correct
    assert page.locator("a[href^='javascript']").count() == 0
    assert _contact(database, record) == before

    page.click("text=Edit the listing")
    page.fill("#edit-listing input[name=lat]", "999")
    page.fill("#edit-listing input[name=name]", "   ")
    page.click("#edit-listing >> text=Save")
    page.wait_for_selector("#error-listing-lat")
    assert "between -90 and 90" in page.inner_text("#error-listing-lat")
    assert "needs a name" in page.inner_text("#error-listing-name")

    # a blank field stays; the "clear" box empties it
    page.goto(f"{base}/listings/{listing}")
    page.click(f"#record-{record} summary")
    page.fill(f"{form} input[name=email]", "")
    page.fill(f"{form} input[name=local_phone]", "(902) 555-0177")
    page.click(f"{form} >> text=Save")
    page.wait_for_selector("text=saved: local_phone")
    assert _contact(database, record)[:3] == ("hi@example.com", "(902) 555-0177", "+19025550177")
    page.click(f"#record-{record} summary")
    page.check(f"{form} input[name=clear][value=email]")
    page.click(f"{form} >> text=Save")
    page.wait_for_selector("text=saved: email (cleared)")
    assert _contact(database, record)[0] is None
    assert "email: hi@example.com → (empty)" in page.inner_text("#history")

    with httpx.Client(base_url=base, headers={"X-API-Key": key}) as api:
        contact = api.get(f"/v1/listings/{listing}").json()["records"][0]["contact"]
    assert contact["website_url"] == "https://example.com" and contact["email"] is None
    assert contact["international_phone"] == "+19025550177"

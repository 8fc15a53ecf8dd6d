"""Playwright on Debian's Chromium: a salesperson logs in, filters the leads, approves one the
criteria would reject and rejects one they would take (each row changes in place through htmx), the launch
honours both, and the hotel page shows the approval applied. Saves docs/screenshots/leads.png and
docs/screenshots/hotel.png."""

from __future__ import annotations

import re

import pytest

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.test_browser import ARGS, CHROMIUM, SCREENSHOTS
from sadie_pipeline_tests.web.test_leads import _launch, _state, sales_users, seed_leads

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_sales_decides_leads_in_the_browser(web, database, instance):
    from playwright import sync_api

    ids = seed_leads(database, instance)
    sales_users(database)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.set_default_timeout(30_000)
        page.on("dialog", lambda dialog: dialog.accept())
        try:
            page.goto(f"{web}/leads")
            page.fill("input[name=username]", "sam")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(re.compile(r".*/leads$"))
            assert [a.inner_text() for a in page.locator("header.top nav a").all()] == ["Leads", "Spend"]

            page.select_option("select[name=city]", "Miami")
            page.click("#lead-filters >> text=Filter")
            page.wait_for_url(re.compile(r".*city=Miami.*"))
            assert page.locator("tr.lead").count() == 4 and "Bay Lodge" not in page.inner_text("main")

            no_site, good = page.locator(f"#lead-{ids['no_site']}"), page.locator(f"#lead-{ids['good']}")
            assert "would reject" in no_site.inner_text() and "would launch" in good.inner_text()
            # a row's decision goes through htmx: the row changes in place, the page is not loaded again
            page.evaluate("window.sadieSamePage = true")
            no_site.locator("text=Approve").click()
            _row_shows(page, ids["no_site"], "approved over: missing website")
            good.locator(f"input[name=reason_{ids['good']}]").fill("owner said no")
            good.locator("text=Reject").click()
            _row_shows(page, ids["good"], "rejected by sam: owner said no")
            page.locator(f"#lead-{ids['held']}").locator("text=Reject").click()  # no reason given
            _row_shows(page, ids["held"], "Nothing was decided: a lead rejected needs a reason.")
            assert page.evaluate("window.sadieSamePage === true"), "the page was loaded again"
            assert page.locator("tr.lead").count() == 4 and "city=Miami" in page.url  # the filtered view stays

            # bulk: tick one lead, hold it with a reason (the form asks for a confirmation)
            page.check(f"#lead-{ids['held']} input[name=ids]")
            page.fill("#lead-bulk input[name=reason]", "call back Monday")
            page.click("#lead-bulk >> text=Hold ticked")
            page.wait_for_selector("text=Held Inn held by sam.")
            page.screenshot(path=str(SCREENSHOTS / "leads.png"), full_page=False)

            _launch(database, _held_for(database, ids["held"]))
            assert _state(database, ids["no_site"])[0] == HotelStatus.LIVE
            assert _state(database, ids["good"])[0] == HotelStatus.SCORED
            assert _state(database, ids["held"])[0] == HotelStatus.SCORED

            page.click(f"#lead-{ids['no_site']} >> text=No Site")
            page.wait_for_selector("text=Golden record and provenance")
            assert "launched" in page.inner_text("main") and "over: missing website" in page.inner_text("main")
            page.screenshot(path=str(SCREENSHOTS / "hotel.png"), full_page=False)
        finally:
            browser.close()


def _row_shows(page, hotel: int, text: str) -> None:
    """Waits until the lead's row (swapped in by htmx) shows the text."""
    page.locator(f"#lead-{hotel}", has_text=text).wait_for()


def _held_for(database, hotel: int):
    with database.connect() as conn:
        return conn.execute("SELECT held_for FROM sadie_gtm.lead_decisions WHERE hotel_id = %s",
                            (hotel,)).fetchone()[0]

"""The spend page in Debian's Chromium (no Dagster webserver: the page only reads): a salesperson
opens /spend, sees the totals and the SVG bars per service (SMTP's mailbox checks among them),
narrows the dates; the screenshot is docs/screenshots/spend.png."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest

from sadie_pipeline.core.spend import DEFAULT_PRICES, service_group
from sadie_pipeline.web.users import add_user
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.server import serving
from sadie_pipeline_tests.web.test_browser import ARGS, CHROMIUM, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# (service, calls per day over the last 30 days, share failed, price per call)
# SMTP counts under the name its per-MX-host guards ("smtp:HOST", resources/mail_verify.py) group to.
SMTP = service_group("smtp:mx1.example-hotel.com")
SERVICES = [("serper", 1800, 0.02, "0.001"), ("groq", 700, 0.01, "0.0008"), ("anthropic", 120, 0.03, "0.012"),
            ("geocoder-google", 400, 0.0, "0.005"), ("rdap", 900, 0.05, "0"), ("images", 2500, 0.04, "0"),
            (SMTP, 300, 0.12, "0")]


def _seed(database) -> None:
    today = dt.datetime.now(dt.UTC).date()
    with database.connect() as conn:
        for service, calls, failed, price in SERVICES:
            for n in range(30):
                day_calls = int(calls * (0.6 + 0.4 * ((n * 7 + len(service)) % 10) / 10))
                conn.execute("INSERT INTO pipeline.service_usage (day, service, calls, failures, cost_usd) "
                             "VALUES (%s, %s, %s, %s, %s)",
                             (today - dt.timedelta(days=n), service, day_calls, int(day_calls * failed),
                              Decimal(price) * day_calls))
        add_user(conn, "sam", PASSWORD, "sales")


def test_a_salesperson_reads_the_spend_charts(database, local_object_store):
    from playwright import sync_api

    _seed(database)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with serving(database, local_object_store) as web, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(30_000)
        try:
            page.goto(f"{web}/spend")
            page.fill("input[name=username]", "sam")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.goto(f"{web}/spend")
            assert page.locator("#spend-services tr[data-service]").count() == len(SERVICES)
            assert page.locator("svg.spend-chart").count() == len(SERVICES) + 1
            assert page.locator("#chart-serper rect.ok").count() == 30
            assert page.locator("#chart-rdap rect.failed").count() == 30
            assert SMTP == "smtp" and SMTP in DEFAULT_PRICES  # priced under the guard's name
            assert page.locator("#spend-services tr[data-service=smtp]").inner_text().startswith("smtp")
            assert page.locator("#chart-smtp rect.ok").count() == 30
            assert page.locator("#chart-smtp rect.failed").count() == 30
            page.screenshot(path=str(SCREENSHOTS / "spend.png"), full_page=True)

            week_ago = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=6)).isoformat()
            page.fill("input[name=start]", week_ago)
            page.click("form.filters button")
            page.wait_for_url(re.compile(r".*start=.*"))
            assert page.locator("#chart-serper rect.ok").count() == 7
        finally:
            browser.close()

"""Playwright with the system Chromium sees booking engines that only JavaScript injects."""

from __future__ import annotations

import os
import shutil

import pytest

from sadie_pipeline.sandbox import Sandbox

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]


@pytest.mark.browser
def test_js_only_pages_show_the_engine_after_load(sb: Sandbox) -> None:
    from playwright import sync_api

    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):  # .ci/run installs it: missing there is a failure, not a skip
            pytest.fail("no system Chromium in CI")
        pytest.skip("no system Chromium (apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, proxy={"server": sb.proxy_url})
        try:
            page = browser.new_page()
            page.goto("http://www.brickellharborhotel.test/", timeout=15000)
            link = page.wait_for_selector("#booking-widget a#book-now", timeout=5000)
            assert link.get_attribute("href") == "https://be.synxis.com/?hotel=51277&chain=24447"
            page.goto("http://www.conchrepubliccottages.test/", timeout=15000)
            frame = page.wait_for_selector("#booking-frame", state="attached", timeout=5000)
            assert frame.get_attribute("src") == "https://book-directonline.com/properties/ConchRepublicCottagesDirect"
        finally:
            browser.close()

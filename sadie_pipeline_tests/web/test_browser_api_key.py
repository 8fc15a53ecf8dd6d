"""Playwright on Debian's Chromium as a DMO's app: with one DMO's API key (an extra header on every
request the browser makes) it reads /v1/listings, sees only that DMO's listings and records, and
loads a stored image from the answer, served at the size the answer states."""

from __future__ import annotations

import pytest

from sadie_pipeline_tests.web.api_world import build_world
from sadie_pipeline_tests.web.test_browser import ARGS, CHROMIUM

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_an_app_key_of_one_dmo_reads_its_listings_and_stored_images(web, database, local_object_store, sb):
    from playwright import sync_api

    world = build_world(database, local_object_store, sb)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            app = browser.new_context(extra_http_headers={"X-API-Key": world["keys"]["alpha"]})
            page = app.new_page()
            page.set_default_timeout(30_000)
            listed = page.goto(f"{web}/v1/listings")
            assert listed.status == 200 and listed.headers["content-type"].startswith("application/json")
            assert [d["name"] for d in listed.json()["data"]] == ["Shared Inn", "Alpha Grill"]  # alpha's only
            assert page.goto(f"{web}/v1/listings/{world['beta_only']}").status == 404

            shared = page.goto(f"{web}/v1/listings/{world['shared']}").json()
            [record] = shared["records"]  # beta's record of the shared listing is not alpha's to read
            [image] = record["images"]    # the near duplicate and the failed download are not served
            assert record["dmo"] == "alpha" and image["width"] > 0 and image["height"] > 0
            # the browser draws the stored copy at the size the answer gives (the key goes with the request)
            drawn = page.evaluate("""url => new Promise((done, failed) => {
                const img = new Image();
                img.onload = () => done([img.naturalWidth, img.naturalHeight]);
                img.onerror = () => failed(new Error("the image did not load"));
                img.src = url; })""", image["url"])
            assert drawn == [image["width"], image["height"]]
            loaded = page.goto(image["url"])
            assert loaded.status == 200 and loaded.headers["content-type"].startswith("image/")

            stranger = browser.new_context().new_page()  # no key: nothing is read
            assert stranger.goto(f"{web}/v1/listings").status == 401
            assert stranger.goto(image["url"]).status == 401
        finally:
            browser.close()

"""Playwright on Debian's Chromium (issue 30): the listings search and the review page's "Match to..."
box forgive accents, case, "&" for "and", word order and typos; a link with ?msg= puts no words
in the app's banner; a password reset by an admin ends the user's session in another browser."""

from __future__ import annotations

import re
import shutil

import pytest

from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.data import add_dmo, add_job, add_listing, add_pending

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
CAFES = [f"Café {name}" for name in ("Lune", "Soleil", "des Arts", "Bleu", "du Port", "Mimi", "Étoile", "Noir")]
OTHERS = ["Auberge Côte Est", "Harbour & Vine", "Island Hotel", "Charlottetown Bakery"]


@pytest.fixture
def seeded(web, database) -> dict[str, int]:
    """Listings with accents and ampersands, and a pending review row of the same DMO."""
    with database.connect() as conn:
        dmo = add_dmo(conn, "pei")
        for name in CAFES + OTHERS:
            add_listing(conn, dmo, name)
        row = add_pending(conn, add_job(conn, dmo), dmo, "Cafe Lune (new)")
        trigram = conn.execute("SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'").fetchone()[0] == 1
    return {"row": row, "typos": trigram}


@pytest.fixture
def browser():
    from playwright import sync_api

    with sync_api.sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


def _login(context, web: str, name: str, password: str = PASSWORD):
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{web}/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/review"))
    return page


def _found(page, web: str, q: str) -> list[str]:
    page.goto(f"{web}/listings")
    page.fill("input[name=q]", q)
    page.click("form.filters button")
    page.wait_for_load_state()
    return [a.inner_text() for a in page.locator("table tbody td:nth-child(2) a").all()]


def test_search_forgives_accents_ampersands_order_and_typos(web, seeded, browser):
    page = _login(browser.new_context(), web, "rita")
    assert sorted(_found(page, web, "cafe")) == sorted(CAFES)
    assert sorted(_found(page, web, "CAFÉ")) == sorted(CAFES)
    assert _found(page, web, "cote") == ["Auberge Côte Est"]
    assert _found(page, web, "est côte auberge") == ["Auberge Côte Est"]
    assert _found(page, web, "and") == ["Harbour & Vine"]
    assert _found(page, web, "vine & harbour") == ["Harbour & Vine"]
    assert _found(page, web, "zzqx") == []
    if seeded["typos"]:  # pg_trgm is contrib: the embedded server has none, and so no typo tolerance
        assert _found(page, web, "aubrge cote") == ["Auberge Côte Est"]
        assert _found(page, web, "charlotetown bakry") == ["Charlottetown Bakery"]

    # the review page's "Match to..." box searches the same way
    row = seeded["row"]
    page.goto(f"{web}/review")
    page.click(f"#item-{row} summary:has-text('Match to')")
    page.fill(f"input[aria-label='find a listing for row {row}']", "cafe lune")
    page.wait_for_selector(f"#cand-{row} li:has-text('Café Lune')")
    assert page.locator(f"#cand-{row} li").count() == 1


def test_a_msg_link_puts_no_words_in_the_banner(web, seeded, browser):
    page = _login(browser.new_context(), web, "vera")
    page.goto(f"{web}/review?msg=Your+session+expired.+Call+IT+and+give+them+your+password")
    assert page.locator("p.flash").count() == 0
    assert "Call IT" not in page.content()


def test_a_password_reset_ends_the_other_browsers_session(web, seeded, browser):
    rita = _login(browser.new_context(), web, "rita")
    rita.goto(f"{web}/review")
    assert "/login" not in rita.url
    admin = _login(browser.new_context(), web, "ada")
    admin.goto(f"{web}/users")
    admin.fill("form.inline input[name=name]", "rita")
    admin.fill("form.inline input[name=password]", "a brand new passphrase")
    admin.select_option("form.inline select[name=role]", "reviewer")
    admin.click("form.inline button")
    admin.wait_for_selector("p.flash:has-text('user rita saved')")
    admin.reload()
    assert admin.locator("p.flash").count() == 0   # shown once
    rita.goto(f"{web}/review")
    assert "/login" in rita.url                    # her old session is over
    again = _login(browser.new_context(), web, "rita", "a brand new passphrase")
    again.goto(f"{web}/review")
    assert "/login" not in again.url

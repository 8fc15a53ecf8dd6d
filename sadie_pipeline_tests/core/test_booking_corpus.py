"""Detection on the corpus generated from the catalogue (sadie_pipeline/sandbox/detection_corpus.py):
every engine on its page and on a page per declared pattern, JavaScript-only pages judged to need a
browser (and showing nothing without one), uncatalogued booking hosts reported, and no false
positive on the negatives. The rendered and followed pages go through the fetcher in
resources/test_web.py and sandbox/test_browser.py."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.booking_engines import LODGING_CATEGORIES, analyze, load_catalogue
from sadie_pipeline.sandbox.detection_corpus import (
    engine_sites,
    followed_sites,
    js_only_sites,
    negative_sites,
    sample,
    signal_sites,
    unknown_sites,
)

STRONG = 0.4  # above a vendor's "powered by" link


def found(site) -> str | None:
    page = analyze(site.pages["/"], site.url)
    strong = [d for d in page.detections if d.confidence > STRONG]
    return strong[0].name if strong else None


def test_the_corpus_has_a_page_per_engine_and_per_pattern():
    engines = load_catalogue()
    assert {s.engine for s in engine_sites()} == {e.name for e in engines}
    patterns = sum(len(e.domains) + len(e.link_patterns) + len(e.script_srcs) + len(e.iframe_srcs)
                   + len(e.form_actions) + len(e.js_globals) for e in engines)
    assert len(signal_sites()) == patterns
    assert {s.signal for s in engine_sites()} >= {"link", "pattern", "script", "iframe", "form", "js_global"}


@pytest.mark.parametrize("site", engine_sites(), ids=lambda s: s.key)
def test_every_catalogued_engine_is_found_on_its_page(site):
    page = analyze(site.pages["/"], site.url)
    best = page.detections[0]
    assert (best.name, best.confidence > STRONG) == (site.engine, True), page.detections
    if site.signal in ("link", "pattern", "iframe", "form"):
        assert best.booking_url and best.booking_url.startswith("https://")


def test_every_declared_pattern_finds_its_engine_alone():
    missed = [(s.key, s.signal) for s in signal_sites() if found(s) != s.engine]
    assert missed == []


@pytest.mark.parametrize("site", js_only_sites(every=7), ids=lambda s: s.key)
def test_javascript_only_pages_need_a_browser_and_show_nothing_without_one(site):
    page = analyze(site.pages["/"], site.url)
    assert page.detections == () and page.unknown_engines == ()
    assert page.needs_javascript is True  # all scripts inline: the bug was to judge them script-free


def test_followed_pages_show_nothing_on_the_home_page_and_the_engine_on_the_booking_page():
    sites = followed_sites(every=5)
    assert len(sites) >= 10
    for site in sites:
        home = analyze(site.pages["/"], site.url)
        assert home.detections == () and home.booking_links == (site.url + "booking/",), site.key
        booking = analyze(site.pages["/booking/"], site.url + "booking/")
        assert booking.detections[0].name == site.engine, site.key
        assert load_catalogue()[[e.name for e in load_catalogue()].index(site.engine)].category in LODGING_CATEGORIES


@pytest.mark.parametrize("site", unknown_sites(), ids=lambda s: s.key)
def test_uncatalogued_booking_hosts_are_reported(site):
    page = analyze(site.pages["/"], site.url)
    assert page.detections == ()
    assert [u.host for u in page.unknown_engines] == [site.unknown_host]
    assert page.unknown_engines[0].tier == "unknown" and page.unknown_engines[0].booking_url.startswith("https://")


@pytest.mark.parametrize("site", negative_sites(), ids=lambda s: s.key)
def test_no_false_positive_on_the_negatives(site):
    page = analyze(site.pages["/"], site.url)
    assert [d.name for d in page.detections if d.confidence > STRONG] == []
    assert page.unknown_engines == ()


@pytest.mark.parametrize("pattern, text", [
    (r"amenitiz\.io/[a-z]{2}/booking/", "amenitiz.io/aa/booking/"),
    (r"[?&]chain=\d+&(?:[^#]*&)?hotel=\d+", "?chain=0&hotel=0"),
    (r"(?:book-directonline|direct-book)\.com/properties/", "book-directonline.com/properties/"),
    (r"mews\.(?:com|li)/distributor/[0-9a-f]{8}-", "mews.com/distributor/00000000-"),
])
def test_the_pattern_sampler_writes_a_matching_string(pattern, text):
    assert sample(pattern) == text

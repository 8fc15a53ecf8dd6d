"""The grown booking-engine catalogue (issue 32): at least 300 engines, each with the public page its
facts come from and the regions it is sold in, the regional engines independent hotels use, and
every client-id rule proven on sample booking URLs through `client_id_of`."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from urllib.parse import urlsplit

import pytest

from sadie_pipeline.core.booking import catalogue
from sadie_pipeline.core.booking.client_ids import client_id_of
from sadie_pipeline.core.booking_engines import analyze, is_non_engine_host, load_catalogue

RAW = json.loads(resources.files("sadie_pipeline").joinpath("data/booking_engines.json").read_text())
ENGINES = load_catalogue()
WITH_IDS = [e for e in ENGINES if e.client_ids]
MINIMUM_PER_REGION = {"europe": 120, "asia": 30, "oceania": 20, "latin_america": 14, "north_america": 60,
                      "africa": 5}


def test_the_catalogue_has_at_least_300_engines():
    assert len(ENGINES) >= 300
    assert len(RAW["engines"]) == len(ENGINES)


def test_every_entry_names_the_public_page_its_facts_come_from():
    for e in ENGINES:
        parts = urlsplit(e.source)
        assert parts.scheme in ("http", "https") and "." in parts.netloc, (e.name, e.source)


@pytest.mark.parametrize("region, minimum", MINIMUM_PER_REGION.items())
def test_each_region_has_its_regional_engines(region, minimum):
    engines = [e for e in ENGINES if region in e.regions]
    assert len(engines) >= minimum, (region, len(engines))


def test_every_entry_says_where_it_is_sold():
    assert all(e.regions and set(e.regions) <= catalogue.REGIONS for e in ENGINES)
    assert set(Counter(r for e in ENGINES for r in e.regions)) == catalogue.REGIONS


def test_named_regional_engines_are_catalogued():
    names = {e.name for e in ENGINES}
    for name in ("Ericsoft", "Passepartout Welcome", "Dingus", "HotelNetSolutions (OnePageBooking)", "Casablanca",
                 "TOMAS", "Ctoutvert (Secureholiday)", "KWHotel", "HotelTime", "Previo", "Phobs", "BookVisit",
                 "VisBook", "Foco Multimidia", "Hospedin", "ResAvenue (AsiaTech)", "Travelanium", "Aiosell",
                 "489pro (Yoyaku Pro)", "ResOnline", "HiRUM", "Check-Inn (Innsoft)", "Staylist"):
        assert name in names, name


def test_at_least_50_engines_read_a_client_id_and_every_rule_has_examples():
    assert len(WITH_IDS) >= 50
    for e in WITH_IDS:
        assert e.client_id_examples, e.name
        for rule in e.client_ids:  # every rule is exercised by one of the entry's examples
            assert any(rule.search(url) for url, _ in e.client_id_examples), (e.name, rule.pattern)


@pytest.mark.parametrize("engine", WITH_IDS, ids=lambda e: e.name)
def test_client_id_of_reads_every_example(engine):
    for url, expected in engine.client_id_examples:
        found = client_id_of(url)  # the URL's host (or white-label pattern) names the engine by itself
        assert found is not None and (found.engine, found.client_id) == (engine.name, expected.lower()), (url, found)
        assert client_id_of(url, engine.name) == found


@pytest.mark.parametrize("url, engine", [
    ("https://www.littlehotelier.com/", "Little Hotelier"),  # the vendor's own site names no property
    ("https://www.hotelrunner.com/pricing", "HotelRunner"),
    ("https://www.guesty.com/", None),
    ("https://www.bookvisit.com/features/", None),
])
def test_vendor_sites_name_no_client(url, engine):
    assert client_id_of(url, engine) is None


def test_regional_otas_and_widget_hosts_are_never_engines():
    for host in ("www.hotel.de", "www.traveloka.com", "www.tiket.com", "www.yatra.com", "www.despegar.com.ar",
                 "api.trustyou.com", "widget.reviewpro.com", "code.tidio.co", "widget.intercom.io", "www.hurb.com",
                 "www.stayz.com.au", "cdn.thehotelsnetwork.com", "embed.tawk.to", "onboard.triptease.io"):
        assert is_non_engine_host(host), host
    page = ('<html><body><p>' + "Rooms by the sea. " * 20 + '</p>'
            '<a href="https://www.hotel.de/de/quay-hotel/">Book on hotel.de</a> '
            '<a href="https://www.despegar.com.ar/hoteles/h-123">Reservar en Despegar</a>'
            '<script src="https://api.trustyou.com/hotels/abc/seal.js"></script>'
            '<script async src="https://code.tidio.co/abc.js"></script></body></html>')
    result = analyze(page, "https://www.quayhotel.com/")
    assert result.detections == () and result.unknown_engines == ()


def _entry(**overrides):
    raw = {"name": "Test Engine", "tier": 1, "domains": ["testengine.example"], "source": "https://testengine.example",
           "regions": ["europe"], "client_ids": [r"testengine\.example/book/(?P<id>\d+)"],
           "client_id_examples": [["https://be.testengine.example/book/42", "42"]]}
    return {**raw, **overrides}


@pytest.mark.parametrize("overrides, message", [
    ({"regions": ["atlantis"]}, "unknown regions"),
    ({"source": "testengine.example"}, "source must be an http"),
    ({"client_id_examples": [["https://be.testengine.example/book/42", "43"]]}, "not '43'"),
    ({"client_id_examples": [["https://be.testengine.example/book/42"]]}, "pairs"),
    ({"client_ids": []}, "without client_ids"),
])
def test_the_loader_rejects_bad_regions_sources_and_examples(overrides, message):
    assert catalogue._parse_engine(_entry()).client_id_examples == (("https://be.testengine.example/book/42", "42"),)
    with pytest.raises(ValueError, match=message):
        catalogue._parse_engine(_entry(**overrides))

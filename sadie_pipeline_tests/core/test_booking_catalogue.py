"""The booking-engine catalogue as data: it loads, is large enough, every entry can be found,
and no two entries (nor an entry and the non-engine hosts) claim the same hosts."""

from __future__ import annotations

import json
import re
from importlib import resources

import tldextract

from sadie_pipeline.core.booking_engines import (
    LODGING_CATEGORIES,
    detect,
    is_non_engine_host,
    load_catalogue,
    non_engine_hosts,
    registrable_domain,
)

RAW = json.loads(resources.files("sadie_pipeline").joinpath("data/booking_engines.json").read_text())
PATTERN_FIELDS = ("domains", "script_srcs", "link_patterns", "iframe_srcs", "form_actions", "js_globals")


def _host_part(substring: str) -> str | None:
    head = substring.split("/", 1)[0]
    return head if "." in head else None


def test_the_data_file_loads_with_at_least_120_engines_and_unique_names():
    engines = load_catalogue()
    assert len(engines) >= 120
    names = [e.name.lower() for e in engines]
    assert len(set(names)) == len(names)
    assert len(RAW["engines"]) == len(engines)


def test_every_entry_has_a_vendor_tier_pattern_and_booking_url_rule():
    for raw in RAW["engines"]:
        assert raw["vendor"] and raw["tier"] in (1, 2) and raw["comment"], raw["name"]
        assert any(raw.get(f) for f in PATTERN_FIELDS), raw["name"]
        assert raw["booking_url"]["from"] in ("evidence", "template"), raw["name"]
        assert raw["domains"], raw["name"]  # a host: the corpus and the JS-only pages are built from it
        for p in raw["link_patterns"]:
            re.compile(p)


def test_the_catalogue_reaches_beyond_the_us():
    names = {e.name for e in load_catalogue()}
    for name in ("Roiback", "Mirai", "Witbooking", "Guestcentric", "Blastness", "seekda", "Profitroom", "Omnibees",
                 "Letsbook", "Pxsol", "Djubo", "AxisRooms", "tripla", "Seekom", "Bookeasy", "STAAH", "eZee Reservation",
                 "WebHotelier", "Simple Booking", "Vertical Booking", "D-EDGE", "Octorate", "WuBook", "apaleo"):
        assert name in names, name
    rooms = [e for e in load_catalogue() if e.category in LODGING_CATEGORIES and e.tier == 1]
    assert len(rooms) >= 90


def test_no_booking_host_is_claimed_by_two_entries():
    owner: dict[str, str] = {}
    for e in load_catalogue():
        for d in e.domains:
            assert owner.setdefault(d, e.name) == e.name, (d, owner[d], e.name)
    for d, name in owner.items():  # nor a subdomain of another entry's host: the suffix walk would split them
        parts = d.split(".")
        for i in range(1, len(parts) - 1):
            parent = ".".join(parts[i:])
            assert owner.get(parent, name) == name, (d, name, parent, owner.get(parent))


def test_hosts_in_patterns_and_vendor_sites_belong_to_their_own_entry():
    claimed = {d: e.name for e in load_catalogue() for d in e.domains}

    def claimant(host: str) -> str | None:
        labels = host.split(".")
        return next((claimed[".".join(labels[i:])] for i in range(len(labels) - 1) if ".".join(labels[i:]) in claimed),
                    None)

    for e in load_catalogue():
        for host in [*e.vendor_hosts, *filter(None, map(_host_part, (*e.script_srcs, *e.iframe_srcs, *e.form_actions)))]:
            assert claimant(host) in (None, e.name), (e.name, host, claimant(host))


def test_engine_hosts_are_registrable_domains_and_never_non_engine_hosts():
    exact, brands = non_engine_hosts()
    assert {"booking.com", "hotels.com", "facebook.com"} <= exact and {"expedia", "airbnb", "tripadvisor"} <= brands
    extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
    for e in load_catalogue():
        for d in e.domains:
            parts = extract(d)
            assert parts.domain and parts.suffix, d  # a name under a public suffix, never a suffix itself
            assert d.endswith(registrable_domain(d)), d
            assert not is_non_engine_host(d), (e.name, d)


def test_non_engine_hosts_are_never_detected_as_engines():
    exact, brands = non_engine_hosts()
    hosts = [*exact, *(f"{b}.com" for b in brands)]
    html = "".join(f'<a href="https://www.{h}/hotel/quay">Book now</a>' for h in hosts)
    assert detect(f"<html><body>{html}</body></html>", "https://www.quayhotel.com/") == []


def test_a_template_builds_the_booking_url_from_a_widget_script():
    page = ('<html><body><p>' + "Rooms by the sea. " * 30 + '</p>'
            '<script src="https://hotels.cloudbeds.com/widget/load/AbC123/float"></script></body></html>')
    d = detect(page, "https://www.quayhotel.com/")[0]
    assert (d.name, d.method, d.booking_url) == ("Cloudbeds", "script", "https://hotels.cloudbeds.com/reservation/AbC123")

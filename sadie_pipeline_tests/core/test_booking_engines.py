"""Unit tests for sadie_pipeline.core.booking_engines: the catalogue, detection by every method,
booking-URL choice, ranking of several engines, needs_javascript and strip_to_text."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from sadie_pipeline.core.booking_engines import (
    METHODS,
    Detection,
    analyze,
    detect,
    engine_by_name,
    load_catalogue,
    needs_javascript,
    strip_to_text,
)

HOTEL = "https://www.seasideinn.com/"
FILLER = "<p>" + "Ocean view rooms with king beds, breakfast included, free parking and wifi. " * 12 + "</p>"


def page(body: str, head: str = "") -> str:
    """A realistic static hotel page around `body` (enough text not to look script-rendered)."""
    return (
        f"<!doctype html><html><head><title>Seaside Inn</title>{head}"
        '<script src="https://www.googletagmanager.com/gtag/js?id=G-1"></script></head>'
        '<body><nav><a href="/">Home</a> <a href="/rooms/">Rooms</a> <a href="/contact/">Contact</a></nav>'
        f"<main><h1>Seaside Inn</h1>{FILLER}{body}</main>"
        '<footer><a href="https://www.facebook.com/seasideinn">Facebook</a>'
        ' <a href="https://www.tripadvisor.com/Hotel_Review-g1-d2">Tripadvisor</a></footer></body></html>'
    )


def only(detections: list[Detection]) -> Detection:
    assert len(detections) == 1, detections
    return detections[0]


# --- catalogue --------------------------------------------------------------------------------

def test_catalogue_has_at_least_120_engines_with_unique_names_sorted_by_name():
    engines = load_catalogue()
    names = [e.name for e in engines]
    assert len(engines) >= 120
    assert len({n.lower() for n in names}) == len(names)
    assert names == sorted(names, key=str.lower)


def test_every_engine_has_a_tier_a_comment_and_at_least_one_signal():
    for e in load_catalogue():
        assert e.tier in {1, 2}, e.name
        assert e.comment, e.name
        assert e.signal_count >= 1, e.name
        assert e.category in {"hotel_booking_engine", "crs", "vacation_rental", "activities"}, e.name


def test_both_tiers_are_used_and_independent_hotel_engines_are_tier_1():
    tiers = {e.name: e.tier for e in load_catalogue()}
    assert {1, 2} <= set(tiers.values())
    for name in ("Cloudbeds", "SiteMinder", "Mews", "WebRezPro", "ResNexus", "ThinkReservations",
                 "Little Hotelier", "innRoad", "RMS Cloud", "eviivo"):
        assert tiers[name] == 1, name
    for name in ("Sabre SynXis", "iHotelier (Amadeus / TravelClick)", "Guesty", "Lodgify", "FareHarbor"):
        assert tiers[name] == 2, name


def test_catalogue_json_is_plain_json_with_the_documented_fields():
    raw = json.loads(resources.files("sadie_pipeline").joinpath("data/booking_engines.json").read_text())
    assert raw["comment"]
    fields = {"name", "tier", "domains", "script_srcs", "link_patterns", "iframe_srcs", "js_globals",
              "cookies", "comment"}
    for entry in raw["engines"]:
        assert fields <= entry.keys(), entry["name"]
        for p in entry["link_patterns"]:
            re.compile(p)


def test_engine_by_name_is_case_insensitive():
    assert engine_by_name("cloudbeds").name == "Cloudbeds"
    assert engine_by_name("No Such Engine") is None


# --- one test per detection method ------------------------------------------------------------

def test_link_with_booking_text():
    d = only(detect(page('<a class="btn" href="https://hotels.cloudbeds.com/reservation/AbC123">Book Now</a>'),
                    HOTEL))
    assert (d.name, d.tier, d.method) == ("Cloudbeds", 1, "link")
    assert d.booking_url == "https://hotels.cloudbeds.com/reservation/AbC123"
    assert d.confidence == pytest.approx(0.95)


def test_plain_link_without_booking_text_is_slightly_less_sure():
    d = only(detect(page('<a href="https://secure.webrezpro.com/booking/?pid=42">Seaside Inn</a>'), HOTEL))
    assert (d.name, d.method, d.confidence) == ("WebRezPro", "link", pytest.approx(0.9))


def test_get_form_booking_url_carries_the_hidden_property_id():
    html = page('<form action="https://beds24.com/booking2.php" method="get" target="_blank">'
                '<input type="hidden" name="propid" value="208827"><input type="date" name="checkin">'
                '<button type="submit">Check availability</button></form>')
    d = only(detect(html, HOTEL))
    assert (d.name, d.method) == ("Beds24", "form")
    assert d.booking_url == "https://beds24.com/booking2.php?propid=208827"


def test_post_form_keeps_its_action():
    html = page('<form method="post" action="https://reservations.verticalbooking.com/premium/index2.html">'
                '<input type="hidden" name="id_albergo" value="146"></form>')
    d = only(detect(html, HOTEL))
    assert (d.name, d.method, d.booking_url) == (
        "Vertical Booking", "form", "https://reservations.verticalbooking.com/premium/index2.html")


def test_iframe_and_lazy_iframe():
    d = only(detect(page('<iframe src="https://direct-book.com/properties/seasideinndirect?locale=en"></iframe>'),
                    HOTEL))
    assert (d.name, d.method, d.booking_url) == (
        "SiteMinder", "iframe", "https://direct-book.com/properties/seasideinndirect?locale=en")
    lazy = only(detect(page('<iframe class="lazyload" data-src="https://book.nightsbridge.com/32988"></iframe>'),
                       HOTEL))
    assert (lazy.name, lazy.method, lazy.booking_url) == ("NightsBridge", "iframe", "https://book.nightsbridge.com/32988")


def test_script_widget_has_no_booking_url():
    html = page('<script async data-form-id="5d6060985a0cc" src="https://secured.sirvoy.com/widget/sirvoy.js">'
                "</script>")
    d = only(detect(html, HOTEL))
    assert (d.name, d.method, d.booking_url) == ("Sirvoy", "script", None)
    assert d.confidence == pytest.approx(0.85)


def test_inline_loader_and_js_global_in_inline_script():
    loader = ("<script>(function(m,i,r,e,w,s){s=m.createElement(i);s.async=1;s.src=r;"
              "e=m.getElementsByTagName(i)[0];e.parentNode.insertBefore(s,e);})"
              "(document,'script','https://api.mews.com/distributor/distributor.min.js');"
              "Mews.Distributor({configurationIds:['db6703b3-a9ad-417a-9c41-b1bc0080de44']});</script>")
    d = only(detect(page(loader), HOTEL))
    assert d.name == "Mews"
    assert set(d.methods) == {"script", "js_global"}
    assert d.booking_url is None  # the loader script is an asset, not a booking page


def test_observed_js_global():
    d = only(detect(None, js_globals=["jQuery", "clockPmsWbeInit"]))
    assert (d.name, d.method, d.evidence) == ("Clock PMS", "js_global", "clockPmsWbeInit")


def test_cookie_domain_in_every_accepted_shape():
    for cookie in ({"name": "cb_session", "domain": ".hotels.cloudbeds.com", "path": "/"},
                   ("cb_session", "hotels.cloudbeds.com")):
        d = only(detect("", cookies=[cookie, {"name": "_ga", "domain": ".seasideinn.com"}]))
        assert (d.name, d.method) == ("Cloudbeds", "cookie")
    assert detect("", cookies=["_ga", "PHPSESSID"]) == []


def test_request_urls_seen_by_the_browser():
    d = only(detect(page(""), HOTEL, request_urls=[
        "https://www.google-analytics.com/g/collect?v=2",
        "https://be.synxis.com/?chain=1234&hotel=5678&locale=en-US",
        "https://be.synxis.com/assets/app.js",
    ]))
    assert (d.name, d.tier, d.method) == ("Sabre SynXis", 2, "request")
    assert d.booking_url == "https://be.synxis.com/?chain=1234&hotel=5678&locale=en-US"


def test_page_redirected_onto_the_engine():
    d = only(detect("<html><body>Book your stay</body></html>", "https://via.eviivo.com/TheSeasideInn12345"))
    assert (d.name, d.method, d.confidence) == ("eviivo", "link", 1.0)
    assert d.booking_url == "https://via.eviivo.com/TheSeasideInn12345"


def test_onclick_window_open_and_json_escaped_urls():
    d = only(detect(page('<a href="#" onclick="window.open(\'https://oceansunset.client.innroad.com/\')">'
                         "Reserve</a>"), HOTEL))
    assert (d.name, d.method, d.booking_url) == ("innRoad", "script", "https://oceansunset.client.innroad.com/")
    escaped = page('<script>var cfg={"bookingUrl":"https:\\/\\/hotelrunner-demo.hotelrunner.com\\/bv3\\/search"};'
                   "</script>")
    d = only(detect(escaped, HOTEL))
    assert (d.name, d.booking_url) == ("HotelRunner", "https://hotelrunner-demo.hotelrunner.com/bv3/search")


def test_every_method_reported_is_a_known_method():
    html = page('<a href="https://hotels.cloudbeds.com/reservation/AbC123">Book</a>'
                '<script src="https://hotels.cloudbeds.com/widget/load/AbC123/float"></script>')
    for d in detect(html, HOTEL, request_urls=["https://be.synxis.com/?chain=1&hotel=2"],
                    cookies=[{"name": "x", "domain": "secure.webrezpro.com"}], js_globals=["BookingToolIframe"]):
        assert d.method in METHODS and set(d.methods) <= set(METHODS)


# --- relative and absolute URLs ---------------------------------------------------------------

def test_protocol_relative_link_is_made_absolute():
    d = only(detect(page('<a href="//hotels.cloudbeds.com/reservation/AbC123">Book</a>'), HOTEL))
    assert d.booking_url == "https://hotels.cloudbeds.com/reservation/AbC123"


def test_relative_link_resolved_against_base_href():
    html = page('<a href="reservations/book/7F3A?from=site">Book online</a>',
                head='<base href="https://resnexus.com/resnexus/">')
    d = only(detect(html, HOTEL))
    assert d.name == "ResNexus"
    assert d.booking_url == "https://resnexus.com/resnexus/reservations/book/7F3A?from=site"


def test_relative_links_on_a_page_served_by_the_engine():
    html = '<html><body><a href="/reservation/AbC123?checkin=2026-06-01">Check availability</a></body></html>'
    d = only(detect(html, "https://hotels.cloudbeds.com/en/reservation/AbC123"))
    assert d.name == "Cloudbeds" and d.method == "link"
    assert d.booking_url == "https://hotels.cloudbeds.com/en/reservation/AbC123"  # the page itself ranks first


def test_relative_same_site_links_are_not_engines():
    assert detect(page('<a href="/book/">Book now</a> <a href="rooms/deluxe.html">Deluxe</a>'), HOTEL) == []


def test_engine_link_that_carries_the_site_url_as_referrer():
    url = "https://hotels.cloudbeds.com/reservation/AbC123?referrer=https://www.seasideinn.com/rooms/"
    assert only(detect(page(f'<a href="{url}">Book</a>'), HOTEL)).booking_url == url


def test_host_matching_is_case_insensitive_and_ignores_ports_but_keeps_the_url():
    d = only(detect(page('<a href="HTTPS://Hotels.CloudBeds.com:443/reservation/AbC123">Book</a>'), HOTEL))
    assert d.booking_url == "HTTPS://Hotels.CloudBeds.com:443/reservation/AbC123"


def test_white_label_host_found_by_pattern_with_lower_confidence():
    html = page('<a href="https://reservations.seasideinn.com/?Chain=5159&Hotel=12345&locale=en-US">Book</a>')
    d = only(detect(html, HOTEL))
    assert (d.name, d.method) == ("Sabre SynXis", "link")
    assert d.confidence < 0.9
    assert d.booking_url.startswith("https://reservations.seasideinn.com/?Chain=5159")


# --- several engines, vendor links, no engine -------------------------------------------------

def test_first_party_engine_beats_a_sister_property_link():
    html = page(
        '<a class="btn-book" href="https://hotels.cloudbeds.com/reservation/AbC123">Book now</a>'
        '<script src="https://hotels.cloudbeds.com/widget/load/AbC123/float"></script>'
        '<p>Our sister hotel: <a href="https://be.synxis.com/?chain=1234&hotel=99">Harbour Hotel</a></p>'
    )
    found = detect(html, HOTEL)
    assert [d.name for d in found] == ["Cloudbeds", "Sabre SynXis"]
    assert found[0].confidence > found[1].confidence
    assert found[0].methods == ("link", "script")


def test_room_engine_ranks_before_an_activity_tool():
    html = page('<a href="https://fareharbor.com/embeds/book/seaside-tours/?full-items=yes">Book a tour</a>'
                '<a href="https://fareharbor.com/embeds/book/seaside-tours/items/1/">Book kayaks</a>'
                '<a href="https://secure.thinkreservations.com/seasideinn/reservations">Rates</a>')
    assert [d.name for d in detect(html, HOTEL)] == ["ThinkReservations", "FareHarbor"]


def test_best_booking_url_prefers_a_booking_link_then_iframe_then_form():
    html = page(
        '<form action="https://direct-book.com/properties/seasidedirect"><input type="hidden" name="locale" '
        'value="en"></form>'
        '<iframe src="https://direct-book.com/properties/seasidedirect?embed=1"></iframe>'
        '<a href="https://direct-book.com/">SiteMinder</a>'
        '<a href="https://direct-book.com/properties/seasidedirect?locale=en&items[0][adults]=2">Book now</a>'
    )
    d = only(detect(html, HOTEL))
    assert d.booking_url == "https://direct-book.com/properties/seasidedirect?locale=en&items[0][adults]=2"
    no_text = page('<form action="https://direct-book.com/properties/seasidedirect"></form>'
                   '<iframe src="https://direct-book.com/properties/seasidedirect?embed=1"></iframe>')
    assert only(detect(no_text, HOTEL)).booking_url == "https://direct-book.com/properties/seasidedirect?embed=1"


def test_vendor_marketing_link_is_weak_evidence_without_booking_url():
    html = page('<footer>Powered by <a href="https://www.cloudbeds.com/">Cloudbeds</a></footer>')
    d = only(detect(html, HOTEL))
    assert (d.name, d.confidence, d.booking_url) == ("Cloudbeds", 0.4, None)
    assert detect(html, HOTEL, min_confidence=0.5) == []


def test_vendor_host_url_that_matches_a_booking_pattern_is_strong():
    html = page('<a href="https://www.simplebooking.it/ibe2/hotel/9131?lang=EN">Book</a>'
                '<a href="http://www.simplebooking.it">Powered by Simple Booking</a>')
    d = only(detect(html, HOTEL))
    assert d.confidence >= 0.9
    assert d.booking_url == "https://www.simplebooking.it/ibe2/hotel/9131?lang=EN"


@pytest.mark.parametrize("body", [
    "",
    '<a href="https://www.booking.com/hotel/us/seaside-inn.html">Booking.com</a>'
    '<a href="https://www.expedia.com/Seaside-Inn.h123.Hotel-Information">Expedia</a>',
    "<!-- old engine: <a href=\"https://hotels.cloudbeds.com/reservation/AbC123\">Book</a> -->",
    "<p>We moved from hotels.cloudbeds.com to a new system.</p>",
    '<a href="https://notcloudbeds.com/reservation/AbC123">x</a>'
    '<a href="https://hotels.cloudbeds.com.evil.example/reservation/AbC123">y</a>',
    '<a href="mailto:stay@seasideinn.com">Email to book</a><a href="tel:+15555550100">Call to reserve</a>',
])
def test_pages_without_an_engine(body):
    assert detect(page(body), HOTEL) == []


def test_empty_inputs():
    assert detect("") == []
    assert detect(None) == []
    assert detect(b"") == []


def test_bytes_html_is_accepted():
    html = page('<a href="https://bookings.rmscloud.com/Search/Index/12345/90/">Book</a>').encode("utf-8")
    assert only(detect(html, HOTEL)).name == "RMS Cloud"


# --- tier mapping ------------------------------------------------------------------------------

@pytest.mark.parametrize("url, name, tier", [
    ("https://hotels.cloudbeds.com/reservation/AbC123", "Cloudbeds", 1),
    ("https://book-directonline.com/properties/seasideinndirect", "SiteMinder", 1),
    ("https://app.mews.com/distributor/db6703b3-a9ad-417a-9c41-b1bc0080de44", "Mews", 1),
    ("https://secure.thinkreservations.com/seasideinn/reservations", "ThinkReservations", 1),
    ("https://res.windsurfercrs.com/ibe/index.aspx?propertyID=1234", "Windsurfer CRS", 1),
    ("https://seaside.reztrip.com/search", "RezTrip (TravelTripper / Pegasus)", 1),
    ("https://be.synxis.com/?chain=1234&hotel=5678", "Sabre SynXis", 2),
    ("https://reservations.travelclick.com/12345", "iHotelier (Amadeus / TravelClick)", 2),
    ("https://seaside.guestybookings.com/en/properties", "Guesty", 2),
    ("https://checkout.lodgify.com/seaside/en/?currency=USD#/345695", "Lodgify", 2),
])
def test_tier_comes_from_the_catalogue(url, name, tier):
    d = only(detect(page(f'<a href="{url}">Book now</a>'), HOTEL))
    assert (d.name, d.tier) == (name, tier)
    assert engine_by_name(name).tier == tier


# --- needs_javascript --------------------------------------------------------------------------

@pytest.mark.parametrize("html", [
    "",
    "<html><body></body></html>",
    # create-react-app shell
    '<!doctype html><html><head><title>Seaside Inn</title><script defer src="/static/js/main.8f2c.js"></script>'
    '</head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>'
    "</body></html>",
    # Next.js / Vue style empty mount point with bundles
    '<html><head><script type="module" src="/assets/index-4f1a.js"></script><link rel="stylesheet" '
    'href="/assets/index.css"></head><body><div id="app"></div></body></html>',
    # bot challenge
    "<html><head><title>Just a moment...</title></head><body><div>Checking your browser before accessing."
    '</div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script>' + " " * 300
    + "</body></html>",
])
def test_needs_javascript_for_shells_and_challenges(html):
    assert needs_javascript(html) is True


def test_needs_javascript_when_the_widget_is_only_a_script_loader():
    html = page('<div id="sirvoy-booking"></div><script async data-form-id="5d6060985a0cc" '
                'src="https://secured.sirvoy.com/widget/sirvoy.js"></script>')
    assert needs_javascript(html) is True


def test_needs_javascript_when_book_now_goes_nowhere_without_it():
    html = page('<a href="#" class="open-booking-modal">Book Now</a>'
                '<script src="https://www.googletagmanager.com/gtm.js?id=GTM-XXXX"></script>')
    assert needs_javascript(html) is True


@pytest.mark.parametrize("body", [
    '<a class="btn" href="https://hotels.cloudbeds.com/reservation/AbC123">Book Now</a>',
    "<p>Call us to book: 555-0100.</p>",
    '<a href="/book-now/">Book Now</a>',  # the fetcher can follow it without a browser
    '<noscript><img src="https://www.facebook.com/tr?id=1&ev=PageView"></noscript>',
])
def test_static_pages_do_not_need_javascript(body):
    assert needs_javascript(page(body)) is False


def test_spa_root_with_server_rendered_content_does_not_need_javascript():
    html = page(f'<div id="__next"><h2>Rooms</h2>{FILLER}</div>',
                head='<script src="/_next/static/chunks/main.js"></script>')
    assert needs_javascript(html) is False


# --- analyze -----------------------------------------------------------------------------------

def test_analyze_combines_detection_text_and_js_from_one_parse():
    html = page('<a class="btn" href="https://hotels.cloudbeds.com/reservation/AbC123">Book Now</a>'
                '<a href="/specials/book-direct/">Book direct and save</a><script>var x = 1;</script>')
    result = analyze(html, HOTEL)
    assert result.primary is not None and result.primary.name == "Cloudbeds"
    assert [d.name for d in result.detections] == [d.name for d in detect(html, HOTEL)]
    assert result.needs_javascript is needs_javascript(html) is False
    assert result.text == strip_to_text(html)
    assert "var x" not in result.text and "Seaside Inn" in result.text
    assert result.booking_links == ("https://www.seasideinn.com/specials/book-direct/",)


def test_analyze_without_engine_has_no_primary():
    result = analyze(page("<p>Call to book.</p>"), HOTEL)
    assert result.primary is None and result.detections == ()


# --- strip_to_text ---------------------------------------------------------------------------

def test_strip_to_text_removes_scripts_styles_and_collapses_whitespace():
    html = ("<html><head><title>Title only</title><style>body{color:red}</style>"
            "<script>var secret = 'x';</script></head><body>\n  <h1>Seaside   Inn</h1>\n\t<p>Rooms &amp; "
            "suites<br>from $99</p><script type='application/ld+json'>{\"@type\":\"Hotel\"}</script>"
            "<noscript>Enable JavaScript</noscript><template><p>hidden</p></template>"
            "<style>.x{}</style><!-- comment --><p>Caf\u00e9  \u65e5\u672c</p></body></html>")
    assert strip_to_text(html) == "Seaside Inn Rooms & suites from $99 Caf\u00e9 \u65e5\u672c"


@pytest.mark.parametrize("char", ["a", "\u00e9", "\u65e5", "\U0001F3E8"])  # 1, 2, 3 and 4 UTF-8 bytes
def test_strip_to_text_truncates_to_50_kb_on_a_utf8_boundary(char):
    html = "<html><body><p>" + (char * 9 + " ") * 8_000 + "</p></body></html>"
    full = strip_to_text(html, max_bytes=10_000_000)
    text = strip_to_text(html)
    data = text.encode("utf-8")
    assert len(data) <= 50_000
    assert len(data) > 50_000 - 4
    assert full.startswith(text)


def test_strip_to_text_small_pages_bytes_and_custom_limit():
    assert strip_to_text("") == ""
    assert strip_to_text(b"<p>Ol\xc3\xa1 mundo</p>") == "Ol\u00e1 mundo"
    assert strip_to_text("<p>\u00e9\u00e9\u00e9</p>", max_bytes=5) == "\u00e9\u00e9"


# --- large pages -------------------------------------------------------------------------------------

def _big_page() -> str:
    parts = ['<!doctype html><html><head><title>Seaside Inn</title>']
    parts += [f'<script src="https://cdn{i}.example-cdn.com/lib{i}.min.js"></script>' for i in range(25)]
    parts.append("<script>" + 'var cfg={"url":"https:\\/\\/www.seasideinn.com\\/wp-json\\/"};' * 300 + "</script>")
    parts.append("</head><body><nav>")
    parts += [f'<a href="/page-{i}/">Page {i}</a>' for i in range(150)]
    parts.append("</nav><main>")
    parts += [f'<section><h2>Room {i}</h2>{FILLER[:400]}</p><a href="{HOTEL}rooms/{i}/">Details</a>'
              f'<img src="/img/{i}.jpg"></section>' for i in range(120)]
    parts.append('<a href="https://hotels.cloudbeds.com/reservation/AbC123">Book now</a></main></body></html>')
    return "".join(parts)


def test_detect_finds_the_engine_on_a_100_kb_page():
    # Speed is measured by benchmarks/detection.py, never asserted here.
    html = _big_page()
    assert 80_000 < len(html.encode()) < 140_000
    assert detect(html, HOTEL)[0].name == "Cloudbeds"

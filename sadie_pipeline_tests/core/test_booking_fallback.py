"""The unknown-engine fallback, the JavaScript decision on pages whose scripts are all inline, and
"Book now" in the languages of the catalogue's markets."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.booking_engines import analyze, needs_javascript

HOTEL = "https://www.quayhotel.com/"
TEXT = "<p>" + "Harbour rooms with sea views, breakfast and bicycles; the beach is a short walk. " * 6 + "</p>"


def page(body: str, scripts: str = "") -> str:
    return (f"<!doctype html><html><head><title>Quay Hotel</title></head><body><h1>Quay Hotel</h1>{TEXT}{body}"
            f'<footer><a href="https://www.facebook.com/quay">Facebook</a></footer>{scripts}</body></html>')


def unknown(body: str) -> list[tuple[str, str]]:
    return [(u.host, u.method) for u in analyze(page(body), HOTEL).unknown_engines]


# --- needs JavaScript: inline scripts count ---------------------------------------------------------

INLINE = "<script>(function(){var u=String.fromCharCode(104,116);window.cfg={u:u};})();</script>"


def test_a_dead_book_now_button_with_only_inline_scripts_needs_javascript():
    html = page('<a href="#" class="book-now">Book now</a>', INLINE)
    assert needs_javascript(html) is True
    assert analyze(html, HOTEL).needs_javascript is True


def test_a_thin_page_with_only_inline_scripts_needs_javascript():
    html = "<html><head><title>Quay</title></head><body><p>Loading the Quay Hotel...</p>" + " " * 300 + INLINE
    assert needs_javascript(html + "</body></html>") is True


def test_an_empty_booking_container_filled_by_a_script_needs_javascript():
    assert needs_javascript(page('<div id="booking-engine"></div>', INLINE)) is True
    assert needs_javascript(page('<div class="facebook-feed"></div>', INLINE)) is False  # "book" in facebook
    assert needs_javascript(page('<div id="booking-engine"></div>')) is False  # no script to fill it


# --- unknown engines --------------------------------------------------------------------------------

@pytest.mark.parametrize("body, host, method", [
    ('<a href="https://booking.motorx.es/hotel/12">Reservar</a>', "booking.motorx.es", "link"),
    ('<a href="https://app.newengine.io/p/quay-hotel">Book your stay</a>', "app.newengine.io", "link"),
    ('<a href="https://www.kleinsoft.de/haus/quay">Jetzt buchen</a>', "www.kleinsoft.de", "link"),
    ('<a href="https://res.ryokan.jp/plan?h=1">ご予約</a>', "res.ryokan.jp", "link"),
    ('<iframe src="https://ibe.newengine.io/widget?hotel=77"></iframe>', "ibe.newengine.io", "iframe"),
    ('<form action="https://secure.xres.net/search"><input type="date" name="checkin"></form>', "secure.xres.net",
     "form"),
])
def test_a_third_party_booking_link_iframe_or_form_is_an_unknown_engine(body, host, method):
    assert unknown(body) == [(host, method)]
    found = analyze(page(body), HOTEL).unknown_engines[0]
    assert found.tier == "unknown" and found.domain in host and found.booking_url.startswith("https://")


def test_one_entry_per_host_the_strongest_element_first():
    body = ('<a href="https://book.alpha-res.com/q/1">Book now</a>'
            '<a href="https://book.alpha-res.com/q/1?lang=de">Buchen</a>'
            '<iframe src="https://widget.beta-res.com/booking/q"></iframe>')
    assert unknown(body) == [("widget.beta-res.com", "iframe"), ("book.alpha-res.com", "link")]


@pytest.mark.parametrize("body", [
    '<a href="https://www.booking.com/hotel/quay.html">Book now</a>',
    '<a href="https://www.expedia.de/Quay.h1">Jetzt buchen</a>',
    '<a href="https://www.instagram.com/quay/">Book via Instagram</a>',
    '<a href="https://book.quayhotel.com/rooms">Book now</a>',  # the hotel's own subdomain
    '<a href="https://hotels.cloudbeds.com/reservation/AbC123">Book now</a>',  # catalogued: a detection
    '<a href="https://www.cloudbeds.com/">Booking engine by Cloudbeds</a>',  # the vendor's site
    '<a href="https://www.bistro-partner.com/reservations">Book a table</a>',
    '<a href="https://www.sister-hotel.com/">Book our sister hotel</a>',
    '<a href="https://tours.example-trips.com/booking/1">Book a tour</a>',
    '<a href="https://cdn.files.com/rates.pdf">Booking conditions</a>',
    '<a href="https://www.partner.com/about">About our partner</a>',
    '<iframe src="https://www.youtube.com/embed/booking-video"></iframe>',
    '<form action="https://quay.us1.list-manage.com/subscribe"><input name="EMAIL"></form>',
])
def test_not_an_unknown_engine(body):
    assert unknown(body) == []

"""Booking words beyond English, "Book now" buttons whose text sits in a child element, and a
booking link to a page of an engine vendor's own site (issue 32: regional engines missed)."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.booking import analyze
from sadie_pipeline.core.booking.page import Page

HOME = "https://www.hotel-example.fi/"


def _page(body: str) -> str:
    return f"<html><head><title>Hotel</title></head><body><h1>Hotel Example</h1><p>{'Rooms by the lake. ' * 40}</p>{body}</body></html>"


@pytest.mark.parametrize("anchor", [
    '<a href="https://x.example/b"><span class="inner">Book now</span></a>',
    '<a href="https://x.example/b">Make a <b>Reservation</b></a>',
    '<button type="button"><span><i class="icon"></i> Reservar</span></button>',
])
def test_a_button_whose_text_is_in_a_child_element_says_book(anchor):
    assert [n.tag for n in Page(_page(anchor), HOME).intent_nodes()] in (["a"], ["button"])


@pytest.mark.parametrize(("host", "text"), [
    ("varaa.lapinvaraus.example", "Varaa nyt"),          # Finnish
    ("foglalas.szallasfoglalo.example", "Foglalás"),     # Hungarian
    ("boka.fjallbokning.example", "Boka rum"),           # Swedish
    ("bestill.fjordrom.example", "Bestill"),             # Norwegian
])
def test_an_uncatalogued_engine_behind_a_local_language_link_is_found(host, text):
    html = _page(f'<a class="btn" href="https://{host}/hotel-example?lang=fi"><span>{text}</span></a>')
    found = analyze(html, HOME).unknown_engines
    assert [u.host for u in found] == [host]


def test_a_plain_link_with_no_booking_word_stays_nothing():
    html = _page('<a href="https://www.visitlapland.example/kelo"><span>Visit Lapland</span></a>')
    assert analyze(html, HOME).unknown_engines == ()


def test_a_book_now_link_to_a_page_of_the_vendors_site_is_that_engine_a_powered_by_link_is_not():
    from sadie_pipeline.core.booking.catalogue import load_catalogue

    engine = next(e for e in load_catalogue() if e.vendor_hosts and e.category == "hotel_booking_engine"
                  and e.vendor_hosts[0].startswith("www."))
    vendor = engine.vendor_hosts[0]
    booked = analyze(_page(f'<a href="https://{vendor}/hotel-example-123/"><span>Book now</span></a>'), HOME)
    assert booked.primary is not None and booked.primary.name == engine.name and booked.primary.confidence > 0.4
    powered = analyze(_page(f'<footer><a href="https://{vendor}/">Powered by {engine.vendor}</a></footer>'), HOME)
    assert all(d.confidence <= 0.4 for d in powered.detections)


@pytest.mark.parametrize("href", [
    "https://www.sister-lodge.example/reservar/?origen=laspalmas",
    "https://sister-lodge.example/de/buchen/",
])
def test_a_sister_hotels_own_booking_page_is_no_engine(href):
    html = _page(f'<a href="{href}"><span>Reservar en Sister Lodge</span></a>')
    assert analyze(html, HOME).unknown_engines == ()


@pytest.mark.parametrize("href", [
    "https://www.reservasdirectas.example/reservar/?hotel=4411",   # the property named in the query
    "https://reservar.motorlocal.example/sister-lodge",            # a booking subdomain and a slug
])
def test_an_engine_page_that_names_the_property_is_an_engine(href):
    html = _page(f'<a href="{href}"><span>Reservar ahora</span></a>')
    assert len(analyze(html, HOME).unknown_engines) == 1

"""Common Crawl discovery's page reading: JSON-LD (types, @graph, lists, address as text or
PostalAddress), microdata and plain-page fallbacks, non-lodging pages rejected, regions from
addresses, and the CDX queries a region is scanned with."""

from __future__ import annotations

import json
import re

import pytest

from sadie_pipeline.core.crawl_discovery import Verdict, jsonld_items, read_engine_page, read_page
from sadie_pipeline.core.crawl_places import Address, parse_address, region_of
from sadie_pipeline.core.crawl_queries import engine_query, home_candidates, host_regex, word_queries


def _page(*blocks: object, body: str = "", title: str = "Home") -> str:
    scripts = "".join(f'<script type="application/ld+json">{b if isinstance(b, str) else json.dumps(b)}</script>'
                      for b in blocks)
    return f"<html><head><title>{title}</title>{scripts}</head><body>{body}</body></html>"


def test_jsonld_hotel_with_postal_address():
    page = _page({"@context": "https://schema.org", "@type": "Hotel", "name": "Biscayne Bay Inn",
                  "telephone": "(305) 555-0101",
                  "address": {"@type": "PostalAddress", "streetAddress": "1200 Brickell Bay Dr",
                              "addressLocality": "Miami", "addressRegion": "FL", "postalCode": "33131"}})
    r = read_page(page)
    assert r.verdict is Verdict.LODGING and r.reason == "jsonld:hotel"
    assert (r.name, r.phone) == ("Biscayne Bay Inn", "(305) 555-0101")
    assert r.address == Address("1200 Brickell Bay Dr", "Miami", "FL", "33131")
    assert r.region() == "US-FL"


def test_jsonld_graph_list_types_and_text_address():
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "name": "Site"},
        {"@type": ["LocalBusiness", "BedAndBreakfast"], "name": "Harbour B&B",
         "address": "12 Beach Rd, Bondi NSW 2026, Australia", "telephone": "+61 2 5550 1234"}]}
    r = read_page(_page([{"@type": "WebPage"}], graph))
    assert r.lodging and r.lodging_type == "bedandbreakfast" and r.name == "Harbour B&B"
    assert (r.address.street, r.address.city, r.address.state, r.address.zip) == ("12 Beach Rd", "Bondi", "NSW", "2026")
    assert r.region() == "AU-NSW"
    assert len(jsonld_items(_page(graph))) == 2


def test_broken_jsonld_is_skipped_and_state_names_map():
    page = _page("{not json", {"@type": "Motel", "name": "Ocean Motel",
                               "address": {"streetAddress": "5 Main St", "addressLocality": "Austin",
                                           "addressRegion": "Texas", "addressCountry": {"name": "US"}}})
    r = read_page(page)
    assert r.lodging and r.region() == "US-TX"


def test_microdata_fallback():
    body = """<div itemscope itemtype="https://schema.org/Hostel"><h1 itemprop="name">Casa Azul Hostal</h1>
      <div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress">
      <span itemprop="streetAddress">40 Ocean Dr</span>, <span itemprop="addressLocality">Key West</span>,
      <span itemprop="addressRegion">FL</span> <span itemprop="postalCode">33040</span></div>
      <span itemprop="telephone">305-555-0199</span></div>"""
    r = read_page(_page(body=body))
    assert r.reason == "microdata:hostel" and r.name == "Casa Azul Hostal" and r.region() == "US-FL"
    assert r.phone == "305-555-0199"


def test_plain_lodging_page_in_spanish():
    body = """<h1>Bienvenidos a Posada del Mar</h1><p>Nuestras habitaciones con vista al mar. Reserve su estancia:
      check-in desde las 15:00.</p><footer>Posada del Mar · 88 Duval St, Key West, FL 33040 ·
      <a href="tel:+13055550188">(305) 555-0188</a></footer>"""
    r = read_page(_page(body=body, title="Posada del Mar | Key West"))
    assert r.lodging and r.reason == "text" and r.name == "Posada del Mar"
    assert r.region() == "US-FL" and r.phone == "(305) 555-0188"


@pytest.mark.parametrize("page", [
    _page({"@type": "Restaurant", "name": "The Red Lion Inn", "servesCuisine": "British"}),
    _page({"@type": "RealEstateAgent", "name": "Palm Resort Homes"}),
    _page({"@type": "ItemList", "itemListElement": [{"@type": "Hotel", "name": "A"}, {"@type": "Hotel", "name": "B"}]}),
    _page(body="<h1>Harbor Inn</h1><p>Our menu: lunch, dinner, brunch and happy hour. Reserve a table.</p>",
          title="Harbor Inn Restaurant"),
    _page(body="<h1>Innovation Labs</h1><p>Software platform and solutions for developers.</p>", title="Innovation Labs"),
    _page(body="<h1>Hotel Supply Co</h1><p>Wholesale toiletries, linens and bulk supplies. Request a quote. "
               "Catalog for your guest rooms.</p>", title="Hotel Supply Co | Wholesale"),
    _page(body="<h1>Hotels in Miami</h1><p>Compare prices. 245 properties found. Sort by price. Best price. "
               "Cheap hotels. Book your stay per night.</p>", title="Hotels in Miami - compare deals"),
    _page(body="<h1>Sunset Resort Realty</h1><p>Homes for sale, listings, MLS, open house, 3 bd / 2 ba. "
               "Buy a home.</p>", title="Sunset Resort Realty"),
    _page(body="<h1>Coastal Hotel Group</h1><p>A hotel management company: our portfolio of 24 hotels, asset management "
               "for owners and investors, revenue management. Careers. Guest rooms refreshed, check-in kiosks.</p>",
          title="Coastal Hotel Group"),
    _page({"@type": "EventVenue", "name": "Magnolia Lodge Weddings"}, body="<h1>Magnolia Lodge</h1>"),
])
def test_non_lodging_pages_are_rejected(page):
    assert read_page(page).verdict is Verdict.NOT_LODGING


def test_engine_page_name_without_the_engine_words():
    html = ("<html><head><title>Little Havana Suites - Book Direct | Cloudbeds</title></head><body>"
            "<h1>Little Havana Suites</h1><div class='property-address'>1540 SW 8th St, Miami, FL 33135</div>"
            "</body></html>")
    r = read_engine_page(html, ["cloudbeds"])
    assert r.name == "Little Havana Suites" and r.region() == "US-FL"


def test_regions_from_addresses():
    assert region_of(parse_address("1 Rue Saint-Paul, Montréal, QC H2Y 1G6")) == "CA-QC"
    assert region_of(parse_address("3 Marine Pde, Perth WA 6000")) == "AU-WA"
    assert region_of(parse_address("3 Pike St, Seattle, WA 98101")) == "US-WA"
    assert region_of(Address(state="Queensland")) == "AU-QLD"
    assert region_of(Address(state="XX")) is None


def test_queries_and_candidates():
    [au] = word_queries("AU-NSW")
    assert au.url == "*.au" and au.key == "words:au:en"
    rx = re.compile(host_regex(["inn", "hotel"]))
    assert rx.search("https://www.harbourinn.com.au/") and not rx.search("https://www.harbourinn.com.au/rooms")
    assert [q.key for q in word_queries("US-FL", ["test"])] == ["words:us:en+es", "words:test:en+es"]
    q = engine_query("Cloudbeds", "cloudbeds.com", [r"cloudbeds\.com/reservation/(?P<id>[A-Za-z0-9]{6})"])
    assert "(?P<" not in q.filters[-1] and q.url == "*.cloudbeds.com"
    seen: set[str] = set()
    picked = home_candidates([("http://a.test/index.html", 1), ("https://www.a.test/", 2), ("http://b.test/", 3)],
                             lambda h: ".".join(h.split(".")[-2:]), seen)
    assert picked == [("a.test", 2), ("b.test", 3)] and seen == {"a.test", "b.test"}
    assert home_candidates([("http://a.test/", 4)], lambda h: "a.test", seen) == []
    platform = home_candidates([("https://seaviewinn.wixsite.com/", 5), ("https://harbourmotel.wixsite.com/", 6)],
                               lambda h: "wixsite.com", seen)
    assert [d for d, _ in platform] == ["harbourmotel.wixsite.com", "seaviewinn.wixsite.com"]


def test_a_brand_name_needs_a_lodging_host_and_more_evidence():
    body = ("<h1>The Betsy</h1><p>Our guest rooms and suites on Ocean Drive. Book your stay: check-in from 3 pm, "
            "front desk 24 hours.</p><footer>1440 Ocean Dr, Miami Beach, Florida 33139</footer>")
    page = _page(body=body, title="The Betsy | South Beach")
    assert read_page(page).verdict is Verdict.NOT_LODGING
    r = read_page(page, "www.thebetsyhotel.test")
    assert r.lodging and r.name == "The Betsy" and r.region() == "US-FL"
    assert not read_page(_page(body=body + "<p>Lunch, dinner, brunch menu.</p>", title="The Betsy"),
                         "www.thebetsyhotel.test").lodging

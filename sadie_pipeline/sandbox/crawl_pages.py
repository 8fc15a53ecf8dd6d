"""Pages of the Common Crawl discovery archive (issue 32): lodging home pages in several forms and
languages, booking engines' client pages, and non-lodging pages whose host names carry lodging
words. Every page is a pure function of its seed: the WARC records are written on demand.

Home-page forms of a hotel (by a hash of its id): JSON-LD `Hotel` (PostalAddress), JSON-LD
`@graph` with the address as text, a JSON-LD list with the place's own type, microdata, and plain
pages in English, Spanish, French, German and Portuguese (name in the title, address in the
footer). Decoys: an "Inn" restaurant, a "resort homes" real-estate agent, an "innovation"
company, a hotel-supply wholesaler, an OTA / directory page of a city's hotels and a travel
agency, each with JSON-LD of its trade or as a plain page.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from typing import Any

from .world import Place

SCHEMA_TYPES = {"hotel": "Hotel", "boutique_hotel": "Hotel", "inn": "Hotel", "resort": "Resort", "motel": "Motel",
                "bed_and_breakfast": "BedAndBreakfast", "hostel": "Hostel", "lodge": "LodgingBusiness",
                "vacation_rental": "LodgingBusiness"}
HOME_FORMS = ("jsonld", "jsonld_graph", "jsonld_list", "microdata", "plain_en", "plain_es", "plain_fr", "plain_de",
              "plain_pt", "plain_short")
_TYPE_WORDS = re.compile(r"\s*\b(?:boutique hotel|hotel|motel|inn|resort|suites|lodge|hostel|bed & breakfast|b&b|"
                         r"guest ?house|cottages|bungalows)\b\s*", re.I)
_WORDS = {
    "en": ("Welcome to {n}", "Our {r} guest rooms and suites look out over {c}. Book your stay with us: check-in from 3 pm, "
           "free breakfast every morning and a front desk open 24 hours.", "Rooms", "Book now"),
    "es": ("Bienvenidos a {n}", "Nuestras habitaciones en {c} le esperan. Reserve su estancia: check-in desde las 15:00, "
           "desayuno incluido para todos los huéspedes.", "Habitaciones", "Reservar"),
    "fr": ("Bienvenue à {n}", "Nos chambres au cœur de {c}. Réservez votre séjour : check-in dès 15 h, "
           "petit-déjeuner servi chaque matin.", "Chambres", "Réserver"),
    "de": ("Willkommen im {n}", "Unsere Zimmer in {c} erwarten Sie. Buchen Sie Ihren Aufenthalt: Check-in ab 15 Uhr, "
           "Frühstück inklusive.", "Zimmer", "Buchen"),
    "pt": ("Bem-vindo ao {n}", "Nossos quartos em {c} esperam por você. Reserve sua hospedagem: check-in a partir das 15h, "
           "café da manhã incluído.", "Quartos", "Reservar"),
}


def pick(seed: str, n: int) -> int:
    return int(hashlib.sha256(seed.encode()).hexdigest()[:8], 16) % n


def esc(s: object) -> str:
    return html.escape(str(s or ""))


def doc(title: str, body: str, *, head: str = "", lang: str = "en") -> str:
    return (f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"><title>{esc(title)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">{head}'
            f'<link rel="stylesheet" href="/assets/site.css"></head>\n<body>{body}\n'
            '<script src="/assets/analytics.js" async></script></body></html>\n')


def _ld(data: Any) -> str:
    return f'<script type="application/ld+json">{json.dumps(data, ensure_ascii=False)}</script>'


def _split(address: str, country: str = "US") -> dict[str, str]:
    """'1200 Brickell Bay Dr, Miami, FL 33131' (or Australian '12 Marine Pde, Manly NSW 2095') as a
    PostalAddress."""
    parts = [p.strip() for p in address.split(",")]
    tail = parts[-1].split() if parts else []
    if len(parts) == 2 and len(tail) >= 3:  # "Manly NSW 2095"
        parts, tail = [parts[0], " ".join(tail[:-2]), " ".join(tail[-2:])], tail[-2:]
    return {"@type": "PostalAddress", "streetAddress": parts[0] if parts else "",
            "addressLocality": parts[-2] if len(parts) >= 3 else "", "addressRegion": tail[0] if tail else "",
            "postalCode": tail[1] if len(tail) > 1 else "", "addressCountry": country}


def _footer(place: Place) -> str:
    return (f'<footer><p class="address">{esc(place.name)} &middot; {esc(place.address)}</p>'
            f'<p>Tel: <a href="tel:{esc(place.phone)}">{esc(place.phone)}</a></p></footer>')


def home_page(place: Place, form: str) -> str:
    """A hotel's home page in one of HOME_FORMS."""
    kind = SCHEMA_TYPES.get(place.type, "Hotel")
    lang = form.split("_", 1)[1] if form.startswith("plain_") and form != "plain_short" else "en"
    welcome, text, rooms, book = _WORDS[lang]
    body = (f'<header><a class="logo" href="/">{esc(place.name)}</a><nav><a href="/rooms">{rooms}</a> '
            f'<a href="/contact">Contact</a> <a class="book" href="/book">{book}</a></nav></header>'
            f'<main><h1>{esc(welcome.format(n=place.name))}</h1><p>{esc(text.format(r=place.rooms or 20, c=place.city))}</p>'
            f'<p>{esc(", ".join(place.amenities[:4]))}</p></main>')
    item = {"@context": "https://schema.org", "@type": kind, "name": place.name, "telephone": place.phone,
            "url": place.website, "address": _split(place.address, place.country), "priceRange": "$$"}
    if form == "jsonld":
        return doc(f"{place.name} | {place.city}", body + _footer(place), head=_ld(item))
    if form == "jsonld_graph":
        graph = {"@context": "https://schema.org", "@graph": [
            {"@type": "WebSite", "name": place.name, "url": place.website},
            {**item, "@type": ["LocalBusiness", "LodgingBusiness"], "address": place.address}]}
        return doc(f"Home - {place.name}", body + _footer(place), head=_ld(graph))
    if form == "jsonld_list":
        return doc(place.name, body + _footer(place), head=_ld([{"@context": "https://schema.org", "@type": "WebPage",
                                                                   "name": "Home"}, item]))
    if form == "microdata":
        a = _split(place.address, place.country)
        micro = (f'<div itemscope itemtype="https://schema.org/{kind}"><span itemprop="name">{esc(place.name)}</span>'
                 f'<div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress">'
                 f'<span itemprop="streetAddress">{esc(a["streetAddress"])}</span>, '
                 f'<span itemprop="addressLocality">{esc(a["addressLocality"])}</span>, '
                 f'<span itemprop="addressRegion">{esc(a["addressRegion"])}</span> '
                 f'<span itemprop="postalCode">{esc(a["postalCode"])}</span></div>'
                 f'<span itemprop="telephone">{esc(place.phone)}</span></div>')
        return doc(f"{place.name} - {place.city}", body + micro)
    if form == "plain_short":  # the brand alone ("The Betsy"): no lodging word in the page's name
        short = _TYPE_WORDS.sub(" ", place.name).strip() or place.name
        return doc(f"{short} | {place.city}", body.replace(esc(place.name), esc(short)) + _footer(place))
    return doc(f"{place.name} | {place.city}, {place.state}", body + _footer(place), lang=lang)


def engine_page(name: str, address: str, phone: str | None, engine: str, seed: str) -> str:
    """A booking engine's page for one property: JSON-LD, or the name in title and heading with the
    address (or only its city and state)."""
    form = pick(seed + ":engine-form", 3)
    if form == 0:
        item = {"@context": "https://schema.org", "@type": "Hotel", "name": name, "telephone": phone,
                "address": _split(address)}
        return doc(f"{name} - Book Direct", f'<div id="app" data-engine="{esc(engine)}"><h2>Select dates</h2></div>',
                    head=_ld(item))
    where = address if form == 1 else ", ".join(address.split(",")[-2:]).strip()
    return doc(f"{name} - Online Booking | {engine}",
                f'<div class="booking-header"><h1>{esc(name)}</h1><div class="property-address">{esc(where)}</div>'
                f'</div><div id="calendar">Check availability</div><footer>Powered by {esc(engine)}</footer>')


def engine_noise_page(engine: str, path: str) -> str:
    return doc(f"{engine} | Hotel software",
                f"<h1>{esc(engine)}: the all-in-one platform for hotels</h1><p>Software, pricing, features, "
                f"solutions for independent properties. Book a demo.</p><p>{esc(path)}</p>")


ADJ = ("Sea", "Palm", "Coral", "Sunset", "Harbor", "Bay", "Royal", "Golden", "Breeze", "Island", "Pelican",
       "Mango", "Citrus", "Lighthouse", "Driftwood", "Tropic", "Azure", "Magnolia", "Cypress", "Heron")
DECOYS = ("restaurant", "real_estate", "innovation", "supplier", "directory", "travel_agency", "management", "venue", "parked")


def decoy_page(kind: str, name: str, city: str, state: str, structured: bool) -> str:
    """A non-lodging page whose host name carries a lodging word."""
    addr = f"{100 + pick(name, 800)} Main St, {city}, {state} {33000 + pick(name + 'z', 999)}"
    texts = {
        "restaurant": ("Restaurant", f"<h1>{name}</h1><p>Lunch and dinner daily, weekend brunch and happy hour. See our menu "
                       f"of appetizers and entrées, craft beer and a wine list. Reserve a table.</p>"),
        "real_estate": ("RealEstateAgent", f"<h1>{name}</h1><p>Resort-style homes for sale in {city}. Browse listings, "
                        "MLS search, 3 bd / 2 ba condos, open house every Sunday. Buying a home? Talk to a realtor.</p>"),
        "innovation": ("Corporation", f"<h1>{name}</h1><p>Innovation for the enterprise: a software platform and "
                       "cloud-based solutions for developers. Read our case studies.</p>"),
        "supplier": ("WholesaleStore", f"<h1>{name}</h1><p>Wholesale hotel supplies: toiletries, linens and bulk amenities "
                     "for guest rooms. Request a quote, minimum order 50 units. Shop now.</p>"),
        "directory": ("ItemList", f"<h1>Hotels in {city}</h1><p>Compare prices on 245 properties found. Sort by price, "
                      "filter by stars, show on map. Best price guaranteed, cheap hotels and hotel deals.</p>"),
        "travel_agency": ("TravelAgency", f"<h1>{name}</h1><p>Your travel agency for resort vacation packages, cruises, "
                          "flights and guided tours. Custom itineraries.</p>"),
        "management": ("Organization", f"<h1>{name}</h1><p>A hotel management company: our portfolio of 24 hotels across "
                       f"{state}, asset management for owners and investors, revenue management. Careers.</p>"),
        "parked": ("WebPage", f"<h1>{name.lower().replace(' ', '')}.test</h1><p>This domain may be for sale. Buy this "
                   "domain today. Related searches: cheap hotels, hotel deals, compare prices.</p>"),
        "venue": ("EventVenue", f"<h1>{name}</h1><p>A rustic event venue in {city} for weddings, receptions, ceremonies "
                  "and banquets, with catering by our partners. Schedule a tour.</p>"),
    }
    schema, body = texts[kind]
    head = ""
    if structured:
        item: dict[str, Any] = {"@context": "https://schema.org", "@type": schema, "name": name, "address": addr}
        if kind == "directory":
            item["itemListElement"] = [{"@type": "ListItem", "position": i + 1,
                                        "item": {"@type": "Hotel", "name": f"{city} Hotel {i + 1}"}} for i in range(5)]
        head = _ld(item)
    return doc(f"{name} | {city}", body + f'<footer><p class="address">{esc(addr)}</p></footer>', head=head)

"""Common Crawl discovery's page reading (issue 32): is a crawled home page a lodging business, and
its name, address and phone. No I/O.

Evidence, strongest first:

1. schema.org JSON-LD (`application/ld+json` blocks; `@graph`, lists and nested items walked):
   one `Hotel` / `LodgingBusiness` / `BedAndBreakfast` / `Motel` / `Hostel` / `Resort` item is a
   lodging business; a business of another type alone (`Restaurant`, `RealEstateAgent`,
   `TravelAgency`, a store...) is not; several lodging items, or an `ItemList` of them, is a
   directory or an OTA page, not a hotel.
2. microdata (`itemtype=".../schema.org/Hotel"`) with its `itemprop`s.
3. the page's words: lodging vocabulary (rooms, check-in, "book your stay", in English, Spanish,
   French, German, Portuguese and Italian) against the vocabularies of restaurants, real estate,
   software, B2B suppliers, OTAs / directories and travel agencies. Plain pages are kept only with
   a lodging word in their name and at least two lodging signals, and no stronger other trade:
   precision before recall (the target is 0.95 on kept candidates).

`read_engine_page` reads a booking engine's client page (the property is the engine's customer,
lodging by construction) for its name and address.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from selectolax.lexbor import LexborHTMLParser as HTMLParser

from sadie_pipeline.core.crawl_places import Address, parse_address, region_of
from sadie_pipeline.core.crawl_queries import host_has_lodging_word, name_has_lodging_word

__all__ = ["LODGING_TYPES", "PageReading", "Verdict", "jsonld_items", "read_engine_page", "read_page"]

LODGING_TYPES = frozenset({"hotel", "lodgingbusiness", "bedandbreakfast", "motel", "hostel", "resort", "skiresort"})
# a business of one of these types (and of no lodging type) is not a hotel
OTHER_TRADES = frozenset({
    "restaurant", "foodestablishment", "barorpub", "cafeorcoffeeshop", "bakery", "winery", "brewery",
    "realestateagent", "realestatelisting", "residence", "apartmentcomplex", "singlefamilyresidence",
    "travelagency", "touristtrip", "softwareapplication", "webapplication", "store", "onlinestore",
    "wholesalestore", "homegoodsstore", "product", "offercatalog", "employmentagency", "professionalservice",
    "itemlist", "searchresultspage", "collectionpage", "event", "eventvenue", "sportsclub", "golfcourse",
    "jobposting"})
_JSONLD = re.compile(r"""<script[^>]+type\s*=\s*["']?application/ld\+json["']?[^>]*>(.*?)</script>""", re.I | re.S)
_SCHEMA_TYPE = re.compile(r"schema\.org/([A-Za-z]+)", re.I)
_PHONE = re.compile(r"(?<![\w/])(\+?\d[\d\s().\-/]{7,18}\d)(?![\w/])")
_SIGNALS: dict[str, re.Pattern[str]] = {
    "lodging": re.compile(
        r"check[- ]?in|check[- ]?out|guest ?rooms?|our rooms|rooms? (?:&|and) suites|book (?:your|a) (?:stay|room)|"
        r"per night|nightly|room types?|front desk|(?:free|complimentary) breakfast|overnight|your stay|"
        r"habitaci[oó]n(?:es)?|estancia|hu[eé]spedes|nuit[ée]e?s?|chambres?|s[ée]jour|zimmer|[üu]bernachtung|"
        r"aufenthalt|quartos?|hospedagem|camere|soggiorno|pernottamento|reception 24|accommodations?|"
        r"check availability|best (?:available )?rates?|book direct|arrival|departure|stay with us|\bsuites\b|"
        r"h[ée]bergement|alojamiento|unterkunft|alloggio|hospedaje", re.I),
    "restaurant": re.compile(
        r"\bmenu\b|lunch|dinner|brunch|happy hour|appetizers?|entr[ée]es|cocktails|wine list|craft beer|"
        r"table reservations?|reserve a table|our kitchen|chef|carta de vinos|men[uú] del d[ií]a|speisekarte", re.I),
    "real_estate": re.compile(
        r"homes? for sale|real estate|realtor|listings?|\bmls\b|bedrooms?\s*/\s*\d|\d+\s*bd\b|sq\.? ?ft|"
        r"property management|buy(?:ing)? a home|sell(?:ing)? your home|open house|mortgage|inmobiliaria|immobilien", re.I),
    "software": re.compile(
        r"innovation|software|platform|\bsaas\b|solutions? for|start-?up|developers?|api\b|cloud-based|"
        r"machine learning|digital transformation|our clients|case stud(?:y|ies)", re.I),
    "supplier": re.compile(
        r"wholesale|suppl(?:y|ies|ier)|bulk|catalog(?:ue)?|request a quote|toiletries|linens?|minimum order|"
        r"b2b|distributor|add to cart|shop now", re.I),
    "directory": re.compile(
        r"compare (?:prices|hotels|deals)|hotels? in [A-Z][a-z]+|properties found|best price|top \d+ hotels|"
        r"search (?:hotels|deals)|hotel deals|cheap hotels|sort by|filter by|show on map|guest reviews from|"
        r"lowest prices?|all hotels", re.I),
    "corporate": re.compile(
        r"management company|hotel management|our portfolio|portfolio of|asset management|investors?|"
        r"owners? and operators?|careers|franchis(?:e|ing)|revenue management|job openings", re.I),
    "venue": re.compile(r"weddings?|event venue|receptions|ceremon(?:y|ies)|banquets?|catering|rehearsal dinner", re.I),
    "travel_agency": re.compile(
        r"travel agency|tour packages?|itinerar(?:y|ies)|cruises?|flights?|vacation packages|guided tours?|"
        r"agencia de viajes|reiseb[üu]ro", re.I),
}
_MICRODATA_PROPS = ("name", "telephone", "streetAddress", "addressLocality", "addressRegion", "postalCode",
                    "addressCountry")


class Verdict(StrEnum):
    LODGING = "lodging"
    NOT_LODGING = "not_lodging"


@dataclass(frozen=True)
class PageReading:
    verdict: Verdict
    reason: str  # what decided: jsonld:Hotel, microdata:Motel, text, other_trade:Restaurant, directory...
    name: str | None = None
    address: Address = Address()
    phone: str | None = None
    lodging_type: str | None = None

    @property
    def lodging(self) -> bool:
        return self.verdict is Verdict.LODGING

    def region(self, tld_country: str | None = None, default_country: str | None = None) -> str | None:
        return region_of(self.address, tld_country, default_country)


# ---- JSON-LD --------------------------------------------------------------------------------------

def _loads(text: str) -> Any:
    text = text.strip().strip(";")
    try:
        return json.loads(text)
    except ValueError:
        try:  # pages ship raw newlines and tabs inside strings
            return json.loads(re.sub(r"[\x00-\x1f]+", " ", text))
        except ValueError:
            return None


def _walk(node: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
    if depth > 8:
        return
    if isinstance(node, list):
        for item in node:
            yield from _walk(item, depth + 1)
    elif isinstance(node, dict):
        if "@type" in node:
            yield node
        for key in ("@graph", "mainEntity", "itemListElement", "item", "about", "containsPlace", "subOrganization"):
            if key in node:
                yield from _walk(node[key], depth + 1)


def jsonld_items(html: str) -> list[dict[str, Any]]:
    """Every typed item of the page's JSON-LD blocks (@graph, lists, list elements walked)."""
    return [item for block in _JSONLD.findall(html or "") for item in _walk(_loads(block))]


def types_of(item: dict[str, Any]) -> set[str]:
    raw = item.get("@type")
    values = raw if isinstance(raw, list) else [raw]
    return {str(v).rsplit("/", 1)[-1].lower() for v in values if v}


def _text(value: Any) -> str | None:
    if isinstance(value, list):
        value = next((v for v in value if v), None)
    if isinstance(value, dict):
        value = value.get("@value") or value.get("name")
    if value is None:
        return None
    text = re.sub(r"\s+", " ", str(value)).strip()
    return text or None


def _postal(value: Any) -> Address:
    """`address` as schema.org writes it: text, a PostalAddress, or a list of either."""
    if isinstance(value, list):
        value = next((v for v in value if v), None)
    if isinstance(value, str):
        return parse_address(value)
    if not isinstance(value, dict):
        return Address()
    country = value.get("addressCountry")
    country = _text(country.get("name") if isinstance(country, dict) else country)
    street = _text(value.get("streetAddress"))
    city, state, zip_code = _text(value.get("addressLocality")), _text(value.get("addressRegion")), _text(value.get("postalCode"))
    if street and not (city or state or zip_code):  # everything in the street line
        return replace(parse_address(street), country=country)
    return Address(street, city, state, zip_code, country)


def _item_reading(item: dict[str, Any], kind: str) -> PageReading:
    phone = _text(item.get("telephone"))
    address = _postal(item.get("address"))
    if not address.street and isinstance(item.get("location"), dict):
        address = _postal(item["location"].get("address"))
    return PageReading(Verdict.LODGING, f"{kind}:{kind_type(item)}", _text(item.get("name")), address, phone,
                       kind_type(item))


def kind_type(item: dict[str, Any]) -> str:
    return sorted(types_of(item) & LODGING_TYPES or types_of(item))[0]


def _from_jsonld(items: list[dict[str, Any]]) -> PageReading | None:
    lodging = [i for i in items if types_of(i) & LODGING_TYPES]
    names = {(_text(i.get("name")) or "").lower() for i in lodging}
    if len(names) > 1 or any("itemlist" in types_of(i) for i in items) and lodging:
        return PageReading(Verdict.NOT_LODGING, "directory")
    if lodging:
        return _item_reading(lodging[0], "jsonld")
    trades = sorted({t for i in items for t in types_of(i) & OTHER_TRADES})
    if trades:
        return PageReading(Verdict.NOT_LODGING, f"other_trade:{trades[0]}")
    return None


# ---- microdata, meta, words ----------------------------------------------------------------------

def _microdata(tree: HTMLParser) -> PageReading | None:
    scopes = [(n, m.group(1).lower()) for n in tree.css("[itemtype]")
              if (m := _SCHEMA_TYPE.search(n.attributes.get("itemtype") or ""))]
    lodging = [(n, kind) for n, kind in scopes if kind in LODGING_TYPES]
    if not lodging:
        trades = [kind for _, kind in scopes if kind in OTHER_TRADES]
        return PageReading(Verdict.NOT_LODGING, f"other_trade:{trades[0]}") if trades else None
    node, kind = lodging[0]
    props: dict[str, str] = {}
    for el in node.css("[itemprop]"):
        key = el.attributes.get("itemprop") or ""
        if key in _MICRODATA_PROPS and key not in props:
            value = el.attributes.get("content") or el.text(separator=" ")
            props[key] = re.sub(r"\s+", " ", value or "").strip()
    street = props.get("streetAddress")
    address = Address(street, props.get("addressLocality"), props.get("addressRegion"), props.get("postalCode"),
                      props.get("addressCountry"))
    if street and not (address.city or address.state):
        address = parse_address(street)
    return PageReading(Verdict.LODGING, f"microdata:{kind}", props.get("name"), address, props.get("telephone"), kind)


def _meta(tree: HTMLParser, prop: str) -> str | None:
    node = tree.css_first(f'meta[property="{prop}"]') or tree.css_first(f'meta[name="{prop}"]')
    value = node.attributes.get("content") if node else None
    return re.sub(r"\s+", " ", value).strip() if value else None


def page_name(tree: HTMLParser, strip: Iterable[str] = ()) -> str | None:
    """The business's name: og:site_name, then the title's part with a lodging word (else its
    first part), then the first heading; `strip` drops fragments such as an engine's brand."""
    title = tree.css_first("title")
    h1 = tree.css_first("h1")
    candidates = [_meta(tree, "og:site_name"), _meta(tree, "og:title")]
    if title:
        parts = [p.strip() for p in re.split(r"\s+[|\-–—·:]\s+", title.text()) if p.strip()]
        candidates += sorted(parts, key=lambda p: not name_has_lodging_word(p))
    if h1:
        candidates.append(re.sub(r"^(?:welcome to|bienvenidos? a|bienvenue [àa]|willkommen (?:im|in der|in)|"
                                 r"benvenuti (?:al|a)|bem-vindo ao)\s+", "", h1.text().strip(), flags=re.I))
    dropped = [s.lower() for s in strip]
    for candidate in candidates:
        if candidate and not any(d and d in candidate.lower() for d in dropped) and len(candidate) <= 120:
            return re.sub(r"\s+", " ", candidate).strip()
    return None


def _visible_text(tree: HTMLParser) -> str:
    body = tree.body
    if body is None:
        return ""
    for node in body.css("script, style, noscript"):
        node.decompose()
    return re.sub(r"\s+", " ", body.text(separator=" ")).strip()


def _signals(text: str) -> dict[str, int]:
    return {kind: len({m.group(0).lower() for m in rx.finditer(text)}) for kind, rx in _SIGNALS.items()}


def _phone(tree: HTMLParser, text: str) -> str | None:
    link = tree.css_first('a[href^="tel:"]')
    if link is not None:
        shown = link.text().strip()
        return shown if _PHONE.search(shown) else (link.attributes.get("href") or "")[4:].strip() or None
    m = _PHONE.search(text)
    return m.group(1).strip() if m else None


def _address_in(tree: HTMLParser, text: str) -> Address:
    for node in tree.css("address, [class*=address], footer"):
        found = parse_address(node.text(separator=", "))
        if found.state:
            return found
    return parse_address(text)


def read_page(html: str, host: str | None = None) -> PageReading:
    """What a crawled home page says about its business (see the module docstring). A plain page
    is lodging with a lodging word in its name and two lodging signals, or, its name without one
    ("The Betsy"), a lodging word in its `host` and three."""
    if not html:
        return PageReading(Verdict.NOT_LODGING, "empty")
    items = jsonld_items(html)
    tree = HTMLParser(html)
    reading = _from_jsonld(items) or _microdata(tree)
    if reading is not None and not reading.lodging:
        return reading
    text = _visible_text(tree)
    if reading is not None and reading.reason.startswith("jsonld"):  # a typed item: the words cannot overrule it
        return _completed(reading, tree, text)
    signals = _signals(text)
    trade, trade_score = max(((k, v) for k, v in signals.items() if k != "lodging"), key=lambda kv: kv[1])
    if reading is None:
        name = page_name(tree)
        named = name_has_lodging_word(name) and signals["lodging"] >= 2
        hosted = host_has_lodging_word(host) and signals["lodging"] >= 3 and trade_score == 0
        if not name or not (named or hosted):
            return PageReading(Verdict.NOT_LODGING, "no_lodging_evidence", name)
        reading = PageReading(Verdict.LODGING, "text", name, lodging_type=None)
    # a stronger other trade in the words overrules microdata or words
    if trade_score >= 3 and trade_score > signals["lodging"]:
        return PageReading(Verdict.NOT_LODGING, f"words:{trade}", reading.name)
    return _completed(reading, tree, text)


def _completed(reading: PageReading, tree: HTMLParser, text: str) -> PageReading:
    """The reading with what the structured data left out taken from the page."""
    address = reading.address if reading.address.state or reading.address.street else _address_in(tree, text)
    return replace(reading, name=reading.name or page_name(tree), address=address,
                   phone=reading.phone or _phone(tree, text))


def read_engine_page(html: str, brand_words: Iterable[str] = ()) -> PageReading:
    """A booking engine's client page: the property's name (JSON-LD, else the page's name without
    the engine's own words), address and phone. Lodging by construction (the engine's customer)."""
    tree = HTMLParser(html or "")
    lodging = next((i for i in jsonld_items(html) if types_of(i) & LODGING_TYPES), None)
    if lodging is not None:
        return _completed(_item_reading(lodging, "engine_jsonld"), tree, _visible_text(tree))
    strip = [*brand_words, "book direct", "online booking", "book now", "secure booking", "reservations",
             "reservas", "réservation", "buchung", "booking engine", "powered by"]
    name = page_name(tree, strip)  # before _visible_text, which takes the scripts out of the tree
    text = _visible_text(tree)
    reading = PageReading(Verdict.LODGING if name else Verdict.NOT_LODGING, "engine_page" if name else "no_name", name)
    return _completed(reading, tree, text)

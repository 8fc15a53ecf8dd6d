"""The fallback for engines the catalogue does not know: a third-party booking link, iframe or
form whose host is neither catalogued nor a known non-engine (OTA, social, maps...), and a
third-party script or widget that carries booking words or config (`widgets`).

Such a hotel is not a dead end: it waits for review with the host recorded, and the hosts seen
most often are the catalogue's next entries. The rules stay narrow so that a sister hotel, a
restaurant's table booking or a tour operator is not taken for a hotel's booking engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sadie_pipeline.core.booking.booking_words import FIELD_WORDS, TEXT_WORDS, URL_WORDS
from sadie_pipeline.core.booking.catalogue import host_of, index
from sadie_pipeline.core.booking.domains import registrable_domain
from sadie_pipeline.core.booking.page import ASSET_RE, INTENT_RE, Page, form_url
from sadie_pipeline.core.booking.script_hosts import engine_of_host, is_catalogued_vendor, is_non_engine_script_host
from sadie_pipeline.core.booking.widgets import script_candidates

UNKNOWN_TIER = "unknown"
_CONF = {"iframe": 0.6, "form": 0.6, "link": 0.55}
_METHOD_RANK = {"iframe": 0, "form": 1, "link": 2, "script": 3, "widget": 4, "request": 5}
# A booking-ish host or path: "book.", "/reservations", "/ibe/", "availability" (not "facebook").
_BOOKINGISH_URL_RE = re.compile(r"(?<![a-z])(?:ibe(?![a-z])|" + "|".join(URL_WORDS) + ")", re.I)
# Link text that surely means booking a room (not just the word "book").
_STRONG_TEXT_RE = re.compile(
    r"book(?:ing)? (?:now|online|direct|your stay|a room|rooms)|check (?:rates|availability)|\breserv|"
    + "|".join(TEXT_WORDS), re.I)
# Booking something else than a room.
_NOT_ROOMS_RE = re.compile(
    r"\b(?:table|restaurant|dinner|lunch|brunch|breakfast|spa|massage|treatment|tours?|golf|tee time|tickets?"
    r"|events?|wedding|meeting|gift|voucher|course|class|lesson|parking|taxi|transfer|shuttle|car rental"
    r"|flights?|mesa|tisch|tavolo|table d'h[ôo]te|experiences?|activit(?:y|ies)|excursions?|adventures?|diving"
    r"|snorkel\w*|safaris?|sister|our other hotels?|partner hotels?)\b", re.I)
# A stay search: dates, nights, guests (in the languages of the catalogue's markets).
_DATE_INPUT_SELECTOR = "input[type=date], " + ", ".join(
    f'{tag}[name*="{word}" i]' for tag in ("input", "select")
    for word in FIELD_WORDS)


@dataclass(frozen=True, slots=True)
class UnknownEngine:
    """An uncatalogued third-party booking host seen on a page (tier `unknown`)."""

    host: str
    domain: str
    booking_url: str
    method: str  # link, iframe, form, script, widget (a URL a booking widget carries) or request
    confidence: float
    evidence: str  # the link text, the element that carried the URL, or why a script is an engine
    tier: str = UNKNOWN_TIER


def find_unknown_engines(page: Page, request_urls: Iterable[str] = ()) -> tuple[UnknownEngine, ...]:
    """Uncatalogued booking hosts on the page (and in the requests a browser saw), best first
    (one per host): links, iframes and forms, then scripts and widgets."""
    site = registrable_domain(page.site_host)
    found: dict[str, tuple[tuple[int, int], UnknownEngine]] = {}
    for order, (method, url, evidence) in enumerate(_candidates(page)):
        host = host_of(url.lower())
        if host is None or not _third_party(url, host, site):
            continue
        _keep(found, UnknownEngine(host, registrable_domain(host) or host, url, method, _CONF[method], evidence),
              order)
    for order, (method, url, evidence, conf) in enumerate(script_candidates(page, request_urls)):
        host = host_of(url.lower()) or ""
        _keep(found, UnknownEngine(host, registrable_domain(host) or host, url, method, conf, evidence), order)
    return tuple(e for _, e in sorted(found.values(), key=lambda kv: kv[0]))


def _keep(found: dict, engine: UnknownEngine, order: int) -> None:
    key = (_METHOD_RANK[engine.method], order)
    if engine.host and (engine.host not in found or key < found[engine.host][0]):
        found[engine.host] = (key, engine)


def _third_party(url: str, host: str, site: str | None) -> bool:
    """Off the hotel's registrable domain, not an asset, not catalogued, not an OTA or social site."""
    if registrable_domain(host) == site or ASSET_RE.search(url.lower()):
        return False
    if (index().classify(url.lower(), True, host) is not None or engine_of_host(host) is not None
            or is_catalogued_vendor(host)):
        return False  # a catalogued engine (or its vendor's site): not unknown
    return not is_non_engine_script_host(host)  # OTAs, social, maps, reviews, restaurant and tour booking


def _candidates(page: Page):
    """(method, absolute URL, evidence) of every booking-looking link, iframe and form."""
    for node in page.tree.css("iframe[src], iframe[data-src], frame[src]"):
        url = page.absolute(node.attrs.get("src") or node.attrs.get("data-src") or "")
        if url and _BOOKINGISH_URL_RE.search(_after_scheme(url)):
            yield "iframe", url, f"<{node.tag} src>"
    for node in page.tree.css("form[action]"):
        url = page.absolute(node.attrs.get("action") or "")
        if url and (_BOOKINGISH_URL_RE.search(_after_scheme(url)) or node.css_first(_DATE_INPUT_SELECTOR)):
            if not _NOT_ROOMS_RE.search(node.text(deep=True, separator=" ")[:300]):  # "Reserve a table"
                yield "form", form_url(node, url), "<form action>"
    for node in page.intent_nodes():
        if node.tag != "a":
            continue
        url = page.absolute(node.attrs.get("href") or "")
        text = " ".join(f"{node.text(deep=True, separator=' ')} {node.attrs.get('title') or ''}".split())
        if url and _booking_link(url, text):
            yield "link", url, text[:120]


def _booking_link(url: str, text: str) -> bool:
    if _NOT_ROOMS_RE.search(text):
        return False
    strong = _STRONG_TEXT_RE.search(text) is not None
    if not strong and not INTENT_RE.search(text.lower()):
        return False
    rest = _after_scheme(url)
    path = rest[rest.find("/"):] if "/" in rest else ""
    bookingish = _BOOKINGISH_URL_RE.search(rest) is not None
    # a bare home page ("Book our sister hotel") is another site, not an engine
    if not ((bookingish or strong) and (path not in ("", "/") or bookingish)):
        return False
    return not _own_booking_page(rest.split("/", 1)[0], path)


# A page such as "/buchen/" or "/es/reservar" on another site's www (or bare) host: that site's own
# booking page (a sister hotel's); an engine's URL names the property (a subdomain, a slug, an id).
_BOOKING_PAGE_PATH_RE = re.compile(
    r"^/(?:[a-z]{2}(?:-[a-z]{2})?/)?[a-z\-]*(?:" + "|".join(URL_WORDS) + r")[a-z\-]*(?:\.html?|\.php)?/?$", re.I)


# query keys by which an engine's page names the property (`?hotel=12`, `?propid=9`, `?code=AB`)
_PROPERTY_KEY_RE = re.compile(r"(?:^|[&;])[a-z_]*(?:hotel|propert|prop|id|code|lcode|establishment|chain|lodging"
                              r"|accommodation|resort|account|client)[a-z_]*=", re.I)


def _own_booking_page(host: str, path: str) -> bool:
    bare = host.lower().removeprefix("www.")
    page, _, query = path.partition("?")
    return (bare == registrable_domain(bare) and _BOOKING_PAGE_PATH_RE.match(page) is not None
            and _PROPERTY_KEY_RE.search(query.split("#", 1)[0]) is None)


def _after_scheme(url: str) -> str:
    return url.split("//", 1)[-1]

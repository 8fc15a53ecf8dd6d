"""The fallback for engines the catalogue does not know: a third-party booking link, iframe or
form whose host is neither catalogued nor a known non-engine (OTA, social, maps...).

Such a hotel is not a dead end: it waits for review with the host recorded, and the hosts seen
most often are the catalogue's next entries. The rules stay narrow so that a sister hotel, a
restaurant's table booking or a tour operator is not taken for a hotel's booking engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sadie_pipeline.core.booking.catalogue import host_of, index
from sadie_pipeline.core.booking.domains import is_non_engine_host, registrable_domain
from sadie_pipeline.core.booking.page import ASSET_RE, INTENT_RE, Page, form_url

UNKNOWN_TIER = "unknown"
_CONF = {"iframe": 0.6, "form": 0.6, "link": 0.55}
_METHOD_RANK = {"iframe": 0, "form": 1, "link": 2}
# A booking-ish host or path: "book.", "/reservations", "/ibe/", "availability" (not "facebook").
_BOOKINGISH_URL_RE = re.compile(
    r"(?<![a-z])(?:book|reserv|availab|ibe(?![a-z])|buch|prenot|rezerv|engine|check-?in|arrival)", re.I)
# Link text that surely means booking a room (not just the word "book").
_STRONG_TEXT_RE = re.compile(
    r"book(?:ing)? (?:now|online|direct|your stay|a room|rooms)|check (?:rates|availability)|\breserv"
    r"|\bbuchen\b|\bprenota|r[ée]server|\bboek|\brezerv|\brezerw|бронир|予約|预订|預訂|예약", re.I)
# Booking something else than a room.
_NOT_ROOMS_RE = re.compile(
    r"\b(?:table|restaurant|dinner|lunch|brunch|breakfast|spa|massage|treatment|tours?|golf|tee time|tickets?"
    r"|events?|wedding|meeting|gift|voucher|course|class|lesson|parking|taxi|transfer|shuttle|car rental"
    r"|flights?|mesa|tisch|tavolo|table d'h[ôo]te)\b", re.I)
_DATE_INPUT_SELECTOR = ('input[type=date], input[name*="check" i], input[name*="arriv" i], '
                        'input[name*="adult" i], input[name*="night" i], input[name*="date" i]')


@dataclass(frozen=True, slots=True)
class UnknownEngine:
    """An uncatalogued third-party booking host seen on a page (tier `unknown`)."""

    host: str
    domain: str
    booking_url: str
    method: str  # link, iframe or form
    confidence: float
    evidence: str  # the link text, or the element that carried the URL
    tier: str = UNKNOWN_TIER


def find_unknown_engines(page: Page) -> tuple[UnknownEngine, ...]:
    """Uncatalogued booking hosts on the page, best first (one per host)."""
    site = registrable_domain(page.site_host)
    found: dict[str, tuple[tuple[int, int], UnknownEngine]] = {}
    for order, (method, url, evidence) in enumerate(_candidates(page)):
        host = host_of(url.lower())
        if host is None or not _third_party(url, host, site):
            continue
        engine = UnknownEngine(host, registrable_domain(host) or host, url, method, _CONF[method], evidence)
        key = (_METHOD_RANK[method], order)
        if host not in found or key < found[host][0]:
            found[host] = (key, engine)
    return tuple(e for _, e in sorted(found.values(), key=lambda kv: kv[0]))


def _third_party(url: str, host: str, site: str | None) -> bool:
    """Off the hotel's registrable domain, not an asset, not catalogued, not an OTA or social site."""
    if registrable_domain(host) == site or ASSET_RE.search(url.lower()):
        return False
    if index().classify(url.lower(), True, host) is not None:
        return False  # a catalogued engine (or its vendor's site): not unknown
    return not is_non_engine_host(host)


def _candidates(page: Page):
    """(method, absolute URL, evidence) of every booking-looking link, iframe and form."""
    for node in page.tree.css("iframe[src], iframe[data-src], frame[src]"):
        url = page.absolute(node.attrs.get("src") or node.attrs.get("data-src") or "")
        if url and _BOOKINGISH_URL_RE.search(_after_scheme(url)):
            yield "iframe", url, f"<{node.tag} src>"
    for node in page.tree.css("form[action]"):
        url = page.absolute(node.attrs.get("action") or "")
        if url and (_BOOKINGISH_URL_RE.search(_after_scheme(url)) or node.css_first(_DATE_INPUT_SELECTOR)):
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
    return (bookingish or strong) and (path not in ("", "/") or bookingish)


def _after_scheme(url: str) -> str:
    return url.split("//", 1)[-1]

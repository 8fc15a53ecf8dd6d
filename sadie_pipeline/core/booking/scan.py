"""Booking-engine evidence from one page: links, forms, frames, scripts, inline code and what a
browser observed, gathered per engine into `Detection`s (strongest evidence, best booking URL).

Only off-site URLs are classified (relative and same-site URLs cannot be a third-party engine,
unless <base href> points elsewhere or the page is served by an engine); intent ("Book now"
links) is pre-selected in C with lexbor's `:lexbor-contains` and confirmed by a regex; inline
scripts and event handlers go through one `//host` regex feeding the same host table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sadie_pipeline.core.booking.catalogue import LODGING_CATEGORIES, Index, host_of
from sadie_pipeline.core.booking.page import (
    ALL_URLS_SELECTOR,
    ASSET_RE,
    ATTRS_BY_TAG,
    CONF_COOKIE,
    CONF_INLINE,
    CONF_JS_GLOBAL,
    CONF_JS_GLOBAL_INLINE,
    CONF_LINK_INTENT,
    CONF_REQUEST,
    CONF_VENDOR,
    EVENT_ATTRS,
    EVENT_SELECTOR,
    HINT_RELS,
    RANK_INLINE,
    RANK_LINK_INTENT,
    RANK_REQUEST,
    RANK_TEMPLATE,
    Page,
    anchor_intent,
    form_url,
    is_specific,
    offsite_selector,
)
from sadie_pipeline.core.booking.script_hosts import engine_of_host

#: The detection methods stored in hotel_booking_engines.detection_method.
METHODS = ("link", "form", "iframe", "script", "js_global", "cookie", "request")
MULTI_METHOD_BONUS = 0.03  # per extra distinct method that saw the same engine
INLINE_URL_RE = re.compile(r"//([a-z0-9][a-z0-9\-]*(?:\.[a-z0-9\-]+)+)((?:[/?#][^\s\"'<>`\\)]*)?)", re.I)


@dataclass(frozen=True, slots=True)
class Detection:
    """A booking engine found on a page.

    `method` is how the strongest evidence was found (one of METHODS), `methods` every method
    that saw this engine, `evidence` the URL or name that matched for the strongest evidence,
    `booking_url` the best absolute link/form/iframe URL into the engine (None when the engine
    was only seen as a script, global, cookie or vendor link and its catalogue entry has no
    booking-URL template)."""

    name: str
    tier: int
    booking_url: str | None
    method: str
    confidence: float
    methods: tuple[str, ...]
    evidence: str
    category: str


class Collector:
    """Evidence per engine while a page is scanned."""

    __slots__ = ("index", "evidence", "order")

    def __init__(self, index: Index):
        self.index = index
        # engine -> [best_conf, best_method, best_evidence, methods(set), count, candidates(list)]
        self.evidence: dict[int, list[Any]] = {}
        self.order = 0

    def add(self, idx: int, method: str, conf: float, evidence: str,
            booking_url: str | None = None, rank: int = 99) -> None:
        self.order += 1
        entry = self.evidence.get(idx)
        if entry is None:
            entry = self.evidence[idx] = [conf, method, evidence, {method}, 0, [], self.order]
        elif conf > entry[0]:
            entry[0], entry[1], entry[2] = conf, method, evidence
        entry[3].add(method)
        if conf > CONF_VENDOR:
            entry[4] += 1
        if booking_url is not None:
            specific = 0 if is_specific(booking_url) else 1
            entry[5].append((rank, specific, self.order, booking_url))

    def url(self, url: str, method: str, conf: float, rank: int | None = None,
            check_patterns: bool = True, resource: bool = False) -> bool:
        """Classify one absolute URL and record it; True when it belonged to an engine.
        `resource`: a script, frame, form or request URL (see `resource_hit`)."""
        low = url.lower()
        hit = self.index.classify(low, check_patterns)
        if resource:
            hit = resource_hit(self.index, hit, low, host_of(low))
        if hit is None:
            return False
        self.record(hit, url, method, conf, rank)
        return True

    def record(self, hit: tuple[int, float], url: str, method: str, conf: float,
               rank: int | None = None) -> None:
        """Record a classified URL (see Index.classify)."""
        idx, strength = hit
        if strength == 0.0:  # vendor marketing host: weak, never a booking URL
            self.add(idx, method, CONF_VENDOR, url)
            return
        booking = url if rank is not None and not ASSET_RE.search(url.lower()) else None
        if booking is None:  # a widget script or asset: the catalogue may say how to build the URL
            booking = self.index.engines[idx].booking_url.build(url)
            rank = RANK_TEMPLATE if booking is not None else rank
        self.add(idx, method, round(conf * strength, 3), url, booking, rank if rank is not None else 99)

    def results(self) -> list[Detection]:
        engines = self.index.engines
        out: list[tuple[tuple, Detection]] = []
        for idx, (conf, method, evidence, methods, count, candidates, first) in self.evidence.items():
            e = engines[idx]
            strong_methods = len(methods)
            confidence = min(1.0, conf + MULTI_METHOD_BONUS * (strong_methods - 1)) if count else conf
            booking_url = min(candidates)[3] if candidates else None
            det = Detection(
                name=e.name, tier=e.tier, booking_url=booking_url, method=method,
                confidence=round(confidence, 3),
                methods=tuple(m for m in METHODS if m in methods),
                evidence=evidence, category=e.category,
            )
            key = (e.category not in LODGING_CATEGORIES, -det.confidence, -count, first)
            out.append((key, det))
        out.sort(key=lambda kv: kv[0])
        return [d for _, d in out]


def scan(page: Page, collector: Collector) -> int:
    """Walk the page's links, forms, frames and scripts into `collector`; returns the number
    of external scripts."""
    index = collector.index
    tree = page.tree
    inline: list[str] = []
    site_host = page.site_host
    base_is_engine = page.base_is_engine
    # When relative URLs stay on the site only absolute off-site URLs can be an engine, and one
    # lexbor query finds them; otherwise (<base href> elsewhere, a page served by an engine)
    # every URL is looked at.
    selector = offsite_selector(site_host) if page.relative_is_local else ALL_URLS_SELECTOR
    for node in tree.css(selector):
        tag = node.tag
        attrs = node.attrs
        for attr, method, conf, rank in ATTRS_BY_TAG.get(tag, ()):
            raw = attrs.get(attr)
            if not raw:
                continue
            if tag == "link" and not any(r in HINT_RELS for r in (attrs.get("rel") or "").lower().split()):
                continue
            url = page.absolute(raw)
            if url is None:
                continue
            low = url.lower()
            host = host_of(low)
            offsite = host is not None and host != site_host
            if not offsite and not base_is_engine:
                continue  # same-site URL: neither a known host nor a white-label engine
            hit = index.classify(low, offsite, host)
            # a link is no resource, unless it says "book" (asked only of links an engine may be behind)
            intent = method == "link" and (hit is not None or engine_of_host(host) is not None) and anchor_intent(node, attrs)
            hit = resource_hit(index, hit, low, host, intent) if method != "link" or intent else hit
            if hit is None:
                continue
            if intent and hit[1] > 0.0:
                conf, rank = CONF_LINK_INTENT, RANK_LINK_INTENT
            elif method == "form":
                url = form_url(node, url)
            collector.record(hit, url, method, conf, rank)

    for node in tree.css('a[href^="javascript:" i]'):
        inline.append(node.attrs.get("href") or "")
    external_scripts = 0
    for node in tree.css("script"):
        attrs = node.attrs
        if attrs.get("src") or attrs.get("data-src"):
            external_scripts += 1
        else:
            body = node.text(deep=False)
            if body:
                inline.append(body)
    for node in tree.css(EVENT_SELECTOR):
        attrs = node.attrs
        for attr in EVENT_ATTRS:
            value = attrs.get(attr)
            if value and not (attr == "data-src" and node.tag in ("iframe", "frame", "script", "img")):
                inline.append(value)
    if inline:
        scan_inline("\n".join(inline), page, collector)
    return external_scripts


def resource_hit(index: Index, hit: tuple[int, float] | None, url_lower: str,
                 host: str | None, booking_link: bool = False) -> tuple[int, float] | None:
    """A script, frame, form, inline or requested URL from a catalogued engine's booking host is
    that engine whatever its path: strong even on a host that is also the vendor's marketing
    site (`www.cloudbeds.com/any/new/loader.js`) or a sibling of a booking subdomain. Links are
    not resources: a "powered by" link to the vendor's site stays weak evidence; a `booking_link`
    ("Book now") to a page of the vendor's site (`www.webervations.com/property/123`) is the engine."""
    # a path, not just a query: "https://www.cloudbeds.com/?utm_source=hotel" is still the vendor's home page
    if host is None or (hit is not None and hit[1] > 0.0) or not is_specific(re.split(r"[?#]", url_lower, maxsplit=1)[0]):
        return hit
    idx = engine_of_host(host)
    if idx is not None:
        return idx, 1.0
    return (hit[0], 1.0) if booking_link and hit is not None else hit


def booking_links(page: Page, limit: int = 5) -> list[str]:
    """Same-site links that say "book"/"reserve" (the booking page may embed the engine)."""
    links: list[str] = []
    for node in page.intent_nodes():
        if node.tag != "a":
            continue
        url = page.absolute(node.attrs.get("href") or "")
        if url is None:
            continue
        host = host_of(url.lower())
        if (host is None or host == page.site_host) and url not in links:
            links.append(url)
            if len(links) >= limit:
                break
    return links


def scan_inline(text: str, page: Page, collector: Collector) -> None:
    """URLs and JS globals inside inline scripts, onclick handlers and data attributes."""
    index = collector.index
    if "\\/" in text:
        text = text.replace("\\/", "/")  # JSON-escaped URLs: https:\/\/host\/path
    site_host = page.site_host
    for host, rest in set(INLINE_URL_RE.findall(text)):
        host = host.lower()
        if host == site_host:
            continue
        url = f"https://{host}{rest}"
        low = url.lower()
        hit = resource_hit(index, index.classify(low, True, host), low, host)
        if hit is not None:
            collector.record(hit, url, "script", CONF_INLINE, None if ASSET_RE.search(low) else RANK_INLINE)
    for name, idx, boundary in index.globals:
        if name in text and boundary.search(text):
            collector.add(idx, "js_global", CONF_JS_GLOBAL_INLINE, name)


def scan_browser(collector: Collector, request_urls: Iterable[str], cookies: Iterable[Any],
                  js_globals: Iterable[str]) -> None:
    """Evidence a browser observed: network requests, cookies and window globals."""
    index = collector.index
    for url in request_urls or ():
        if not url or not isinstance(url, str):
            continue
        low = url.lower()
        if not low.startswith(("http://", "https://")):
            continue
        rank = None if ASSET_RE.search(low) else RANK_REQUEST
        collector.url(url, "request", CONF_REQUEST, rank, resource=True)
    for cookie in cookies or ():
        name, domain = cookie_fields(cookie)
        if domain:
            idx = index.host_engine(domain.lower().lstrip("."))
            if idx is not None:
                collector.add(idx, "cookie", CONF_COOKIE, f"{name}@{domain}" if name else domain)
                continue
        if name:
            low = name.lower()
            for prefix, idx in index.cookie_prefixes:
                if low.startswith(prefix):
                    collector.add(idx, "cookie", CONF_COOKIE, name)
                    break
    for name in js_globals or ():
        if not name or not isinstance(name, str):
            continue
        idx = index.global_names.get(name)
        if idx is None:
            idx = index.global_names.get(name.split(".", 1)[0])
        if idx is not None:
            collector.add(idx, "js_global", CONF_JS_GLOBAL, name)


def cookie_fields(cookie: Any) -> tuple[str | None, str | None]:
    """(name, domain) from a cookie name, a (name, domain) pair or a Playwright cookie dict."""
    if isinstance(cookie, str):
        return cookie, None
    if isinstance(cookie, Mapping):
        return cookie.get("name"), cookie.get("domain")
    if isinstance(cookie, (tuple, list)) and cookie:
        return cookie[0], cookie[1] if len(cookie) > 1 else None
    return None, None


# --- public API -----------------------------------------------------------------------------

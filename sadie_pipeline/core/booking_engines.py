"""Booking-engine detection for hotel websites (seed 000, "Stage 2: Detect"), as pure logic.

No Dagster, no network. Given what a fetch saw — the final URL, the HTML and, when a browser was
used, the request URLs, cookies and JS globals it observed — tell which booking engine(s) the
hotel uses, with the best booking URL, how it was found and how sure we are. Also the two helpers
the detect stage needs around it: `needs_javascript` (httpx first, Playwright only when this says
so) and `strip_to_text` (the <= 50 KB plain text stored per hotel).

The catalogue is `sadie_pipeline/data/booking_engines.json` (tiers and signals are documented
there). It is loaded once and compiled into lookup tables, so a page costs one HTML parse plus
one dictionary walk per URL — never a loop over every engine for every link:

* hosts: an exact table of vendor (marketing) hosts and a suffix table of booking hosts; a URL's
  host is looked up label by label (`a.hotels.cloudbeds.com` -> `hotels.cloudbeds.com` -> ...);
* patterns: every engine's `link_patterns`, `script_srcs` and `iframe_srcs`, each guarded by
  its longest literal ("needle", a C-speed substring test) so a regex only runs on URLs that can
  match; only off-site URLs are tried (white-label hosts such as a SynXis
  `reservations.hotel.com/?chain=..&hotel=..`);
* intent ("Book now" links): pre-selected in C with lexbor's `:lexbor-contains`, confirmed by a
  regex on the few candidates;
* inline scripts and event handlers: one pass of a `//host` regex feeding the same host table,
  plus substring checks for the catalogue's JS globals.

A typical 100 KB page costs about 2 ms of CPU, most of it the lexbor parse.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from re import _parser as _sre_parse
from re._constants import LITERAL as _SRE_LITERAL
from typing import Any
from urllib.parse import urlencode, urljoin

from selectolax.lexbor import LexborHTMLParser

__all__ = [
    "METHODS",
    "BookingEngine",
    "Detection",
    "PageAnalysis",
    "analyze",
    "detect",
    "engine_by_name",
    "load_catalogue",
    "needs_javascript",
    "strip_to_text",
]

#: The detection methods stored in hotel_booking_engines.detection_method.
METHODS = ("link", "form", "iframe", "script", "js_global", "cookie", "request")

CATALOGUE_RESOURCE = "data/booking_engines.json"
TEXT_MAX_BYTES = 50_000

# Confidence of one piece of evidence, by where it was found.
_CONF_FINAL_URL = 1.0  # the page itself is on the engine (redirected to it)
_CONF_FORM = 0.95
_CONF_IFRAME = 0.95
_CONF_LINK_INTENT = 0.95  # an <a> whose text/label says "book", "reserve", ...
_CONF_LINK = 0.9
_CONF_SCRIPT = 0.85
_CONF_REQUEST = 0.8
_CONF_JS_GLOBAL = 0.8  # observed by the browser
_CONF_INLINE = 0.75  # a URL inside an inline script or an onclick handler
_CONF_JS_GLOBAL_INLINE = 0.7  # a global's name used in an inline script
_CONF_HINT = 0.6  # <link rel=preconnect|dns-prefetch|preload|stylesheet>
_CONF_COOKIE = 0.6
_CONF_VENDOR = 0.4  # a link to the vendor's marketing site ("powered by ...")
_PATTERN_ONLY_FACTOR = 0.85  # matched by a pattern on a white-label host, not by a known host
_MULTI_METHOD_BONUS = 0.03  # per extra distinct method that saw the same engine

# Booking-URL preference (lower is better) by where the URL was found.
_RANK_FINAL, _RANK_LINK_INTENT, _RANK_IFRAME, _RANK_FORM, _RANK_LINK, _RANK_INLINE, _RANK_REQUEST = range(7)

_LODGING_CATEGORIES = frozenset({"hotel_booking_engine", "crs", "vacation_rental"})
_CATEGORIES = _LODGING_CATEGORIES | {"activities"}

_HOST_RE = re.compile(r"^(?:[a-z][a-z0-9+.\-]*:)?//([^/?#\\\s'\"<>]+)")
_INLINE_URL_RE = re.compile(r"//([a-z0-9][a-z0-9\-]*(?:\.[a-z0-9\-]+)+)((?:[/?#][^\s\"'<>`\\)]*)?)", re.I)
_SKIP_HREF_PREFIXES = ("#", "mailto:", "tel:", "sms:", "data:", "whatsapp:", "fax:")
_ASSET_RE = re.compile(
    r"\.(?:js|mjs|css|png|jpe?g|gif|webp|svg|ico|woff2?|ttf|eot|otf|map|json|mp4|webm|mp3)(?:[?#]|$)"
)
_INTENT_RE = re.compile(
    r"\bbook(?:ing)?s?\b|\bbook ?now\b|\breserv(?:e|ed|ation|ations|ar|as|ieren|er)\b"
    r"|\bavailability\b|\bbuchen\b|\bprenota\b|\br[ée]server\b|\br[ée]servation\b"
)
_INTENT_KEYS = ("book", "reserv", "availab", "buchen", "prenot", "éserv")
_INTENT_SELECTOR = ":is(a, button):is(" + ", ".join(
    f':lexbor-contains("{k}" i), [class*="{k}" i], [aria-label*="{k}" i]' for k in _INTENT_KEYS
) + ")"
_HINT_RELS = frozenset({"preconnect", "dns-prefetch", "preload", "prefetch", "stylesheet", "modulepreload"})
_EVENT_ATTRS = ("onclick", "data-href", "data-url", "data-link", "data-booking-url", "data-src")
_EVENT_SELECTOR = ", ".join(f"[{a}]" for a in _EVENT_ATTRS)


# --- catalogue ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class BookingEngine:
    """One catalogue entry (see the JSON's top-level comment for what each signal means)."""

    name: str
    tier: int
    category: str
    domains: tuple[str, ...]
    vendor_hosts: tuple[str, ...] = ()
    script_srcs: tuple[str, ...] = ()
    link_patterns: tuple[str, ...] = ()
    iframe_srcs: tuple[str, ...] = ()
    js_globals: tuple[str, ...] = ()
    cookies: tuple[str, ...] = ()
    comment: str = ""
    website: str | None = None

    @property
    def signal_count(self) -> int:
        return sum(len(s) for s in (self.domains, self.script_srcs, self.link_patterns,
                                    self.iframe_srcs, self.js_globals, self.cookies))


def _parse_engine(raw: Mapping[str, Any]) -> BookingEngine:
    def strings(key: str, lower: bool = True) -> tuple[str, ...]:
        values = raw.get(key) or []
        if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
            raise ValueError(f"booking engine {raw.get('name')!r}: {key} must be a list of non-empty strings")
        return tuple(v.strip().lower() if lower else v.strip() for v in values)

    engine = BookingEngine(
        name=str(raw["name"]),
        tier=int(raw["tier"]),
        category=str(raw.get("category", "hotel_booking_engine")),
        domains=strings("domains"),
        vendor_hosts=strings("vendor_hosts"),
        script_srcs=strings("script_srcs"),
        link_patterns=strings("link_patterns", lower=False),
        iframe_srcs=strings("iframe_srcs"),
        js_globals=strings("js_globals", lower=False),
        cookies=strings("cookies"),
        comment=str(raw.get("comment", "")),
        website=raw.get("website"),
    )
    if engine.tier not in (1, 2):
        raise ValueError(f"booking engine {engine.name!r}: tier must be 1 or 2")
    if engine.category not in _CATEGORIES:
        raise ValueError(f"booking engine {engine.name!r}: unknown category {engine.category!r}")
    if engine.signal_count == 0:
        raise ValueError(f"booking engine {engine.name!r} has no signal")
    return engine


@cache
def load_catalogue() -> tuple[BookingEngine, ...]:
    """The booking engines of the bundled catalogue, sorted by name (loaded once)."""
    text = resources.files("sadie_pipeline").joinpath(CATALOGUE_RESOURCE).read_text(encoding="utf-8")
    engines = tuple(_parse_engine(raw) for raw in json.loads(text)["engines"])
    names = [e.name.lower() for e in engines]
    if len(set(names)) != len(names):
        raise ValueError("booking engine names must be unique")
    return engines


def engine_by_name(name: str) -> BookingEngine | None:
    """The catalogue entry called `name` (case-insensitive), or None."""
    return _index().by_name.get(name.lower())


class _Index:
    """The catalogue compiled into lookup tables (built once, see `_index`)."""

    def __init__(self, engines: tuple[BookingEngine, ...]):
        self.engines = engines
        self.by_name = {e.name.lower(): e for e in engines}
        self.domains: dict[str, int] = {}
        self.vendors: dict[str, int] = {}
        self.engine_patterns: list[re.Pattern[str] | None] = []
        self.globals: list[tuple[str, int, re.Pattern[str]]] = []
        self.global_names: dict[str, int] = {}
        self.cookie_prefixes: list[tuple[str, int]] = []
        self.patterns: list[tuple[str | None, int, re.Pattern[str]]] = []
        for i, e in enumerate(engines):
            for d in e.domains:
                if self.domains.setdefault(d.lstrip("*.").strip("."), i) != i:
                    raise ValueError(f"domain {d!r} is claimed by two booking engines")
            for h in e.vendor_hosts:
                if self.vendors.setdefault(h, i) != i:
                    raise ValueError(f"vendor host {h!r} is claimed by two booking engines")
            parts = [*e.link_patterns, *(re.escape(s) for s in (*e.script_srcs, *e.iframe_srcs))]
            for p in parts:
                try:
                    re.compile(p)
                except re.error as exc:
                    raise ValueError(f"booking engine {e.name!r}: bad pattern {p!r}: {exc}") from None
            self.engine_patterns.append(re.compile("|".join(f"(?:{p})" for p in parts), re.I) if parts else None)
            self.patterns.extend((_needle(p), i, re.compile(p, re.I)) for p in parts)
            for g in e.js_globals:
                boundary = re.compile(rf"(?<![\w$]){re.escape(g)}(?![\w$])")
                self.globals.append((g, i, boundary))
                self.global_names.setdefault(g, i)
                root = g.split(".", 1)[0]
                if len(root) >= 4:
                    self.global_names.setdefault(root, i)
            self.cookie_prefixes.extend((c, i) for c in e.cookies)

    def host_engine(self, host: str) -> int | None:
        """The engine whose booking domain is `host` or one of its parents."""
        domains = self.domains
        while True:
            idx = domains.get(host)
            if idx is not None:
                return idx
            dot = host.find(".")
            if dot < 0:
                return None
            host = host[dot + 1:]
            if "." not in host:  # never match a bare TLD
                return None

    def classify(self, url_lower: str, check_patterns: bool = True,
                 host: str | None = None) -> tuple[int, float] | None:
        """(engine index, strength) for a lower-cased absolute URL: strength 1.0 for a known
        booking host, _PATTERN_ONLY_FACTOR for a white-label pattern hit, 0.0 (weak evidence)
        for a vendor marketing host."""
        if host is None:
            host = _host(url_lower)
        if host:
            idx = self.vendors.get(host)
            if idx is not None:
                pattern = self.engine_patterns[idx]
                return (idx, 1.0) if pattern is not None and pattern.search(url_lower) else (idx, 0.0)
            idx = self.host_engine(host)
            if idx is not None:
                return idx, 1.0
        if check_patterns:
            # white-label: patterns may only match after the host (a path, a query, or an engine
            # URL embedded in a redirect parameter), never inside a look-alike host
            start = url_lower.find(host) + len(host) if host else 0
            for needle, idx, pattern in self.patterns:
                if needle is not None and url_lower.find(needle, start) < 0:
                    continue
                for m in pattern.finditer(url_lower, start):
                    at = m.start()
                    if at == 0 or not url_lower[at].isalnum() or not (
                        url_lower[at - 1].isalnum() or url_lower[at - 1] == "-"
                    ):
                        return idx, _PATTERN_ONLY_FACTOR
        return None


def _needle(pattern: str) -> str | None:
    """The longest run of literal characters a regex needs (lower-cased), None if < 3 chars."""
    best = current = ""
    try:
        items = list(_sre_parse.parse(pattern))
    except Exception:  # noqa: BLE001 - private API: fall back to always running the regex
        return None
    for op, arg in items:
        if op is _SRE_LITERAL:
            current += chr(arg)
        else:
            best, current = max(best, current, key=len), ""
    best = max(best, current, key=len)
    return best.lower() if len(best) >= 3 else None


@cache
def _index() -> _Index:
    return _Index(load_catalogue())


def _host(url_lower: str) -> str | None:
    """The host of an absolute or protocol-relative URL (already lower-cased), else None."""
    i = url_lower.find("//")
    if i < 0 or (i and (url_lower[i - 1] != ":" or not url_lower[: i - 1].isalnum())):
        if i <= 0 or _HOST_RE.match(url_lower) is None:  # schemes such as "git+ssh:"
            return None
    start = i + 2
    end = len(url_lower)
    for sep in ("/", "?", "#", "\\"):
        k = url_lower.find(sep, start, end)
        if k >= 0:
            end = k
    host = url_lower[start:end]
    if "@" in host:
        host = host.rsplit("@", 1)[1]
    if ":" in host:
        if host.startswith("["):
            return None
        host = host.split(":", 1)[0]
    host = host.strip().rstrip(".")
    return host or None


# --- results --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Detection:
    """A booking engine found on a page.

    `method` is how the strongest evidence was found (one of METHODS), `methods` every method
    that saw this engine, `evidence` the URL or name that matched for the strongest evidence,
    `booking_url` the best absolute link/form/iframe URL into the engine (None when the engine
    was only seen as a script, global, cookie or vendor link)."""

    name: str
    tier: int
    booking_url: str | None
    method: str
    confidence: float
    methods: tuple[str, ...]
    evidence: str
    category: str


@dataclass(frozen=True, slots=True)
class PageAnalysis:
    """Everything the detect stage needs from one page, from a single parse."""

    detections: tuple[Detection, ...]
    needs_javascript: bool
    text: str
    #: same-site links whose text says "book"/"reserve" (the fetcher may follow one hop)
    booking_links: tuple[str, ...] = ()

    @property
    def primary(self) -> Detection | None:
        return self.detections[0] if self.detections else None


class _Collector:
    """Evidence per engine while a page is scanned."""

    __slots__ = ("index", "evidence", "order")

    def __init__(self, index: _Index):
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
        if conf > _CONF_VENDOR:
            entry[4] += 1
        if booking_url is not None:
            specific = 0 if _is_specific(booking_url) else 1
            entry[5].append((rank, specific, self.order, booking_url))

    def url(self, url: str, method: str, conf: float, rank: int | None = None,
            check_patterns: bool = True) -> bool:
        """Classify one absolute URL and record it; True when it belonged to an engine."""
        hit = self.index.classify(url.lower(), check_patterns)
        if hit is None:
            return False
        self.record(hit, url, method, conf, rank)
        return True

    def record(self, hit: tuple[int, float], url: str, method: str, conf: float,
               rank: int | None = None) -> None:
        """Record a classified URL (see _Index.classify)."""
        idx, strength = hit
        if strength == 0.0:  # vendor marketing host: weak, never a booking URL
            self.add(idx, method, _CONF_VENDOR, url)
            return
        booking = url if rank is not None and not _ASSET_RE.search(url.lower()) else None
        self.add(idx, method, round(conf * strength, 3), url, booking, rank if rank is not None else 99)

    def results(self) -> list[Detection]:
        engines = self.index.engines
        out: list[tuple[tuple, Detection]] = []
        for idx, (conf, method, evidence, methods, count, candidates, first) in self.evidence.items():
            e = engines[idx]
            strong_methods = len(methods)
            confidence = min(1.0, conf + _MULTI_METHOD_BONUS * (strong_methods - 1)) if count else conf
            booking_url = min(candidates)[3] if candidates else None
            det = Detection(
                name=e.name, tier=e.tier, booking_url=booking_url, method=method,
                confidence=round(confidence, 3),
                methods=tuple(m for m in METHODS if m in methods),
                evidence=evidence, category=e.category,
            )
            key = (e.category not in _LODGING_CATEGORIES, -det.confidence, -count, first)
            out.append((key, det))
        out.sort(key=lambda kv: kv[0])
        return [d for _, d in out]


def _is_specific(url: str) -> bool:
    """A URL that names something (a property id, a path) rather than a bare host."""
    m = _HOST_RE.match(url.lower())
    rest = url[m.end():] if m else url
    return rest not in ("", "/") and not rest.startswith("#")


# --- page scanning --------------------------------------------------------------------------

class _Page:
    """One parsed page and its base URL."""

    __slots__ = ("tree", "final_url", "base", "base_host", "base_is_engine", "site_host", "relative_is_local",
                 "_intent")

    def __init__(self, html: str | bytes | None, final_url: str | None):
        if isinstance(html, (bytes, bytearray)):
            html = bytes(html).decode("utf-8", errors="replace")
        self.tree = LexborHTMLParser(html or "")
        self.final_url = (final_url or "").strip()
        base = self.final_url
        base_node = self.tree.css_first("base[href]")
        if base_node is not None:
            href = (base_node.attrs.get("href") or "").strip()
            if href:
                base = urljoin(base, href) if base else href
        self.base = base
        self.base_host = _host(base.lower()) if base else None
        self.site_host = _host(self.final_url.lower()) if self.final_url else self.base_host
        self.base_is_engine = bool(self.base_host) and _index().classify(base.lower(), False) is not None
        # relative URLs stay on the site (so cannot be a third-party engine) unless <base href>
        # points elsewhere or the page itself is served by an engine
        self.relative_is_local = not self.base_is_engine and self.base_host == self.site_host
        self._intent: list | None = None

    def intent_nodes(self) -> list:
        """The <a>/<button> elements that say "book", "reserve", ... (one C-level query per
        page picks candidates, a regex confirms them)."""
        if self._intent is None:
            self._intent = [n for n in self.tree.css(_INTENT_SELECTOR) if _anchor_intent(n)]
        return self._intent

    def absolute(self, url: str) -> str | None:
        """An absolute http(s) URL for an attribute value, None for in-page/other schemes."""
        url = url.strip()
        if not url or url.startswith(_SKIP_HREF_PREFIXES):
            return None
        low = url[:12].lower()
        if low.startswith(("http://", "https://")):
            return url
        if url.startswith("//"):
            scheme = "http:" if self.base.lower().startswith("http:") else "https:"
            return scheme + url
        if low.startswith("javascript:") or ":" in low.split("/", 1)[0]:
            return None
        return urljoin(self.base, url) if self.base else None


def _anchor_intent(node, attrs: Mapping[str, str | None] | None = None) -> bool:
    """Does a link or button say "book", "reserve", "availability", ...?"""
    if attrs is None:
        attrs = node.attrs
    text = node.text(deep=True, separator=" ")
    for key in ("title", "aria-label", "class", "id"):
        value = attrs.get(key)
        if value:
            text = f"{text} {value}"
    low = text.lower()
    if not any(k in low for k in _INTENT_KEYS):
        return False
    return _INTENT_RE.search(low) is not None


def _form_url(node, action: str) -> str:
    """A GET form's action with its hidden inputs as the query (the property id usually is one)."""
    method = (node.attrs.get("method") or "get").strip().lower()
    if method != "get":
        return action
    pairs = []
    for inp in node.css("input[type=hidden][name]"):
        a = inp.attrs
        name, value = a.get("name"), a.get("value")
        if name and value is not None and f"{name}=" not in action:
            pairs.append((name, value))
    if not pairs:
        return action
    sep = "&" if "?" in action else "?"
    if action.endswith(("?", "&")):
        sep = ""
    return action + sep + urlencode(pairs)


# (tag, attribute, method, confidence, booking-URL rank) of every URL-bearing attribute scanned
_URL_ATTRS: tuple[tuple[str, str, str, float, int | None], ...] = (
    ("a", "href", "link", _CONF_LINK, _RANK_LINK),
    ("area", "href", "link", _CONF_LINK, _RANK_LINK),
    ("form", "action", "form", _CONF_FORM, _RANK_FORM),
    ("iframe", "src", "iframe", _CONF_IFRAME, _RANK_IFRAME),
    ("iframe", "data-src", "iframe", _CONF_IFRAME, _RANK_IFRAME),
    ("iframe", "data-lazy-src", "iframe", _CONF_IFRAME, _RANK_IFRAME),
    ("frame", "src", "iframe", _CONF_IFRAME, _RANK_IFRAME),
    ("script", "src", "script", _CONF_SCRIPT, None),
    ("script", "data-src", "script", _CONF_SCRIPT, None),
    ("link", "href", "script", _CONF_HINT, None),
)
_ATTRS_BY_TAG: dict[str, list[tuple[str, str, float, int | None]]] = {}
for _tag, _attr, _method, _conf, _rank in _URL_ATTRS:
    _ATTRS_BY_TAG.setdefault(_tag, []).append((_attr, _method, _conf, _rank))
_ALL_URLS_SELECTOR = ", ".join(f"{t}[{a}]" for t, a, *_ in _URL_ATTRS)


@cache
def _offsite_selector(site_host: str | None) -> str:
    """CSS for elements with an absolute or protocol-relative URL not on `site_host`, so that
    lexbor filters out same-site and relative URLs before Python sees them."""
    not_site = ""
    if site_host and '"' not in site_host and "\\" not in site_host:
        # anchored at the start: an engine link may carry ?referrer=https://<site>/ in its query
        not_site = "".join(f':not([{{a}}^="{p}{site_host}" i])' for p in ("https://", "http://", "//"))
    parts = []
    for t, a, *_ in _URL_ATTRS:
        ns = not_site.replace("{a}", a)
        parts.append(f'{t}[{a}^="http" i]{ns}, {t}[{a}^="//"]{ns}')
    return ", ".join(parts)


def _scan(page: _Page, collector: _Collector) -> int:
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
    selector = _offsite_selector(site_host) if page.relative_is_local else _ALL_URLS_SELECTOR
    for node in tree.css(selector):
        tag = node.tag
        attrs = node.attrs
        for attr, method, conf, rank in _ATTRS_BY_TAG.get(tag, ()):
            raw = attrs.get(attr)
            if not raw:
                continue
            if tag == "link" and not any(r in _HINT_RELS for r in (attrs.get("rel") or "").lower().split()):
                continue
            url = page.absolute(raw)
            if url is None:
                continue
            low = url.lower()
            host = _host(low)
            offsite = host is not None and host != site_host
            if not offsite and not base_is_engine:
                continue  # same-site URL: neither a known host nor a white-label engine
            hit = index.classify(low, offsite, host)
            if hit is None:
                continue
            if method == "link":
                if hit[1] > 0.0 and _anchor_intent(node, attrs):
                    conf, rank = _CONF_LINK_INTENT, _RANK_LINK_INTENT
            elif method == "form":
                url = _form_url(node, url)
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
    for node in tree.css(_EVENT_SELECTOR):
        attrs = node.attrs
        for attr in _EVENT_ATTRS:
            value = attrs.get(attr)
            if value and not (attr == "data-src" and node.tag in ("iframe", "frame", "script", "img")):
                inline.append(value)
    if inline:
        _scan_inline("\n".join(inline), page, collector)
    return external_scripts


def _booking_links(page: _Page, limit: int = 5) -> list[str]:
    """Same-site links that say "book"/"reserve" (the booking page may embed the engine)."""
    links: list[str] = []
    for node in page.intent_nodes():
        if node.tag != "a":
            continue
        url = page.absolute(node.attrs.get("href") or "")
        if url is None:
            continue
        host = _host(url.lower())
        if (host is None or host == page.site_host) and url not in links:
            links.append(url)
            if len(links) >= limit:
                break
    return links


def _scan_inline(text: str, page: _Page, collector: _Collector) -> None:
    """URLs and JS globals inside inline scripts, onclick handlers and data attributes."""
    index = collector.index
    if "\\/" in text:
        text = text.replace("\\/", "/")  # JSON-escaped URLs: https:\/\/host\/path
    site_host = page.site_host
    for host, rest in set(_INLINE_URL_RE.findall(text)):
        host = host.lower()
        if host == site_host:
            continue
        url = f"https://{host}{rest}"
        low = url.lower()
        hit = index.classify(low, True, host)
        if hit is not None:
            collector.record(hit, url, "script", _CONF_INLINE, None if _ASSET_RE.search(low) else _RANK_INLINE)
    for name, idx, boundary in index.globals:
        if name in text and boundary.search(text):
            collector.add(idx, "js_global", _CONF_JS_GLOBAL_INLINE, name)


def _scan_browser(collector: _Collector, request_urls: Iterable[str], cookies: Iterable[Any],
                  js_globals: Iterable[str]) -> None:
    """Evidence a browser observed: network requests, cookies and window globals."""
    index = collector.index
    for url in request_urls or ():
        if not url or not isinstance(url, str):
            continue
        low = url.lower()
        if not low.startswith(("http://", "https://")):
            continue
        rank = None if _ASSET_RE.search(low) else _RANK_REQUEST
        collector.url(url, "request", _CONF_REQUEST, rank)
    for cookie in cookies or ():
        name, domain = _cookie_fields(cookie)
        if domain:
            idx = index.host_engine(domain.lower().lstrip("."))
            if idx is not None:
                collector.add(idx, "cookie", _CONF_COOKIE, f"{name}@{domain}" if name else domain)
                continue
        if name:
            low = name.lower()
            for prefix, idx in index.cookie_prefixes:
                if low.startswith(prefix):
                    collector.add(idx, "cookie", _CONF_COOKIE, name)
                    break
    for name in js_globals or ():
        if not name or not isinstance(name, str):
            continue
        idx = index.global_names.get(name)
        if idx is None:
            idx = index.global_names.get(name.split(".", 1)[0])
        if idx is not None:
            collector.add(idx, "js_global", _CONF_JS_GLOBAL, name)


def _cookie_fields(cookie: Any) -> tuple[str | None, str | None]:
    """(name, domain) from a cookie name, a (name, domain) pair or a Playwright cookie dict."""
    if isinstance(cookie, str):
        return cookie, None
    if isinstance(cookie, Mapping):
        return cookie.get("name"), cookie.get("domain")
    if isinstance(cookie, (tuple, list)) and cookie:
        return cookie[0], cookie[1] if len(cookie) > 1 else None
    return None, None


# --- public API -----------------------------------------------------------------------------

def detect(
    html: str | bytes | None,
    final_url: str | None = None,
    *,
    request_urls: Iterable[str] = (),
    cookies: Iterable[Any] = (),
    js_globals: Iterable[str] = (),
    min_confidence: float = 0.0,
) -> list[Detection]:
    """The booking engines a page reveals, best first (empty list: no engine, status 99 NO_BOOKING_ENGINE).

    `final_url` is the URL after redirects (relative links resolve against it, or against the
    page's <base href>); `request_urls`, `cookies` (names, (name, domain) pairs or Playwright
    cookie dicts) and `js_globals` (window property names) are what a browser observed, when
    one was used. Ordering: lodging engines before activity tools, then confidence, then the
    amount of evidence, then first appearance in the page."""
    collector = _Collector(_index())
    page = _Page(html, final_url) if html or final_url else None
    if page is not None:
        _scan_final_url(page, collector)
        if html:
            _scan(page, collector)
    _scan_browser(collector, request_urls, cookies, js_globals)
    return [d for d in collector.results() if d.confidence >= min_confidence]


def _scan_final_url(page: _Page, collector: _Collector) -> None:
    if page.final_url:
        collector.url(page.final_url, "link", _CONF_FINAL_URL, _RANK_FINAL)


def analyze(
    html: str | bytes | None,
    final_url: str | None = None,
    *,
    request_urls: Iterable[str] = (),
    cookies: Iterable[Any] = (),
    js_globals: Iterable[str] = (),
    max_text_bytes: int = TEXT_MAX_BYTES,
) -> PageAnalysis:
    """detect() + needs_javascript() + strip_to_text() from one parse of the page."""
    collector = _Collector(_index())
    page = _Page(html, final_url)
    _scan_final_url(page, collector)
    external_scripts = _scan(page, collector) if html else 0
    booking_links = _booking_links(page) if html else []
    _scan_browser(collector, request_urls, cookies, js_globals)
    detections = tuple(collector.results())
    structural = _js_structural_signals(page, html)
    text = _visible_text(page.tree)
    js = _needs_js(structural, text, detections, external_scripts, page, bool(booking_links))
    return PageAnalysis(detections=detections, needs_javascript=js,
                        text=_truncate_utf8(text, max_text_bytes), booking_links=tuple(booking_links))


# --- needs_javascript ------------------------------------------------------------------------

_SPA_ROOTS = ", ".join(("#root", "#app", "#__next", "#__nuxt", "#___gatsby", "#svelte", "#q-app",
                         "app-root", "[ng-app]", "[data-reactroot]", "#main-app", "#application"))
_NOSCRIPT_JS_RE = re.compile(
    r"enable javascript|javascript (?:is |must be )?(?:required|disabled|enabled)|requires? javascript"
    r"|turn on javascript|activate javascript|javascript to run this app|javascript aktivieren"
    r"|activez (?:le )?javascript|habilita(?:r)? (?:el )?javascript|abilita(?:re)? javascript"
    r"|support javascript|javascript-enabled",
    re.I,
)
_CHALLENGE_MARKERS = ("cf-browser-verification", "/cdn-cgi/challenge-platform/", "challenges.cloudflare.com",
                      "_incapsula_resource", "captcha-delivery.com", "cf_chl_opt", "px-captcha")
_CHALLENGE_TITLES = ("just a moment", "attention required", "access denied", "checking your browser",
                     "please wait", "one moment, please")
_MIN_TEXT_CHARS = 250  # below this a page with scripts is treated as script-rendered
_SPA_TEXT_CHARS = 1_000
_NOSCRIPT_TEXT_CHARS = 2_500


def needs_javascript(html: str | bytes | None) -> bool:
    """True when the page must be rendered by a browser to be judged: a near-empty body, an
    empty SPA root (<div id="root"></div> + bundles), an "enable JavaScript" noscript on a thin
    page, a bot challenge, a booking widget only loaded by a script loader, or "Book now"
    buttons that lead nowhere without JavaScript."""
    if not html or len(html.strip() if isinstance(html, str) else bytes(html).strip()) < 200:
        return True
    page = _Page(html, None)
    collector = _Collector(_index())
    external_scripts = _scan(page, collector)
    booking_links = _booking_links(page)
    detections = tuple(collector.results())
    structural = _js_structural_signals(page, html)
    return _needs_js(structural, _visible_text(page.tree), detections, external_scripts, page,
                     bool(booking_links))


@dataclass(slots=True)
class _Structure:
    challenge: bool
    empty_spa_root: bool
    noscript_js: bool
    dead_booking_button: bool


def _js_structural_signals(page: _Page, html: str | bytes | None) -> _Structure:
    tree = page.tree
    title_node = tree.css_first("title")
    title = title_node.text(strip=True).lower() if title_node is not None else ""
    head_html = ""
    if html:
        raw = html if isinstance(html, str) else bytes(html).decode("utf-8", errors="replace")
        head_html = raw[:20_000].lower()
    challenge = any(m in head_html for m in _CHALLENGE_MARKERS) or (
        bool(title) and any(title.startswith(t) for t in _CHALLENGE_TITLES) and len(head_html) < 20_000
    )
    empty_root = any(len(n.text(deep=True, strip=True)) < 40 for n in tree.css(_SPA_ROOTS))
    noscript_js = any(_NOSCRIPT_JS_RE.search(n.text(deep=True) or "") for n in tree.css("noscript"))
    dead = False
    for node in page.intent_nodes():  # "Book now" that goes nowhere without JavaScript?
        attrs = node.attrs
        if node.tag == "a":
            href = (attrs.get("href") or "").strip().lower()
            if href and not href.startswith(("#", "javascript:")):
                continue
        elif (attrs.get("type") or "").lower() == "submit" and _inside_form_with_action(node):
            continue
        dead = True
        break
    return _Structure(challenge, empty_root, noscript_js, dead)


def _inside_form_with_action(node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.tag == "form":
            return bool((parent.attrs.get("action") or "").strip())
        parent = parent.parent
    return False


def _needs_js(s: _Structure, text: str, detections: tuple[Detection, ...], external_scripts: int,
              page: _Page, has_booking_links: bool) -> bool:
    if s.challenge:
        return True
    n = len(text)
    has_scripts = external_scripts > 0 or page.tree.css_first("script") is not None
    if n < _MIN_TEXT_CHARS and has_scripts:
        return True
    if n < 60:
        return True
    if s.empty_spa_root and n < _SPA_TEXT_CHARS and has_scripts:
        return True
    if s.noscript_js and n < _NOSCRIPT_TEXT_CHARS:
        return True
    lodging = [d for d in detections if d.category in _LODGING_CATEGORIES and d.confidence > _CONF_VENDOR]
    if lodging and all(d.booking_url is None for d in lodging):
        return True  # a widget loaded by script: only a browser shows where it books
    if not lodging and s.dead_booking_button and has_scripts and not has_booking_links:
        return True  # "Book now" wired up by JavaScript (tag managers, widget loaders)
    return False


# --- strip_to_text ---------------------------------------------------------------------------

_INVISIBLE_TAGS = ["script", "style", "noscript", "template", "svg", "iframe", "object", "embed",
                   "canvas", "head"]


def _visible_text(tree: LexborHTMLParser) -> str:
    """Visible text of the parsed page, whitespace collapsed (mutates the tree: call last)."""
    tree.strip_tags(_INVISIBLE_TAGS)
    root = tree.body if tree.body is not None else tree.root
    if root is None:
        return ""
    return " ".join(root.text(deep=True, separator=" ").split())


def _truncate_utf8(text: str, max_bytes: int) -> str:
    if max_bytes <= 0:
        return ""
    if len(text) * 4 <= max_bytes:  # cannot exceed even if every char took 4 bytes
        return text
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    return data[:max_bytes].decode("utf-8", errors="ignore").rstrip()


def strip_to_text(html: str | bytes | None, max_bytes: int = TEXT_MAX_BYTES) -> str:
    """The page's visible text (no scripts, styles, noscript or templates), whitespace collapsed,
    truncated to `max_bytes` of UTF-8 without splitting a character (seed: <= 50 KB per hotel)."""
    if not html:
        return ""
    if isinstance(html, (bytes, bytearray)):
        html = bytes(html).decode("utf-8", errors="replace")
    return _truncate_utf8(_visible_text(LexborHTMLParser(html)), max_bytes)

"""One parsed hotel page: its base URL, its "Book now" elements and the URL-bearing attributes
the scanners read (shared by engine detection, the JavaScript decision and the unknown-engine
fallback)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from urllib.parse import urlencode, urljoin

from selectolax.lexbor import LexborHTMLParser

from sadie_pipeline.core.booking.catalogue import host_of, index

# Confidence of one piece of evidence, by where it was found.
CONF_FINAL_URL = 1.0  # the page itself is on the engine (redirected to it)
CONF_FORM = 0.95
CONF_IFRAME = 0.95
CONF_LINK_INTENT = 0.95  # an <a> whose text/label says "book", "reserve", ...
CONF_LINK = 0.9
CONF_SCRIPT = 0.85
CONF_REQUEST = 0.8
CONF_JS_GLOBAL = 0.8  # observed by the browser
CONF_INLINE = 0.75  # a URL inside an inline script or an onclick handler
CONF_JS_GLOBAL_INLINE = 0.7  # a global's name used in an inline script
CONF_HINT = 0.6  # <link rel=preconnect|dns-prefetch|preload|stylesheet>
CONF_COOKIE = 0.6
CONF_VENDOR = 0.4  # a link to the vendor's marketing site ("powered by ...")

# Booking-URL preference (lower is better) by where the URL was found.
RANK_FINAL, RANK_LINK_INTENT, RANK_IFRAME, RANK_FORM, RANK_LINK, RANK_INLINE, RANK_REQUEST, RANK_TEMPLATE = range(8)

HOST_RE = re.compile(r"^(?:[a-z][a-z0-9+.\-]*:)?//([^/?#\\\s'\"<>]+)")
SKIP_HREF_PREFIXES = ("#", "mailto:", "tel:", "sms:", "data:", "whatsapp:", "fax:")
ASSET_RE = re.compile(
    r"\.(?:js|mjs|css|png|jpe?g|gif|webp|svg|ico|woff2?|ttf|eot|otf|map|json|mp4|webm|mp3|pdf)(?:[?#]|$)"
)
# "Book now" in the languages of the catalogue's markets (CJK words have no \b inside a sentence).
INTENT_RE = re.compile(
    r"\bbook(?:ing)?s?\b|\bbook ?now\b|\breserv(?:e|ed|ation|ations|ar|as|a|ieren|er|eren)\b"
    r"|\bavailability\b|\bbuchen\b|\bprenota(?:re|zione|zioni)?\b|\br[ée]server\b|\br[ée]servation\b"
    r"|\bboek(?:en)?\b|\brezerv\w*|\brezerw\w*|\bбронир\w*|予約|预订|預訂|예약"
    r"|\bboka\b|\bbokning\w*|\bbestill?\b|\bvaraa\b|\bvaraus\w*|\bfoglal\w*|\bbroneeri\w*|\byoyaku\b"
    r"|κράτηση|забронир\w*|đặt phòng"
)
INTENT_KEYS = ("book", "reserv", "availab", "buchen", "prenot", "éserv", "boek", "rezerv", "rezerw", "бронир",
               "予約", "预订", "預訂", "예약", "boka", "bokning", "bestil", "varaa", "varaus", "foglal", "broneeri",
               "yoyaku", "κράτηση", "đặt phòng")
# lexbor's :lexbor-contains reads an element's own text only, not its children's ("<a><span>Book
# now</span></a>" is the usual button): the same test on a descendant, then its <a>/<button>.
_INTENT_TESTS = ", ".join(
    f':lexbor-contains("{k}" i), [class*="{k}" i], [aria-label*="{k}" i]' for k in INTENT_KEYS)
INTENT_SELECTOR = f":is(a, button):is({_INTENT_TESTS})"
_INTENT_INNER_SELECTOR = f":is(a, button) :is({_INTENT_TESTS})"
HINT_RELS = frozenset({"preconnect", "dns-prefetch", "preload", "prefetch", "stylesheet", "modulepreload"})
EVENT_ATTRS = ("onclick", "data-href", "data-url", "data-link", "data-booking-url", "data-src")
EVENT_SELECTOR = ", ".join(f"[{a}]" for a in EVENT_ATTRS)


def is_specific(url: str) -> bool:
    """A URL that names something (a property id, a path) rather than a bare host."""
    m = HOST_RE.match(url.lower())
    rest = url[m.end():] if m else url
    return rest not in ("", "/") and not rest.startswith("#")


class Page:
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
        self.base_host = host_of(base.lower()) if base else None
        self.site_host = host_of(self.final_url.lower()) if self.final_url else self.base_host
        self.base_is_engine = bool(self.base_host) and index().classify(base.lower(), False) is not None
        # relative URLs stay on the site (so cannot be a third-party engine) unless <base href>
        # points elsewhere or the page itself is served by an engine
        self.relative_is_local = not self.base_is_engine and self.base_host == self.site_host
        self._intent: list | None = None

    def intent_nodes(self) -> list:
        """The <a>/<button> elements that say "book", "reserve", ... (one C-level query per
        page picks candidates, a regex confirms them)."""
        if self._intent is None:
            nodes = {n.mem_id: n for n in self.tree.css(INTENT_SELECTOR)}
            for inner in self.tree.css(_INTENT_INNER_SELECTOR):
                outer = _clickable_ancestor(inner)
                if outer is not None:
                    nodes.setdefault(outer.mem_id, outer)
            self._intent = [n for n in nodes.values() if anchor_intent(n)]
        return self._intent

    def absolute(self, url: str) -> str | None:
        """An absolute http(s) URL for an attribute value, None for in-page/other schemes."""
        url = url.strip()
        if not url or url.startswith(SKIP_HREF_PREFIXES):
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


def _clickable_ancestor(node):
    """The nearest <a> or <button> around `node`."""
    parent = node.parent
    while parent is not None and parent.tag not in ("a", "button"):
        parent = parent.parent
    return parent


def anchor_intent(node, attrs: Mapping[str, str | None] | None = None) -> bool:
    """Does a link or button say "book", "reserve", "availability", ...?"""
    if attrs is None:
        attrs = node.attrs
    text = node.text(deep=True, separator=" ")
    for key in ("title", "aria-label", "class", "id"):
        value = attrs.get(key)
        if value:
            text = f"{text} {value}"
    low = text.lower()
    if not any(k in low for k in INTENT_KEYS):
        return False
    return INTENT_RE.search(low) is not None


def form_url(node, action: str) -> str:
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
URL_ATTRS: tuple[tuple[str, str, str, float, int | None], ...] = (
    ("a", "href", "link", CONF_LINK, RANK_LINK),
    ("area", "href", "link", CONF_LINK, RANK_LINK),
    ("form", "action", "form", CONF_FORM, RANK_FORM),
    ("iframe", "src", "iframe", CONF_IFRAME, RANK_IFRAME),
    ("iframe", "data-src", "iframe", CONF_IFRAME, RANK_IFRAME),
    ("iframe", "data-lazy-src", "iframe", CONF_IFRAME, RANK_IFRAME),
    ("frame", "src", "iframe", CONF_IFRAME, RANK_IFRAME),
    ("script", "src", "script", CONF_SCRIPT, None),
    ("script", "data-src", "script", CONF_SCRIPT, None),
    ("link", "href", "script", CONF_HINT, None),
)
ATTRS_BY_TAG: dict[str, list[tuple[str, str, float, int | None]]] = {}
for _tag, _attr, _method, _conf, _rank in URL_ATTRS:
    ATTRS_BY_TAG.setdefault(_tag, []).append((_attr, _method, _conf, _rank))
ALL_URLS_SELECTOR = ", ".join(f"{t}[{a}]" for t, a, *_ in URL_ATTRS)


@cache
def offsite_selector(site_host: str | None) -> str:
    """CSS for elements with an absolute or protocol-relative URL not on `site_host`, so that
    lexbor filters out same-site and relative URLs before Python sees them."""
    not_site = ""
    if site_host and '"' not in site_host and "\\" not in site_host:
        # anchored at the start: an engine link may carry ?referrer=https://<site>/ in its query
        not_site = "".join(f':not([{{a}}^="{p}{site_host}" i])' for p in ("https://", "http://", "//"))
    parts = []
    for t, a, *_ in URL_ATTRS:
        ns = not_site.replace("{a}", a)
        parts.append(f'{t}[{a}^="http" i]{ns}, {t}[{a}^="//"]{ns}')
    return ", ".join(parts)

"""The unknown-engine fallback for scripts and widgets: an uncatalogued engine that shows itself
only as a third-party script (a `<script src>`, a script URL in inline code, a request a browser
observed) or as the element that script injects (a container with booking `data-*` config such
as `data-hotel-id`, a `<xyz-booking-widget>` custom element, a `BookingWidget.init({hotelId: 1})`
call).

A script host is an unknown engine when it is off the hotel's site, not catalogued, not a known
non-engine host (analytics, chat, maps, reviews, CDNs, OTAs, restaurant and activity booking:
`script_hosts`), no non-booking word vetoes it, and it carries booking words itself or is tied to
a booking widget: the widget names it (a URL, a shared brand token such as `rezhub` in
`cdn.rezhub.io` and `<div class="rezhub-widget">`), sits next to it (the vendor's two-line
embed snippet), or is the page's only candidate script. Pure: the page and URLs in, hosts out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from sadie_pipeline.core.booking.catalogue import host_of, index
from sadie_pipeline.core.booking.domains import registrable_domain, suffix_extractor
from sadie_pipeline.core.booking.page import HINT_RELS, Page
from sadie_pipeline.core.booking.script_hosts import engine_of_host, is_catalogued_vendor, is_non_engine_script_host

_BOOK = (r"(?<!face)(?<!guest)(?<!note)(?<!look)(?<!cook)(?<!hand)(?<!year)(?<!phone)(?<![^a-z]e)(?<!^e)"
         r"book(?!mark|let|store|shelf|worm|case)")
# Booking words in a host+path, an id/class/tag/attribute name or a JS identifier.
BOOKING_WORDS_RE = re.compile(
    _BOOK + r"|reserv|éserv|availab|(?<![a-z])ibe(?![a-z])|buch(?:en|ung)|prenot|rezerv|rezerw|boek|yoyaku"
    r"|boka|bokning|bestill|varaa|varaus|foglal|broneeri|bronir|yeyak|yuding"
    r"|hotel-?engine|motor-?de-?reservas?|бронир|予約|预订|예약",
    re.I)
# Words of everything else a script or widget does beside a hotel's rooms.
VETO_RE = re.compile(
    r"(?<![a-z])(?:reviews?|ratings?|testimonial|feedback|seal|badge|awards?|weather|forecast|maps?|chat|messenger"
    r"|translat\w*|cookie|consent|gdpr|analytics?|pixel|tracking|tracker|fonts?|gallery|video|player|instagram"
    r"|social|share|newsletter|subscribe|popup|captcha|payments?|restaurants?|tables?|dining|dinner|lunch|brunch"
    r"|menu|tisch|mesa|tavolo|spa|treatments?|massage|tours?|activit\w*|excursions?|tickets?|events?|golf"
    r"|tee-?times?|lessons?|courses?|classes|appointments?|salon|parking|taxi|transfers?|shuttle|car-?rental"
    r"|flights?|datalayer|gtag|fbq|affiliate|aff|bookingaff|sister)(?![a-z])"
    r"|restaurant|dining|ticket|excursion|tischreserv|table-?book|book-?(?:a-?)?table|booking-?table", re.I)
_QUOTED_RE = re.compile(r"[\"']([^\"']{0,200})[\"']")
# Config keys that name a property: data-hotel-id, data-zb-hotel, hotelId:, property_code:, ...
CONFIG_KEY_RE = re.compile(r"(?:^|[-_])(?:hotel|propert(?:y|ies)|establishment|lodging|accommodation|hostel|chain)"
                           r"[-_]?(?:id|code|key|uuid|slug|token)?$", re.I)
_INIT_RE = re.compile(r"(?:new\s+)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*){0,3})\s*"
                      r"(?:\(\s*(?:[\"'#\w.$\[\]-]{1,80}\s*,\s*)?|=\s*)\{([^{}]{0,600})")
_INIT_METHOD_RE = re.compile(r"\.(?:init|initiali[sz]e|load|mount|render|create|setup|embed|open|show|start|run)$",
                             re.I)
_CONFIG_PAIR_RE = re.compile(r"[\"']?([A-Za-z_$][\w$-]*)[\"']?\s*:")
_INLINE_URL_RE = re.compile(r"(?:https?:)?//([a-z0-9][a-z0-9\-]*(?:\.[a-z0-9\-]+)+)((?:[/?#][^\s\"'<>`\\)]*)?)", re.I)
_URL_VALUE_RE = re.compile(r"^(?:https?:)?//", re.I)
# Images, fonts, styles, media: a "booking-room.jpg" on an image CDN is no engine.
_MEDIA_RE = re.compile(r"\.(?:css|png|jpe?g|gif|webp|avif|svg|ico|woff2?|ttf|eot|otf|map|mp4|webm|mp3|pdf)$", re.I)
_WIDGETISH_RE = re.compile(r"widget|engine|embed|container|search|calendar|form|bar|plugin|frame|box|module"
                           r"|panel|app|root|button|btn|ibe", re.I)
_LOADER_PATH_RE = re.compile(r"widget|embed|loader|sdk|plugin|engine|client|integration|button|calendar|search"
                             r"|ibe|book|reserv", re.I)
_GENERIC_TOKENS = frozenset("""www cdn static widget widgets api app apps assets asset secure online cloud web
my get the embed media files img images script scripts js dist build bundle loader main hotel hotels engine
booking bookings book reservations reservation reserve res system systems soft software data init config
service services portal direct site sites html div section span button class data id container""".split())
_SKIP_SCRIPT_TYPES = ("application/ld+json", "application/json", "text/template", "text/html", "text/x-template",
                      "importmap", "speculationrules")
CONF_SCRIPT_URL, CONF_TIED, CONF_ONLY = 0.5, 0.45, 0.4
_NOT_WIDGETS = frozenset({"script", "style", "template", "html", "body", "main", "header", "footer", "nav", "article"})
_CUSTOM_TAG_RE = re.compile(r"<([a-z][a-z0-9]*-[a-z0-9\-]*)", re.I)
_DATA_ATTR_RE = re.compile(r"\sdata-([a-z0-9_\-]+)\s*=", re.I)
_NAMED_SELECTOR = ", ".join(f'[{a}*="{k}" i]' for a in ("id", "class", "name", "title", "aria-label")
                            for k in ("book", "reserv", "éserv", "availab", "ibe", "buch", "prenot", "rezerv",
                                      "rezerw", "boek", "бронир", "予約", "预订", "예약"))


@dataclass(slots=True)
class Widget:
    """A booking widget element or init call on the page."""

    names: str  # lower-cased tag, id, class, attribute names and values (no URLs)
    strong: bool  # booking config (data-hotel-id, a custom element, an init call), not just a class
    node: object | None = None
    urls: list[str] = field(default_factory=list)
    label: str = ""
    vetoed: bool = False  # booking something else (a table, a tour, a review badge): its script is not an engine
    empty: bool = True  # nothing in it yet: a container a script fills


@dataclass(slots=True)
class Script:
    url: str
    host: str
    method: str  # script, widget (a URL a widget carries) or request
    node: object | None = None
    body: str = ""  # the inline script the URL was found in


def script_candidates(page: Page, request_urls: Iterable[str] = ()) -> Iterator[tuple[str, str, str, float]]:
    """(method, URL, evidence, confidence) of every third-party script or widget host that looks
    like an uncatalogued booking engine (one per host, strongest reason first)."""
    site = registrable_domain(page.site_host)
    found = list(_widgets(page))
    claimed = _claimed(page, found)
    widgets = [w for w in found if not w.vetoed and id(w) not in claimed]
    vetoed = [w for w in found if w.vetoed]
    scripts = [s for s in _scripts(page, request_urls, widgets) if _foreign(s.url, s.host, site)]
    scripts = [s for s in scripts if not _MEDIA_RE.search(_path(s.url))]
    seen: set[str] = set()
    only = len({s.host for s in scripts if s.method != "request"}) == 1
    for s in scripts:
        if s.host in seen or VETO_RE.search(_host_path(s.url)) or _tied(s, vetoed, True):
            continue
        reason = _reason(s, widgets, only)
        if reason is not None:
            seen.add(s.host)
            yield s.method, s.url, reason[0], reason[1]


def _claimed(page: Page, widgets: list[Widget]) -> set[int]:
    """Widgets embedded next to a known non-engine or catalogued engine's script (a review
    badge's div beside its loader): that script, not an unknown engine, fills them."""
    claimed: set[int] = set()
    elements = [w for w in widgets if w.node is not None and not w.vetoed]
    if not elements:
        return claimed
    for node in page.tree.css("script[src]"):
        url = page.absolute(node.attrs.get("src") or "")
        host = host_of(url.lower()) if url else None
        if host and (is_non_engine_script_host(host) or engine_of_host(host) is not None
                     or index().classify(url.lower(), True, host) is not None):
            claimed.update(id(w) for w in elements if _next_to_widget(node, [w]))
    return claimed


def _reason(s: Script, widgets: list[Widget], only: bool) -> tuple[str, float] | None:
    """Why this script host is a booking engine, or None."""
    if BOOKING_WORDS_RE.search(_host_path(s.url)):
        return f"booking words in the {s.method} URL", CONF_SCRIPT_URL
    if s.method == "widget":
        return "a URL in a booking widget's attributes", CONF_SCRIPT_URL
    own = _booking_element(s.node) if s.node is not None and s.method == "script" else None
    if own is not None:
        return None if own.vetoed else ("booking config on the <script> tag", CONF_SCRIPT_URL)
    if s.body and any(_init_signal(m) for m in _INIT_RE.finditer(s.body)):
        return "loaded by a booking widget's init call", CONF_SCRIPT_URL
    tied = _tied(s, widgets, False)
    if tied is not None:
        return tied, CONF_TIED
    if only and s.method == "script" and any(w.strong for w in widgets):
        return "the only widget script beside a booking widget", CONF_ONLY
    return None


def _foreign(url: str, host: str, site: str | None) -> bool:
    """Off the hotel's site, not catalogued, not a known non-engine host."""
    if registrable_domain(host) == site:
        return False
    low = url.lower()
    if index().classify(low, True, host) is not None or engine_of_host(host) is not None or is_catalogued_vendor(host):
        return False
    return not is_non_engine_script_host(host)


def _scripts(page: Page, request_urls: Iterable[str], widgets: list[Widget]) -> Iterator[Script]:
    for node in page.tree.css("script"):
        attrs = node.attrs
        raw = attrs.get("src") or attrs.get("data-src")
        if raw:
            url = page.absolute(raw)
            host = host_of(url.lower()) if url else None
            if url and host:
                yield Script(url, host, "script", node)
            continue
        if (attrs.get("type") or "").strip().lower() in _SKIP_SCRIPT_TYPES:
            continue
        body = (node.text(deep=False) or "").replace("\\/", "/")
        for host, rest in _INLINE_URL_RE.findall(body):
            url = f"https://{host.lower()}{rest}"
            if _path(url).lower().endswith((".js", ".mjs")) or BOOKING_WORDS_RE.search(_host_path(url)):
                yield Script(url, host.lower(), "script", None, body)
    for node in page.tree.css("link[href][rel]"):  # preconnect / preload to the engine's host
        if any(r in HINT_RELS for r in (node.attrs.get("rel") or "").lower().split()):
            url = page.absolute(node.attrs.get("href") or "")
            host = host_of(url.lower()) if url else None
            if url and host and BOOKING_WORDS_RE.search(_host_path(url)):
                yield Script(url, host, "script")
    for w in widgets:
        for url in w.urls:  # (vetoed widgets are not passed in)
            host = host_of(url.lower())
            if host:
                yield Script(url, host, "widget", w.node)
    for url in request_urls or ():
        low = url.lower() if isinstance(url, str) else ""
        if low.startswith(("http://", "https://")) and BOOKING_WORDS_RE.search(_host_path(low)):
            host = host_of(low)
            if host:
                yield Script(url, host, "request")


def _widgets(page: Page) -> Iterator[Widget]:
    """Booking widget elements, then init calls in inline scripts (node None)."""
    body = page.tree.body
    if body is not None:
        for node in body.css(_element_selector(body.html or "")):
            if node.tag not in _NOT_WIDGETS:
                widget = _booking_element(node)
                # a "Book now" link is the link rule's; a link with booking config is a widget button
                if widget is not None and (node.tag != "a" or widget.strong or widget.vetoed):
                    yield widget
    for node in page.tree.css("script"):
        attrs = node.attrs
        if attrs.get("src") or (attrs.get("type") or "").strip().lower() in _SKIP_SCRIPT_TYPES:
            continue
        for m in _INIT_RE.finditer(node.text(deep=False) or ""):
            if _init_signal(m):
                yield Widget(m.group(1).lower(), True, None, label=f"{m.group(1)}(...)")


def _element_selector(html: str) -> str:
    """One CSS selector for the elements that may be a widget, so that lexbor, not Python, walks
    the page: booking words in an id, class, name, title or label; custom elements and data-*
    attributes (which CSS cannot match by pattern) are first read from the markup."""
    tags = {t.lower() for t in _CUSTOM_TAG_RE.findall(html)}
    datas = {n for n in {n.lower() for n in _DATA_ATTR_RE.findall(html)}
             if BOOKING_WORDS_RE.search(n) or _config_key(n)}
    return ", ".join([_NAMED_SELECTOR, *sorted(tags), *(f"[data-{n}]" for n in sorted(datas))])


def _booking_element(node) -> Widget | None:
    """A container, button, custom element or <script> tag that carries booking config."""
    attrs = node.attrs
    tag = node.tag or ""
    data = {k: v or "" for k, v in attrs.items() if k.startswith("data-")}
    ident = " ".join(attrs.get(k) or "" for k in ("id", "class", "name", "title", "aria-label", "role")).lower()
    custom = "-" in tag and (BOOKING_WORDS_RE.search(tag) is not None or any(  # <hb-widget hotel-id="12">
        _config_key(k) or BOOKING_WORDS_RE.search(k) for k in attrs))
    config = any(BOOKING_WORDS_RE.search(k[5:]) or _config_key(k[5:]) for k in data)
    booking_ident = BOOKING_WORDS_RE.search(ident) is not None
    named = booking_ident and (tag in ("iframe", "frame", "button", "form") or _WIDGETISH_RE.search(ident) is not None
                               or (tag in ("div", "section", "span", "aside") and _is_empty(node)))
    if not (custom or config or booking_ident):
        return None
    values = " ".join(v for v in (*data.values(), *(v or "" for k, v in attrs.items() if not k.startswith("data-")))
                      if not _URL_VALUE_RE.match(v))
    names = f"{tag} {ident} {' '.join(data)} {values}".lower()
    text = node.text(deep=True, separator=" ").strip()
    # a short label ("Book a table") says what the widget books; a long text is the page around it
    # (a whole section of the page is no widget: its words veto nothing)
    vetoed = len(text) < 400 and (VETO_RE.search(names) is not None or (len(text) < 120 and VETO_RE.search(text)))
    urls = [v if v.lower().startswith("http") else "https:" + v
            for k, v in attrs.items() if v and _URL_VALUE_RE.match(v.strip()) and not (tag == "a" and k == "href")]
    label = f"<{tag}{'#' + attrs['id'] if attrs.get('id') else ''}>"
    empty = _is_empty(node, text)
    if not (vetoed or custom or config or named):
        return None  # a "book" class alone is no widget (but a "tour-booking" one vetoes its script)
    return Widget(names, custom or config, node, urls, label, vetoed, empty)


def _config_key(name: str) -> bool:
    """`hotel-id`, `zb-hotel`, `hotelId`, `propertyCode`: a key naming the property."""
    return CONFIG_KEY_RE.search(re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)) is not None


def _is_empty(node, text: str | None = None) -> bool:
    """Nothing in it yet: a container a script fills."""
    if text is None:
        text = node.text(deep=True, separator=" ").strip()
    return len(text) < 40 and node.css_first("a[href], form, iframe") is None


def _init_signal(m: re.Match) -> bool:
    """`Booking.init({hotelId: 1})`, `new ReservWidget({property: 'x'})`, `xyzConfig = {hotel: 1}`."""
    ident, config = m.group(1), m.group(2)
    values = " ".join(_QUOTED_RE.findall(config))  # keys such as `events:` say nothing of what is booked
    if VETO_RE.search(ident) or VETO_RE.search(re.sub(r"([a-z])([A-Z])", r"\1 \2", ident)) or VETO_RE.search(values):
        return False
    keys = _CONFIG_PAIR_RE.findall(config)
    hotel_key = any(_config_key(k) for k in keys)
    booking_ident = BOOKING_WORDS_RE.search(ident) is not None
    widget_ident = booking_ident or re.search(r"widget|engine|ibe", ident, re.I) is not None
    booking_keys = any(BOOKING_WORDS_RE.search(k) for k in keys)
    init_call = m.group(0).startswith("new") or _INIT_METHOD_RE.search(ident) is not None
    return (hotel_key and (widget_ident or booking_keys or init_call)) or (booking_ident and any(
        re.search(r"id$|code$|key$", k, re.I) for k in keys))


def _tied(s: Script, widgets: list[Widget], any_widget: bool) -> str | None:
    """How a widget ties this script to itself: it names the script's brand, or the script sits
    next to it (the vendor's embed snippet: a strong widget, or an empty container and a loader)."""
    tokens = _host_tokens(s.host)
    for w in widgets:
        words = set(re.split(r"[^a-z0-9]+", w.names))
        if any(t in w.names if len(t) > 3 else t in words for t in tokens):
            return f"named by the booking widget {w.label}"
    if s.node is None or s.method != "script":
        return None
    loader = _LOADER_PATH_RE.search(_path(s.url)) is not None
    near = [w for w in widgets if any_widget or w.strong or (w.empty and loader)]
    return "embedded next to a booking widget" if _next_to_widget(s.node, near) else None


def _next_to_widget(node, widgets: list[Widget]) -> bool:
    """The script sits inside, or within two elements of, a widget element (an embed snippet)."""
    ids = {w.node.mem_id for w in widgets if w.node is not None}
    if not ids:
        return False
    parent = node.parent
    if parent is not None and parent.mem_id in ids:
        return True
    for step in ("prev", "next"):
        n, hops = getattr(node, step), 0
        while n is not None and hops < 2:
            if n.tag and not n.tag.startswith("-"):
                if n.mem_id in ids:
                    return True
                hops += 1
            n = getattr(n, step)
    return False


def _host_tokens(host: str) -> list[str]:
    """Brand tokens of a host (`cdn.rezhub-xyz.com` -> rezhub, xyz), without generic words."""
    parts = suffix_extractor()(host)
    labels = f"{parts.subdomain}.{parts.domain}" if parts.domain else host
    return [t for t in re.split(r"[.\-_]", labels.lower()) if len(t) >= 3 and t not in _GENERIC_TOKENS]


def _host_path(url: str) -> str:
    """Host and path of a URL (the query often carries the page's own URL: not the engine's words)."""
    rest = url.split("//", 1)[-1]
    return re.split(r"[?#]", rest, maxsplit=1)[0]


def _path(url: str) -> str:
    hp = _host_path(url)
    return hp[hp.find("/"):] if "/" in hp else ""

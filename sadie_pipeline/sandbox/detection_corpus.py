"""The booking-engine detection corpus: hotel pages generated from the catalogue's own patterns.

One home page per catalogued engine (its link, iframe, form, script, white-label pattern or JS
global, in turn), one page per declared pattern, JavaScript-only pages (every script inline; the
engine's URL is assembled from character codes at run time, so only a browser sees it), pages
whose engine sits on a followed same-site "Book now" page, pages with uncatalogued booking hosts,
and negatives (OTA and social links only, no engine, engine names in the text, restaurant and tour
bookings, a sister hotel, a vendor's "powered by" link). Pure functions; `corpus_server` serves
them. Used by the tests and `benchmarks/detection.py`.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from re import _parser as sre_parse

from sadie_pipeline.core.booking_engines import LODGING_CATEGORIES, BookingEngine, load_catalogue

FILLER = ("<p>Our rooms look over the old harbour: king and twin rooms, breakfast from local farms, "
          "free parking and wifi, a garden terrace and bicycles to borrow. The beach is a ten-minute walk "
          "and the old town five. Families, couples and business travellers are all welcome here.</p>")


@dataclass(frozen=True)
class CorpusSite:
    """One hotel site of the corpus. `pages` maps a path ("/", "/booking/") to its HTML."""

    key: str
    kind: str  # engine, signal, js_only, followed, unknown, negative
    host: str
    pages: dict[str, str] = field(hash=False)
    engine: str | None = None  # the catalogued engine that must be found
    unknown_host: str | None = None  # the uncatalogued booking host that must be reported
    signal: str = ""

    @property
    def url(self) -> str:
        return f"http://{self.host}/"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def home_page(name: str, body: str, *, head: str = "", scripts: str = "") -> str:
    """A realistic small-hotel home page around `body`."""
    e = html.escape(name)
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{e} | Harbour rooms</title>'
            f'<link rel="stylesheet" href="/assets/site.css">{head}</head><body>'
            f'<header><a class="logo" href="/">{e}</a><nav><a href="/">Home</a> <a href="/rooms/">Rooms</a> '
            f'<a href="/contact/">Contact</a></nav></header><main><h1>{e}</h1>{FILLER}{body}</main>'
            f'<footer><p>{e} &middot; 1 Harbour Street &middot; +1 555 0100</p>'
            '<a href="https://www.facebook.com/harbourrooms">Facebook</a> '
            '<a href="https://www.instagram.com/harbourrooms/">Instagram</a> '
            '<a href="https://www.tripadvisor.com/Hotel_Review-g1-d2">Tripadvisor</a></footer>'
            f"{scripts}</body></html>")


# --- URLs from the catalogue's patterns -----------------------------------------------------------

def sample(pattern: str) -> str:
    """A short string the regex matches (first branch, fewest repeats, first character of a class)."""
    return _sample(sre_parse.parse(pattern))


def _sample(items) -> str:  # noqa: ANN001 - sre_parse's SubPattern
    out = []
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(arg))
        elif name == "NOT_LITERAL":
            out.append("x" if chr(arg) != "x" else "y")
        elif name == "ANY":
            out.append("x")
        elif name == "IN":
            out.append(_class_char(arg))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, _high, sub = arg
            out.append(_sample(sub) * low)
        elif name == "SUBPATTERN":
            out.append(_sample(arg[-1]))
        elif name == "BRANCH":
            out.append(_sample(arg[1][0]))
        elif name == "CATEGORY":
            out.append(_category_char(arg))
    return "".join(out)


def _category_char(category) -> str:  # noqa: ANN001
    name = str(category)
    return "0" if "NOT" not in name and "DIGIT" in name else " " if "NOT" not in name and "SPACE" in name else "a"


def _class_char(items) -> str:  # noqa: ANN001
    if items and str(items[0][0]) == "NEGATE":
        banned = "".join(chr(a) for op, a in items[1:] if str(op) == "LITERAL")
        return next(c for c in "xa0-" if c not in banned)
    op, arg = items[0]
    if str(op) == "LITERAL":
        return chr(arg)
    if str(op) == "RANGE":
        return chr(arg[0])
    return _category_char(arg)


def _https(fragment: str, site_host: str, tail: str = "") -> str:
    """An absolute URL for a pattern sample: a host-led sample as is, a path or query on the
    hotel's white-label booking subdomain."""
    head = fragment.split("/", 1)[0]
    if "." in head and not fragment.startswith(("/", "?", "&")):
        return "https://" + fragment + (tail if fragment.endswith("/") else "")
    white_label = "reservations." + site_host.removeprefix("www.")
    if fragment.startswith("&"):
        fragment = "?" + fragment[1:]
    return f"https://{white_label}{'' if fragment.startswith(('/', '?')) else '/'}{fragment}"


def engine_urls(e: BookingEngine, site_host: str) -> list[tuple[str, str]]:
    """(signal, evidence) for every pattern the entry declares: its booking hosts, link patterns,
    script and iframe sources, form actions and JS globals."""
    prop = slug(e.name)[:12]
    out = [("link", f"https://book.{d}/{prop}/reservations?lang=en") for d in e.domains]
    out += [("pattern", _https(sample(p), site_host, prop)) for p in e.link_patterns]
    out += [("script", _https(s, site_host, "loader.js")) for s in e.script_srcs]
    out += [("iframe", _https(s, site_host, prop)) for s in e.iframe_srcs]
    out += [("form", _https(s, site_host, prop)) for s in e.form_actions]
    out += [("js_global", g) for g in e.js_globals]
    return out


def signal_html(signal: str, evidence: str) -> str:
    """The page fragment that carries one piece of evidence."""
    url = html.escape(evidence)
    if signal in ("link", "pattern"):
        return f'<p><a class="btn btn-book" href="{url}">Book now</a></p>'
    if signal == "iframe":
        return f'<section id="booking"><h2>Availability</h2><iframe src="{url}" width="100%"></iframe></section>'
    if signal == "form":
        return (f'<form class="booking-bar" action="{url}" method="get"><input type="hidden" name="hotel" '
                'value="4711"><input type="date" name="arrival"><button type="submit">Check availability</button>'
                "</form>")
    if signal == "script":
        return f'<div id="booking-widget"></div><script async src="{url}" data-property="4711"></script>'
    call = f"{evidence}({{property: 4711, locale: 'en'}});" if "." in evidence else f"window.{evidence}({{id: 4711}});"
    return f"<div id=\"booking-widget\"></div><script>{call}</script>"


# --- the corpus -------------------------------------------------------------------------------------

def _host(prefix: str, e: BookingEngine | None, n: int = 0) -> str:
    return f"www.{prefix}-{slug(e.name) if e else n}.test"


SIGNALS = ("link", "iframe", "form", "script", "pattern", "js_global")


def primary_signal(e: BookingEngine, host: str, turn: int) -> tuple[str, str]:
    """The engine's evidence of the kind `SIGNALS[turn % 6]`: its declared pattern of that kind,
    else its first booking host carried by that kind of element (a plain link for a missing
    pattern or global)."""
    declared = {}
    for signal, evidence in engine_urls(e, host):
        declared.setdefault(signal, evidence)
    kind = SIGNALS[turn % len(SIGNALS)]
    if kind in declared:
        return kind, declared[kind]
    prop = slug(e.name)[:12]
    if kind == "script":
        return "script", f"https://widget.{e.domains[0]}/{prop}/loader.js"
    return (kind if kind in ("iframe", "form") else "link"), declared["link"]


def engine_sites() -> list[CorpusSite]:
    """One home page per catalogued engine, the kind of evidence it carries taken in turn."""
    sites = []
    for i, e in enumerate(load_catalogue()):
        host = _host("harbour", e)
        signal, evidence = primary_signal(e, host, i)
        sites.append(CorpusSite(f"engine:{e.name}", "engine", host,
                                {"/": home_page(f"{e.name} Harbour Inn", signal_html(signal, evidence))},
                                engine=e.name, signal=signal))
    return sites


def signal_sites() -> list[CorpusSite]:
    """One page per pattern of every entry: each declared signal must find its engine alone."""
    sites = []
    for e in load_catalogue():
        host = _host("signal", e)
        for j, (signal, evidence) in enumerate(engine_urls(e, host)):
            sites.append(CorpusSite(f"signal:{e.name}:{j}", "signal", host,
                                    {"/": home_page(f"{e.name} Signal Inn", signal_html(signal, evidence))},
                                    engine=e.name, signal=signal))
    return sites


def js_only_html(name: str, url: str, element: str) -> str:
    """All scripts inline; the engine's URL is built from character codes after load, so only a
    browser (its DOM, its requests) sees the engine."""
    codes = ",".join(str(ord(c)) for c in url)
    attr = "href" if element == "a" else "src"
    extra = "el.textContent='Book now';" if element == "a" else ""
    parent = "document.head" if element == "script" else "document.getElementById('booking-widget')"
    script = (f"<script>(function(){{var u=String.fromCharCode({codes});var el=document.createElement('{element}');"
              f"el.{attr}=u;{extra}{parent}.appendChild(el);}})();</script>")
    body = ('<div id="booking-widget" class="booking-widget"></div>'
            '<p><a href="#" class="book-now" onclick="return false">Book now</a></p>')
    return home_page(name, body, scripts=script)


def js_only_sites(every: int = 1) -> list[CorpusSite]:
    """JavaScript-only pages for every `every`-th engine (iframe, link or script injected)."""
    sites = []
    for i, e in enumerate(load_catalogue()):
        if i % every:
            continue
        host = _host("js", e)
        element = ("iframe", "a", "script")[i // every % 3]
        url = f"https://book.{e.domains[0]}/{slug(e.name)[:12]}/" + ("widget.js" if element == "script" else "")
        sites.append(CorpusSite(f"js_only:{e.name}", "js_only", host,
                                {"/": js_only_html(f"{e.name} Script Inn", url, element)},
                                engine=e.name, signal=element))
    return sites


def followed_sites(every: int = 10) -> list[CorpusSite]:
    """The home page only links to its own booking page, which embeds the engine (every
    `every`-th room engine: an activity tool on a booking page is not the hotel's engine)."""
    sites = []
    words = ("Book now", "Reservar", "Réserver", "Jetzt buchen", "Prenota ora", "予約する")
    rooms = [e for e in load_catalogue() if e.category in LODGING_CATEGORIES]
    for i, e in enumerate(rooms[::every]):
        host = _host("followed", e)
        signal, evidence = engine_urls(e, host)[0]
        home = home_page(f"Garden Hotel {i}", f'<p><a class="cta" href="/booking/">{words[i % len(words)]}</a></p>')
        booking = home_page(f"Garden Hotel {i} - Rooms and rates", signal_html(signal, evidence))
        sites.append(CorpusSite(f"followed:{e.name}", "followed", host, {"/": home, "/booking/": booking},
                                engine=e.name, signal=signal))
    return sites


UNKNOWN_PAGES = (  # (uncatalogued booking host, page fragment)
    ("booking.motorx-hoteles.com", '<a class="btn" href="https://booking.motorx-hoteles.com/hotel/8812?lang=es">Reservar</a>'),
    ("ibe.newhotelengine.io", '<iframe src="https://ibe.newhotelengine.io/widget?hotel=77"></iframe>'),
    ("secure.unknownres.net", '<form action="https://secure.unknownres.net/availability" method="get">'
     '<input type="hidden" name="pid" value="31"><input type="date" name="checkin"><button>Search</button></form>'),
    ("reserve.kleinhotelsoftware.de", '<a href="https://reserve.kleinhotelsoftware.de/haus-am-see/">Jetzt buchen</a>'),
    ("yoyaku.ryokan-system.jp", '<a href="https://yoyaku.ryokan-system.jp/plan/list?h=55">予約する</a>'),
)


def unknown_sites() -> list[CorpusSite]:
    """Booking links, iframes and forms to hosts the catalogue does not know."""
    return [CorpusSite(f"unknown:{host}", "unknown", _host("unknown", None, i), {"/": home_page("Quay Hotel", frag)},
                       unknown_host=host, signal="unknown") for i, (host, frag) in enumerate(UNKNOWN_PAGES)]


NEGATIVE_PAGES = {
    "ota_links_only": '<p><a href="https://www.booking.com/hotel/us/quay.html">Book now on Booking.com</a> '
                      '<a href="https://www.expedia.co.uk/Quay.h1.Hotel-Information">Book on Expedia</a> '
                      '<a href="https://www.airbnb.fr/rooms/123">Reserve on Airbnb</a> '
                      '<a href="https://www.agoda.com/quay/hotel/all.html">Book via Agoda</a></p>',
    "social_links_only": '<p><a href="https://m.facebook.com/quay/book">Book through Facebook</a> '
                         '<a href="https://wa.me/15550100">Reserve on WhatsApp</a> <a href="https://x.com/quay">X</a></p>',
    "no_engine": '<p>To reserve a room call <a href="tel:+15550100">555 0100</a> or '
                 '<a href="mailto:stay@quay.test">email us</a>.</p>',
    "engine_names_in_text": "<p>We moved from Cloudbeds to SiteMinder, then tried Mews, Little Hotelier and "
                            "hotels.cloudbeds.com; book.omnibees.com and be.synxis.com are not links here.</p>",
    "restaurant_table": '<p><a href="https://www.quay-bistro-partner.com/reservations">Book a table</a> '
                        '<a href="https://www.opentable.com/r/quay">Reserve on OpenTable</a></p>',
    "tour_booking": '<p><a href="https://tours.harbour-excursions.com/book/sunset">Book a tour</a></p>',
    "sister_hotel": '<p><a href="https://www.quay-sister-hotel.com/">Book our sister hotel</a></p>',
    "vendor_powered_by": '<p>Booking system by <a href="https://www.cloudbeds.com/">Cloudbeds</a> and '
                         '<a href="https://www.siteminder.com/">SiteMinder</a></p>',
    "brochure_pdf": '<p><a href="https://cdn.printshop-files.com/quay/rates.pdf">Booking conditions (PDF)</a></p>',
    "maps_video_newsletter": '<iframe src="https://www.google.com/maps/embed?pb=1"></iframe>'
                             '<iframe src="https://www.youtube.com/embed/abc"></iframe>'
                             '<form action="https://quay.us1.list-manage.com/subscribe/post"><input type="email" '
                             'name="EMAIL"><button>Subscribe</button></form>',
    "look_alike_hosts": '<a href="https://notcloudbeds.com/reservation/AbC123">x</a>'
                        '<a href="https://hotels.cloudbeds.com.evil.example/reservation/AbC123">y</a>',
    "inline_scripts_no_engine": '<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push('
                                'arguments);}gtag("js",new Date());</script><p><a href="/rooms/">See rooms</a></p>',
}


def negative_sites() -> list[CorpusSite]:
    return [CorpusSite(f"negative:{name}", "negative", f"www.negative-{slug(name)}.test",
                       {"/": home_page("Quay Hotel", body)}, signal=name) for name, body in NEGATIVE_PAGES.items()]


def corpus(js_every: int = 1, followed_every: int = 10) -> list[CorpusSite]:
    """Every site of the corpus (the benchmark's and the browser tests' input)."""
    return [*engine_sites(), *js_only_sites(js_every), *followed_sites(followed_every), *unknown_sites(),
            *negative_sites()]

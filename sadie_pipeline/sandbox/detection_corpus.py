"""The booking-engine detection corpus: hotel pages generated from the catalogue's own patterns.

One home page per catalogued engine (its link, iframe, form, script, white-label pattern or JS
global, in turn), one page per declared pattern, JavaScript-only pages (every script inline; the
engine's URL is assembled from character codes at run time, so only a browser sees it), pages
whose engine sits on a followed same-site "Book now" page, pages with uncatalogued engines in every
form (link, iframe, form, a script alone, the widget element it injects, its init call), pages
loading a catalogued engine by a script from its host under a path the catalogue does not list,
and negatives (OTA and social links only, no engine, engine names in the text, restaurant and tour
bookings, a sister hotel, a vendor's "powered by" link, OTA, review, map, chat and analytics
widgets). Pure functions; `corpus_server` serves
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
    kind: str  # engine, signal, js_only, followed, unknown, engine_host, negative
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


# Invented engines (no such vendors): (form, uncatalogued booking host, page fragment, head, scripts).
_GTM = '<script async src="https://www.googletagmanager.com/gtag/js?id=G-QUAY1"></script>'
UNKNOWN_PAGES: tuple[tuple[str, str, str, str, str], ...] = (
    ("link", "booking.motorx-hoteles.com",
     '<a class="btn" href="https://booking.motorx-hoteles.com/hotel/8812?lang=es">Reservar</a>', "", ""),
    ("iframe", "ibe.newhotelengine.io", '<iframe src="https://ibe.newhotelengine.io/widget?hotel=77"></iframe>', "", ""),
    ("form", "secure.unknownres.net", '<form action="https://secure.unknownres.net/availability" method="get">'
     '<input type="hidden" name="pid" value="31"><input type="date" name="checkin"><button>Search</button></form>',
     "", ""),
    ("link", "reserve.kleinhotelsoftware.de",
     '<a href="https://reserve.kleinhotelsoftware.de/haus-am-see/">Jetzt buchen</a>', "", ""),
    ("link", "yoyaku.ryokan-system.jp", '<a href="https://yoyaku.ryokan-system.jp/plan/list?h=55">予約する</a>', "", ""),
    ("form", "secure.posadaria.com.ar", '<form action="https://secure.posadaria.com.ar/search" method="get">'
     '<input type="date" name="desde"><input type="date" name="hasta"><select name="adults"><option>2</option>'
     '</select><button>Buscar</button></form>', "", ""),
    # a script alone, booking words in its URL
    ("script", "booking.pousadaflow.com.br", '<div id="pf-widget"></div>', "",
     '<script async src="https://booking.pousadaflow.com.br/widget/v2/loader.js"></script>'),
    # a script alone, its booking config on the tag
    ("script", "cdn.alpstay-suite.at", "", _GTM,
     '<script src="https://cdn.alpstay-suite.at/embed.js" data-hotel-id="A-221" data-lang="de"></script>'),
    # a script in <head>, the element it fills in the body (the only non-analytics third-party script)
    ("widget", "static.quartoonline.pt", '<div class="qo-container" data-property-id="771"></div>',
     _GTM + '<script defer src="https://static.quartoonline.pt/js/qo.min.js"></script>', ""),
    # a custom element the script defines
    ("widget", "widgets.tripnest.asia", '<tripnest-booking-widget hotel="tn-4471" locale="en"></tripnest-booking-widget>',
     "", '<script type="module" src="https://widgets.tripnest.asia/v1/elements.js"></script>'),
    # a button the script wires up, naming its vendor in a data attribute
    ("widget", "js.hoteria.mx", '<button class="hr-book-button" data-hotel-code="HR991" data-engine="hoteria">'
     "Ver disponibilidad</button>", "", '<script async src="https://js.hoteria.mx/hr.js"></script>'),
    # an iframe the widget injected (rendered DOM), no booking word in its URL
    ("widget", "app.stayflowhq.com", '<div class="sf-frame-wrap"><iframe id="sf-booking" title="Book your stay" '
     'src="https://app.stayflowhq.com/w/8812?lang=en"></iframe></div>', "", ""),
    # an init call in inline code beside the vendor's SDK
    ("init", "cdn.hotelgo-latam.com", '<div id="hg-engine"></div>', "",
     '<script src="https://cdn.hotelgo-latam.com/sdk/v3.js"></script><script>HotelGo.init({hotelId: 3321, '
     'container: "#hg-engine", currency: "COP"});</script>'),
    # an inline loader injects the SDK, a second inline script configures it
    ("init", "static.ryokanlink.jp", '<div id="rl-plan"></div>', "",
     "<script>(function(w,d){var s=d.createElement('script');s.async=1;s.src='https://static.ryokanlink.jp/be/loader.js';"
     "d.head.appendChild(s);})(window,document);</script><script>RyokanLink.widget({propertyCode: 'RL-0042', "
     "lang: 'ja'});</script>"),
    # a script URL only inside inline code, with booking words
    ("script", "motor.reservasweb-caribe.com", "", "",
     '<script>window.addEventListener("load",function(){var s=document.createElement("script");'
     's.src="https://motor.reservasweb-caribe.com/reservas/widget.js?h=77";document.body.appendChild(s);});</script>'),
)
UNKNOWN_FORMS = ("link", "iframe", "form", "script", "widget", "init")


def unknown_sites() -> list[CorpusSite]:
    """Uncatalogued engines in every form: booking links, iframes and forms, a third-party script
    alone, the widget element it injects, and its init call in inline code."""
    return [CorpusSite(f"unknown:{host}", "unknown", _host("unknown", None, i),
                       {"/": home_page("Quay Hotel", frag, head=head, scripts=scripts)}, unknown_host=host, signal=form)
            for i, (form, host, frag, head, scripts) in enumerate(UNKNOWN_PAGES)]


JS_UNKNOWN = (  # (form, uncatalogued host, URL built at run time, element injected)
    ("js_script", "motor.casarural-reservas.es", "https://motor.casarural-reservas.es/widget/booking.js?c=118", "script"),
    ("js_iframe", "booking.warungstay.id", "https://booking.warungstay.id/property/ubud-77/", "iframe"),
)


def js_unknown_sites() -> list[CorpusSite]:
    """Uncatalogued engines injected at run time by inline code (only a browser sees them)."""
    return [CorpusSite(f"unknown:{host}", "unknown", _host("jsunknown", None, i),
                       {"/": js_only_html("Quay Hotel", url, element)}, unknown_host=host, signal=form)
            for i, (form, host, url, element) in enumerate(JS_UNKNOWN)]


def engine_host_script_sites(every: int = 1) -> list[CorpusSite]:
    """A catalogued engine loaded by a script from its own booking host under a path the catalogue
    does not list (a new CDN subdomain, its www host, the bare domain), nothing else on the page."""
    sites = []
    for i, e in enumerate(load_catalogue()[::every]):
        domain = e.domains[0].lstrip("*.")
        host = (f"static.{domain}", f"www.{domain}", domain)[i % 3]
        url = f"https://{host}/assets/v{i % 7 + 2}/client-{slug(e.name)[:8]}.bundle.js"
        body = f'<div id="reserve-here"></div><script defer src="{url}"></script>'
        sites.append(CorpusSite(f"engine_host:{e.name}", "engine_host", _host("cdn", e),
                                {"/": home_page(f"{e.name} Cove Hotel", body)}, engine=e.name, signal="script"))
    return sites


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
    # scripts and widgets that are not a booking engine
    "ota_widget": '<ins class="bookingaff" data-aid="2211" data-target_aid="2211" data-prod="banner" '
                  'data-hotel_id="99123" data-width="300"><a href="https://www.booking.com">Booking.com</a></ins>'
                  '<script src="https://aff.bstatic.com/static/affiliate_base/js/flexiproduct.js"></script>'
                  '<p><a href="https://www.booking.com/hotel/us/quay.html">Book on Booking.com</a></p>',
    "review_widgets": '<div id="TA_selfserveprop12" class="TA_selfserveprop"><ul id="ta1"></ul></div>'
                      '<script async src="https://www.jscache.com/wejs?wtype=selfserveprop&amp;uniq=12"></script>'
                      '<div class="ty-widget" data-hotel-id="a1b2c3" data-key="k1"></div>'
                      '<script src="https://static.trustyou.com/widgets/meta-review/loader.js"></script>'
                      '<iframe src="https://api.trustyou.com/hotels/a1b2c3/seal.html"></iframe>'
                      '<div class="revinate-reviews" data-property-id="8"></div>'
                      '<script src="https://cdn.guestreviews-hub.com/widget/reviews.js"></script>',
    "map_widgets": '<div id="map" data-lat="24.55" data-lng="-81.8"></div>'
                   '<script src="https://maps.googleapis.com/maps/api/js?key=K&amp;callback=initMap"></script>'
                   '<script src="https://api.mapbox.com/mapbox-gl-js/v2.15.0/mapbox-gl.js"></script>'
                   '<script src="https://unpkg.com/leaflet@1.9.4/dist/leaflet.js"></script>',
    "chat_widgets": '<script src="//code.tidio.co/quaykey.js" async></script>'
                    '<script>var Tawk_API=Tawk_API||{};(function(){var s1=document.createElement("script");'
                    's1.src="https://embed.tawk.to/abc/default";document.head.appendChild(s1);})();</script>'
                    '<script>window.intercomSettings = {app_id: "q1", hotel_id: 12};</script>'
                    '<script src="https://widget.intercom.io/widget/q1"></script>',
    "analytics_and_consent": '<script async src="https://www.googletagmanager.com/gtm.js?id=GTM-Q1"></script>'
                             '<script src="https://connect.facebook.net/en_US/fbevents.js"></script>'
                             '<script src="https://static.hotjar.com/c/hotjar-1.js?sv=6"></script>'
                             '<script src="https://www.clarity.ms/tag/q1"></script>'
                             '<script src="https://consent.cookiebot.com/uc.js" data-cbid="q1"></script>'
                             '<script>dataLayer.push({event: "booking_start", hotel_id: 12});</script>'
                             '<p><a class="book-now" href="/rooms/">Book now</a></p>',
    "restaurant_widgets": '<section id="dining"><h2>Our restaurant</h2>'
                          '<script src="https://www.opentable.com/widget/reservation/loader?rid=412&amp;type=standard">'
                          '</script><div id="resyButton-q1"></div><script src="https://widgets.resy.com/embed.js">'
                          '</script><script>resyWidget.addButton(document.getElementById("resyButton-q1"), '
                          '{venueId: 1234, apiKey: "k"});</script><div class="sr-booking" data-venue-id="quay">'
                          '</div><script src="https://www.sevenrooms.com/widget/embed.js"></script>'
                          '<div class="table-booking-widget" data-restaurant-id="3"></div>'
                          '<script src="https://cdn.dinewise-tables.com/booking.js"></script></section>',
    "tour_widgets": '<div class="tour-booking" data-product="9"><a href="https://tours.harbour-excursions.com/book/x">'
                    'Book a tour</a></div><script src="https://widgets.tourbox-adventures.com/reserve.js"></script>'
                    '<div data-gyg-widget="activities" data-gyg-partner-id="Q1"></div>'
                    '<script async src="https://widget.getyourguide.com/dist/pa.umd.production.min.js"></script>',
    "sister_hotel_widget": '<p><a href="https://www.quay-sister-hotel.com/">Book our sister hotel</a> and '
                           '<a href="https://www.quay-sister-hotel.com/rooms">see its rooms</a></p>'
                           '<script src="https://www.quay-sister-hotel.com/js/site.js"></script>',
}


def negative_sites() -> list[CorpusSite]:
    return [CorpusSite(f"negative:{name}", "negative", f"www.negative-{slug(name)}.test",
                       {"/": home_page("Quay Hotel", body)}, signal=name) for name, body in NEGATIVE_PAGES.items()]


def corpus(js_every: int = 1, followed_every: int = 10, engine_host_every: int = 1) -> list[CorpusSite]:
    """Every site of the corpus (the benchmark's and the browser tests' input)."""
    return [*engine_sites(), *js_only_sites(js_every), *followed_sites(followed_every), *unknown_sites(),
            *js_unknown_sites(), *engine_host_script_sites(engine_host_every), *negative_sites()]

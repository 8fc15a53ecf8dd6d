"""Engines that show themselves only as a script or widget (pure, no network): a script from a
catalogued engine's host is that engine whatever its path; an uncatalogued third-party script or
the widget it injects is an unknown engine with its host; analytics, chat, maps, reviews, OTA,
restaurant and tour widgets, and a sister hotel, are neither."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from sadie_pipeline.core.booking import UNKNOWN_TIER, analyze, detect
from sadie_pipeline.core.booking.catalogue import load_catalogue
from sadie_pipeline.core.booking.domains import registrable_domain
from sadie_pipeline.core.booking.script_hosts import engine_of_host, is_non_engine_script_host
from sadie_pipeline.sandbox.detection_corpus import engine_host_script_sites, home_page

SITE = "https://www.quay-hotel.com/"


def _page(fragment: str, head: str = "", request_urls: tuple[str, ...] = ()):
    return analyze(home_page("Quay Hotel", fragment, head=head), SITE, request_urls=request_urls)


def _strong(detections) -> list[str]:
    return [d.name for d in detections if d.confidence > 0.4]


# --- a catalogued engine's host, any path ------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://static.cloudbeds.com/some/new/path.js",  # a new CDN subdomain
    "https://www.cloudbeds.com/assets/v9/client.bundle.js",  # the booking domain's www host (also the vendor's site)
    "https://cloudbeds.com/x/loader.js",
])
def test_a_script_from_the_engines_host_is_the_engine_whatever_its_path(url):
    [d] = detect(home_page("Quay", f'<script src="{url}"></script>'), SITE)
    assert (d.name, d.method, d.confidence) == ("Cloudbeds", "script", 0.85)


def test_frames_forms_inline_urls_and_requests_from_the_engines_host_count_too():
    frame = detect(home_page("Quay", '<iframe src="https://www.mews.com/new-booking/abc"></iframe>'), SITE)
    assert _strong(frame) == ["Mews"] and frame[0].method == "iframe"
    inline = detect(home_page("Quay", '<script>load("https://www.mews.com/v7/loader.js")</script>'), SITE)
    assert _strong(inline) == ["Mews"]
    seen = detect("<html><body><p>x</p></body></html>", SITE, request_urls=["https://www.mews.com/api/v3/x.js"])
    assert _strong(seen) == ["Mews"] and seen[0].method == "request"


def test_a_sibling_of_a_booking_subdomain_is_its_engine():
    deep = [(e, d) for e in load_catalogue() for d in e.domains if registrable_domain(d) != d.lstrip("*.")]
    if not deep:
        pytest.skip("no catalogued booking domain below its registrable domain")
    for engine, domain in deep[:5]:
        sibling = "cdn-sibling." + registrable_domain(domain)
        if engine_of_host(sibling) is None:
            continue  # a registrable domain two engines share is nobody's family
        assert [e.name for e in load_catalogue()][engine_of_host(sibling)] == engine.name
        page = home_page("Quay", f'<script src="https://{sibling}/a/b.js"></script>')
        assert _strong(detect(page, SITE))[:1] == [engine.name]


def test_vendor_marketing_hosts_and_powered_by_links_stay_weak():
    # www.agilysys.com is only Agilysys' marketing site (its booking domain is rguest.com)
    [d] = detect(home_page("Quay", '<script src="https://www.agilysys.com/a.js"></script>'), SITE)
    assert d.confidence == 0.4
    links = detect(home_page("Quay", '<p>By <a href="https://www.cloudbeds.com/">Cloudbeds</a> '
                                     '<a href="https://www.cloudbeds.com/pricing/">pricing</a></p>'), SITE)
    assert [(d.name, d.confidence) for d in links] == [("Cloudbeds", 0.4)]
    assert detect(home_page("Quay", '<script src="https://notcloudbeds.com/widget/x.js"></script>'), SITE) == []


def test_every_corpus_engine_loaded_from_its_host_is_found():
    for site in engine_host_script_sites(every=7):
        assert _strong(detect(site.pages["/"], site.url))[:1] == [site.engine], site.key


# --- uncatalogued engines as scripts and widgets -----------------------------------------------------

UNKNOWN = {
    "script URL with booking words": (
        "widget.reservhotel-xyz.example", "",
        '<script src="https://widget.reservhotel-xyz.example/v2/booking-widget.js"></script>'),
    "booking config on the script tag": (
        "cdn.alpstay-suite.at", "",
        '<script src="https://cdn.alpstay-suite.at/embed.js" data-hotel-id="A-221"></script>'),
    "container next to its script": (
        "cdn.quartolivre.com.br", "",
        '<div id="qlv" data-hotel-id="991"></div><script async src="https://cdn.quartolivre.com.br/v3/app.js"></script>'),
    "script in head, widget in body": (
        "static.quartoonline.pt",
        '<script defer src="https://static.quartoonline.pt/js/qo.min.js"></script>'
        '<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>',
        '<div class="qo-container" data-property-id="771"></div>'),
    "custom element": (
        "widgets.tripnest.asia", "",
        '<tripnest-booking-widget hotel="1"></tripnest-booking-widget>'
        '<p>x</p><p>y</p><script type="module" src="https://widgets.tripnest.asia/v1/elements.js"></script>'),
    "button naming its vendor": (
        "js.hoteria.mx", '<script async src="https://js.hoteria.mx/hr.js"></script>',
        '<button class="hr-book-button" data-engine="hoteria" data-hotel-code="H1">Ver disponibilidad</button>'),
    "injected iframe without booking words in its URL": (
        "app.stayflowhq.com", "",
        '<iframe id="sf-booking" title="Book your stay" src="https://app.stayflowhq.com/w/8812"></iframe>'),
    "init call beside the SDK": (
        "static.zimmerwerk.at", '<script src="https://static.zimmerwerk.at/js/zw.min.js"></script>',
        '<div id="zw"></div><script>ZimmerWerk.init({hotelId: 4711, lang: "de"});</script>'),
    "BookingWidget.init with the SDK elsewhere": (
        "cdn.obmx.io", '<script src="https://cdn.obmx.io/v1/sdk.js"></script>',
        '<script>BookingWidget.init({hotelId: 12, container: "#obm"});</script>'),
    "inline loader and config": (
        "assets.pousadanet.com.br", "",
        '<script>(function(d){var s=d.createElement("script");s.src="https://assets.pousadanet.com.br/loader.js";'
        'd.head.appendChild(s);})(document);PousadaNet.mount({propertyId: "ab12"});</script>'),
    "custom element with plain config attributes": (
        "cdn.hbkit.example", "",
        '<hb-widget hotel-id="12" lang="pt"></hb-widget><script src="https://cdn.hbkit.example/hb.js"></script>'),
    "link styled as a widget button with config": (
        "static.zennest.example", '<script src="https://static.zennest.example/zn.js"></script>',
        '<a href="#" class="zn-open" data-hotel-id="55">Book now</a>'),
    "empty container and its loader": (
        "cdn.hospedajes-andinos.example", "",
        '<div id="motor-reservas"></div><script src="https://cdn.hospedajes-andinos.example/widget/loader.js"></script>'),
    "preconnect to the engine": (
        "booking.lagoonrooms.example", '<link rel="preconnect" href="https://booking.lagoonrooms.example">', "<p>x</p>"),
    "init call with a selector first": (
        "cdn.bookeasy-asia.example", '<script src="https://cdn.bookeasy-asia.example/sdk.js"></script>',
        '<script>ReservWidget.create("#rw", {propertyCode: "P1"});</script>'),
    "a tenant of a cloud host with booking words": (
        "hotelx-booking.azurewebsites.net", "",
        '<script src="https://hotelx-booking.azurewebsites.net/widget.js"></script>'),
    "vendor-prefixed config attribute": (
        "cdn.zimmerbox.example", "",
        '<div class="zb-search" data-zb-hotel="123"></div><script src="https://cdn.zimmerbox.example/zb.js"></script>'),
    "script URL inside inline code": (
        "motor.reservasweb-caribe.com", "",
        '<script>var u = "https:\\/\\/motor.reservasweb-caribe.com\\/reservas\\/widget.js";</script>'),
}


@pytest.mark.parametrize("host, head, fragment", UNKNOWN.values(), ids=list(UNKNOWN))
def test_an_uncatalogued_script_or_widget_is_an_unknown_engine(host, head, fragment):
    page = _page(fragment, head)
    assert page.detections == () or not _strong(page.detections)
    assert [u.host for u in page.unknown_engines] == [host]
    u = page.unknown_engines[0]
    assert u.tier == UNKNOWN_TIER and u.method in ("script", "widget") and 0.4 <= u.confidence <= 0.5
    assert u.booking_url.startswith("https://" + host)


def test_a_request_the_browser_saw_is_an_unknown_engine():
    page = _page("<p>x</p>", request_urls=(
        "https://www.google-analytics.com/g/collect?dl=https%3A%2F%2Fquay%2Fbook", "https://fonts.gstatic.com/a.woff2",
        "https://api.zenrooms-engine.example/v1/availability?hotel=9"))
    assert [(u.host, u.method) for u in page.unknown_engines] == [("api.zenrooms-engine.example", "request")]


def test_a_guests_and_nights_form_posting_off_site_is_an_unknown_engine_but_a_table_form_is_not():
    stay = _page('<form action="https://secure.posadaria.example/search"><select name="huespedes"><option>2</option>'
                 '</select><input name="noches" value="1"><button>Buscar</button></form>')
    assert [(u.host, u.method) for u in stay.unknown_engines] == [("secure.posadaria.example", "form")]
    table = _page('<form action="https://reservations.bistro-partner.example/search"><input type="date" name="date">'
                  '<select name="guests"><option>2</option></select><button>Reserve a table</button></form>')
    assert table.unknown_engines == ()


def test_images_and_styles_with_booking_words_are_no_engine():
    page = _page('<script>var hero = "https://media.hotelpics-cdn.example/booking-room.jpg";</script>',
                 request_urls=("https://img.photobank.example/book-now.png?w=800",
                               "https://static.fontfarm.example/fonts/reservation.woff2"))
    assert page.unknown_engines == ()


def test_links_frames_and_forms_rank_before_scripts():
    page = _page('<a href="https://booking.motorx-hoteles.com/hotel/1">Reservar</a>'
                 '<script src="https://widget.other-booking.example/booking.js"></script>')
    assert [u.method for u in page.unknown_engines] == ["link", "script"]


# --- not engines -----------------------------------------------------------------------------------

NEGATIVE = {
    "OTA affiliate widget": '<ins class="bookingaff" data-aid="1" data-hotel_id="9"></ins>'
                            '<script src="https://aff.bstatic.com/static/affiliate_base/js/flexiproduct.js"></script>'
                            '<script src="https://cdn.themekit-xyz.com/widget.js"></script>'
                            '<a href="https://www.booking.com/hotel/us/quay.html">Book on Booking.com</a>',
    "review widgets": '<div class="ty-widget" data-hotel-id="a1"></div>'
                      '<script src="https://static.trustyou.com/widgets/loader.js"></script>'
                      '<div class="revinate-reviews" data-property-id="8"></div>'
                      '<script src="https://cdn.guestreviews-hub.com/widget/reviews.js"></script>',
    "maps": '<div id="map"></div><script src="https://api.mapbox.com/mapbox-gl-js/v2/mapbox-gl.js"></script>'
            '<script src="https://unpkg.com/leaflet/dist/leaflet.js"></script>',
    "chat": '<script src="https://code.tidio.co/abc.js" async></script>'
            '<script>window.intercomSettings = {app_id: "q1", hotel_id: 12};</script>',
    "analytics": '<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>'
                 '<script>dataLayer.push({event: "booking_start", hotel_id: 1})</script>',
    "restaurant booking": '<div id="resyButton"></div><script src="https://widgets.resy.com/embed.js"></script>'
                          '<script>resyWidget.addButton(document.getElementById("resyButton"), {venueId: 1})</script>'
                          '<div class="table-booking-widget" data-restaurant-id="3"></div>'
                          '<script src="https://cdn.dinewise-xyz.com/booking.js"></script>',
    "tour booking": '<div class="tour-booking" data-product="9"></div>'
                    '<script src="https://widgets.tourbox-xyz.com/reserve.js"></script>',
    "sister hotel": '<a href="https://www.quay-sister-hotel.com/">Book our sister hotel</a>'
                    '<script src="https://www.quay-sister-hotel.com/js/site.js"></script>',
    "a cloud CDN script beside a booking section": '<section id="booking"><h2>Stay with us</h2><p>Rooms from $99 '
                                                   'a night with breakfast, parking and wifi included.</p></section>'
                                                   '<script src="https://d111.cloudfront.net/js/theme.js"></script>',
    "push, consent and widgets of common site tools": '<div id="booking-bar"></div>'
                                                      '<script src="https://cdn.onesignal.com/sdks/OneSignalSDK.js"></script>'
                                                      '<script src="https://apps.elfsight.com/p/platform.js"></script>'
                                                      '<script src="https://cdn.cookielaw.org/scripttemplates/otSDKStub.js">'
                                                      '</script>',
    "theme booking button and theme script": '<a class="book-now" href="/rooms/">Book now</a>'
                                             '<div id="booking-bar" class="booking-form"></div>'
                                             '<script src="https://cdn.somethemes-xyz.com/theme.js"></script>',
}


@pytest.mark.parametrize("fragment", NEGATIVE.values(), ids=list(NEGATIVE))
def test_scripts_and_widgets_that_are_not_engines(fragment):
    page = _page(fragment)
    assert page.unknown_engines == () and not _strong(page.detections)


KITCHEN_SINK_HEAD = "".join(f'<script async src="{u}"></script>' for u in (
    "https://www.googletagmanager.com/gtm.js?id=GTM-1", "https://connect.facebook.net/en_US/fbevents.js",
    "https://static.hotjar.com/c/hotjar-1.js", "https://consent.cookiebot.com/uc.js", "https://code.jquery.com/jquery.js",
    "https://cdn.jsdelivr.net/npm/bootstrap/dist/js/bootstrap.bundle.min.js", "https://kit.fontawesome.com/k1.js",
    "https://cdn.weglot.com/weglot.min.js", "https://cdn.userway.org/widget.js", "https://js.stripe.com/v3/",
    "https://www.google.com/recaptcha/api.js", "https://onboard.triptease.io/bootstrap.js?integrationId=1",
    "https://www.thehotelsnetwork.net/js/loader.js?property_id=1", "https://cdn.onesignal.com/sdks/OneSignalSDK.js",
)) + '<link rel="preconnect" href="https://fonts.gstatic.com"><link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Lora">'


def test_a_hotel_page_full_of_site_tools_and_no_engine_has_no_unknown_engine():
    body = ('<form class="booking-widget" action="/reservations/" method="get"><input type="date" name="checkin">'
            '<input type="date" name="checkout"><select name="adults"><option>2</option></select>'
            '<button>Check availability</button></form>'
            '<div id="TA_cdsratingsonlynarrow1" class="TA_cdsratingsonlynarrow"></div>'
            '<script src="https://www.jscache.com/wejs?wtype=cdsratingsonlynarrow&uniq=1&locationId=2"></script>'
            '<div class="elfsight-app-abc" data-elfsight-app-lazy></div><script src="https://apps.elfsight.com/p/platform.js">'
            '</script><iframe src="https://www.youtube.com/embed/xyz"></iframe>'
            '<iframe src="https://www.google.com/maps/embed?pb=1"></iframe><script src="//code.tidio.co/k.js"></script>'
            '<a href="https://www.booking.com/hotel/us/quay.html">Book on Booking.com</a>'
            '<a href="https://www.opentable.com/r/quay-bistro">Reserve a table</a>'
            '<div data-gyg-widget="auto" data-gyg-partner-id="P1"></div>'
            '<script src="https://widget.getyourguide.com/dist/pa.umd.production.min.js"></script>')
    page = _page(body, KITCHEN_SINK_HEAD)
    assert page.unknown_engines == () and not _strong(page.detections)


def test_an_unknown_widget_is_found_among_the_site_tools():
    head = KITCHEN_SINK_HEAD + '<script defer src="https://static.quartoonline.pt/js/qo.min.js"></script>'
    page = _page('<div class="qo-container" data-property-id="771"></div>', head)
    assert [u.host for u in page.unknown_engines] == ["static.quartoonline.pt"]


def test_a_catalogued_engine_and_an_unknown_script_are_both_reported():
    page = _page('<script src="https://static.cloudbeds.com/new/x.js"></script>'
                 '<script src="https://widget.reservhotel-xyz.example/booking.js"></script>')
    assert _strong(page.detections) == ["Cloudbeds"]
    assert [u.host for u in page.unknown_engines] == ["widget.reservhotel-xyz.example"]


def test_the_non_engine_script_hosts_are_data_with_a_source():
    raw = json.loads(resources.files("sadie_pipeline").joinpath("data/non_engine_script_hosts.json").read_text())
    assert "source" in raw["comment"].lower() or "Sources" in raw["comment"]
    groups = raw["non_engine_script_hosts"]
    assert all(groups.values()) and {"analytics_and_ads", "chat_and_messaging", "reviews", "payments"} <= set(groups)
    for hosts in groups.values():
        for host in hosts:
            assert host == host.lower() and engine_of_host(host) is None, host  # never a catalogued booking host
    assert is_non_engine_script_host("static.hotjar.com") and is_non_engine_script_host("www.booking.com")
    assert not is_non_engine_script_host("widgets.tripnest.asia")

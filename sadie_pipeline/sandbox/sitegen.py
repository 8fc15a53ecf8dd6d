"""Renders a hotel's website from its `Place` record. Pure functions, no I/O.

Every page uses links relative to the hotel's base path (`rooms`, `contact`, ...), so the same
HTML works when served by virtual host (`http://www.x.test/`) and under a path prefix
(`http://127.0.0.1:PORT/sites/www.x.test/`).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from functools import lru_cache
from urllib.parse import parse_qsl, urlsplit

from .world import Place

PAGES = ("", "rooms", "amenities", "about", "contact")

_TYPE_WORDS = {
    "hotel": "hotel", "boutique_hotel": "boutique hotel", "resort": "resort", "motel": "motel",
    "inn": "inn", "bed_and_breakfast": "bed and breakfast", "hostel": "hostel", "lodge": "lodge",
    "vacation_rental": "collection of vacation cottages",
}


def _e(s: object) -> str:
    return html.escape(str(s), quote=True)


def _n(place: Place, salt: str, mod: int) -> int:
    return int(hashlib.md5(f"{place.id}:{salt}".encode()).hexdigest()[:8], 16) % mod


def _layout(place: Place, title: str, body: str, *, head_extra: str = "", scripts: str = "") -> str:
    nav = "".join(f'<li><a href="{p or "./"}">{(p or "home").capitalize()}</a></li>' for p in PAGES)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<meta name="description" content="{_e(place.name)} in {_e(place.city)}, {_e(place.state)}">
<link rel="stylesheet" href="assets/site.css">
{head_extra}
</head>
<body>
<header class="site-header">
  <a class="logo" href="./">{_e(place.name)}</a>
  <nav><ul>{nav}</ul></nav>
  <div class="header-phone"><a href="tel:{_e(_tel(place.phone))}">{_e(place.phone or "")}</a></div>
</header>
<main>
{body}
</main>
<footer>
  <p>{_e(place.name)} &middot; {_e(place.address)} &middot; {_e(place.phone or "")}</p>
  <p>&copy; 2025 {_e(place.name)}. All rights reserved.</p>
</footer>
{scripts}
</body>
</html>
"""


def _tel(phone: str | None) -> str:
    return "+1" + "".join(ch for ch in (phone or "") if ch.isdigit())


def booking_html(place: Place) -> str:
    """The booking engine as static HTML (empty for js_only sites)."""
    e = place.engine
    if e is None:
        email = place.contacts[0].email if place.contacts and place.contacts[0].email else None
        mail = f' or email <a href="mailto:{_e(email)}">{_e(email)}</a>' if email else ""
        return f'<section class="reserve"><h2>Reservations</h2><p>To reserve a room, please call us at {_e(place.phone)}{mail}.</p></section>'
    if e.ota:
        return (f'<section class="reserve"><h2>Reservations</h2><p>Book your stay on '
                f'<a href="{_e(e.url)}" rel="nofollow">Booking.com</a>.</p></section>')
    if e.embed == "iframe":
        return (f'<section class="reserve"><h2>Check availability</h2>'
                f'<iframe id="booking-frame" src="{_e(e.url)}" title="Online reservations" width="100%" height="640" '
                f'frameborder="0"></iframe></section>')
    if e.embed == "form":
        parts = urlsplit(e.url)
        action = f"{parts.scheme}://{parts.netloc}{parts.path}"
        hidden = "".join(f'<input type="hidden" name="{_e(k)}" value="{_e(v)}">'
                         for k, v in parse_qsl(parts.query, keep_blank_values=True) if v)
        return (f'<section class="reserve"><h2>Check availability</h2>'
                f'<form class="booking-form" action="{_e(action)}" method="get" target="_blank">{hidden}'
                f'<label>Arrive <input type="date" name="arrive"></label>'
                f'<label>Depart <input type="date" name="depart"></label>'
                f'<label>Guests <input type="number" name="adult" value="2" min="1"></label>'
                f'<button type="submit">Book Now</button></form></section>')
    if e.embed == "script":
        if e.name == "Mews":
            cfg = e.url.rstrip("/").rsplit("/", 1)[-1]
            return (f'<section class="reserve"><button class="book-now" data-distributor-open>Book Now</button>'
                    f'<script src="https://api.mews.com/distributor/distributor.min.js"></script>'
                    f'<script>Mews.Distributor({{configurationIds: ["{_e(cfg)}"], openElements: "[data-distributor-open]"}});</script>'
                    f'</section>')
        return (f'<section class="reserve"><button class="book-now" onclick="window.open(bookingConfig.url)">Book Now</button>'
                f'<script>window.bookingConfig = {json.dumps({"engine": e.name, "url": e.url})};</script></section>')
    return (f'<section class="reserve"><a class="btn book-now" href="{_e(e.url)}" target="_blank" '
            f'rel="noopener">Book Now</a></section>')


def booking_js(place: Place) -> str:
    """assets/booking.js of a js_only site: builds the booking link/iframe after load.

    The engine URL is split into base64 chunks so it never appears in the HTML or the script.
    """
    e = place.engine
    if e is None:
        return "/* no booking engine */\n"
    raw = e.url.encode()
    chunks = [base64.b64encode(raw[i:i + 7]).decode() for i in range(0, len(raw), 7)]
    kind = "iframe" if e.embed == "iframe" else "link"
    return f"""(function () {{
  var parts = {json.dumps(chunks)};
  function target() {{ return parts.map(function (p) {{ return atob(p); }}).join(""); }}
  function inject() {{
    var box = document.getElementById("booking-widget");
    if (!box) return;
    box.removeAttribute("data-loading");
    box.textContent = "";
    if ("{kind}" === "iframe") {{
      var f = document.createElement("iframe");
      f.id = "booking-frame"; f.title = "Online reservations"; f.width = "100%"; f.height = "640";
      f.src = target();
      box.appendChild(f);
    }} else {{
      var a = document.createElement("a");
      a.id = "book-now"; a.className = "btn book-now"; a.textContent = "Book Now"; a.target = "_blank";
      a.href = target();
      box.appendChild(a);
    }}
  }}
  function later() {{ window.setTimeout(inject, 150); }}
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", later); else later();
}})();
"""


def _rooms_sentence(place: Place) -> str:
    if not place.rooms_text:
        return ""
    variants = [
        f"Relax in one of {place.rooms_text}, each with a comfortable bed and a work desk.",
        f"Choose from {place.rooms_text}, thoughtfully appointed for every traveler.",
        f"With {place.rooms_text}, {place.name} welcomes couples, families and business guests alike.",
    ]
    return variants[_n(place, "rooms", len(variants))]


def _type_word(place: Place) -> str:
    return _TYPE_WORDS.get(place.type, "hotel")


def home(place: Place) -> str:
    booking = ('<section class="reserve"><div id="booking-widget" data-loading="true">Loading availability&hellip;</div></section>'
               if place.site == "js_only" else booking_html(place))
    scripts = '<script src="assets/booking.js" defer></script>' if place.site == "js_only" else ""
    room_line = f"<p>{_e(_rooms_sentence(place))}</p>" if _n(place, "home-rooms", 2) == 0 else ""
    body = f"""<section class="hero">
  <h1>Welcome to {_e(place.name)}</h1>
  <p>Your {_e(_type_word(place))} in the heart of {_e(place.city)}, {_e(place.state)}.</p>
</section>
{booking}
<section class="intro">
  <p>{_e(place.name)} offers {_e(", ".join(place.amenities[:3]) or "warm hospitality")} and easy access to the best of {_e(place.city)}.</p>
  {room_line}
  <p><a href="rooms">See our rooms</a> &middot; <a href="contact">Contact us</a></p>
</section>"""
    return _layout(place, f"{place.name} | {place.city}, {place.state}", body, scripts=scripts)


def rooms(place: Place) -> str:
    body = f"""<h1>Rooms &amp; Suites</h1>
<p>{_e(_rooms_sentence(place))}</p>
<ul class="room-types">
  <li>Standard King &ndash; one king bed, sleeps 2</li>
  <li>Double Queen &ndash; two queen beds, sleeps 4</li>
  <li>Suite &ndash; separate living area, sleeps 4</li>
</ul>"""
    return _layout(place, f"Rooms | {place.name}", body)


def amenities(place: Place) -> str:
    items = "".join(f"<li>{_e(a.capitalize())}</li>" for a in place.amenities) or "<li>Friendly front desk</li>"
    body = f"<h1>Amenities</h1><p>Enjoy these amenities during your stay:</p><ul class=\"amenities\">{items}</ul>"
    return _layout(place, f"Amenities | {place.name}", body)


def about(place: Place) -> str:
    lines = []
    if place.brand:
        lines.append(f"{place.name} is a proud member of the {place.brand} family of hotels.")
    else:
        lines.append(f"{place.name} is an independent, locally owned {_type_word(place)}.")
    if place.management:
        lines.append(f"The property is managed by {place.management}.")
    owners = [c for c in place.contacts if c.title.lower() in ("owner", "innkeeper")]
    if owners:
        lines.append(f"Owned and operated by {owners[0].name} since {2000 + _n(place, 'since', 24)}.")
    if place.rooms_text and _n(place, "about-rooms", 2) == 1:
        lines.append(f"Today we offer {place.rooms_text}.")
    body = "<h1>About us</h1>" + "".join(f"<p>{_e(x)}</p>" for x in lines)
    return _layout(place, f"About | {place.name}", body)


def _email_html(place: Place, email: str) -> str:
    if _n(place, "obfuscate", 4) == 0:  # some sites hide emails from scrapers
        user, _, dom = email.partition("@")
        return _e(f"{user} [at] {dom.replace('.', ' [dot] ')}")
    return f'<a href="mailto:{_e(email)}">{_e(email)}</a>'


def contact(place: Place) -> str:
    staff = "".join(
        f'<li class="staff"><strong>{_e(c.name)}</strong>, <span class="title">{_e(c.title)}</span>'
        + (f" &ndash; {_email_html(place, c.email)}" if c.email else "")
        + (f" &ndash; {_e(c.phone)}" if c.phone else "") + "</li>"
        for c in place.contacts)
    domain = place.domain or "example.test"
    if place.site == "moved" and place.moved_to:
        domain = urlsplit(place.moved_to).hostname.removeprefix("www.")  # type: ignore[union-attr]
    body = f"""<h1>Contact us</h1>
<address>{_e(place.name)}<br>{_e(place.address)}<br>Phone: <a href="tel:{_e(_tel(place.phone))}">{_e(place.phone)}</a><br>
Email: <a href="mailto:info@{_e(domain)}">info@{_e(domain)}</a></address>
<h2>Our team</h2>
<ul class="team">{staff or "<li>Front desk, available 24 hours</li>"}</ul>"""
    return _layout(place, f"Contact | {place.name}", body)


RENDERERS = {"": home, "rooms": rooms, "amenities": amenities, "about": about, "contact": contact}


@lru_cache(maxsize=16384)
def render(place: Place, page: str) -> str | None:
    """HTML of `page` ("" = home) or None when the site has no such page."""
    if place.site == "huge" and page == "":
        return huge_home(place)
    fn = RENDERERS.get(page.strip("/"))
    return fn(place) if fn else None


@lru_cache(maxsize=16)
def huge_home(place: Place, target_bytes: int = 6 * 1024 * 1024) -> str:
    """A home page of several MB: booking link near the top, room count only at the very end."""
    review = ("<article class=\"review\"><h3>Guest review #{i}</h3><p>We loved the pool and the view. Staff were "
              "friendly and the breakfast was great. Would stay again! " + "Lorem ipsum dolor sit amet. " * 12 +
              "</p></article>\n")
    parts, size, i = [], 0, 0
    while size < target_bytes:
        chunk = review.replace("{i}", str(i))
        parts.append(chunk)
        size += len(chunk)
        i += 1
    body = (f"<h1>Welcome to {_e(place.name)}</h1>{booking_html(place)}<section class=\"reviews\">{''.join(parts)}</section>"
            f"<p class=\"closing\">{_e(_rooms_sentence(place))}</p>")
    return _layout(place, f"{place.name} | {place.city}, {place.state}", body)


def brand_root(host: str, places: list[tuple[str, Place]]) -> str:
    items = "".join(f'<li><a href="{_e(base.lstrip("/"))}">{_e(p.name)}</a> &ndash; {_e(p.city)}, {_e(p.state)}</li>'
                    for base, p in sorted(places, key=lambda e: e[1].name))
    return (f"<!DOCTYPE html><html><head><title>{_e(host)} | Find a hotel</title></head><body>"
            f"<h1>Find a hotel</h1><ul>{items}</ul></body></html>")


def parked(host: str) -> str:
    return (f"<!DOCTYPE html><html><head><title>{_e(host)} is for sale</title></head><body>"
            f"<h1>{_e(host)}</h1><p>This domain may be for sale! Inquire now.</p>"
            "<ul class=\"related\"><li><a href=\"/lander?q=hotels\">Hotels</a></li>"
            "<li><a href=\"/lander?q=cheap+flights\">Cheap Flights</a></li><li><a href=\"/lander?q=vacation\">Vacation Packages</a></li></ul>"
            "<script>window.park = {\"tid\": \"parked-12\"};</script></body></html>")


def not_found(path: str) -> str:
    return (f"<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1>"
            f"<p>The requested URL {_e(path)} was not found on this server.</p></body></html>")


def service_unavailable() -> str:
    return ("<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body>"
            "<h1>Service Unavailable</h1><p>The server is temporarily unable to service your request due to "
            "maintenance downtime or capacity problems. Please try again later.</p></body></html>")


ROBOTS = "User-agent: *\nDisallow: /wp-admin/\nAllow: /\n"
CSS = "body{font-family:sans-serif;margin:0}header,footer{padding:1em;background:#eef}.book-now{padding:.5em 1em;background:#c33;color:#fff}\n"

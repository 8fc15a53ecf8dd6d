"""Hotel websites through httpx: pages, redirects, dead sites, the huge page, JS-only pages."""

from __future__ import annotations

import re

import httpx
import pytest

from sadie_pipeline.sandbox import Sandbox


def test_static_site_pages(sb: Sandbox, web: httpx.Client) -> None:
    home = web.get("http://www.biscaynebayinn.test/")
    assert home.status_code == 200 and home.headers["content-type"].startswith("text/html")
    assert 'href="https://be.synxis.com/?hotel=28814&amp;chain=10237"' in home.text
    assert re.search(r"120 guest rooms", web.get("http://www.biscaynebayinn.test/rooms").text)
    contact = web.get("http://www.biscaynebayinn.test/contact").text
    assert "Maria Lopez" in contact and "General Manager" in contact and "(305) 555-0111" in contact
    assert "managed by Coastal Hospitality Group" in web.get("http://www.biscaynebayinn.test/about").text
    assert web.get("http://www.biscaynebayinn.test/robots.txt").text.startswith("User-agent")
    assert web.get("http://www.biscaynebayinn.test/wp-login.php").status_code == 404


@pytest.mark.parametrize("url, needle", [
    ("http://www.littlehavanasuites.test/", '<iframe id="booking-frame" src="https://hotels.cloudbeds.com/reservation/LhSu7Q"'),
    ("http://www.lakeeolainn.test/", 'action="https://secure.webrez.com/hotel/2741/"'),
    ("http://www.lincolnroadsuites.test/", "https://api.mews.com/distributor/distributor.min.js"),
    ("http://www.orlandofamilymotel.test/", "https://www.booking.com/hotel/us/orlando-family-motel.html"),
    ("http://www.coralwaymotorlodge.test/", "please call us at (305) 555-0104"),
    ("http://www.hilton.test/en/hotels/miadwhx-hilton-miami-downtown-waterfront/", "ctyhocn=MIADWHX"),
])
def test_engine_embeds(web: httpx.Client, url: str, needle: str) -> None:
    assert needle in web.get(url).text


def test_js_only_site_hides_the_engine(web: httpx.Client) -> None:
    home = web.get("http://www.brickellharborhotel.test/").text
    assert 'id="booking-widget"' in home and "synxis" not in home.lower()
    js = web.get("http://www.brickellharborhotel.test/assets/booking.js").text
    assert "synxis" not in js.lower() and "atob" in js


def test_redirects(web: httpx.Client) -> None:
    r = web.get("http://wynwoodarthouse.test/")
    assert r.status_code == 301 and r.headers["location"] == "http://www.wynwoodarthouse.test/"
    r = web.get("http://wynwoodarthouse.test/", follow_redirects=True)
    assert r.status_code == 200 and str(r.url) == "http://www.wynwoodarthouse.test/"
    assert "secure.thinkreservations.com/wynwoodarthouse" in r.text
    moved = web.get("http://www.southernmostbeachinn.test/", follow_redirects=True)
    assert str(moved.url) == "http://www.southernmostinnkeywest.test/" and "guestybookings.com" in moved.text
    with pytest.raises(httpx.TooManyRedirects):
        web.get("http://www.kwharborhotel.test/", follow_redirects=True)


def test_dead_sites(sb: Sandbox, web: httpx.Client) -> None:
    with pytest.raises(httpx.TransportError):
        web.get("http://www.flaglerstreethotel.test/")  # connection dropped, no answer
    with pytest.raises(httpx.TransportError):
        web.get("http://www.kissimmeegatewayinn.test/")  # the name does not exist
    assert web.get("http://www.sunsetharbourhotel.test/").status_code == 503
    assert "for sale" in web.get("http://www.oldtownkwlodge.test/").text
    with pytest.raises(httpx.ReadTimeout):
        web.get("http://www.thorntonparkhotel.test/", timeout=0.3)
    st = sb.stats("sites")
    assert st["aborted"] == 2 and st["server_errors"] == 1


def test_huge_page(web: httpx.Client) -> None:
    r = web.get("http://www.midbeachgrand.test/")
    assert r.status_code == 200 and len(r.content) > 5 * 1024 * 1024
    assert "reservations.travelclick.com/98211" in r.text[:5000]
    assert "310 guest rooms" in r.text[-3000:]


def test_same_sites_by_path_and_by_host_header(sb: Sandbox) -> None:
    url = sb.site_url("Biscayne Bay Inn", by_path=True)
    assert url == f"{sb.base_url('sites')}/www.biscaynebayinn.test/"
    with httpx.Client(timeout=3) as c:
        assert "be.synxis.com" in c.get(url).text
        assert "Maria Lopez" in c.get(url + "contact").text
        r = c.get(f"{sb.base_url('sites')}/wynwoodarthouse.test/")
        assert r.headers["location"] == f"{sb.base_url('sites')}/www.wynwoodarthouse.test/"
        r = c.get(f"{sb.url}/rooms", headers={"Host": "www.biscaynebayinn.test"})
        assert "120 guest rooms" in r.text


def test_site_knobs(sb: Sandbox, web: httpx.Client) -> None:
    sb.configure("sites", error_rate=1.0)
    assert web.get("http://www.biscaynebayinn.test/").status_code == 503
    sb.configure("sites", error_rate=0.0, rate_limit=(1, 60))
    assert web.get("http://www.biscaynebayinn.test/").status_code == 200
    r = web.get("http://www.biscaynebayinn.test/")
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1


def test_https_through_the_proxy_is_refused(web: httpx.Client) -> None:
    with pytest.raises(httpx.ProxyError):
        web.get("https://be.synxis.com/?hotel=1")

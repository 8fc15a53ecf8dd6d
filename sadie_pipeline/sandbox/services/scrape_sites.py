"""Two tourism websites to scrape, served by virtual host (like the hotel sites: through the
sandbox as HTTP proxy) and at /scrape/{host}/{path}:

* http://www.explore-static.test/listings/?page=N: list pages of 10 listings (a.more links,
  a rel="next" link), detail pages /listings/{slug}/ with the fields in plain HTML;
* http://www.explore-js.test/listings/?page=N: the same, but the list is built by JavaScript
  from data in the page (an empty <ul> without a browser).

robots.txt disallows /private/ (one listing of each site lives there) and names no crawl delay.
A detail page's two photos, /images/{slug}-1.jpg and -2.jpg (a near duplicate of the first),
redirect to the sandbox's image host.
Both sites publish the "demo" catalog (listing_world.py); a host "www.explore-big-N.test"
publishes "big-N", and "www.explore-js-big-N.test" publishes it as the JavaScript site does."""

from __future__ import annotations

import html
import json
import re

from aiohttp import web

from ..listing_world import Catalog, Catalogs, Listing
from .base import Service
from .images import photo_redirect

PER_PAGE = 10
PRIVATE = 4  # the listing whose page is under /private/ (robots.txt disallows it)
ROBOTS = "User-agent: *\nDisallow: /private/\n"
_HOST = re.compile(r"www\.explore-(static|js|(?:js-)?big-\d+)\.test")


class ScrapeSitesService(Service):
    name = "scrape"
    prefix = "/scrape"
    real_base_url = "http://{dmo-website}"
    description = "Scrapeable listing sites: www.explore-static.test, www.explore-js.test (proxy or /scrape/{host}/)"
    injected_error_status = 503

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.catalogs = Catalogs()

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/{host}/{tail:.*}", self.by_path)]

    def matches_host(self, host: str) -> bool:
        return bool(_HOST.fullmatch(host))

    def error(self, status: int, message: str, *, code: str | None = None,
              headers: dict[str, str] | None = None) -> web.Response:
        body = f"<html><head><title>{status}</title></head><body><h1>{status}</h1><p>{html.escape(message)}</p></body></html>"
        return web.Response(text=body, status=status, content_type="text/html", headers=headers)

    def reset_state(self) -> None:
        self.catalogs.reset()

    async def handle_host(self, request: web.Request) -> web.StreamResponse:
        return self._page(request.host.split(":")[0].lower(), request.path, request.query.get("page", "1"), "")

    async def by_path(self, request: web.Request) -> web.StreamResponse:
        host = request.match_info["host"]
        return self._page(host, "/" + request.match_info["tail"], request.query.get("page", "1"), f"/scrape/{host}")

    def _page(self, host: str, path: str, page: str, root: str) -> web.StreamResponse:
        match = _HOST.fullmatch(host)
        catalog = self.catalogs.get("demo" if match and match.group(1) in ("static", "js") else
                                    match.group(1).removeprefix("js-") if match else "")
        if catalog is None:
            raise web.HTTPNotFound(reason=f"no site {host}")
        if path == "/robots.txt":
            return web.Response(text=ROBOTS, content_type="text/plain")
        if path in ("/", "/listings", "/listings/"):
            number = int(page) if page.isdigit() and int(page) > 0 else 1
            body = _list_page(catalog, number, root, javascript=match.group(1).startswith("js"))
            return web.Response(text=body, content_type="text/html")
        if photo := re.fullmatch(r"/images/([a-z0-9-]+)-([12])\.jpg", path):
            raise photo_redirect(self.ctx, photo.group(1), int(photo.group(2)))
        found = re.fullmatch(r"/(listings|private)/([a-z0-9-]+)/", path)
        listing = next((x for x in catalog.listings if found and x.slug == found.group(2)), None)
        if listing is None or (found.group(1) == "private") != (listing.n == PRIVATE):
            raise web.HTTPNotFound(reason=f"no page {path}")
        return web.Response(text=_detail_page(listing, root), content_type="text/html")


def _link(x: Listing, root: str) -> str:
    return f"{root}/{'private' if x.n == PRIVATE else 'listings'}/{x.slug}/"


def _list_page(catalog: Catalog, number: int, root: str, javascript: bool) -> str:
    chosen = catalog.listings[(number - 1) * PER_PAGE: number * PER_PAGE]
    pages = -(-len(catalog.listings) // PER_PAGE)
    nxt = f'<a rel="next" class="next" href="{root}/listings/?page={number + 1}">Next page</a>' if number < pages else ""
    if javascript:
        data = json.dumps([{"href": _link(x, root), "name": x.name, "category": x.category} for x in chosen])
        items = ""
        script = ("<script>const DATA = " + data + ";\nconst ul = document.getElementById('listings');\n"
                  "for (const x of DATA) { const li = document.createElement('li'); li.className = 'listing';\n"
                  "  const a = document.createElement('a'); a.className = 'more'; a.href = x.href; a.textContent = x.name;\n"
                  "  li.appendChild(a); ul.appendChild(li); }</script>")
    else:
        items = "\n".join(f'<li class="listing"><a class="more" href="{_link(x, root)}">{html.escape(x.name)}</a> '
                          f'<span class="category">{x.category}</span></li>' for x in chosen)
        script = ""
    return (f"<!DOCTYPE html><html><head><title>Explore PEI: places to go, page {number}</title></head><body>"
            f"<main><h1>Places to go</h1><ul id=\"listings\">{items}</ul><nav>{nxt}</nav></main>{script}</body></html>")


def _detail_page(x: Listing, root: str) -> str:
    e = html.escape
    return (f"<!DOCTYPE html><html><head><title>{e(x.name)} | Explore PEI</title></head><body><main>"
            f'<article class="listing-detail"><h1 class="name">{e(x.name)}</h1>'
            f'<span class="category">{x.category}</span>'
            f'<p class="address"><span class="street">{e(x.street)}</span>, <span class="city">{x.city}</span>, '
            f'<span class="province">{x.province}</span> <span class="postal">{x.postal}</span></p>'
            f'<p><a class="phone" href="tel:{x.phone}">{x.phone}</a> <a class="email" href="mailto:{x.email}">'
            f'{x.email}</a> <a class="website" href="{x.website}">Website</a></p>'
            f'<div class="description"><p>{e(x.description)}</p></div>'
            f'<img class="photo" src="{root}/images/{x.slug}-1.jpg" alt="{e(x.name)}">'
            f'<img class="photo" src="{root}/images/{x.slug}-2.jpg" alt="">'
            f'<div class="map" data-lat="{x.lat}" data-lng="{x.lng}"></div></article></main></body></html>')

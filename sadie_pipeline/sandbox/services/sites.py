"""Hotel websites of the sandbox world, served by virtual host (Host header).

Any request whose Host is a name (not an IP literal, not localhost) is a website request:
`GET http://www.biscaynebayinn.test/contact` reaches this service when the client sends it to
the sandbox, which happens when

* the client uses the sandbox as its HTTP proxy (`httpx.Client(proxy=sb.proxy_url)`,
  Playwright `proxy={"server": sb.proxy_url}`, or the standard HTTP_PROXY variable): the
  request line carries the absolute URL and the Host header the site's name; or
* the client maps names to the sandbox itself (Chromium `--host-resolver-rules`, see
  `Sandbox.chromium_args()`), or sends `Host:` by hand.

The same sites are also reachable without any of that at
`http://127.0.0.1:PORT/sites/{host}/{path}` (pages use relative links, so browsing works there
too). Behaviour per `Place.site` kind: see `world.SITE_KINDS`. Unknown names and `nxdomain`
and `dead_refused` sites drop the connection without an answer, as a dead host would.
"""

from __future__ import annotations

import asyncio
import ipaddress
import zlib
from collections.abc import Callable
from urllib.parse import urlsplit

from aiohttp import web

from .. import sitegen
from .base import AbortConnection, Service

SERVERS = ("nginx", "Apache/2.4.58 (Ubuntu)", "cloudflare", "LiteSpeed", "Microsoft-IIS/10.0")
HTML = "text/html"


def _is_name(host: str) -> bool:
    if not host or host == "localhost" or host.endswith(".localhost"):
        return False
    try:
        ipaddress.ip_address(host.strip("[]"))
        return False
    except ValueError:
        return True


def host_of(request: web.Request) -> str:
    h = (request.host or "").lower()
    if h.startswith("["):
        return h.split("]")[0] + "]"
    return h.rsplit(":", 1)[0] if ":" in h else h


class SitesService(Service):
    name = "sites"
    prefix = "/sites"
    real_base_url = "http://{hotel-website}"
    description = "Hotel websites by Host header (proxy or resolver rules) or /sites/{host}/{path}"
    injected_error_status = 503

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._bytes: dict[tuple[str, str], bytes] = {}

    def routes(self) -> list[web.RouteDef]:
        return [web.route("*", "/{host}", self.by_path), web.route("*", "/{host}/{tail:.*}", self.by_path)]

    def matches_host(self, host: str) -> bool:
        return _is_name(host)

    def error(self, status: int, message: str, *, code: str | None = None,
              headers: dict[str, str] | None = None) -> web.Response:
        if status == 429:
            body = "<html><head><title>429 Too Many Requests</title></head><body><h1>Too Many Requests</h1></body></html>"
        elif status >= 500:
            body = sitegen.service_unavailable()
        else:
            body = f"<html><head><title>{status}</title></head><body><h1>{status}</h1><p>{message}</p></body></html>"
        return web.Response(text=body, status=status, content_type=HTML, headers=headers)

    # ---- entry points ----------------------------------------------------------------------
    async def handle_host(self, request: web.Request) -> web.StreamResponse:
        host = host_of(request)
        return await self.serve(request, host, request.path, lambda h, p: f"http://{h}{p}")

    async def by_path(self, request: web.Request) -> web.StreamResponse:
        host = request.match_info["host"].lower()
        tail = request.match_info.get("tail")
        if tail is None:
            raise web.HTTPMovedPermanently(location=self.url(f"/{host}/"))
        root = self.url("")
        return await self.serve(request, host, "/" + tail, lambda h, p: f"{root}/{h}{p}")

    # ---- the sites -------------------------------------------------------------------------
    def _headers(self, host: str) -> dict[str, str]:
        return {"Server": SERVERS[zlib.crc32(host.encode()) % len(SERVERS)], "Cache-Control": "max-age=600"}

    def _redirect(self, status: int, location: str, host: str) -> web.Response:
        return web.Response(status=status, headers={"Location": location, **self._headers(host)},
                            text=f"<html><body>Moved to <a href=\"{location}\">{location}</a></body></html>",
                            content_type=HTML)

    def _page(self, host: str, key: tuple[str, str], text: str, status: int = 200) -> web.Response:
        body = self._bytes.get(key)
        if body is None:
            body = text.encode()
            if len(body) > 1_000_000:
                self._bytes[key] = body
        return web.Response(body=body, status=status, content_type=HTML, charset="utf-8", headers=self._headers(host))

    async def serve(self, request: web.Request, host: str, path: str,
                    link: Callable[[str, str], str]) -> web.StreamResponse:
        world = self.ctx.world
        query = ("?" + request.query_string) if request.query_string else ""
        info = world.hosts.get(host)
        if info is not None:
            kind, detail = info
            if kind in ("nxdomain", "dead_refused"):
                raise AbortConnection()
            if kind == "redirect_www":
                return self._redirect(301, link(detail, path) + query, host)
            if kind == "redirect":
                target = urlsplit(detail)
                return self._redirect(301, link(target.hostname or "", target.path or "/"), host)
            if kind == "dead_5xx":
                return web.Response(text=sitegen.service_unavailable(), status=503, content_type=HTML,
                                    headers=self._headers(host))
            if kind == "dead_timeout":
                await asyncio.sleep(self.ctx.knobs(self.name).hang_s)
                return web.Response(text="<html><body><h1>504 Gateway Time-out</h1></body></html>", status=504,
                                    content_type=HTML, headers=self._headers(host))
            if kind == "parked":
                return self._page(host, (host, "parked"), sitegen.parked(host))
            if kind == "redirect_loop":
                return self._redirect(302, link(host, "/home" if path == "/" else "/"), host)
        if path == "/robots.txt":
            if world.sites.get(host):
                return web.Response(text=sitegen.ROBOTS, content_type="text/plain", headers=self._headers(host))
            raise AbortConnection()
        entry = world.site_for(host, path)
        if entry is None:
            raise AbortConnection()  # the name does not exist: nothing answers
        base, place = entry
        if place is None:
            if path == "/":
                return self._page(host, (host, "/"), sitegen.brand_root(host, world.sites[host]))
            return self._page(host, (host, "404"), sitegen.not_found(path), 404)
        if path + "/" == base:
            return self._redirect(301, link(host, base) + query, host)
        rel = path[len(base):]
        if rel == "assets/booking.js" and place.site == "js_only":
            return web.Response(text=sitegen.booking_js(place), content_type="application/javascript",
                                headers=self._headers(host))
        if rel == "assets/site.css":
            return web.Response(text=sitegen.CSS, content_type="text/css", headers=self._headers(host))
        page = rel.strip("/")
        if page in ("index.html", "index.php", "home"):
            page = ""
        html = sitegen.render(place, page)
        if html is None:
            return self._page(host, (host, "404"), sitegen.not_found(path), 404)
        return self._page(host, (place.id, page), html)

"""WordPress sites (the REST API, wp/v2) publishing tourism listings as a custom post type.

    GET /wordpress/{site}/wp-json/wp/v2/listing?page=2&per_page=100&_embed=1&modified_after=...&orderby=id&order=asc
    GET /wordpress/{site}/wp-json/wp/v2/posts                 (two blog posts, not listings)
    POST /wordpress/{site}/_sandbox/touch {"count": 250}      (change listings: a later modified_gmt)
    GET /wordpress/{site}/wp-content/uploads/2026/01/{slug}.jpg  (a featured image: redirected to /images)

As WordPress answers: X-WP-Total and X-WP-TotalPages headers, a Link header (rel="next"/"prev"),
per_page at most 100 (else 400 rest_invalid_param), a page past the last is 400
rest_post_invalid_page_number, `_embed` adds `_embedded` (author, wp:featuredmedia, wp:term),
ACF fields under "acf" and registered meta under "meta". Site "private" needs an application
password (HTTP Basic; user "editor", the password the sandbox expects for "wordpress" or any),
else 401 rest_forbidden. Sites: see listing_world.py ("demo", "big-N", "defects", "private")."""

from __future__ import annotations

import asyncio
import base64
import html
from functools import partial
from typing import Any

from aiohttp import web

from ..listing_world import DEFECTS, Listing, iso, json_array, parse_time
from .catalog_service import CatalogService
from .images import photo_redirect

TERM_IDS = {"Lodging": 3, "Restaurant": 4, "Attraction": 5, "Shop": 6, "Activity": 7}
MAINTENANCE = ("<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>Briefly unavailable for "
               "scheduled maintenance. Check back in a minute.</h1></body></html>")


class WordPressService(CatalogService):
    name = "wordpress"
    prefix = "/wordpress"
    real_base_url = "https://{site}/wp-json/wp/v2"
    description = "WordPress REST API: /wordpress/{site}/wp-json/wp/v2/{type} (listing, posts)"
    site_kind = "WordPress site"
    site_aliases = {"private": "demo"}  # the application-password site serves the demo catalogue

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/{site}/wp-json/wp/v2/{type}", self.collection),
                web.get("/{site}/wp-content/uploads/{year}/{month}/{slug}.jpg", self.media),
                web.post("/{site}/_sandbox/touch", self.touch)]

    async def media(self, request: web.Request) -> web.StreamResponse:
        self._catalog(request)  # an unknown site is a 404
        raise photo_redirect(self.ctx, request.match_info["slug"])

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        return {"code": code or f"http_{status}", "message": message, "data": {"status": status}}

    async def collection(self, request: web.Request) -> web.StreamResponse:
        site, kind, q = request.match_info["site"], request.match_info["type"], request.query
        if site == "private" and not self._authorised(request):
            return self.error(401, "Sorry, you are not allowed to do that.", code="rest_forbidden")
        catalog = self._catalog(request)
        if kind not in ("listing", "posts"):
            return self.error(404, "No route was found matching the URL and request method.", code="rest_no_route")
        try:
            page, per_page = int(q.get("page", "1")), int(q.get("per_page", "10"))
        except ValueError:
            return self.error(400, "Invalid parameter(s): page", code="rest_invalid_param")
        if not 1 <= per_page <= 100:
            return self.error(400, "Invalid parameter(s): per_page", code="rest_invalid_param")
        after = parse_time(q["modified_after"]) if "modified_after" in q else None
        posts = _order(catalog.changed_after(after) if kind == "listing" else [], q)
        pages = -(-len(posts) // per_page)
        if page < 1 or (page > pages and page > 1):
            return self.error(400, "The page number requested is larger than the number of pages available.",
                              code="rest_post_invalid_page_number")
        if catalog.defects and page == DEFECTS["hang_page"]:
            await asyncio.sleep(self.ctx.knobs(self.name).hang_s)
        if catalog.defects and page == DEFECTS["html_page"]:
            return web.Response(text=MAINTENANCE, content_type="text/html")
        base = f"{self.mount_url(request)}/{site}"
        embed = "_embed" in q
        chosen = posts[(page - 1) * per_page: page * per_page]
        body = json_array([catalog.encoded(f"wp:{base}:{embed}", x, partial(_post, x, base, embed)) for x in chosen])
        headers = {"X-WP-Total": str(len(posts)), "X-WP-TotalPages": str(pages)}
        links = [f'<{request.url.with_query({**q, "page": str(p)})}>; rel="{rel}"'
                 for rel, p in (("prev", page - 1), ("next", page + 1)) if 1 <= p <= pages]
        if links:
            headers["Link"] = ", ".join(links)
        return web.Response(body=body, headers=headers, content_type="application/json")

    def _authorised(self, request: web.Request) -> bool:
        scheme, _, value = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "basic":
            return False
        try:
            user, _, password = base64.b64decode(value).decode().partition(":")
        except ValueError:
            return False
        expected = self.ctx.api_keys.get(self.name)
        return user == "editor" and bool(password) and (expected is None or password == expected)


def _order(posts: list[Listing], q: Any) -> list[Listing]:
    descending = q.get("order", "desc") == "desc"
    if q.get("orderby", "date") in ("id", "date"):  # the catalog is in id (and publication) order
        return posts[::-1] if descending else posts
    return sorted(posts, key=lambda x: x.modified, reverse=descending)


def _post(x: Listing, base: str, embed: bool) -> dict[str, Any]:
    created = iso(x.modified.replace(day=1), zone=False)
    post: dict[str, Any] = {
        "id": x.n, "date": created, "date_gmt": created, "guid": {"rendered": f"{base}/?post_type=listing&#038;p={x.n}"},
        "modified": iso(x.modified, zone=False), "modified_gmt": iso(x.modified, zone=False), "slug": x.slug,
        "status": "publish", "type": "listing", "link": f"{base}/listing/{x.slug}/",
        "title": {"rendered": html.escape(x.name).replace("'", "&#8217;")},
        "content": {"rendered": f"<p>{html.escape(x.description)}</p>\n", "protected": False},
        "excerpt": {"rendered": f"<p>{html.escape(x.description[:60])}&hellip;</p>\n", "protected": False},
        "author": 1, "featured_media": 1000 + x.n, "template": "",
        "meta": {"phone": x.phone, "website": x.website},
        "listing_category": [TERM_IDS[x.category]],
        "acf": [] if x.missing_fields else {  # ACF answers [] for a post without field values
            "street_address": x.street, "city": x.city, "province": x.province, "postal_code": x.postal,
            "latitude": str(x.lat), "longitude": str(x.lng), "email": x.email},
        "_links": {"self": [{"href": f"{base}/wp-json/wp/v2/listing/{x.n}"}],
                   "wp:featuredmedia": [{"embeddable": True, "href": f"{base}/wp-json/wp/v2/media/{1000 + x.n}"}]},
    }
    if embed:
        post["_embedded"] = {
            "author": [{"id": 1, "name": "Tourism Desk", "slug": "tourism-desk"}],
            "wp:featuredmedia": [{"id": 1000 + x.n, "type": "attachment", "alt_text": x.name,
                                  "media_type": "image", "mime_type": "image/jpeg",
                                  "media_details": {"width": 1200, "height": 800},
                                  "source_url": f"{base}/wp-content/uploads/2026/01/{x.slug}.jpg"}],
            "wp:term": [[{"id": TERM_IDS[x.category], "name": x.category, "slug": x.category.lower(),
                          "taxonomy": "listing_category"}],
                        [{"id": 20 + len(x.kind), "name": x.kind.title(), "slug": x.kind, "taxonomy": "post_tag"}]],
        }
    return post


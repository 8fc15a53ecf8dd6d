"""A partner (affiliate) API in the manner of a travel distributor's content API: keyed, paginated
JSON of properties with the partner's own ids.

    GET /partner/{site}/v1/properties?page=2&per_page=100&updated_since=2026-01-05T09:00:00Z
        X-API-Key: ...        (missing or wrong: 401 {"error": {"code": "unauthorized", ...}})
    POST /partner/{site}/_sandbox/touch {"count": 10}
    GET /partner/{site}/photos/{slug}/{1|2}.jpg   (a property's photos: redirected to /images)

Answers {"meta": {"page", "per_page", "total_pages", "total"}, "data": {"properties": [...]}};
per_page at most 200. The sandbox's knobs give it 429s with Retry-After (rate_limit) and 5xx
(error_rate, fail_next). On the "defects" site the second page hangs, the third is an HTML page
and the fourth renamed its list ("items": a changed schema)."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

import orjson
from aiohttp import web

from ..listing_world import DEFECTS, Listing, iso, json_array, parse_time
from .catalog_service import CatalogService
from .images import photo_redirect
from .wordpress import MAINTENANCE

TYPES = {"hotel": "HOTEL", "inn": "INN", "campground": "CAMPGROUND", "restaurant": "RESTAURANT", "cafe": "RESTAURANT",
         "museum": "ATTRACTION", "tour": "ACTIVITY", "shop": "SHOPPING"}
RENAMED_PAGE = 4


class PartnerService(CatalogService):
    name = "partner"
    prefix = "/partner"
    real_base_url = "https://api.partner.example/v1"
    description = "Partner content API: /partner/{site}/v1/properties (X-API-Key)"
    injected_error_status = 500
    site_kind = "partner catalogue"

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/{site}/v1/properties", self.properties), web.post("/{site}/_sandbox/touch", self.touch),
                web.get(r"/{site}/photos/{slug}/{copy:\d}.jpg", self.photo)]

    async def photo(self, request: web.Request) -> web.StreamResponse:
        self._catalog(request)  # an unknown site is a 404
        raise photo_redirect(self.ctx, request.match_info["slug"], int(request.match_info["copy"]))

    async def properties(self, request: web.Request) -> web.StreamResponse:
        if self.check_key(request, "X-API-Key") is None:
            return self.error(401, "A valid X-API-Key header is required.", code="unauthorized")
        catalog, q = self._catalog(request), request.query
        try:
            page, per_page = int(q.get("page", "1")), int(q.get("per_page", "50"))
        except ValueError:
            return self.error(400, "page and per_page must be integers", code="invalid_parameter")
        if not (page >= 1 and 1 <= per_page <= 200):
            return self.error(400, "page must be >= 1 and per_page within 1..200", code="invalid_parameter")
        since = parse_time(q["updated_since"]) if "updated_since" in q else None
        items = catalog.changed_after(since)
        total_pages = -(-len(items) // per_page)
        if catalog.defects and page == DEFECTS["hang_page"]:
            await asyncio.sleep(self.ctx.knobs(self.name).hang_s)
        if catalog.defects and page == DEFECTS["html_page"]:
            return web.Response(text=MAINTENANCE, content_type="text/html")
        photos = f"{self.mount_url(request)}/{request.match_info['site']}/photos"
        chosen = [catalog.encoded(f"partner:{photos}", x, partial(_property, x, photos))
                  for x in items[(page - 1) * per_page: page * per_page]]
        key = "items" if catalog.defects and page == RENAMED_PAGE else "properties"
        meta = {"page": page, "per_page": per_page, "total_pages": total_pages, "total": len(items)}
        body = b'{"meta":' + orjson.dumps(meta) + b',"data":{"' + key.encode() + b'":' + json_array(chosen) + b"}}"
        return web.Response(body=body, content_type="application/json")


def _property(x: Listing, photos: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": f"PL-{x.n:06d}", "name": x.name, "type": TYPES[x.kind],
        "address": {"line1": x.street, "city": x.city, "region": x.province, "postal_code": x.postal,
                    "country": "CA"},
        "geo": {"lat": x.lat, "lng": x.lng},
        "contact": {"phone": x.phone, "email": x.email, "url": x.website},
        "photos": [{"url": f"{photos}/{x.slug}/{i}.jpg", "width": 1024} for i in (1, 2)],
        "description": x.description, "updated_at": iso(x.modified).replace("+00:00", "Z"),
    }
    if x.missing_fields:
        del out["address"], out["name"]
    return out

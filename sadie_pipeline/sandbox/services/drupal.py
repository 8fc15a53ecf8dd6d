"""Drupal sites (JSON:API) publishing tourism listings as nodes of the bundle "listing".

    GET /drupal/{site}/jsonapi/node/listing?page[offset]=50&page[limit]=50
        &include=field_image,field_category,field_address&sort=drupal_internal__nid
        &filter[changed][condition][path]=changed&filter[changed][condition][operator]=>
        &filter[changed][condition][value]=1767600000
    POST /drupal/{site}/_sandbox/touch {"count": 250}
    GET /drupal/{site}/sites/default/files/listings/{slug}.jpg     (a field_image file: redirected to /images)

As Drupal answers: application/vnd.api+json, at most 50 resources a page (a larger page[limit] is
cut to 50), `links.next.href` while more follow, relationships as resource identifiers and the
related resources (file--file, taxonomy_term--listing_category, paragraph--address) in `included`
when asked for, `changed` as an RFC 3339 time filtered by its Unix time, errors as JSON:API error
objects. Sites: see listing_world.py."""

from __future__ import annotations

import asyncio
import uuid
from functools import partial
from typing import Any
from urllib.parse import urlsplit

import orjson
from aiohttp import web

from ..listing_world import DEFECTS, Listing, iso, json_array, parse_time
from .base import json_response
from .catalog_service import CatalogService
from .images import photo_redirect
from .wordpress import MAINTENANCE

MAX_LIMIT = 50
JSONAPI_META = {"version": "1.0", "meta": {"links": {"self": {"href": "http://jsonapi.org/format/1.0/"}}}}
JSONAPI = "application/vnd.api+json"


def _uuid(kind: str, n: int | str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"sandbox:drupal:{kind}:{n}"))


class DrupalService(CatalogService):
    name = "drupal"
    prefix = "/drupal"
    real_base_url = "https://{site}/jsonapi"
    description = "Drupal JSON:API: /drupal/{site}/jsonapi/node/listing"
    site_kind = "Drupal site"

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/{site}/jsonapi/node/{bundle}", self.collection),
                web.get("/{site}/sites/default/files/listings/{slug}.jpg", self.file),
                web.post("/{site}/_sandbox/touch", self.touch)]

    async def file(self, request: web.Request) -> web.StreamResponse:
        self._catalog(request)  # an unknown site is a 404
        raise photo_redirect(self.ctx, request.match_info["slug"])

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        return {"jsonapi": {"version": "1.0"}, "errors": [{"status": str(status), "title": message, "detail": message}]}

    def error(self, status: int, message: str, *, code: str | None = None,
              headers: dict[str, str] | None = None) -> web.Response:
        return json_response(self.error_body(status, message, code), status, headers=headers, content_type=JSONAPI)

    async def collection(self, request: web.Request) -> web.StreamResponse:
        catalog, q = self._catalog(request), request.query
        if request.match_info["bundle"] != "listing":
            return self.error(404, f"Invalid resource type node--{request.match_info['bundle']}")
        try:
            offset = int(q.get("page[offset]", "0"))
            limit = min(int(q.get("page[limit]", str(MAX_LIMIT))), MAX_LIMIT)
        except ValueError:
            return self.error(400, "The page parameter needs integer values.")
        nodes = _filtered(catalog.listings, q)
        if q.get("sort", "").lstrip("-") == "changed":
            nodes.sort(key=lambda x: x.modified, reverse=q["sort"].startswith("-"))
        page_number = offset // limit + 1 if limit else 1
        if catalog.defects and page_number == DEFECTS["hang_page"]:
            await asyncio.sleep(self.ctx.knobs(self.name).hang_s)
        if catalog.defects and page_number == DEFECTS["html_page"]:
            return web.Response(text=MAINTENANCE, content_type="text/html")
        chosen = nodes[offset:offset + limit]
        include = [p for p in q.get("include", "").split(",") if p]
        base = f"{self.mount_url(request)}/{request.match_info['site']}"
        links: dict[str, Any] = {"self": {"href": str(request.url)}}
        if offset + limit < len(nodes):
            links["next"] = {"href": str(request.url.update_query({"page[offset]": str(offset + limit),
                                                                   "page[limit]": str(limit)}))}
        if offset > 0:
            links["prev"] = {"href": str(request.url.update_query({"page[offset]": str(max(0, offset - limit))}))}
        data = json_array([catalog.encoded(f"node:{base}", x, partial(_node, x, base)) for x in chosen])
        body = b'{"jsonapi":' + orjson.dumps(JSONAPI_META) + b',"data":' + data
        if include:
            path = urlsplit(base).path  # files are served under the site's own path, as in a subdirectory install
            unique: dict[tuple[str, str], bytes] = {}  # each related resource once, as Drupal includes it
            for x in chosen:
                unique.update(catalog.cached(f"inc:{path}:{','.join(include)}", x, partial(_included, x, include, path)))
            body += b',"included":' + json_array(list(unique.values()))
        body += b',"links":' + orjson.dumps(links) + b"}"
        return web.Response(body=body, content_type=JSONAPI)


def _filtered(listings: list[Listing], q: Any) -> list[Listing]:
    """The `changed` filter, in its condition form or its shorthand (filter[changed][value])."""
    value = q.get("filter[changed][condition][value]", q.get("filter[changed][value]"))
    if value is None:
        return list(listings)
    moment = parse_time(value)
    op = q.get("filter[changed][condition][operator]", q.get("filter[changed][operator]", "="))
    if moment is None or op not in (">", ">="):
        return list(listings)
    return [x for x in listings if x.modified > moment or (op == ">=" and x.modified == moment)]


def _node(x: Listing, base: str) -> dict[str, Any]:
    node_id = _uuid("node", x.n)
    relationships: dict[str, Any] = {
        "field_image": {"data": {"type": "file--file", "id": _uuid("file", x.n),
                                 "meta": {"alt": x.name, "width": 1200, "height": 800}}},
        "field_category": {"data": [{"type": "taxonomy_term--listing_category", "id": _uuid("term", x.category)}]},
        "field_address": {"data": None if x.missing_fields else {"type": "paragraph--address",
                                                                  "id": _uuid("address", x.n)}},
    }
    for name, rel in relationships.items():
        rel["links"] = {"related": {"href": f"{base}/jsonapi/node/listing/{node_id}/{name}"}}
    return {"type": "node--listing", "id": node_id, "links": {"self": {"href": f"{base}/jsonapi/node/listing/{node_id}"}},
            "attributes": {"drupal_internal__nid": x.n, "langcode": "en", "status": True, "title": x.name,
                           "created": iso(x.modified.replace(day=1)), "changed": iso(x.modified),
                           "path": {"alias": f"/listing/{x.slug}", "langcode": "en"},
                           "body": {"value": f"<p>{x.description}</p>", "format": "basic_html",
                                    "processed": f"<p>{x.description}</p>", "summary": ""},
                           "field_phone": x.phone, "field_email": x.email,
                           "field_website": {"uri": x.website, "title": "", "options": []},
                           "field_geo": {"lat": x.lat, "lon": x.lng, "value": f"POINT ({x.lng} {x.lat})"}},
            "relationships": relationships}


def _included(x: Listing, include: list[str], path: str) -> dict[tuple[str, str], bytes]:
    out = []
    if "field_image" in include:
        out.append({"type": "file--file", "id": _uuid("file", x.n),
                    "attributes": {"filename": f"{x.slug}.jpg", "filemime": "image/jpeg",
                                   "uri": {"value": f"public://listings/{x.slug}.jpg",
                                           "url": f"{path}/sites/default/files/listings/{x.slug}.jpg"}}})
    if "field_category" in include:
        out.append({"type": "taxonomy_term--listing_category", "id": _uuid("term", x.category),
                    "attributes": {"name": x.category, "drupal_internal__tid": 3}})
    if "field_address" in include and not x.missing_fields:
        out.append({"type": "paragraph--address", "id": _uuid("address", x.n),
                    "attributes": {"field_address": {"country_code": "CA", "administrative_area": x.province,
                                                     "locality": x.city, "postal_code": x.postal,
                                                     "address_line1": x.street, "address_line2": ""}}})
    return {(r["type"], r["id"]): orjson.dumps(r) for r in out}

"""What the listing-source services (WordPress, Drupal, the partner API) share: a site's catalogue
of generated listings by the `{site}` path segment, its state for `sb.inspect`, and the
`POST /{site}/_sandbox/touch {"count": k}` that changes k listings for incremental tests."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ..listing_world import Catalog, Catalogs
from .base import Service, json_response


class CatalogService(Service):
    site_kind = "site"  # in the 404's reason: "No WordPress site 'x'"
    site_aliases: dict[str, str] = {}  # a site name served by another's catalogue

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.catalogs = Catalogs()

    def state(self) -> Any:
        return self.catalogs.state()

    def reset_state(self) -> None:
        self.catalogs.reset()

    def _catalog(self, request: web.Request) -> Catalog:
        site = request.match_info["site"]
        found = self.catalogs.get(self.site_aliases.get(site, site))
        if found is None:
            raise web.HTTPNotFound(reason=f"No {self.site_kind} {site!r}")
        return found

    async def touch(self, request: web.Request) -> web.Response:
        body = await self.read_json(request)
        return json_response({"changed": self._catalog(request).touch(int(body.get("count", 1)))})

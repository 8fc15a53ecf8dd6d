"""A host of POI extracts as GeoJSON FeatureCollections (RFC 7946).

    GET /geojson/{site}.geojson              OpenStreetMap-style: id "node/123", tags as properties
    GET /geojson/{site}-overture.geojson     Overture-style: names.primary, categories, addresses[]

Served as application/geo+json. On the "defects" site a feature has "geometry": null; one
listing in three is a building (a Polygon) rather than a point, on every site; OSM-style features
of odd-numbered listings carry an `image` tag (a photo on the sandbox's image host)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ..listing_world import Catalogs, Listing
from .base import Service, json_response
from .images import ImagesService

OSM_TAGS = {"hotel": ("tourism", "hotel"), "inn": ("tourism", "guest_house"), "campground": ("tourism", "camp_site"),
            "restaurant": ("amenity", "restaurant"), "cafe": ("amenity", "cafe"), "museum": ("tourism", "museum"),
            "tour": ("tourism", "attraction"), "shop": ("shop", "gift")}


class GeoJsonService(Service):
    name = "geojson"
    prefix = "/geojson"
    real_base_url = "https://{host}/{extract}.geojson"
    description = "POI extracts: /geojson/{site}.geojson (OSM tags), /geojson/{site}-overture.geojson"

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.catalogs = Catalogs()

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/{name}.geojson", self.extract)]

    def state(self) -> Any:
        return self.catalogs.state()

    def reset_state(self) -> None:
        self.catalogs.reset()

    async def extract(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        overture = name.endswith("-overture")
        catalog = self.catalogs.get(name.removesuffix("-overture"))
        if catalog is None:
            raise web.HTTPNotFound(reason=f"No extract {name!r}")
        photos = f"{self.ctx.root_url}{ImagesService.prefix}/photo"
        features = [_overture(x) if overture else _osm(x, photos) for x in catalog.listings]
        doc = {"type": "FeatureCollection", "features": features}
        return json_response(doc, content_type="application/geo+json")


def _geometry(x: Listing) -> dict[str, Any] | None:
    if x.no_geometry:
        return None
    if x.n % 3:
        return {"type": "Point", "coordinates": [x.lng, x.lat]}
    d = 0.0004  # a building's footprint around the point
    ring = [[x.lng - d, x.lat - d], [x.lng + d, x.lat - d], [x.lng + d, x.lat + d], [x.lng - d, x.lat + d],
            [x.lng - d, x.lat - d]]
    return {"type": "Polygon", "coordinates": [ring]}


def _osm(x: Listing, photos: str) -> dict[str, Any]:
    key, value = OSM_TAGS[x.kind]
    number, _, street = x.street.partition(" ")
    osm_id = f"{'way' if x.n % 3 == 0 else 'node'}/{9_000_000 + x.n}"
    tags = {"@id": osm_id, "name": x.name, key: value, "addr:housenumber": number, "addr:street": street,
            "addr:city": x.city, "addr:province": x.province, "addr:postcode": x.postal, "phone": x.phone,
            "website": x.website, "email": x.email}
    if x.n % 2:  # as in OpenStreetMap, only some features have a photo
        tags["image"] = f"{photos}/{x.n}.jpg"
    return {"type": "Feature", "id": osm_id, "geometry": _geometry(x), "properties": tags}


def _overture(x: Listing) -> dict[str, Any]:
    fid = f"08f2{x.n:012x}"
    return {"type": "Feature", "id": fid, "geometry": _geometry(x),
            "properties": {"names": {"primary": x.name}, "categories": {"primary": x.kind, "alternate": [x.category.lower()]},
                           "addresses": [{"freeform": x.street, "locality": x.city, "postcode": x.postal,
                                          "region": x.province, "country": "CA"}],
                           "phones": [x.phone], "websites": [x.website], "confidence": 0.93}}

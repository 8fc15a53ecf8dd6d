"""Geocoding: the Google Geocoding API and Nominatim, answering from one deterministic function.

* `google_geocoding` (prefix /google-maps, real https://maps.googleapis.com):
  ``GET /maps/api/geocode/json?address=...&key=...[&components=country:CA]`` -> ``{"results": [...],
  "status": "OK"}``, with Google's statuses: ZERO_RESULTS, REQUEST_DENIED (no key or another key
  than `expect_api_key` set), INVALID_REQUEST (no address), and OVER_QUERY_LIMIT (HTTP 200, as
  Google answers) when the `rate_limit` knob is passed. Injected errors: 500 with UNKNOWN_ERROR.
* `nominatim` (prefix /nominatim, real https://nominatim.openstreetmap.org):
  ``GET /search?format=jsonv2&q=...[&countrycodes=ca&limit=1]`` -> a list of places (lat and lon
  as strings, place_rank 30 for a building, 16 for a town). A request with no User-Agent, or a
  library's stock one, gets 403 as the usage policy says; 429 past the `rate_limit` knob.

`locate(text)` is the world both read: an address with "nowhere" in it is unknown, one without a
house number is only its town (APPROXIMATE / place_rank 16), any other one is a building near its
town (known towns from the sample data, else a point drawn from the text inside the country).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .base import Service, json_response

TOWNS = {  # the sample DMOs' towns and the demo region's cities
    "charlottetown": (46.2382, -63.1311), "summerside": (46.3950, -63.7876), "souris": (46.3540, -62.2490),
    "cavendish": (46.4914, -63.3790), "montague": (46.1660, -62.6486), "stratford": (46.2167, -63.0893),
    "miami": (25.7617, -80.1918), "miami beach": (25.7907, -80.1300), "orlando": (28.5384, -81.3789),
    "key west": (24.5551, -81.7800),
}
BOXES = {"CA": (43.0, 53.0, -80.0, -60.0), "US": (25.0, 48.0, -122.0, -70.0)}
_STOCK_AGENTS = re.compile(r"^(python-httpx|python-requests|python-urllib|curl|wget|aiohttp|go-http-client)\b", re.I)


@dataclass(frozen=True)
class Located:
    lat: float
    lng: float
    building: bool  # False: only the town was found
    town: str
    text: str


def _unit(text: str, salt: str) -> float:
    return int.from_bytes(hashlib.sha256(f"{salt}|{text}".encode()).digest()[:8], "big") / 2**64


def locate(text: str, country: str | None = None) -> Located | None:
    """Where the sandbox world puts an address ("12 Water St, Charlottetown, PE C1A 4K3, CA")."""
    clean = " ".join(text.lower().replace(".", " ").split())
    if not clean or "nowhere" in clean:
        return None
    parts = [p.strip() for p in clean.split(",") if p.strip()]
    last = parts[-1].upper() if parts else ""
    country = (country or (last if len(last) == 2 and last.isalpha() else "")).upper()
    town = parts[1] if len(parts) > 1 else parts[0]
    if town in TOWNS:
        lat, lng = TOWNS[town]
    else:
        south, north, west, east = BOXES.get(country, (-50.0, 60.0, -170.0, 170.0))
        lat, lng = south + _unit(town, "lat") * (north - south), west + _unit(town, "lng") * (east - west)
    building = bool(re.match(r"^\d", parts[0]))
    if building:  # within about 3 km of the town's centre
        lat += (_unit(parts[0], "dlat") - 0.5) * 0.05
        lng += (_unit(parts[0], "dlng") - 0.5) * 0.05
    return Located(round(lat, 7), round(lng, 7), building, town, text)


def _place_id(located: Located) -> str:
    return "ChIJ" + hashlib.sha256(located.text.lower().encode()).hexdigest()[:23]


class GoogleGeocodingService(Service):
    name = "google_geocoding"
    prefix = "/google-maps"
    real_base_url = "https://maps.googleapis.com"
    description = "Google Geocoding API: GET /maps/api/geocode/json?address=...&key=..."

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/maps/api/geocode/json", self.geocode)]

    def _status(self, status: str, message: str | None = None, http: int = 200) -> web.Response:
        body: dict[str, Any] = {"results": [], "status": status}
        if message:
            body["error_message"] = message
        return json_response(body, http)

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        return {"error_message": message, "results": [], "status": "UNKNOWN_ERROR" if status >= 500 else "INVALID_REQUEST"}

    def rate_limited(self, retry_after_s: float, limit: int, window_s: float) -> web.Response:
        return self._status("OVER_QUERY_LIMIT", "You have exceeded your rate-limit for this API.")

    def injected_error(self, status: int) -> web.Response:
        return self._status("UNKNOWN_ERROR", "An unknown error occurred.", status)

    async def geocode(self, request: web.Request) -> web.Response:
        key = request.query.get("key", "").strip()
        if not key:
            return self._status("REQUEST_DENIED", "You must use an API key to authenticate each request to "
                                                  "Google Maps Platform APIs.")
        expected = self.ctx.api_keys.get(self.name)
        if expected is not None and key != expected:
            return self._status("REQUEST_DENIED", "The provided API key is invalid.")
        address = request.query.get("address", "").strip()
        if not address:
            return self._status("INVALID_REQUEST", "Invalid request. Missing the 'address', 'components', 'latlng' "
                                                   "or 'place_id' parameter.")
        components = dict(c.split(":", 1) for c in request.query.get("components", "").split("|") if ":" in c)
        located = locate(address, components.get("country"))
        if located is None:
            return self._status("ZERO_RESULTS")
        return json_response({"results": [self.result(located)], "status": "OK"})

    def result(self, located: Located) -> dict[str, Any]:
        viewport = {"northeast": {"lat": located.lat + 0.0013, "lng": located.lng + 0.0013},
                    "southwest": {"lat": located.lat - 0.0013, "lng": located.lng - 0.0013}}
        return {
            "address_components": [{"long_name": located.town.title(), "short_name": located.town.title(),
                                    "types": ["locality", "political"]}],
            "formatted_address": located.text,
            "geometry": {"location": {"lat": located.lat, "lng": located.lng},
                         "location_type": "ROOFTOP" if located.building else "APPROXIMATE", "viewport": viewport},
            "place_id": _place_id(located),
            "types": ["street_address"] if located.building else ["locality", "political"],
        }


class NominatimService(Service):
    name = "nominatim"
    prefix = "/nominatim"
    real_base_url = "https://nominatim.openstreetmap.org"
    description = "Nominatim: GET /search?format=jsonv2&q=..."

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/search", self.search), web.get("/status", self.status)]

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        return {"error": {"code": status, "message": message}}

    async def status(self, request: web.Request) -> web.Response:
        return json_response({"status": 0, "message": "OK", "data_updated": "2026-01-01T00:00:00+00:00"})

    async def search(self, request: web.Request) -> web.Response:
        agent = request.headers.get("User-Agent", "").strip()
        if not agent or _STOCK_AGENTS.match(agent):
            return self.error(403, "Access blocked: identify your application in the User-Agent (usage policy).")
        if request.query.get("format", "xml") not in ("json", "jsonv2"):
            return self.error(400, "Parameter 'format' must be one of: json, jsonv2 (the sandbox speaks no xml)")
        query = request.query.get("q", "").strip()
        if not query:
            return self.error(400, "Nothing to search for.")
        country = request.query.get("countrycodes", "").split(",")[0] or None
        located = locate(query, country)
        if located is None or request.query.get("limit") == "0":
            return json_response([])
        return json_response([self.place(located)])

    def place(self, located: Located) -> dict[str, Any]:
        number = int(_unit(located.text, "osm") * 10**9)
        rank = 30 if located.building else 16
        return {
            "place_id": number % 10**8, "licence": "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
            "osm_type": "way" if located.building else "relation", "osm_id": number,
            "lat": f"{located.lat:.7f}", "lon": f"{located.lng:.7f}",
            "category": "building" if located.building else "boundary", "type": "house" if located.building else "administrative",
            "place_rank": rank, "importance": 0.00001 if located.building else 0.45,
            "addresstype": "building" if located.building else "city", "name": "",
            "display_name": located.text,
            "boundingbox": [f"{located.lat - 0.0005:.7f}", f"{located.lat + 0.0005:.7f}",
                            f"{located.lng - 0.0005:.7f}", f"{located.lng + 0.0005:.7f}"],
        }

"""Serper (google.serper.dev): POST /places and POST /maps with the X-API-KEY header.

Request body: {"q": "hotels in Miami, Florida", "gl": "us", "hl": "en", "page": 1, "num": 10,
"location": "Miami, Florida, United States"} or, for /maps, {"q": ..., "ll": "@lat,lon,14z"}.
A JSON array of such objects is a batch and gets an array of results. Pages past the last
result have `"places": []`. A missing or wrong key gets 403 {"message": "Unauthorized.",
"statusCode": 403}, as the real API answers.
"""

from __future__ import annotations

import hashlib
import math
import re
from typing import Any

from aiohttp import web

from ..world import Place
from .base import BadRequest, Service, json_response

LODGING_WORDS = re.compile(r"\b(hotels?|motels?|inns?|resorts?|lodging|lodges?|accommodations?|bed and breakfasts?|"
                           r"b&b|hostels?|places to stay|suites|guest ?houses?)\b", re.I)
ATTRACTION_WORDS = re.compile(r"\b(attractions?|things to do|museums?|parks?|beach(es)?|landmarks?|sights?)\b", re.I)


def _km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p = math.pi / 180
    a = (math.sin((lat2 - lat1) * p / 2) ** 2
         + math.cos(lat1 * p) * math.cos(lat2 * p) * math.sin((lon2 - lon1) * p / 2) ** 2)
    return 12742 * math.asin(math.sqrt(a))


class SerperService(Service):
    name = "serper"
    prefix = "/serper"
    real_base_url = "https://google.serper.dev"
    description = "Serper Google Maps places: POST /places, POST /maps (X-API-KEY)"
    page_size = 10

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/places", self.places), web.post("/maps", self.maps),
                web.post("/search", self.search)]

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        if status in (401, 403):
            message = "Unauthorized."
        elif status == 429:
            message = "Too many requests"
        return {"message": message, "statusCode": status}

    def _auth(self, request: web.Request) -> web.Response | None:
        if self.check_key(request, "X-API-KEY") is None:
            return self.error(403, "Unauthorized.")
        return None

    async def _run(self, request: web.Request, kind: str) -> web.Response:
        denied = self._auth(request)
        if denied:
            return denied
        body = await self.read_json(request)
        if isinstance(body, list):
            return json_response([self.query(b, kind) for b in body])
        if not isinstance(body, dict):
            raise BadRequest("Body must be a JSON object or array")
        return json_response(self.query(body, kind))

    async def places(self, request: web.Request) -> web.Response:
        return await self._run(request, "places")

    async def maps(self, request: web.Request) -> web.Response:
        return await self._run(request, "maps")

    async def search(self, request: web.Request) -> web.Response:
        denied = self._auth(request)
        if denied:
            return denied
        body = await self.read_json(request)
        q = str((body or {}).get("q", ""))
        return json_response({"searchParameters": {"q": q, "type": "search", "engine": "google"},
                              "organic": [], "credits": 1})

    # ---- the search itself -----------------------------------------------------------------
    def matches(self, q: str, location: str | None, ll: tuple[float, float, float] | None) -> list[Place]:
        key = (q.lower(), (location or "").lower(), ll)
        cache: dict[Any, list[Place]] = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            if len(cache) > 10_000:
                cache.clear()
            cache[key] = self._matches(q, location, ll)
        return cache[key]

    def _matches(self, q: str, location: str | None, ll: tuple[float, float, float] | None) -> list[Place]:
        world = self.ctx.world
        city = world.find_city(location or "") or world.find_city(q)
        lodging = bool(LODGING_WORDS.search(q))
        attractions = bool(ATTRACTION_WORDS.search(q))
        out = []
        for p in world.places:
            if city is not None:
                if p.city != city.name and city.name not in p.also_in:
                    continue
            elif ll is not None:
                radius = 40000 / (2 ** ll[2]) * 3  # km visible around the centre at this zoom, roughly
                if _km(ll[0], ll[1], p.lat, p.lon) > max(radius, 2.0):
                    continue
            else:
                continue
            if lodging and p.kind == "attraction":
                continue
            if attractions and not lodging and p.kind != "attraction":
                continue
            out.append(p)
        # Google's order: relevance; here a stable order that depends on the query.
        out.sort(key=lambda p: hashlib.md5(f"{q.lower()}|{p.id}".encode()).hexdigest())
        return out

    def query(self, body: dict[str, Any], kind: str) -> dict[str, Any]:
        q = str(body.get("q") or "").strip()
        if not q:
            raise BadRequest("Missing query parameter: q")
        try:
            page = int(body.get("page") or 1)
            num = int(body.get("num") or self.page_size)
        except (TypeError, ValueError):
            raise BadRequest("page and num must be integers") from None
        if page < 1 or num < 1 or num > 100:
            raise BadRequest("Invalid page or num")
        ll = None
        if body.get("ll"):
            m = re.match(r"@?(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)(?:,(\d+(?:\.\d+)?)z)?", str(body["ll"]))
            if not m:
                raise BadRequest("Invalid ll, expected @lat,lon,zoomz")
            ll = (float(m.group(1)), float(m.group(2)), float(m.group(3) or 14))
        params: dict[str, Any] = {"q": q, "gl": body.get("gl", "us"), "hl": body.get("hl", "en"), "type": kind}
        if body.get("location"):
            params["location"] = body["location"]
        if ll:
            params["ll"] = body["ll"]
        if "num" in body:
            params["num"] = num
        params["page"] = page
        params["engine"] = "google"
        found = self.matches(q, body.get("location"), ll)
        start = (page - 1) * num
        chunk = found[start:start + num]
        places = [self.place_json(p, start + i + 1, kind) for i, p in enumerate(chunk)]
        out: dict[str, Any] = {"searchParameters": params}
        if kind == "maps" and ll:
            out["ll"] = body["ll"]
        out["places"] = places
        out["credits"] = 1 if kind == "places" else 3
        return out

    def place_json(self, p: Place, position: int, kind: str) -> dict[str, Any]:
        d: dict[str, Any] = {"position": position, "title": p.name, "address": p.address,
                             "latitude": p.lat, "longitude": p.lon}
        if kind == "maps":
            if p.rating is not None:
                d["rating"] = p.rating
                d["ratingCount"] = p.reviews
            d["type"] = p.category
            d["types"] = [p.category] + (["Hotel"] if p.kind == "hotel" and p.category != "Hotel" else [])
            if p.website:
                d["website"] = p.website
            if p.phone:
                d["phoneNumber"] = p.phone
            d["thumbnailUrl"] = f"https://lh5.googleusercontent.com/p/{p.place_id[4:]}=w80-h106-k-no"
            d["cid"], d["fid"], d["placeId"] = p.cid, p.fid, p.place_id
            return d
        d["thumbnailUrl"] = f"https://lh5.googleusercontent.com/p/{p.place_id[4:]}=w92-h92-n-k-no"
        if p.rating is not None:
            d["rating"] = p.rating
            d["ratingCount"] = p.reviews
        d["category"] = p.category
        if p.phone:
            d["phoneNumber"] = p.phone
        if p.website:
            d["website"] = p.website
        d["cid"] = p.cid
        return d

"""Serper (google.serper.dev): POST /places, POST /maps and POST /reviews with the X-API-KEY header.

Request body: {"q": "hotels in Miami, Florida", "gl": "us", "hl": "en", "page": 1, "num": 10,
"location": "Miami, Florida, United States"} or, for /maps, {"q": ..., "ll": "@lat,lon,14z"}.
A JSON array of such objects is a batch and gets an array of results. Pages past the last
result have `"places": []`. A missing or wrong key gets 403 {"message": "Unauthorized.",
"statusCode": 403}, as the real API answers.

One place by id: /maps or /places with {"placeId": ...}, {"cid": ...} or {"fid": ...} and no
"q" answers {"searchParameters", "places": [place]} (empty for an unknown id) with the details
the Google Maps layer reads: rating, ratingCount, priceLevel ("$".."$$$$"), openingHours
({"Monday": "Open 24 hours", ...}, Serper's field) and thumbnailUrl, all derived from a hash of
the place's id. Serper has no photo count; the sandbox serves `photosCount` (an integer) and
the client treats it as optional.

Reviews: /reviews with {"cid"|"placeId"|"fid", "sortBy"?: mostRelevant|newest|highestRating|
lowestRating, "nextPageToken"?} answers {"searchParameters", "reviews": [{"rating", "date",
"isoDate", "snippet", "likes", "user": {"name", "thumbnail", "link", "reviews", "photos"},
"response"?: {"date", "isoDate", "snippet"}, "id"}], "nextPageToken"?, "credits"} from the
hotel's owner truth (`owners.owner_truth(place).reviews`: replies signed in several styles).
Pages hold `reviews_page_size` reviews (3, smaller than Google's 10, so paging is exercised).
"""

from __future__ import annotations

import base64
import hashlib
import math
import re
from datetime import date
from typing import Any

from aiohttp import web

from ..owners import owner_truth
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
    description = "Serper Google Maps places and reviews: POST /places, POST /maps, POST /reviews (X-API-KEY)"
    page_size = 10
    reviews_page_size = 3

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/places", self.places), web.post("/maps", self.maps),
                web.post("/search", self.search), web.post("/reviews", self.reviews)]

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

    # ---- one place by id (Google Maps details), and its reviews -------------------------------
    def by_id(self, body: dict[str, Any], kind: str) -> dict[str, Any]:
        key, value = _id_of(body) or ("", "")
        place = _place_index(self).get(f"{key}:{value}")
        places = []
        if place is not None:
            places = [{**self.place_json(place, 1, "maps"), **place_details(place)}]
        params = {key: value, "gl": body.get("gl", "us"), "hl": body.get("hl", "en"), "type": kind, "engine": "google"}
        return {"searchParameters": params, "places": places, "credits": 1 if kind == "places" else 3}


    async def reviews(self, request: web.Request) -> web.Response:
        denied = self._auth(request)
        if denied:
            return denied
        body = await self.read_json(request)
        if not isinstance(body, dict):
            raise BadRequest("Body must be a JSON object")
        sort_by = str(body.get("sortBy") or "mostRelevant")
        if sort_by not in SORTS:
            raise BadRequest(f"Invalid sortBy, expected one of {', '.join(SORTS)}")
        ident = _id_of(body)
        if ident is None:
            raise BadRequest("Missing query parameter: cid, placeId or fid")
        place = _place_index(self).get(f"{ident[0]}:{ident[1]}")
        offset = 0
        if body.get("nextPageToken"):
            cid, token_sort, offset = _read_token(str(body["nextPageToken"]))
            if place is None or cid != place.cid or token_sort != sort_by:
                raise BadRequest("nextPageToken does not belong to this place and sort order")
        reviews = owner_truth(place).reviews if place is not None and place.kind == "hotel" else ()
        ordered = _sorted_reviews(reviews, sort_by)
        chunk = ordered[offset:offset + self.reviews_page_size]
        out: dict[str, Any] = {
            "searchParameters": {ident[0]: ident[1], "sortBy": sort_by, "gl": body.get("gl", "us"),
                                 "hl": body.get("hl", "en"), "type": "reviews", "engine": "google"},
            "reviews": [review_json(place, i, r) for i, r in chunk] if place is not None else [],
        }
        if place is not None and offset + self.reviews_page_size < len(ordered):
            out["nextPageToken"] = _page_token(place, sort_by, offset + self.reviews_page_size)
        out["credits"] = 1
        return json_response(out)

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
        if not q and _id_of(body):
            return self.by_id(body, kind)
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


# ---- one place by id, and its reviews -----------------------------------------------------------

SORTS = ("mostRelevant", "newest", "highestRating", "lowestRating")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_REFERENCE_DAY = date(2026, 6, 1)  # "today" for relative dates, fixed so answers never change


def _id_of(body: dict[str, Any]) -> tuple[str, str] | None:
    for key in ("placeId", "cid", "fid"):
        if body.get(key):
            return key, str(body[key]).strip()
    return None


def _digest(p: Place, what: str) -> int:
    return int(hashlib.sha256(f"{p.id}|{what}".encode()).hexdigest()[:12], 16)


def place_details(p: Place) -> dict[str, Any]:
    """Hours, price level and photo count of a place, derived from its id (hotels mostly 24 h)."""
    h = _digest(p, "gmaps")
    if p.kind == "hotel" and h % 5:
        hours = dict.fromkeys(_DAYS, "Open 24 hours")
    else:
        opens, closes = 6 + h % 4, 8 + (h >> 3) % 4
        hours = dict.fromkeys(_DAYS, f"{opens}\u202fAM\u2013{closes}\u202fPM")
    return {"priceLevel": "$" * (1 + (h >> 6) % 4), "openingHours": hours, "photosCount": 5 + (h >> 9) % 2000}


def _relative(iso: str) -> str:
    days = (_REFERENCE_DAY - date.fromisoformat(iso)).days
    if days < 31:
        return f"{max(days // 7, 1)} weeks ago" if days >= 7 else "a week ago"
    months = days // 30
    return "a month ago" if months == 1 else f"{months} months ago" if months < 12 else "a year ago"


def review_json(p: Place, index: int, review: Any) -> dict[str, Any]:
    rid = base64.urlsafe_b64encode(hashlib.sha256(f"{p.id}|review|{index}".encode()).digest()[:18]).decode()
    user = review.author
    d: dict[str, Any] = {
        "rating": review.rating, "date": _relative(review.date), "isoDate": f"{review.date}T14:00:00.000Z",
        "snippet": review.text, "likes": index % 3,
        "user": {"name": user, "thumbnail": f"https://lh3.googleusercontent.com/a/{rid[:12]}=s120-c-rp-mo-br100",
                 "link": f"https://www.google.com/maps/contrib/{_digest(p, user)}?hl=en-US", "reviews": 1 + index * 4,
                 "photos": index % 4},
        "id": f"Ci9DQUlRQUNvZENodHljRjlo{rid}",
    }
    if review.response:
        replied = date.fromisoformat(review.date).replace(day=20).isoformat()
        d["response"] = {"date": _relative(replied), "isoDate": f"{replied}T09:30:00.000Z", "snippet": review.response}
    return d


def _sorted_reviews(reviews: tuple[Any, ...], sort_by: str) -> list[tuple[int, Any]]:
    indexed = list(enumerate(reviews))
    if sort_by == "newest":
        indexed.sort(key=lambda t: t[1].date, reverse=True)
    elif sort_by == "highestRating":
        indexed.sort(key=lambda t: (-t[1].rating, t[0]))
    elif sort_by == "lowestRating":
        indexed.sort(key=lambda t: (t[1].rating, t[0]))
    return indexed


def _page_token(place: Place, sort_by: str, offset: int) -> str:
    return base64.urlsafe_b64encode(f"{place.cid}|{sort_by}|{offset}".encode()).decode().rstrip("=")


def _read_token(token: str) -> tuple[str, str, int]:
    try:
        cid, sort_by, offset = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode().split("|")
        return cid, sort_by, int(offset)
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("Invalid nextPageToken") from None


def _place_index(service: Any) -> dict[str, Place]:
    world = service.ctx.world
    cached = service.__dict__.get("_ids")
    if cached is None or cached[0] is not world:
        ids: dict[str, Place] = {}
        for p in world.places:
            ids[f"cid:{p.cid}"], ids[f"placeId:{p.place_id}"], ids[f"fid:{p.fid}"] = p, p, p
        cached = service.__dict__["_ids"] = (world, ids)
    return cached[1]

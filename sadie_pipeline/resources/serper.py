"""Serper (google.serper.dev): Google Maps places search for hotel discovery.

`SerperResource` posts to ``{base_url}/places`` with the ``X-API-KEY`` header through a
`ServiceGuard` (rate limit, concurrency, retries on 429/5xx/timeouts, Retry-After, breaker), and
pages a query until a page brings no new place. The API key (``api_key``; the definitions set it
from SERPER_API_KEY) is redacted from every error and stored response.

    serper = SerperResource(api_key="...")         # base_url: https://google.serper.dev
    if not serper.configured():
        ...                                        # the asset skips with a metadata message
    result = await serper.search_all_pages("hotels in Miami, Florida", max_pages=10)
    result.places                                  # deduplicated by cid / placeId
    for page in result.responses:                  # raw, redacted: for api-responses/serper/{date}/...
        store.put_bytes(raw_response_key(day, result.query, page["page"]), json.dumps(page).encode())
    serper.guard().metadata()                      # calls, attempts, retries, 429s, breaker state

    # one place (discovery stored its placeId or cid as hotels.google_place_id)
    ref = place_ref(hotel["google_place_id"])      # {"cid": "123..."} | {"place_id": "ChIJ..."}
    page = await serper.reviews(**ref)             # POST /reviews: {"reviews": [...], "nextPageToken"?}
    reviews = await serper.all_reviews(**ref, max_pages=3)
    place = await serper.place_details(**ref)      # POST /maps by id: rating, openingHours, ... or None
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

import httpx
from dagster import ConfigurableResource
from pydantic import Field, PrivateAttr

from sadie_pipeline.core.errors import redact
from sadie_pipeline.resources.reliability import PerLoop, ServiceGuard, ServicePolicy, SkipItem

API_KEY_ENV = "SERPER_API_KEY"
BASE_URL_ENV = "SADIE_SERPER_BASE_URL"
DEFAULT_BASE_URL = "https://google.serper.dev"
RAW_PREFIX = "api-responses/serper"



def place_key(place: dict[str, Any]) -> str:
    """Identity of a Serper place: its cid, else its placeId, else title + address."""
    for name in ("cid", "placeId", "fid"):
        value = place.get(name)
        if value:
            return f"{name}:{value}"
    return f"title:{str(place.get('title', '')).strip().lower()}|{str(place.get('address', '')).strip().lower()}"


def place_ref(google_place_id: str | None) -> dict[str, str]:
    """The keyword argument of `reviews` / `place_details` for a stored place id: a numeric cid,
    an ``0x..:0x..`` fid, else a placeId (``ChIJ...``, as ``place_id``). Empty for none."""
    value = (google_place_id or "").strip()
    if not value:
        return {}
    if value.isdigit():
        return {"cid": value}
    if re.fullmatch(r"0x[0-9a-fA-F]+:0x[0-9a-fA-F]+", value):
        return {"fid": value}
    return {"place_id": value}


def raw_response_key(day: date | str, query: str, page: int) -> str:
    """Object-store key of one raw Serper page: ``api-responses/serper/{YYYY-MM-DD}/{query-slug}-p{NN}.json``."""
    slug = re.sub(r"[^a-z0-9]+", "-", query.lower()).strip("-")[:120] or "query"
    return f"{RAW_PREFIX}/{day if isinstance(day, str) else day.isoformat()}/{slug}-p{page:02d}.json"


@dataclass
class SerperSearchResult:
    """All pages of one query: the places (first occurrence wins) and the raw pages.

    ``responses`` holds one dict per page requested: ``{"page", "request", "status",
    "fetched_at", "response"}``; the request body never carries the key and the whole dict has
    been through `redact`, so it can be stored as is.
    """

    query: str
    places: list[dict[str, Any]] = field(default_factory=list)
    responses: list[dict[str, Any]] = field(default_factory=list)
    pages_fetched: int = 0
    stop_reason: str = ""  # "no_new_places" | "max_pages"
    credits: int = 0


class _Session:
    """What one event loop needs: an httpx client and the guard (rebuilt for another loop or key)."""

    def __init__(self, api_key: str | None, base_url: str, policy: ServicePolicy) -> None:
        self.api_key, self.base_url = api_key, base_url
        self.guard = ServiceGuard(policy, secrets=(api_key,))
        timeout = httpx.Timeout(policy.timeout_s or 30.0, connect=10.0)
        limits = httpx.Limits(max_connections=policy.max_concurrency * 2, max_keepalive_connections=policy.max_concurrency)
        self.client = httpx.AsyncClient(base_url=base_url, timeout=timeout, limits=limits, trust_env=False)


class SerperResource(ConfigurableResource):
    """Serper places search (the definitions set ``api_key`` from SERPER_API_KEY and ``base_url``
    from SADIE_SERPER_BASE_URL). Without a key discovery skips Serper."""

    api_key: str | None = Field(default=None, description="None: not configured (discovery skips Serper)")
    base_url: str | None = Field(default=None, description=f"None: {DEFAULT_BASE_URL}")
    requests_per_minute: float = Field(default=30.0, gt=0, description="the account's limit (seed: 0.5 per second)")
    rate_headroom: float = Field(
        default=0.95, gt=0, le=1,
        description="share of requests_per_minute actually used, so network jitter never pushes us over the limit",
    )
    burst: int = Field(
        default=1, ge=1,
        description="calls allowed back to back (1 = evenly spaced). At high rates (tens per second) 2 absorbs "
        "the event loop's timer overshoot; keep it <= requests_per_minute * (1 - rate_headroom) per window",
    )
    max_concurrency: int = Field(default=2, ge=1)
    max_attempts: int = Field(default=3, ge=1)
    backoff_base_s: float = Field(default=0.5, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)
    backoff_jitter_s: float = Field(default=0.25, ge=0)
    timeout_s: float = Field(default=30.0, gt=0)
    failure_threshold: int = Field(default=5, ge=1)
    reset_timeout_s: float = Field(default=60.0, gt=0)
    max_retry_after_s: float = Field(default=120.0, ge=0)
    gl: str = "us"
    hl: str = "en"

    _sessions: PerLoop[_Session] = PrivateAttr(default_factory=PerLoop)

    # ---- settings ------------------------------------------------------------------------
    def resolved_api_key(self) -> str | None:
        return (self.api_key or "").strip() or None

    def resolved_base_url(self) -> str:
        return ((self.base_url or "").strip() or DEFAULT_BASE_URL).rstrip("/")

    def configured(self) -> bool:
        """True when an API key is available (the discovery asset skips Serper otherwise)."""
        return self.resolved_api_key() is not None

    def not_configured_message(self) -> str:
        return f"Serper skipped: no API key (set {API_KEY_ENV} or the resource's api_key)"

    def policy(self) -> ServicePolicy:
        return ServicePolicy(
            name="serper", requests_per_minute=self.requests_per_minute * self.rate_headroom, burst=self.burst,
            max_concurrency=self.max_concurrency, max_attempts=self.max_attempts,
            backoff_base_s=self.backoff_base_s, backoff_max_s=self.backoff_max_s,
            backoff_jitter_s=self.backoff_jitter_s, timeout_s=self.timeout_s,
            failure_threshold=self.failure_threshold, reset_timeout_s=self.reset_timeout_s,
            max_retry_after_s=self.max_retry_after_s,
        )

    def _current(self) -> _Session:
        key, base = self.resolved_api_key(), self.resolved_base_url()
        return self._sessions.get((key, base), lambda: _Session(key, base, self.policy()))

    def guard(self) -> ServiceGuard:
        """The guard of the current event loop (its `metadata()` goes into asset metadata)."""
        return self._current().guard

    def redact(self, text: Any) -> str:
        return redact(text, (self.resolved_api_key(),))

    async def aclose(self) -> None:
        if (s := self._sessions.pop()) is not None:
            await s.client.aclose()

    # ---- calls ---------------------------------------------------------------------------
    async def _post(self, path: str, body: dict[str, Any], item_key: str) -> dict[str, Any]:
        """One guarded POST; the answer must be a JSON object. Raises `SkipItem` without a key and
        `ServiceCallFailed` when the guard gives up (401/403: ``auth``, never retried)."""
        session = self._current()
        if session.api_key is None:
            raise SkipItem(self.not_configured_message())
        headers = {"X-API-KEY": session.api_key, "Content-Type": "application/json"}

        async def attempt() -> httpx.Response:
            return await session.client.post(path, json=body, headers=headers)

        response = await session.guard.call(attempt, item_key=item_key)
        data = response.json()
        if not isinstance(data, dict):
            raise ValueError(f"Serper answered a {type(data).__name__}, not an object")
        return data

    async def search_places(self, query: str, *, gl: str | None = None, page: int = 1,
                            location: str | None = None, num: int | None = None,
                            item_key: str | None = None) -> dict[str, Any]:
        """One page of ``POST /places``."""
        body = self._body(query, gl=gl, page=page, location=location, num=num)
        return await self._post("/places", body, item_key or f"{query}#p{page}")

    async def reviews(self, *, cid: str | None = None, place_id: str | None = None, fid: str | None = None,
                      sort_by: str | None = None, next_page_token: str | None = None,
                      item_key: str | None = None) -> dict[str, Any]:
        """One page of ``POST /reviews`` for a place (by cid, placeId or fid):
        ``{"reviews": [{"rating", "date", "isoDate", "snippet", "user", "response"?}], "nextPageToken"?}``."""
        body = self._place_body(cid=cid, place_id=place_id, fid=fid)
        if sort_by:
            body["sortBy"] = sort_by
        if next_page_token:
            body["nextPageToken"] = next_page_token
        return await self._post("/reviews", body, item_key or f"reviews:{next(iter(body.values()))}")

    async def all_reviews(self, *, cid: str | None = None, place_id: str | None = None, fid: str | None = None,
                          sort_by: str | None = None, max_pages: int = 3,
                          item_key: str | None = None) -> list[dict[str, Any]]:
        """The place's reviews over up to `max_pages` pages (following ``nextPageToken``)."""
        out: list[dict[str, Any]] = []
        token: str | None = None
        for _ in range(max_pages):
            page = await self.reviews(cid=cid, place_id=place_id, fid=fid, sort_by=sort_by,
                                      next_page_token=token, item_key=item_key)
            out += [r for r in page.get("reviews") or [] if isinstance(r, dict)]
            token = page.get("nextPageToken")
            if not token:
                break
        return out

    async def place_details(self, *, cid: str | None = None, place_id: str | None = None, fid: str | None = None,
                            item_key: str | None = None) -> dict[str, Any] | None:
        """The place as ``POST /maps`` answers it by id (rating, ratingCount, priceLevel,
        openingHours, ...), or None when Serper does not know the id."""
        body = {**self._place_body(cid=cid, place_id=place_id, fid=fid), "gl": self.gl, "hl": self.hl}
        data = await self._post("/maps", body, item_key or f"maps:{next(iter(body.values()))}")
        places = [p for p in data.get("places") or [] if isinstance(p, dict)]
        return places[0] if places else None

    @staticmethod
    def _place_body(*, cid: str | None, place_id: str | None, fid: str | None) -> dict[str, Any]:
        for name, value in (("placeId", place_id), ("cid", cid), ("fid", fid)):
            if value:
                return {name: value}
        raise ValueError("a place needs a cid, placeId or fid")

    async def search_all_pages(self, query: str, max_pages: int = 10, *, gl: str | None = None,
                               location: str | None = None, num: int | None = None) -> SerperSearchResult:
        """Pages 1..max_pages of a query, stopping at the first page that brings no new place
        (empty, or only places already seen, by cid/placeId). Places are deduplicated."""
        result = SerperSearchResult(query=query, stop_reason="max_pages")
        seen: set[str] = set()
        secrets = (self.resolved_api_key(),)
        for page in range(1, max_pages + 1):
            data = await self.search_places(query, gl=gl, page=page, location=location, num=num)
            result.pages_fetched += 1
            credits = data.get("credits")
            result.credits += credits if isinstance(credits, int) else 0
            raw = {"page": page, "request": self._body(query, gl=gl, page=page, location=location, num=num),
                   "status": 200, "fetched_at": datetime.now(UTC).isoformat(timespec="seconds"), "response": data}
            result.responses.append(json.loads(redact(json.dumps(raw, ensure_ascii=False), secrets)))
            new = 0
            for place in data.get("places") or []:
                if not isinstance(place, dict):
                    continue
                key = place_key(place)
                if key in seen:
                    continue
                seen.add(key)
                result.places.append(place)
                new += 1
            if new == 0:
                result.stop_reason = "no_new_places"
                break
        return result

    def _body(self, query: str, *, gl: str | None, page: int, location: str | None,
              num: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"q": query, "gl": gl or self.gl, "hl": self.hl, "page": page}
        if location:
            body["location"] = location
        if num:
            body["num"] = num
        return body

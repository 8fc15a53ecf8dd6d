"""Hotel websites: fetch (httpx, Chromium for pages that need JavaScript), strip to text, store;
and booking-engine detection from what was fetched: the home page, then the same-site booking
page the fetch followed; an uncatalogued third-party booking host sends the hotel to review."""

from __future__ import annotations

import asyncio
import gzip
import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any

import psycopg

from sadie_pipeline.core.booking.client_ids import client_id_of
from sadie_pipeline.core.booking_engines import UNKNOWN_TIER, PageAnalysis, analyze, load_catalogue
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.web import WebsiteFetcher, engine_found, fetch_and_detect


def _slug(text: str | None) -> str:
    return re.sub(r"[^a-z0-9]+", "-", (text or "unknown").lower()).strip("-") or "unknown"


def content_key(state: str | None, city: str | None, hotel_id: int, suffix: str = "txt") -> str:
    """website-content/{state}/{city}/{hotel_id}.txt (the seed's layout); the page and what the
    browser saw sit beside it as {hotel_id}.html.gz and {hotel_id}.fetch.json, and the booking
    page the fetch followed (when it showed the engine) as {hotel_id}.followed.html.gz."""
    return f"website-content/{_slug(state)}/{_slug(city)}/{hotel_id}.{suffix}"


@dataclass
class SiteOutcome:
    hotel_id: int
    city: str | None
    status: str               # fetched, rendered, dead, no_website
    reason: str | None = None
    text_key: str | None = None


@dataclass
class WebsitesResult:
    outcomes: list[SiteOutcome] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for o in self.outcomes:
            out[o.status] = out.get(o.status, 0) + 1
        return out


def hotels_to_fetch(conn: psycopg.Connection, region: str, cities: list[str], refresh: bool) -> list[tuple]:
    return conn.execute(
        """SELECT id, city, state, website FROM sadie_gtm.hotels
            WHERE region = %s AND lower(city) = ANY(%s) AND status = %s
              AND (%s OR website_content_s3_path IS NULL)
            ORDER BY id""",
        (region, [c.lower() for c in cities], HotelStatus.SCRAPED, refresh),
    ).fetchall()


async def fetch_sites(fetcher: WebsiteFetcher, store: ObjectStore, hotels: list[tuple]) -> WebsitesResult:
    result = WebsitesResult()

    async def one(hotel_id: int, city: str | None, state: str | None, website: str | None) -> SiteOutcome:
        if not website:
            return SiteOutcome(hotel_id, city, "no_website")
        url = website if "://" in website else f"http://{website}"
        site = await fetch_and_detect(fetcher, url)
        fetched = site.result
        meta = {"url": url, "final_url": fetched.final_url, "status": fetched.status, "via": fetched.via,
                "reason": fetched.reason, "error": fetched.error, "truncated": fetched.truncated,
                "request_urls": list(fetched.request_urls), "js_globals": list(fetched.js_globals),
                "cookies": [c.get("name") for c in fetched.cookies if isinstance(c, dict)],
                "followed_url": fetched.followed_url}
        store.put_bytes(content_key(state, city, hotel_id, "fetch.json"), json.dumps(meta).encode(), "application/json")
        if not fetched.ok:
            return SiteOutcome(hotel_id, city, "dead", fetched.reason)
        store.put_bytes(content_key(state, city, hotel_id, "html.gz"), gzip.compress(fetched.html.encode(), 1))
        if fetched.followed_html:
            store.put_bytes(content_key(state, city, hotel_id, "followed.html.gz"),
                            gzip.compress(fetched.followed_html.encode(), 1))
        key = content_key(state, city, hotel_id)
        store.put_bytes(key, site.text.encode(), "text/plain; charset=utf-8")
        return SiteOutcome(hotel_id, city, "rendered" if fetched.via == "browser" else "fetched", text_key=key)

    # lanes, not one task per hotel: a region's 10,000 sites are never all pending at once; twice
    # the fetches in flight, so lanes waiting for the browser leave the fetcher's slots used
    outcomes: list[SiteOutcome | None] = [None] * len(hotels)
    taken = iter(range(len(hotels)))

    async def lane() -> None:
        for index in taken:
            outcomes[index] = await one(*hotels[index])

    try:
        await asyncio.gather(*(lane() for _ in range(min(2 * fetcher.max_concurrency, len(hotels)))))
    finally:
        await fetcher.aclose()
    result.outcomes = [o for o in outcomes if o is not None]
    return result


def save_content_paths(conn: psycopg.Connection, store: ObjectStore, outcomes: list[SiteOutcome]) -> None:
    for o in outcomes:
        if o.text_key:
            conn.execute("UPDATE sadie_gtm.hotels SET website_content_s3_path = %s, updated_at = now() WHERE id = %s",
                         (store.uri(o.text_key), o.hotel_id))


# --- detection ---------------------------------------------------------------------------------

def seed_booking_engines(conn: psycopg.Connection) -> dict[str, int]:
    """The bundled catalogue into sadie_gtm.booking_engines (idempotent); name -> id."""
    for e in load_catalogue():
        # client_ids are compiled regexes: stored as their text
        signals = {k: [getattr(x, "pattern", x) for x in v] for k, v in asdict(e).items() if isinstance(v, tuple)}
        conn.execute(
            """INSERT INTO sadie_gtm.booking_engines (name, tier, category, signals) VALUES (%s, %s, %s, %s)
               ON CONFLICT (name) DO UPDATE SET tier = EXCLUDED.tier, category = EXCLUDED.category,
                                                signals = EXCLUDED.signals""",
            (e.name, e.tier, e.category, json.dumps(signals)),
        )
    return dict(conn.execute("SELECT name, id FROM sadie_gtm.booking_engines").fetchall())


@dataclass
class DetectionOutcome:
    hotel_id: int
    city: str | None
    engine: str | None
    tier: int | str | None        # 1, 2, or "unknown" for an uncatalogued booking host
    booking_url: str | None = None
    method: str | None = None
    confidence: float | None = None
    dead_end: str | None = None  # why there is no engine: no_website, dead site, none found
    unknown_host: str | None = None  # the uncatalogued booking host (tier "unknown")
    found_on_url: str | None = None  # the followed booking page it was found on (None: the home page)

    @property
    def status(self) -> HotelStatus:
        if self.engine:
            return HotelStatus.DETECTED
        return HotelStatus.ENGINE_REVIEW if self.unknown_host else HotelStatus.NO_BOOKING_ENGINE


def detect_hotel(store: ObjectStore, hotel_id: int, city: str | None, state: str | None,
                 website: str | None) -> DetectionOutcome:
    if not website:
        return DetectionOutcome(hotel_id, city, None, None, dead_end="no_website")
    meta_key = content_key(state, city, hotel_id, "fetch.json")
    if not store.exists(meta_key):
        return DetectionOutcome(hotel_id, city, None, None, dead_end="not_fetched")
    meta: dict[str, Any] = json.loads(store.get_bytes(meta_key))
    html_key = content_key(state, city, hotel_id, "html.gz")
    if not store.exists(html_key):
        return DetectionOutcome(hotel_id, city, None, None, dead_end=f"dead_site:{meta.get('reason')}")
    html = gzip.decompress(store.get_bytes(html_key)).decode("utf-8", "replace")
    pages = [(analyze(html, meta.get("final_url"), request_urls=meta.get("request_urls") or (),
                      cookies=meta.get("cookies") or (), js_globals=meta.get("js_globals") or ()), None)]
    followed_key = content_key(state, city, hotel_id, "followed.html.gz")
    if meta.get("followed_url") and store.exists(followed_key):
        followed = gzip.decompress(store.get_bytes(followed_key)).decode("utf-8", "replace")
        pages.append((analyze(followed, meta["followed_url"]), meta["followed_url"]))
    return judge_pages(hotel_id, city, pages)


def judge_pages(hotel_id: int, city: str | None,
                pages: list[tuple[PageAnalysis, str | None]]) -> DetectionOutcome:
    """A catalogued engine on any page (home first) wins; else an unknown booking host; else a
    dead end. `pages` pairs each analysis with the followed URL it came from (None: home)."""
    for page, found_on in pages:
        detections = [d for d in page.detections if engine_found([d])]
        if detections:
            best = detections[0]
            return DetectionOutcome(hotel_id, city, best.name, best.tier, best.booking_url, best.method,
                                    best.confidence, found_on_url=found_on)
    for page, found_on in pages:
        if page.unknown_engines:
            u = page.unknown_engines[0]
            return DetectionOutcome(hotel_id, city, None, UNKNOWN_TIER, u.booking_url, u.method, u.confidence,
                                    unknown_host=u.host, found_on_url=found_on)
    return DetectionOutcome(hotel_id, city, None, None, dead_end="no_engine_found")


def save_detections(conn: psycopg.Connection, engines: dict[str, int], outcomes: list[DetectionOutcome]) -> None:
    """Engines (catalogued or unknown) into hotel_booking_engines, with the client id of the booking
    URL (client_id_matches matches a row again when its engine or client id changed); status 1, 98
    (review) or 99."""
    for o in outcomes:
        if o.engine or o.unknown_host:
            client = client_id_of(o.booking_url, o.engine) if o.engine else None
            conn.execute(
                """INSERT INTO sadie_gtm.hotel_booking_engines (hotel_id, booking_engine_id, booking_url,
                                                                detection_method, confidence, unknown_host,
                                                                found_on_url, client_id)
                   VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
                   ON CONFLICT (hotel_id) DO UPDATE SET booking_engine_id = EXCLUDED.booking_engine_id,
                       booking_url = EXCLUDED.booking_url, detection_method = EXCLUDED.detection_method,
                       confidence = EXCLUDED.confidence, unknown_host = EXCLUDED.unknown_host,
                       found_on_url = EXCLUDED.found_on_url, detected_at = now(), client_id = EXCLUDED.client_id,
                       client_id_matched_at = CASE
                           WHEN (hotel_booking_engines.booking_engine_id, hotel_booking_engines.client_id)
                                IS NOT DISTINCT FROM (EXCLUDED.booking_engine_id, EXCLUDED.client_id)
                           THEN hotel_booking_engines.client_id_matched_at END""",
                (o.hotel_id, engines[o.engine] if o.engine else None, o.booking_url, o.method, o.confidence,
                 o.unknown_host, o.found_on_url, client.client_id if client and client.engine == o.engine else None),
            )
        if o.dead_end != "not_fetched":
            conn.execute("UPDATE sadie_gtm.hotels SET status = %s, updated_at = now() WHERE id = %s",
                         (o.status, o.hotel_id))


def unknown_engine_hosts(conn: psycopg.Connection, regions: list[str] | None = None) -> list[dict[str, Any]]:
    """Uncatalogued booking hosts of the hotels waiting for review, most hotels first: what the
    catalogue should learn next (with one booking URL as an example)."""
    rows = conn.execute(
        """SELECT hbe.unknown_host, count(*) AS hotels, min(hbe.booking_url) AS example
             FROM sadie_gtm.hotel_booking_engines hbe
             JOIN sadie_gtm.hotels h ON h.id = hbe.hotel_id
            WHERE hbe.unknown_host IS NOT NULL AND h.status = %s
              AND (%s::text[] IS NULL OR h.region = ANY(%s))
            GROUP BY hbe.unknown_host ORDER BY hotels DESC, hbe.unknown_host""",
        (HotelStatus.ENGINE_REVIEW, regions, regions),
    ).fetchall()
    return [{"host": host, "hotels": n, "example": example} for host, n, example in rows]

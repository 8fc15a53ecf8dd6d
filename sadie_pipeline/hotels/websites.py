"""Hotel websites: fetch (httpx, Chromium for pages that need JavaScript), strip to text, store;
and booking-engine detection from what was fetched."""

from __future__ import annotations

import asyncio
import gzip
import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any

import psycopg

from sadie_pipeline.core.booking_engines import analyze, load_catalogue
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.web import WebsiteFetcher, engine_found, fetch_and_detect


def _slug(text: str | None) -> str:
    return re.sub(r"[^a-z0-9]+", "-", (text or "unknown").lower()).strip("-") or "unknown"


def content_key(state: str | None, city: str | None, hotel_id: int, suffix: str = "txt") -> str:
    """website-content/{state}/{city}/{hotel_id}.txt (the seed's layout); the page and what the
    browser saw sit beside it as {hotel_id}.html.gz and {hotel_id}.fetch.json."""
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
        key = content_key(state, city, hotel_id)
        store.put_bytes(key, site.text.encode(), "text/plain; charset=utf-8")
        return SiteOutcome(hotel_id, city, "rendered" if fetched.via == "browser" else "fetched", text_key=key)

    try:
        result.outcomes = list(await asyncio.gather(*(one(*h) for h in hotels)))
    finally:
        await fetcher.aclose()
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
        signals = {k: list(v) for k, v in asdict(e).items() if isinstance(v, tuple)}
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
    tier: int | None
    booking_url: str | None = None
    method: str | None = None
    confidence: float | None = None
    dead_end: str | None = None  # why there is no engine: no_website, dead site, none found


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
    page = analyze(html, meta.get("final_url"), request_urls=meta.get("request_urls") or (),
                   cookies=meta.get("cookies") or (), js_globals=meta.get("js_globals") or ())
    detections = [d for d in page.detections if engine_found([d])]
    if not detections:
        return DetectionOutcome(hotel_id, city, None, None, dead_end="no_engine_found")
    best = detections[0]
    return DetectionOutcome(hotel_id, city, best.name, best.tier, best.booking_url, best.method, best.confidence)


def save_detections(conn: psycopg.Connection, engines: dict[str, int], outcomes: list[DetectionOutcome]) -> None:
    for o in outcomes:
        if o.engine:
            conn.execute(
                """INSERT INTO sadie_gtm.hotel_booking_engines (hotel_id, booking_engine_id, booking_url,
                                                                detection_method, confidence)
                   VALUES (%s, %s, %s, %s, %s)
                   ON CONFLICT (hotel_id) DO UPDATE SET booking_engine_id = EXCLUDED.booking_engine_id,
                       booking_url = EXCLUDED.booking_url, detection_method = EXCLUDED.detection_method,
                       confidence = EXCLUDED.confidence, detected_at = now()""",
                (o.hotel_id, engines[o.engine], o.booking_url, o.method, o.confidence),
            )
        if o.dead_end != "not_fetched":
            conn.execute("UPDATE sadie_gtm.hotels SET status = %s, updated_at = now() WHERE id = %s",
                         (HotelStatus.DETECTED if o.engine else HotelStatus.NO_BOOKING_ENGINE, o.hotel_id))

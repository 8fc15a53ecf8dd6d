"""The sandbox world's hotels written into a database as if discovery, resolution, the website
fetch and detection had run: detected tier-1 hotels with their homepage stored where
`hotel_websites` stores it. Benchmarks and tests of the enrichment layers start here without a
browser; the layers then speak to the sandbox's services as they would to the real ones."""

from __future__ import annotations

import gzip
from typing import Any

import httpx
import psycopg

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.websites import content_key, seed_booking_engines

from .world import Place

LIVE_SITES = ("ok", "js_only", "redirect_www")


def write_detected(db_url: str, hotels: list[Place], store: Any, proxy: str, region: str = "US-FL",
                   limit: int | None = None) -> list[tuple[int, Place]]:
    """The live hotels with a booking engine (the first `limit`) as detected tier-1 hotels of
    `region`, homepages fetched through the sandbox's proxy and stored; (hotel id, place) of each."""
    out = []
    with psycopg.connect(db_url) as conn, httpx.Client(proxy=proxy, timeout=10, trust_env=False) as web:
        seed_booking_engines(conn)
        # every hotel tier 1 (the owner layers run for tier 1 only): an engine the catalogue ranks
        # tier 2 is replaced by the first tier-1 one
        engines = dict(conn.execute("SELECT name, id FROM sadie_gtm.booking_engines WHERE tier = 1").fetchall())
        tier1 = min(engines.values())
        for place in hotels:
            if limit is not None and len(out) >= limit:
                break
            if not place.website or not place.engine or place.site not in LIVE_SITES:
                continue
            hotel_id = conn.execute(
                """INSERT INTO sadie_gtm.hotels (region, city, name, address, state, country, lat, lng, phone, website,
                                                 google_place_id, status)
                   VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id""",
                (region, place.city, place.name, place.address, place.state, place.country, place.lat, place.lon,
                 place.phone, place.website, place.place_id, HotelStatus.DETECTED)).fetchone()[0]
            conn.execute("INSERT INTO sadie_gtm.hotel_booking_engines (hotel_id, booking_engine_id) VALUES (%s, %s)",
                         (hotel_id, engines.get(place.engine.name, tier1)))
            page = web.get(place.serving_url or place.website, follow_redirects=True)
            store.put_bytes(content_key(place.state, place.city, hotel_id, "html.gz"), gzip.compress(page.content))
            out.append((hotel_id, place))
    return out

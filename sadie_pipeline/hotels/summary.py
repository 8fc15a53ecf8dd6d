"""Per-city figures of a region's hotel pipeline (the demo prints them; so can a person)."""

from __future__ import annotations

from typing import Any

import psycopg

from sadie_pipeline.core.enrichment.layers import layer_names
from sadie_pipeline.core.hotel_status import LAUNCHED, SCORED_OR_LATER, HotelStatus

CITY_SUMMARY = """
SELECT h.city,
       count(*) FILTER (WHERE h.status <> %(duplicate)s) AS hotels,
       (SELECT count(*) FROM sadie_gtm.hotel_sources s WHERE s.region = h.region AND s.city = h.city)
         - count(*) FILTER (WHERE h.status <> %(duplicate)s) AS merged_duplicates,
       count(*) FILTER (WHERE be.tier = 1) AS tier1,
       count(*) FILTER (WHERE be.tier = 2) AS tier2,
       count(*) FILTER (WHERE h.status = %(no_engine)s) AS dead_ends,
       count(*) FILTER (WHERE h.status = %(engine_review)s) AS engine_review,
       count(*) FILTER (WHERE h.status = %(enriched)s
                           OR h.status = ANY(%(scored_or_later)s) AND be.tier = 1) AS enriched,
       count(*) FILTER (WHERE h.status = ANY(%(scored_or_later)s)) AS scored,
       count(*) FILTER (WHERE h.status = ANY(%(launched)s)) AS launched,
       count(*) FILTER (WHERE h.status = %(exported)s) AS exported,
       bit_or(coalesce(e.layers_completed, 0)) AS layers,
       (SELECT count(*) FROM pipeline.dead_letters d JOIN sadie_gtm.hotels x ON d.item_key = 'hotel:' || x.id
         WHERE x.region = h.region AND x.city = h.city AND d.resolved_at IS NULL) AS dead_letters
  FROM sadie_gtm.hotels h
  LEFT JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  LEFT JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id
 WHERE h.region = %(region)s
 GROUP BY h.region, h.city ORDER BY h.city
"""


def city_summary(conn: psycopg.Connection, region: str) -> list[dict[str, Any]]:
    cur = conn.execute(CITY_SUMMARY, {
        "region": region, "duplicate": HotelStatus.DUPLICATE, "no_engine": HotelStatus.NO_BOOKING_ENGINE,
        "engine_review": HotelStatus.ENGINE_REVIEW,
        "enriched": HotelStatus.ENRICHED, "scored_or_later": list(SCORED_OR_LATER), "launched": list(LAUNCHED),
        "exported": HotelStatus.EXPORTED})
    names = [d.name for d in cur.description]
    rows = [dict(zip(names, r)) for r in cur.fetchall()]
    for row in rows:
        row["layers"] = layer_names(row["layers"] or 0)
    return rows


REGIONS_PROGRESS = """
SELECT count(*) FILTER (WHERE status <> %(duplicate)s), count(*) FILTER (WHERE status = ANY(%(scored_or_later)s))
  FROM sadie_gtm.hotels WHERE region = ANY(%(regions)s)
"""


def hotels_progress(conn: psycopg.Connection, regions: list[str]) -> str:
    """The regions' hotels so far and how many have a score: "12 hotels, 4 scored" (a progress bar's)."""
    hotels, scored = conn.execute(REGIONS_PROGRESS, {
        "regions": regions, "duplicate": HotelStatus.DUPLICATE, "scored_or_later": list(SCORED_OR_LATER)}).fetchone()
    return f"{hotels} hotels, {scored} scored"


SOURCE_SUMMARY = """
SELECT s.source, count(*) AS records, count(DISTINCT s.hotel_id) AS hotels,
       count(DISTINCT s.hotel_id) FILTER (WHERE NOT EXISTS (
           SELECT 1 FROM sadie_gtm.hotel_sources o WHERE o.hotel_id = s.hotel_id AND o.source <> s.source)) AS only_here
  FROM sadie_gtm.hotel_sources s
 WHERE s.region = %(region)s
 GROUP BY s.source ORDER BY records DESC, s.source
"""


def source_summary(conn: psycopg.Connection, region: str) -> list[dict[str, Any]]:
    """Per discovery source: its records, the hotels they resolved to, and the hotels only it found."""
    cur = conn.execute(SOURCE_SUMMARY, {"region": region})
    names = [d.name for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]

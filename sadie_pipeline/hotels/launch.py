"""The daily launch (seed 000, Stage 5): scored hotels (status 4, SCORED) that meet the criteria go
live (status 5, LIVE); the others stay scored with their rejection reasons recorded on the hotel."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.rows import dict_row

from sadie_pipeline.core.golden import GOLDEN_FIELDS
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.core.launch import LaunchCriteria, launch_decision, launch_summary

_SCORED = """
SELECT h.id, h.score, be.tier, {golden}
  FROM sadie_gtm.hotels h
  JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN sadie_gtm.golden_hotels g ON g.hotel_id = h.id
 WHERE h.region = %(region)s AND h.status = %(scored)s
   AND (cardinality(%(cities)s::text[]) = 0 OR lower(h.city) = ANY(%(cities)s))
 ORDER BY h.id
"""


PREVIEW_ROWS = 50


@dataclass
class LaunchResult:
    launched: int = 0
    rejected: int = 0
    launched_preview: list[tuple[Any, ...]] = field(default_factory=list)   # (id, name, city, score)
    rejected_preview: list[tuple[Any, ...]] = field(default_factory=list)   # (id, name, city, score, reasons)
    summary: dict[str, Any] = field(default_factory=dict)

    def add(self, hotel: dict[str, Any], reasons: list[str]) -> None:
        if reasons:
            self.rejected += 1
            if len(self.rejected_preview) < PREVIEW_ROWS:
                self.rejected_preview.append((hotel["id"], hotel.get("name"), hotel.get("city"), hotel["score"],
                                              "; ".join(reasons)))
        else:
            self.launched += 1
            if len(self.launched_preview) < PREVIEW_ROWS:
                self.launched_preview.append((hotel["id"], hotel.get("name"), hotel.get("city"), hotel["score"]))


def decisions(conn: psycopg.Connection, region: str, criteria: LaunchCriteria, result: LaunchResult,
              cities: Sequence[str] = (), chunk: int = 5000) -> list[tuple[int, list[str]]]:
    """(hotel id, rejection reasons) of every scored hotel of the region, streamed in chunks."""
    golden = ", ".join(f"g.{name}" for name in GOLDEN_FIELDS if name not in ("tier", "score"))
    out = []
    with conn.cursor(name="scored_hotels", row_factory=dict_row) as cur:
        cur.execute(_SCORED.format(golden=golden),
                    {"region": region, "scored": HotelStatus.SCORED, "cities": [c.lower() for c in cities]})
        while rows := cur.fetchmany(chunk):
            for hotel in rows:
                reasons = launch_decision(hotel, criteria)
                result.add(hotel, reasons)
                out.append((hotel["id"], reasons))
    return out


def launch_region(conn: psycopg.Connection, region: str, criteria: LaunchCriteria, result: LaunchResult, *,
                  dry_run: bool = False, cities: Sequence[str] = ()) -> None:
    decided = decisions(conn, region, criteria, result, cities)
    summary = launch_summary(decided)
    for key, value in summary.items():
        if isinstance(value, dict):
            merged = result.summary.setdefault(key, {})
            for k, v in value.items():
                merged[k] = merged.get(k, 0) + v
        else:
            result.summary[key] = result.summary.get(key, 0) + value
    if dry_run:
        return
    passed = [hotel_id for hotel_id, reasons in decided if not reasons]
    conn.execute("""UPDATE sadie_gtm.hotels SET status = %s, launched_at = now(), launch_rejections = NULL,
                           updated_at = now()
                     WHERE id = ANY(%s) AND status = %s""", (HotelStatus.LIVE, passed, HotelStatus.SCORED))
    rejected = [{"id": hotel_id, "reasons": reasons} for hotel_id, reasons in decided if reasons]
    conn.execute("""UPDATE sadie_gtm.hotels h SET launch_rejections = r.reasons
                      FROM (SELECT x.id, ARRAY(SELECT jsonb_array_elements_text(x.reasons)) AS reasons
                              FROM jsonb_to_recordset(%s::jsonb) AS x(id integer, reasons jsonb)) r
                     WHERE h.id = r.id AND h.launch_rejections IS DISTINCT FROM r.reasons""",
                 (json.dumps(rejected),))

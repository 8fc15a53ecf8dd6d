"""Entity resolution of a region's discovery records into sadie_gtm.hotels (idempotent)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psycopg

from sadie_pipeline.core.entity_resolution import Resolution, SourceRecord, resolve
from sadie_pipeline.core.hotel_status import HotelStatus

# Which source's values a new hotel takes first (the others fill what it lacks).
SOURCE_PRIORITY = {"serper": 3, "dmo": 2, "csv": 1}
HOTEL_FIELDS = ("name", "address", "city", "state", "zip", "phone", "website", "lat", "lng", "google_place_id",
                "rating", "review_count")


@dataclass
class EntityResult:
    records: int = 0
    hotels_created: int = 0
    hotels_merged: int = 0
    review_pairs: int = 0
    entities: int = 0
    by_city: dict[str, dict[str, int]] = field(default_factory=dict)


def source_record(row: dict[str, Any]) -> SourceRecord:
    return SourceRecord(
        source=row["source"], external_id=row["external_id"], name=row.get("name"), address=row.get("address"),
        city=row.get("city"), state=row.get("state"), zip=row.get("zip"), phone=row.get("phone"),
        website=row.get("website"), lat=row.get("lat"), lng=row.get("lng"), place_id=row.get("google_place_id"),
    )


def resolve_region(conn: psycopg.Connection, region: str) -> EntityResult:
    rows = conn.execute(
        """SELECT id, source, external_id, hotel_id, record FROM sadie_gtm.hotel_sources
            WHERE region = %s ORDER BY id""", (region,)).fetchall()
    records = [dict(r[4], source=r[1], external_id=r[2]) for r in rows]
    resolution = resolve([source_record(r) for r in records])
    result = EntityResult(records=len(rows), entities=len(resolution.entities),
                          review_pairs=len(resolution.review_pairs))
    for entity in resolution.entities:
        members = [rows[i] for i in entity.members]
        existing = sorted({m[3] for m in members if m[3] is not None})
        if existing:
            hotel_id = existing[0]
            if len(existing) > 1:  # two hotels turned out to be one: keep the oldest
                conn.execute("UPDATE sadie_gtm.hotels SET status = %s, updated_at = now() WHERE id = ANY(%s)",
                             (HotelStatus.DUPLICATE, existing[1:]))
                result.hotels_merged += len(existing) - 1
        else:
            hotel_id = _create_hotel(conn, region, [records[i] for i in entity.members])
            result.hotels_created += 1
        conn.execute("UPDATE sadie_gtm.hotel_sources SET hotel_id = %s WHERE id = ANY(%s) AND hotel_id IS DISTINCT FROM %s",
                     (hotel_id, [m[0] for m in members], hotel_id))
        city = records[entity.members[0]].get("city") or ""
        stats = result.by_city.setdefault(city, {"discovered": 0, "merged_duplicates": 0})
        stats["discovered"] += 1
        stats["merged_duplicates"] += len(members) - 1
    _record_reviews(conn, rows, resolution)
    return result


def _create_hotel(conn: psycopg.Connection, region: str, members: list[dict[str, Any]]) -> int:
    ordered = sorted(members, key=lambda r: -SOURCE_PRIORITY.get(r["source"], 0))
    values = {f: next((m.get(f) for m in ordered if m.get(f) not in (None, "")), None) for f in HOTEL_FIELDS}
    return conn.execute(
        f"""INSERT INTO sadie_gtm.hotels (region, status, {', '.join(HOTEL_FIELDS)})
            VALUES (%s, %s, {', '.join(['%s'] * len(HOTEL_FIELDS))})
            ON CONFLICT (google_place_id) WHERE google_place_id IS NOT NULL DO UPDATE SET updated_at = now()
            RETURNING id""",
        (region, HotelStatus.SCRAPED, *(values[f] for f in HOTEL_FIELDS)),
    ).fetchone()[0]


def _record_reviews(conn: psycopg.Connection, rows: list[tuple], resolution: Resolution) -> None:
    for i, j, score in resolution.review_pairs:
        conn.execute(
            """INSERT INTO sadie_gtm.hotel_entity_reviews (source_id_a, source_id_b, score) VALUES (%s, %s, %s)
               ON CONFLICT (source_id_a, source_id_b) DO UPDATE SET score = EXCLUDED.score""",
            (rows[i][0], rows[j][0], score),
        )

"""`sadie hotel explain`: why a hotel's golden record holds each value, from field_provenance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from sadie_pipeline.core.golden import GOLDEN_FIELDS


def explain_hotel(conn: psycopg.Connection, hotel_id: int, fields: Sequence[str] = ()) -> list[str]:
    """Readable lines: the hotel, then for each field its golden value and every value the sources
    gave (winner first), with source, confidence, URL, extraction time and what superseded it."""
    hotel = conn.execute("""SELECT h.id, h.name, h.city, h.region, h.status, h.score, g.hotel_id IS NOT NULL
                              FROM sadie_gtm.hotels h LEFT JOIN sadie_gtm.golden_hotels g ON g.hotel_id = h.id
                             WHERE h.id = %s""", (hotel_id,)).fetchone()
    if hotel is None:
        raise LookupError(f"no hotel {hotel_id}")
    hid, name, city, region, status, score, has_golden = hotel
    lines = [f"hotel {hid}: {name} ({city}, {region}); status {status}; score {score if score is not None else '-'}"]
    if not has_golden:
        return [*lines, "no golden record yet (materialize golden_hotels for its region)"]
    golden = _golden(conn, hotel_id)
    rows = conn.execute(
        """SELECT field_name, field_value, source, confidence, source_url, extracted_at, superseded_at,
                  superseded_by, dm_id, id
             FROM sadie_gtm.field_provenance WHERE hotel_id = %s
            ORDER BY field_name, superseded_at NULLS FIRST, confidence DESC, id""", (hotel_id,)).fetchall()
    by_field: dict[str, list[tuple[Any, ...]]] = {}
    for row in rows:
        by_field.setdefault(row[0], []).append(row)
    wanted = [f for f in (fields or GOLDEN_FIELDS) if f in by_field or f in golden]
    for name in wanted:
        lines.append(f"{name} = {golden.get(name)!r}")
        for (_, value, source, conf, url, at, sup_at, sup_by, dm_id, pid) in by_field.get(name, []):
            mark = "  *" if sup_at is None else "   "
            where = f" from {url}" if url else ""
            person = f" (decision maker {dm_id})" if dm_id else ""
            when = f", extracted {at:%Y-%m-%d %H:%M}" if at else ""
            lost = f"; superseded {sup_at:%Y-%m-%d} by #{sup_by}" if sup_at else ""
            lines.append(f"{mark} #{pid} {value!r} by {source}{person}, confidence {conf:.2f}{where}{when}{lost}")
    return lines


def _golden(conn: psycopg.Connection, hotel_id: int) -> dict[str, Any]:
    cur = conn.execute("SELECT * FROM sadie_gtm.golden_hotels WHERE hotel_id = %s", (hotel_id,))
    names = [d.name for d in cur.description]
    return dict(zip(names, cur.fetchone()))

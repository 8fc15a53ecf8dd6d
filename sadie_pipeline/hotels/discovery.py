"""Discovery: a region's hotels from Serper places, DMO lodging listings and CSV hotel lists,
kept as source records (sadie_gtm.hotel_sources) with their source and external ids."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import orjson
import psycopg

from sadie_pipeline.core.categories import CategoryGroup
from sadie_pipeline.core.source_records import clean_source_record
from sadie_pipeline.hotels.queries import run, sql
from sadie_pipeline.listings.readers import iter_records
from sadie_pipeline.regions import REGION_NAMES, subdivision
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.serper import SerperResource, place_key, raw_response_key

LODGING = re.compile(r"\b(hotel|motel|inn|resort|lodg|b&b|bed (?:and|&) breakfast|hostel|suites|guest ?house|cottage)",
                     re.I)
NOT_LODGING = re.compile(r"rental agency|property management|real estate|travel agency", re.I)
_ZIP = re.compile(r"\b([A-Z]{2})\s+(\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)\b")
CSV_COLUMNS = ("name", "address", "city", "state", "zip", "phone", "website", "lat", "lng", "google_place_id")


def csv_inbox_prefix(region: str) -> str:
    return f"inbox/hotels/{region}/"


@dataclass
class DiscoveryResult:
    by_city: dict[str, dict[str, int]] = field(default_factory=dict)
    by_source: dict[str, int] = field(default_factory=dict)
    raw_keys: list[str] = field(default_factory=list)
    skipped_not_lodging: int = 0
    skipped_invalid: int = 0  # records without a usable name (core/source_records.py)
    serper_skipped: str | None = None
    failures: list[str] = field(default_factory=list)


def is_lodging(category: str | None, title: str | None) -> bool:
    text = f"{category or ''} {title or ''}"
    return bool(LODGING.search(text)) and not NOT_LODGING.search(category or "")


def serper_record(place: dict[str, Any], city: str, region: str) -> dict[str, Any]:
    """A Serper place as a discovery record (the query's city unless the address names one)."""
    address = place.get("address")
    parts = [p.strip() for p in (address or "").split(",")]
    zip_match = _ZIP.search(address or "")
    return {
        "name": place.get("title"), "address": parts[0] if parts else None,
        "city": parts[-2] if len(parts) >= 3 else city, "state": subdivision(region),
        "zip": zip_match.group(2) if zip_match else None, "phone": place.get("phoneNumber"),
        "website": place.get("website"), "lat": place.get("latitude"), "lng": place.get("longitude"),
        "google_place_id": place.get("placeId") or place.get("cid"), "rating": place.get("rating"),
        "review_count": place.get("ratingCount"), "category": place.get("category"), "query_city": city,
    }


async def discover_serper(serper: SerperResource, store: ObjectStore, region: str, cities: Sequence[str],
                          day: dt.date, result: DiscoveryResult) -> list[tuple[str, dict[str, Any], str]]:
    """(external_id, record, raw key) for every lodging place Serper lists in the cities."""
    state = REGION_NAMES[region]

    async def one_city(city: str) -> list[tuple[str, dict[str, Any], str]]:
        query = f"hotels in {city}, {state}"
        try:
            found = await serper.search_all_pages(query)
        except Exception as exc:  # recorded; the other cities go on
            result.failures.append(f"{city}: {serper.redact(exc)}")
            return []
        keys = []
        for raw in found.responses:
            key = raw_response_key(day, query, raw["page"])
            store.put_bytes(key, json.dumps(raw, ensure_ascii=False).encode(), "application/json")
            keys.append(key)
        result.raw_keys.extend(keys)
        out = []
        for place in found.places:
            if not is_lodging(place.get("category"), place.get("title")):
                result.skipped_not_lodging += 1
                continue
            out.append((place_key(place), serper_record(place, city, region), keys[0] if keys else None))
        return out

    try:
        return [r for rows in await asyncio.gather(*(one_city(c) for c in cities)) for r in rows]
    finally:
        await serper.aclose()


def dmo_lodging(conn: psycopg.Connection, region: str, cities: Sequence[str]) -> list[tuple[str, dict[str, Any], None]]:
    """Lodging listings promoted from DMOs in the region's cities: their category in the vocabulary's
    lodging group (core/categories.py), as staging mapped it."""
    rows = conn.execute(
        """SELECT l.id, l.name, l.category, loc.address1, loc.city, loc.state, loc.zip, loc.lat, loc.lng,
                  l.google_place_id,
                  (SELECT c.international_phone FROM public.listing_info li JOIN public.contact_info c
                      ON c.id = li.contact_info_id WHERE li.listing_id = l.id AND li.info_visible LIMIT 1),
                  (SELECT c.website_url FROM public.listing_info li JOIN public.contact_info c
                      ON c.id = li.contact_info_id WHERE li.listing_id = l.id AND li.info_visible LIMIT 1)
             FROM public.listings l JOIN public.locations loc ON loc.id = l.location_id
            WHERE l.listing_visible AND upper(loc.state) = %s AND lower(loc.city) = ANY(%s)
              AND split_part(l.category, '.', 1) = %s""",
        (subdivision(region), [c.lower() for c in cities], CategoryGroup.LODGING.value),
    ).fetchall()
    return [(f"listing:{lid}", {
        "name": name, "address": address, "city": city, "state": state, "zip": zip_code, "phone": phone,
        "website": website, "lat": float(lat) if lat is not None else None,
        "lng": float(lng) if lng is not None else None, "google_place_id": place_id, "category": category,
    }, None) for (lid, name, category, address, city, state, zip_code, lat, lng, place_id, phone, website) in rows]


def csv_hotels(store: ObjectStore, region: str, cities: Sequence[str]) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Hotel lists dropped under inbox/hotels/{region}/ (columns as CSV_COLUMNS), row by row: a
    list of 100,000 hotels streams into save_sources' COPY, never held."""
    wanted = {c.lower() for c in cities}
    for key in store.list_keys(csv_inbox_prefix(region)):
        with store.open_read(key) as fh:
            for row in iter_records(fh, key):
                record = {c: (row.get(c) or "").strip() or None for c in CSV_COLUMNS}
                if not record["name"] or (record["city"] or "").lower() not in wanted:
                    continue
                for coord in ("lat", "lng"):
                    try:
                        record[coord] = float(record[coord]) if record[coord] else None
                    except ValueError:
                        record[coord] = None
                ident = record["google_place_id"] or hashlib.sha1(
                    f"{record['name']}|{record['address']}|{record['city']}".lower().encode()).hexdigest()
                yield f"csv:{ident}", record, key


SourceRow = tuple[str, dict[str, Any], str | None]
_JSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY
_NUL = re.compile(r"(?<!\\)((?:\\\\)*)\\u0000")  # an escaped NUL, not an escaped backslash before "u0000"


def _record_json(record: dict[str, Any]) -> str:
    # NaN becomes null (json.dumps would write NaN, which jsonb refuses); jsonb refuses \u0000 too
    text = orjson.dumps(record, default=str, option=_JSON_OPTIONS).decode()
    return _NUL.sub(r"\1", text) if "\\u0000" in text else text


def _valid(rows: Iterable[SourceRow], result: DiscoveryResult) -> Iterator[SourceRow]:
    for external_id, record, raw_key in rows:
        cleaned = clean_source_record(record)
        if cleaned is None:
            result.skipped_invalid += 1
            continue
        yield external_id, cleaned, raw_key


def save_sources(conn: psycopg.Connection, region: str, source: str, rows: Iterable[SourceRow],
                 result: DiscoveryResult) -> None:
    """The rows (external_id, record, raw key) as hotel_sources rows of `source`: COPY into a
    temporary table, then one upsert (discovery.sql). `rows` may be any iterable, a generator of
    millions included: it is streamed, never held. Counts go on `result` per row given."""
    counted = 0
    by_city = result.by_city
    rows = _valid(rows, result)
    first = next(rows, None)
    if first is not None:
        # in the caller's transaction (all of it or nothing, as before); its own when autocommit
        with conn.transaction() if conn.autocommit else nullcontext():
            run(conn, "discovery", "staging")
            with conn.cursor().copy(sql("discovery", "copy_staging")) as copy:
                for external_id, record, raw_key in chain((first,), rows):
                    copy.write_row((region, record.get("city"), external_id, _record_json(record), raw_key))
                    city = record.get("query_city") or record.get("city") or ""
                    stats = by_city.get(city)
                    if stats is None:
                        stats = by_city[city] = {}
                    stats[source] = stats.get(source, 0) + 1
                    counted += 1
            run(conn, "discovery", "upsert_staged", {"source": source})
    result.by_source[source] = result.by_source.get(source, 0) + counted

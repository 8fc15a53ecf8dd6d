"""Entity resolution of a region's discovery records into sadie_gtm.hotels (idempotent), with
people's decisions on earlier review pairs (entity_reviews.py) applied first. A record carries its
booking engine and client id (an engine's client page says them; otherwise its hotel's detection
may have found them), for the exact stages; every merge is kept in hotel_merges with its stage."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psycopg

from sadie_pipeline.code_versions import code_version
from sadie_pipeline.core.entity_resolution import REVIEW_THRESHOLD, Resolution, SourceRecord, resolve
from sadie_pipeline.core.entity_stages import MergeStage, engine_key
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels import entity_reviews
from sadie_pipeline.hotels.entity_reviews import Decisions
from sadie_pipeline.hotels.queries import SQL_DIR, sql

# hotel_entities' code_version: this module's import closure (the place engine, people's decisions,
# how entities become hotels) and its SQL. Each region stores the version it was resolved with; a
# region resolved by another one is resolved again (resolver_release.py).
RESOLVER_VERSION = code_version("sadie_pipeline.hotels.entities",
                                data=[SQL_DIR / "entities.sql", SQL_DIR / "entity_reviews.sql"])

# Which source's values a new hotel takes first (the others fill what it lacks).
SOURCE_PRIORITY = {"serper": 3, "dmo": 2, "csv": 1}
HOTEL_FIELDS = ("name", "address", "city", "state", "zip", "phone", "website", "lat", "lng", "google_place_id",
                "rating", "review_count")


@dataclass
class EntityResult:
    records: int = 0
    hotels_created: int = 0
    hotels_merged: int = 0
    hotels_split: int = 0  # records a reject decision took out of a hotel they shared: a new hotel
    review_pairs: int = 0
    entities: int = 0
    decisions_applied: int = 0
    decisions_refused: int = 0  # merge decisions a reject decision on the same hotels outweighed
    pending_reviews: int = 0
    by_city: dict[str, dict[str, int]] = field(default_factory=dict)
    merges_by_stage: dict[str, int] = field(default_factory=dict)  # this run's unions (records) by stage
    new_merges_by_stage: dict[str, int] = field(default_factory=dict)  # of them, first recorded now


def source_record(row: dict[str, Any]) -> SourceRecord:
    return SourceRecord(
        source=row["source"], external_id=row["external_id"], name=row.get("name"), address=row.get("address"),
        city=row.get("city"), state=row.get("state"), zip=row.get("zip"), phone=row.get("phone"),
        website=row.get("website"), lat=row.get("lat"), lng=row.get("lng"), place_id=row.get("google_place_id"),
        engine=row.get("booking_engine"), client_id=row.get("client_id"),
    )


def with_detection(record: dict[str, Any], engine: str | None, client_id: str | None) -> dict[str, Any]:
    """The record with the engine and client id its hotel's detection found, unless it knows its
    own (an engine's client page) or names another engine."""
    own = record.get("booking_engine")
    if not engine or record.get("client_id") or (own and engine_key(own) != engine_key(engine)):
        return record
    return dict(record, booking_engine=own or engine, client_id=client_id)


def resolve_region(conn: psycopg.Connection, region: str, merge_threshold: float = 0.8,
                   review_threshold: float = REVIEW_THRESHOLD) -> EntityResult:
    rows = conn.execute(sql("entities", "sources_of_region"), {"region": region}).fetchall()
    records = [with_detection(dict(r[4], source=r[1], external_id=r[2]), r[5], r[6]) for r in rows]
    decisions = entity_reviews.region_decisions(conn, region, [r[0] for r in rows])
    resolution = resolve([source_record(r) for r in records], merge_threshold, review_threshold,
                         must_link=decisions.must_link, cannot_link=decisions.cannot_link)
    refused = sum(1 for i, j in decisions.must_link if resolution.entity_of[i] != resolution.entity_of[j])
    result = EntityResult(records=len(rows), entities=len(resolution.entities),
                          review_pairs=len(resolution.review_pairs),
                          decisions_applied=len(decisions) - refused, decisions_refused=refused)
    hotel_of = _assign_hotels(conn, region, rows, records, resolution, decisions, result)
    _record_merges(conn, region, rows, records, resolution, hotel_of, result)
    entity_reviews.record_pairs(conn, region, [
        (rows[i][0], rows[j][0], score, resolution.explanations.get((i, j)))
        for i, j, score in resolution.review_pairs])
    result.pending_reviews = entity_reviews.pending_count(conn, region)
    conn.execute(sql("entities", "resolved_with"), {"region": region, "version": RESOLVER_VERSION})
    return result


def _assign_hotels(conn: psycopg.Connection, region: str, rows: list[tuple], records: list[dict[str, Any]],
                   resolution: Resolution, decisions: Decisions, result: EntityResult) -> list[int]:
    """Points each entity's records at one hotel: the oldest of the hotels they are attached to (the
    others become DUPLICATE), or a new one. Records that share a hotel but that the resolver now
    puts in two entities stay on it, unless a reject decision separates the two entities: then the
    later entity gets a new hotel (a hotel belongs to one side of a decision), unless it carries the
    kept hotel's Google place id (unique among hotels): then the two stay on that hotel."""
    entity_of = resolution.entity_of
    apart = {frozenset((entity_of[i], entity_of[j])) for i, j in decisions.cannot_link}
    owner: dict[int, int] = {}  # hotel -> the entity that took it in this run
    kept: dict[int, int] = {}   # hotel -> the hotel it went to (itself, or the one it duplicates)
    hotel_of: list[int] = []    # entity -> its hotel
    for e, entity in enumerate(resolution.entities):
        members = [rows[i] for i in entity.members]
        existing = {m[3] for m in members if m[3] is not None}
        usable = sorted({kept.get(h, h) for h in existing if frozenset((owner.get(h, e), e)) not in apart})
        if usable:
            hotel_id = usable[0]
            duplicates = [h for h in usable[1:] if h not in owner]  # not one another entity kept
            if duplicates:  # two hotels turned out to be one: keep the oldest
                mark_duplicates(conn, hotel_id, duplicates)
                result.hotels_merged += len(duplicates)
        else:
            hotel_id = _create_hotel(conn, region, [records[i] for i in entity.members])
            # a hotel's place id is unique: a split-off record with the kept hotel's id stays on it
            if hotel_id not in owner:
                result.hotels_created += 1
                result.hotels_split += bool(existing)
        for h in (*existing, *usable, hotel_id):
            owner.setdefault(h, e)
            kept.setdefault(h, hotel_id)
        conn.execute(sql("entities", "point_sources"), {"hotel": hotel_id, "ids": [m[0] for m in members]})
        hotel_of.append(hotel_id)
        city = records[entity.members[0]].get("city") or ""
        stats = result.by_city.setdefault(city, {"discovered": 0, "merged_duplicates": 0})
        stats["discovered"] += 1
        stats["merged_duplicates"] += len(members) - 1
    return hotel_of


def _record_merges(conn: psycopg.Connection, region: str, rows: list[tuple], records: list[dict[str, Any]],
                   resolution: Resolution, hotel_of: list[int], result: EntityResult) -> None:
    """This run's unions into hotel_merges with their stage (the engine and client id for the exact
    stages that used them); merges a person has undone since are dropped."""
    exact = (MergeStage.CLIENT_ID, MergeStage.NAME_CITY_ENGINE)
    cols: dict[str, list] = {k: [] for k in ("hotel", "a", "b", "stage", "engine", "client")}
    for i, j, stage in resolution.merged:
        rec = records[i]
        for key, value in (("hotel", hotel_of[resolution.entity_of[i]]), ("a", min(rows[i][0], rows[j][0])),
                           ("b", max(rows[i][0], rows[j][0])), ("stage", str(stage)),
                           ("engine", rec.get("booking_engine") if stage in exact else None),
                           ("client", (rec.get("client_id") or "").lower() or None
                            if stage == MergeStage.CLIENT_ID else None)):
            cols[key].append(value)
    written = conn.execute(sql("entities", "record_merges"), {"region": region, **cols}).fetchall()
    conn.execute(sql("entities", "drop_undone_merges"), {"region": region})
    result.merges_by_stage = {k: v for k, v in resolution.by_stage.items() if v}
    for (stage,) in written:
        result.new_merges_by_stage[stage] = result.new_merges_by_stage.get(stage, 0) + 1


# Before detection, or a dead end: a kept hotel there takes a duplicate's detected engine.
_BEFORE_ENGINE = (HotelStatus.SCRAPED, HotelStatus.ENGINE_REVIEW, HotelStatus.NO_BOOKING_ENGINE)


def mark_duplicates(conn: psycopg.Connection, kept: int, duplicates: list[int]) -> None:
    """`duplicates` become DUPLICATE of `kept`, which takes the engine one of them was detected with
    when it has none (the oldest hotel may be an engine client page's, without a website)."""
    conn.execute(sql("entities", "mark_duplicates"), {"status": HotelStatus.DUPLICATE, "ids": duplicates})
    if conn.execute(sql("entities", "adopt_detection"), {"kept": kept, "ids": duplicates}).fetchone():
        conn.execute(sql("entities", "adopt_status"), {"kept": kept, "ids": duplicates, "status": HotelStatus.DETECTED,
                                                       "before": list(_BEFORE_ENGINE)})


def _create_hotel(conn: psycopg.Connection, region: str, members: list[dict[str, Any]]) -> int:
    ordered = sorted(members, key=lambda r: -SOURCE_PRIORITY.get(r["source"], 0))
    values = {f: next((m.get(f) for m in ordered if m.get(f) not in (None, "")), None) for f in HOTEL_FIELDS}
    return conn.execute(sql("entities", "create_hotel"),
                        {**values, "region": region, "status": HotelStatus.SCRAPED}).fetchone()[0]

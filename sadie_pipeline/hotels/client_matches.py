"""client_id_matches: entity resolution's exact stages again, after detection, for the hotels whose
engine and client id became known since the last run (only those): stage 2 (the same engine and
client id, by another hotel's detection or by a source record such as an engine's client page) and
stage 3 (the same name, town and engine when nothing says two). The oldest hotel of each group is
kept, the others become DUPLICATE with their source rows pointed at it, and each merge is kept in
hotel_merges with its stage. Idempotent: a detection row is matched once (client_id_matched_at),
and again only when detection finds another engine or client id for it."""

from collections import defaultdict
from dataclasses import dataclass, field

import psycopg
from dagster import (
    AssetExecutionContext,
    MaterializeResult,
    MetadataValue,
    asset,
)
from psycopg.types.json import Jsonb

from sadie_pipeline.core.hotel_matches import HotelKeys, HotelMerge, MatchPlan, plan_matches
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.entities import mark_duplicates
from sadie_pipeline.hotels.queries import sql
from sadie_pipeline.metadata import markdown_table, report_partitions
from sadie_pipeline.resources.database import Database

__all__ = ["ClientMatchResult", "client_id_matches", "client_match_assets", "match_region"]


@dataclass
class ClientMatchResult:
    detected: int = 0  # hotels whose engine (and client id) detection found since the last run
    hotels_merged: int = 0  # hotels that became another's duplicate
    by_stage: dict[str, int] = field(default_factory=dict)
    to_review: int = 0  # same client id, two Google place ids: asked of a person
    preview: list[tuple] = field(default_factory=list)


def match_region(conn: psycopg.Connection, region: str) -> ClientMatchResult:
    params = {"region": region, "duplicate": HotelStatus.DUPLICATE}
    new = [r[0] for r in conn.execute(sql("client_matches", "unmatched"), params)]
    result = ClientMatchResult(detected=len(new))
    if not new:
        return result
    hotels, sources, keyed = _region_hotels(conn, params)
    separated = conn.execute(sql("client_matches", "separated"), params).fetchall()
    plan = plan_matches(hotels, new, separated)
    _apply(conn, region, plan, sources, keyed, result)
    # the kept hotels too: one may have taken its duplicate's detection, matched just now
    conn.execute(sql("client_matches", "matched"), {"ids": [*new, *plan.duplicates()]})
    return result


def _region_hotels(conn: psycopg.Connection, params: dict) -> tuple[list[HotelKeys], dict, dict]:
    """The region's hotels with their engines and client ids; hotel -> its source ids; (hotel,
    engine, client id) -> the source row that carries it."""
    clients: dict[int, list[tuple[str, str]]] = defaultdict(list)
    engines: dict[int, list[str]] = defaultdict(list)
    sources: dict[int, list[int]] = defaultdict(list)
    keyed: dict[tuple[int, str, str], int] = {}
    for hotel, source_id, engine, cid in conn.execute(sql("client_matches", "region_sources"), params):
        sources[hotel].append(source_id)
        if engine:
            engines[hotel].append(engine)
            if cid:
                clients[hotel].append((engine, cid))
                keyed.setdefault((hotel, engine.lower(), cid), source_id)
    hotels = []
    for hid, name, address, city, website, place_id, engine, cid in conn.execute(
            sql("client_matches", "region_hotels"), params):
        own = ([(engine, cid)] if engine and cid else []) + clients[hid]
        hotels.append(HotelKeys(hid, name, city, address, place_id, tuple(own),
                                tuple(([engine] if engine else []) + engines[hid]), website))
    return hotels, sources, keyed


def _apply(conn: psycopg.Connection, region: str, plan: MatchPlan, sources: dict, keyed: dict,
           result: ClientMatchResult) -> None:
    for kept, duplicates in plan.duplicates().items():
        mark_duplicates(conn, kept, duplicates)
        conn.execute(sql("client_matches", "point_sources"), {"kept": kept, "ids": duplicates})
        result.hotels_merged += len(duplicates)
    for m in plan.merges:
        a, b = _source_of(m.a, m, sources, keyed), _source_of(m.b, m, sources, keyed)
        if a is None or b is None:
            continue  # a hotel without source rows (not from discovery): nothing to point at
        conn.execute(sql("client_matches", "record_merge"), {
            "region": region, "kept": m.kept, "merged": m.b if m.a == m.kept else m.a, "a": min(a, b),
            "b": max(a, b), "stage": str(m.stage), "engine": m.engine, "client": m.client_id})
        result.by_stage[str(m.stage)] = result.by_stage.get(str(m.stage), 0) + 1
        result.preview.append((m.kept, m.b if m.a == m.kept else m.a, str(m.stage), m.engine, m.client_id or ""))
    for ha, hb, stage, why in plan.refused:
        a, b = (sources[ha] or [None])[0], (sources[hb] or [None])[0]
        if why == "two Google place ids" and a is not None and b is not None:
            conn.execute(sql("client_matches", "ask_person"), {"a": min(a, b), "b": max(a, b), "explanation": Jsonb({
                "stage": str(stage), "review": f"hotels {ha} and {hb}: the same engine and client id, but {why}"})})
            result.to_review += 1


def _source_of(hotel: int, m: HotelMerge, sources: dict, keyed: dict) -> int | None:
    """The hotel's source row that carries the merge's client id, else its first."""
    if m.client_id and (hit := keyed.get((hotel, m.engine.lower(), m.client_id))) is not None:
        return hit
    return sources[hotel][0] if sources.get(hotel) else None


@asset(**REGION_ASSET, deps=[booking_engine_detection], kinds={"postgres"})
def client_id_matches(context: AssetExecutionContext, database: Database) -> MaterializeResult:
    """Hotels found one after detection: a hotel whose booking engine and client id were detected
    since the last run is merged with every hotel (or source record, such as an engine's client
    page) of the same engine and client id (stage client_id), or of the same name, town and engine
    when nothing says two (stage name_city_engine). The oldest hotel is kept, the others become
    DUPLICATE (-3); people's reject decisions hold; same client id with two Google place ids goes
    to review. Each merge is in sadie_gtm.hotel_merges with its stage."""
    figures = {}
    for region in context.partition_keys:
        with database.connect() as conn:
            res = match_region(conn, region)
        figures[region] = {
            "detected_since_last_run": res.detected, "hotels_merged": res.hotels_merged,
            "merges_by_stage": MetadataValue.json(res.by_stage), "to_review": res.to_review,
            "preview": markdown_table(("kept hotel", "duplicate", "stage", "engine", "client id"), res.preview[:20]),
        }
    report_partitions(context, figures, {r: bool(f["detected_since_last_run"]) for r, f in figures.items()})
    return MaterializeResult()


client_match_assets = [client_id_matches]


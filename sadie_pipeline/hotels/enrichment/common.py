"""What every enrichment layer shares: which hotels need the layer, the idempotent write of its
results (seed 001: COALESCE for fields, OR for the bitmask, DISTINCT for sources, GREATEST for
confidence; force_refresh lets newer values win), dead letters and the status-3 (ENRICHED) rule."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import pandas as pd
import psycopg
from dagster import Config, MaterializeResult, MetadataValue
from psycopg.sql import SQL, Identifier

from sadie_pipeline.core.enrichment.layers import (
    ENRICHED_REQUIRED,
    LAYER_ABN_ASIC,
    LAYER_CC_CONTACTS,
    LAYER_CC_HARVEST,
    LAYER_CT_CERTS,
    LAYER_DNS,
    LAYER_EMAIL_VERIFY,
    LAYER_GMAPS_ENRICH,
    LAYER_GOV_DATA,
    LAYER_PROXIMITY,
    LAYER_RDAP,
    LAYER_RESEARCH,
    LAYER_REVIEWS,
    LAYER_ROOM_COUNT,
    LAYER_WEBSITE,
    LAYER_WHOIS,
    LAYER_WHOIS_HISTORY,
)
from sadie_pipeline.core.entity_resolution import website_parts
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.enrichment import pending
from sadie_pipeline.hotels.enrichment.pending import pending_chunk, pending_params, run_streamed
from sadie_pipeline.hotels.frames import layer_frame, layer_table, query_frame, region_table
from sadie_pipeline.hotels.queries import run, sql
from sadie_pipeline.metadata import report_partitions
from sadie_pipeline.resources.adaptive import concurrency_now, track_guards
from sadie_pipeline.resources.reliability import ItemOutcome, outcome_counts, record_dead_letters, run_items

T = TypeVar("T")
FLUSH_INTERVAL = 20  # seed 001: results persisted every 20 hotels
item_log = logging.getLogger("sadie_pipeline.enrichment.items")  # one JSON record per hotel and layer

# Columns a layer may write (the ON CONFLICT rule is the same for all of them).
ENRICHMENT_COLUMNS = (
    "room_count", "room_count_evidence", "room_count_source", "nearest_attraction", "nearest_attraction_km",
    "attractions_by_radius", "property_type", "chain_or_independent", "management_company", "amenities",
    "research_evidence", "registrant_org", "email_provider", "mx_hosts",
    # issue 31's layers (sql/0040_owner_layers.sql)
    "whois_server", "whois_registrant_org", "whois_privacy", "whois_history_date", "whois_history_org", "cert_orgs",
    "cert_sibling_domains", "cert_org_matches_whois", "licence_registry", "licence_number", "licensee_name",
    "licence_mailing_address", "abn", "abn_entity_name", "abn_trading_names", "abn_state", "abn_status",
    "review_replies", "cc_crawl", "cc_pages", "opening_hours", "price_level", "photos_count", "gmaps_rating",
    "gmaps_reviews",
)
_JSON_COLUMNS = {"attractions_by_radius", "research_evidence", "opening_hours"}

# layer bit -> the asset that runs it (the key of its time in layer_updated_at)
LAYER_ASSETS = {
    LAYER_RDAP: "rdap_owner", LAYER_DNS: "dns_email_provider", LAYER_WEBSITE: "website_contacts",
    LAYER_EMAIL_VERIFY: "email_verification", LAYER_ROOM_COUNT: "room_counts",
    LAYER_PROXIMITY: "attraction_proximity", LAYER_RESEARCH: "hotel_research",
    LAYER_WHOIS: "whois_owner", LAYER_WHOIS_HISTORY: "whois_history", LAYER_CT_CERTS: "certificate_orgs",
    LAYER_GOV_DATA: "licence_owners", LAYER_ABN_ASIC: "abn_asic", LAYER_REVIEWS: "review_responses",
    LAYER_CC_HARVEST: "cc_harvest", LAYER_CC_CONTACTS: "cc_contacts", LAYER_GMAPS_ENRICH: "gmaps_details",
}


class LayerConfig(Config):
    cities: list[str] = []
    """Only these cities of the region (default: all)."""
    force_refresh: bool = False
    """Run the layer again for hotels that already have it (newer values replace older ones)."""
    stale_after_days: int = 0
    """With force_refresh: only hotels whose layer last ran more than this many days ago (0: all)."""
    hotel_ids: list[int] = []
    """Only these hotels of the region (default: all), at any stage past detection: a person's
    re-run of the layer for one hotel from its page."""


def layer_asset(name: str) -> dict[str, Any]:
    """@asset arguments of a layer: its value, each hotel's latest outcome of the layer, per region
    in sadie_leads.{name} by the Postgres IO manager (the layer's findings themselves are merged
    into hotel_owner_enrichment in place, as every layer shares that row)."""
    return region_table(layer_table(name))


def _detail(outcome: ItemOutcome[Any]) -> str | None:
    return str(outcome.error_class) if outcome.status == "dead_letter" else outcome.reason


@dataclass
class LayerResult:
    layer: str
    outcomes: list[ItemOutcome[Any]] = field(default_factory=list)
    skipped_reason: str | None = None
    enriched: Counter = field(default_factory=Counter)  # per region: hotels that reached status 3 (ENRICHED)
    concurrency: dict[str, int | None] = field(default_factory=dict)  # guard -> its adaptive limit at the end
    regions: list[str] = field(default_factory=list)  # each outcome's region, in step with outcomes

    def add(self, region: str, outcomes: Sequence[ItemOutcome[Any]]) -> None:
        self.outcomes += outcomes
        self.regions += [region] * len(outcomes)

    def of_region(self, region: str) -> LayerResult:
        pairs = [(o, r) for o, r in zip(self.outcomes, self.regions) if r == region]
        return LayerResult(self.layer, [o for o, _ in pairs], self.skipped_reason,
                           Counter({region: self.enriched[region]}), self.concurrency, [r for _, r in pairs])

    def frame(self) -> pd.DataFrame:
        """The run's rows: one per hotel taken up (hotel, region, outcome, detail, attempts, value)."""
        rows = [(int(o.item_key.split(":", 1)[1]), region, self.layer, o.status, _detail(o), o.attempts,
                 o.value if o.status == "ok" else ({"last_error": o.last_error} if o.last_error else None))
                for o, region in zip(self.outcomes, self.regions)]
        return layer_frame(rows, layer_table(self.layer))

    def metadata(self) -> dict[str, Any]:
        counts = outcome_counts(self.outcomes) if self.outcomes else {}
        durations = [o.duration_ms for o in self.outcomes if o.duration_ms is not None]
        return {"layer": self.layer, "hotels": len(self.outcomes),
                **{k: MetadataValue.json(v) if isinstance(v, dict) else v for k, v in counts.items() if k != "items"},
                "skipped_reason": self.skipped_reason or "", "hotels_now_enriched": sum(self.enriched.values()),
                "contacts_found": sum(contacts_found(o.value) for o in self.outcomes if o.status == "ok"),
                "duration_ms_total": sum(durations),
                "duration_ms_mean": round(sum(durations) / len(durations)) if durations else 0,
                "concurrency_now": MetadataValue.json(dict(sorted(self.concurrency.items())))}

    def found_values(self) -> list[Any]:
        return [o.value for o in self.outcomes if o.status == "ok" and o.value]


def stored_layer_rows(conn: psycopg.Connection, layer: str, regions: Sequence[str]) -> pd.DataFrame:
    """The regions' rows of sadie_leads.{layer} as they stand (none before the layer's first run)."""
    table = layer_table(layer)
    if run(conn, "frames", "table_exists", {"table": f"{table.schema}.{table.name}"}).fetchone()[0] is None:
        return layer_frame([], table)
    query = SQL(sql("frames", "layer_rows")).format(table=Identifier(table.schema, table.name))
    return query_frame(conn, table, query, {"regions": list(regions)})


def layer_output(context: Any, database: Any, result: LayerResult,
                 figures: Callable[[list[Any]], dict[str, Any]] = lambda values: {}) -> MaterializeResult:
    """The layer's value and each region's metadata. The value is the regions' state: their stored
    rows with this run's outcomes merged in (a hotel's latest outcome replaces its earlier one),
    so a run that took up no hotel hands back the rows as they were. Each region's metadata says
    what this run did there (`figures` of its found values) and counts the region's rows."""
    with database.connect() as conn:
        stored = stored_layer_rows(conn, result.layer, context.partition_keys)
    ran = result.frame()
    frame = pd.concat([stored[~stored.hotel_id.isin(ran.hotel_id)], ran], ignore_index=True)
    frame = layer_frame(frame.sort_values(["region", "hotel_id"]).itertuples(index=False), layer_table(result.layer))
    by_region, did_work = {}, {}
    for region in context.partition_keys:
        done = result.of_region(region)
        by_region[region] = {**done.metadata(), **figures(done.found_values()),
                             "dagster/row_count": int((frame.region == region).sum())}
        did_work[region] = bool(done.outcomes)
    report_partitions(context, by_region, did_work)
    return MaterializeResult(value=frame)


def hotels_needing(conn: psycopg.Connection, region: str, layer_bit: int, config: LayerConfig,
                   tier: int = 1) -> list[dict[str, Any]]:
    """Detected hotels of the region on a tier-`tier` engine still missing the layer; with
    force_refresh also those that have it (only those older than stale_after_days when set); with
    hotel_ids only those hotels, at any stage past detection (a re-run from a hotel's page). All at
    once: the layers that need them so (enrich_regions streams them in chunks)."""
    return pending_chunk(conn, pending_params(region, layer_bit, LAYER_ASSETS.get(layer_bit, ""), config, tier=tier))


def explain_pending(conn: psycopg.Connection, region: str, layer_bit: int, config: LayerConfig) -> list[str]:
    """EXPLAIN of a layer's first pending chunk, as enrich_regions reads it."""
    return pending.explain_pending(conn, pending_params(region, layer_bit, LAYER_ASSETS.get(layer_bit, ""), config,
                                                       limit=pending.CHUNK_SIZE))


def save_layer(conn: psycopg.Connection, hotel_id: int, layer_bit: int, layer: str, values: dict[str, Any],
               source: str, confidence: float | None, force_refresh: bool) -> None:
    """One hotel's layer result, merged into hotel_owner_enrichment idempotently."""
    unknown = set(values) - set(ENRICHMENT_COLUMNS)
    if unknown:
        raise ValueError(f"not enrichment columns: {sorted(unknown)}")
    cols = list(values)
    params = [json.dumps(values[c]) if c in _JSON_COLUMNS and values[c] is not None else values[c] for c in cols]
    keep = "coalesce(EXCLUDED.{c}, t.{c})" if force_refresh else "coalesce(t.{c}, EXCLUDED.{c})"
    sets = "".join(f", {c} = {keep.format(c=c)}" for c in cols)
    conn.execute(
        f"""INSERT INTO sadie_gtm.hotel_owner_enrichment AS t
                (hotel_id, layers_completed, sources, confidence, layer_updated_at{''.join(', ' + c for c in cols)})
            VALUES (%s, %s, %s, %s, jsonb_build_object(%s::text, now()){''.join(', %s' for _ in cols)})
            ON CONFLICT (hotel_id) DO UPDATE SET
                layers_completed = t.layers_completed | EXCLUDED.layers_completed,
                sources = (SELECT array_agg(DISTINCT s ORDER BY s) FROM unnest(t.sources || EXCLUDED.sources) s),
                confidence = GREATEST(t.confidence, EXCLUDED.confidence),
                layer_updated_at = t.layer_updated_at || EXCLUDED.layer_updated_at,
                updated_at = now(){sets}""",
        (hotel_id, layer_bit, [source], confidence, layer, *params),
    )


def mark_enriched(conn: psycopg.Connection, region: str) -> int:
    """Tier-1 hotels at status 1 (DETECTED) whose required layers are all complete move to 3 (ENRICHED)."""
    return conn.execute(
        """UPDATE sadie_gtm.hotels h SET status = %s, updated_at = now()
             FROM sadie_gtm.hotel_owner_enrichment e
            WHERE e.hotel_id = h.id AND h.region = %s AND h.status = %s
              AND e.layers_completed & %s = %s""",
        (HotelStatus.ENRICHED, region, HotelStatus.DETECTED, ENRICHED_REQUIRED, ENRICHED_REQUIRED),
    ).rowcount


def run_layer(hotels: Sequence[dict[str, Any]], worker: Callable[[dict[str, Any]], Awaitable[T]], *,
              concurrency: int, secrets: Sequence[str | None] = (),
              close: Callable[[], Awaitable[None]] | None = None,
              on_outcome: Callable[[dict[str, Any], ItemOutcome[T]], Awaitable[None]] | None = None,
              ) -> list[ItemOutcome[T]]:
    """Runs worker over the hotels with bounded concurrency; every hotel comes back as ok,
    dead-lettered (with class and attempts) or skipped with a reason; none is lost."""
    async def main() -> list[ItemOutcome[T]]:
        try:
            outcomes = await run_items(hotels, worker, key=lambda h: f"hotel:{h['id']}", concurrency=concurrency,
                                       secrets=secrets, on_outcome=on_outcome)
            if isinstance(on_outcome, LayerFlush):
                await on_outcome.flush()
            return outcomes
        finally:
            if close is not None:
                await close()

    return asyncio.run(main())


def finish_layer(conn: psycopg.Connection, region: str, layer: str, layer_bit: int,
                 outcomes: Sequence[ItemOutcome[Any]], hotels: Sequence[dict[str, Any]],
                 save: Callable[[psycopg.Connection, dict[str, Any], Any], None]) -> int:
    """Writes the ok results, records the dead letters, and moves complete hotels to status 3 (ENRICHED)."""
    by_key = {f"hotel:{h['id']}": h for h in hotels}
    for outcome in outcomes:
        if outcome.status == "ok":
            save(conn, by_key[outcome.item_key], outcome.value)
    record_dead_letters(conn, layer, list(outcomes))
    return mark_enriched(conn, region)


def contacts_found(value: Any) -> int:
    """People a layer's value names (its ``people`` list), for the item log and the metadata."""
    return len(value.get("people") or []) if isinstance(value, dict) else 0


class LayerFlush:
    """Saves a layer's finished hotels in batches while the others still run (seed 001: flush
    every `FLUSH_INTERVAL` results), so a run killed halfway keeps what it finished and the next
    run takes up only the rest. Each hotel's outcome is logged as one structured record."""

    def __init__(self, database: Any, region: str, layer: str, layer_bit: int,
                 save: Callable[[psycopg.Connection, dict[str, Any], Any], None],
                 interval: int = FLUSH_INTERVAL) -> None:
        self.database, self.region, self.layer, self.layer_bit, self.save = database, region, layer, layer_bit, save
        self.interval = interval
        self.pending: list[tuple[dict[str, Any], ItemOutcome[Any]]] = []
        self.enriched = 0
        self.flushes = 0
        self._lock = asyncio.Lock()

    async def __call__(self, hotel: dict[str, Any], outcome: ItemOutcome[Any]) -> None:
        item_log.info(json.dumps({"hotel_id": hotel["id"], "layer": self.layer, "success": outcome.status == "ok",
                                  "status": outcome.status, "duration_ms": outcome.duration_ms,
                                  "contacts_found": contacts_found(outcome.value)}))
        self.pending.append((hotel, outcome))
        if len(self.pending) >= self.interval:
            await self.flush()

    async def flush(self) -> None:
        async with self._lock:
            batch, self.pending = self.pending, []
            if batch:
                self.enriched += await asyncio.to_thread(self._write, batch)
                self.flushes += 1

    def _write(self, batch: list[tuple[dict[str, Any], ItemOutcome[Any]]]) -> int:
        with self.database.connect() as conn:
            return finish_layer(conn, self.region, self.layer, self.layer_bit, [o for _, o in batch],
                                [h for h, _ in batch], self.save)


def enrich_regions(regions: Sequence[str], database: Any, result: LayerResult, layer_bit: int, config: LayerConfig,
                   worker_for: Callable[[str, list[dict[str, Any]]], Callable[[dict[str, Any]], Awaitable[Any]]],
                   save: Callable[[psycopg.Connection, dict[str, Any], Any], None], *, concurrency: int,
                   close: Callable[[], Awaitable[None]] | None = None, whole_region: bool = False) -> None:
    """A layer over the regions of a run: the hotels needing it streamed in chunks through a
    bounded queue (pending.py) to the worker (built per region and chunk: `worker_for(region,
    chunk)`), their results saved in batches as they finish (with dead letters and status),
    accumulated into `result`. `whole_region`: one chunk of all the region's hotels, for a layer
    whose worker needs them together (licences match every hotel at once)."""
    used = track_guards()
    for region in regions:
        flush = LayerFlush(database, region, result.layer, layer_bit, save)
        params = pending_params(region, layer_bit, LAYER_ASSETS.get(layer_bit, ""), config,
                                limit=None if whole_region else pending.CHUNK_SIZE)

        def read_chunk(after: int, params: dict[str, Any] = params) -> list[dict[str, Any]]:
            if whole_region and after:  # one read: hotels detected since are not in its matching
                return []
            with database.connect() as conn:
                return pending_chunk(conn, {**params, "after": after})

        stats = pending.QueueStats()
        outcomes = _run_streamed(read_chunk, partial(worker_for, region), concurrency, close, flush, stats)
        if not stats.hotels:  # status may still move (another layer completed the last required bit)
            with database.connect() as conn:
                flush.enriched += mark_enriched(conn, region)
        result.enriched[region] += flush.enriched
        result.add(region, outcomes)
    for name in used:  # per-host guards ("smtp:mx.example", "whois:whois.example") as one: the lowest
        service, now = name.split(":", 1)[0], concurrency_now(name)
        known = result.concurrency.get(service)
        result.concurrency[service] = now if known is None or now is None else min(known, now)


def _run_streamed(read_chunk: Callable[[int], list[dict[str, Any]]],
                  worker_for: Callable[[list[dict[str, Any]]], Callable[[dict[str, Any]], Awaitable[Any]]],
                  concurrency: int, close: Callable[[], Awaitable[None]] | None, flush: LayerFlush,
                  stats: pending.QueueStats) -> list[ItemOutcome[Any]]:
    """One region's streamed run in its own event loop (as run_layer), the last batch flushed."""
    async def main() -> list[ItemOutcome[Any]]:
        try:
            outcomes = await run_streamed(read_chunk, worker_for, concurrency=concurrency, on_outcome=flush,
                                          stats=stats)
            await flush.flush()
            return outcomes
        finally:
            if close is not None:
                await close()

    return asyncio.run(main())


def hotel_domain(hotel: dict[str, Any]) -> str | None:
    """The registrable domain of the hotel's website (None without a usable website)."""
    parts = website_parts(hotel.get("website"))
    return parts[0] if parts else None


def region_country(region: str) -> str:
    """The country code of a region partition key ("US-FL" -> "US")."""
    return region.split("-", 1)[0].upper() or "US"


class PerRun:
    """A lookup memoised per run (brand sites share a domain): one call per key, every caller
    gets its result or its error. run_layer runs each region in its own event loop, so the
    cache belongs to the loop."""

    def __init__(self, fn: Callable[[str], Awaitable[Any]]) -> None:
        self.fn = fn
        self.loop: asyncio.AbstractEventLoop | None = None
        self.cache: dict[str, asyncio.Future[Any]] = {}

    async def __call__(self, key: str) -> Any:
        loop = asyncio.get_running_loop()
        if self.loop is not loop:
            self.loop, self.cache = loop, {}
        if key not in self.cache:
            self.cache[key] = asyncio.ensure_future(self.fn(key))
        return await asyncio.shield(self.cache[key])

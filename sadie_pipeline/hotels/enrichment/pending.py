"""A layer's pending hotels streamed to its workers (seed 001 Phase 2: back-pressure, no unbounded
lists): a producer reads the region's pending hotels in keyset chunks (id order, sql/pending.sql,
served by the partial index of sql/0051) into a bounded queue; the layer's lanes take hotels one by
one across chunk boundaries. The producer waits while the queue is full, so a region of any size
holds at most `queue_chunks` chunks queued, one being read and one being worked on."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import psycopg

from sadie_pipeline.core.hotel_status import DETECTED_OR_ENRICHED, DETECTED_OR_LATER
from sadie_pipeline.hotels.queries import sql
from sadie_pipeline.resources.outcomes import ItemOutcome, run_items

T = TypeVar("T")
Hotel = dict[str, Any]
Worker = Callable[[Hotel], Awaitable[Any]]

CHUNK_SIZE = 500  # hotels a pending query reads at once
QUEUE_CHUNKS = 2  # chunks read ahead of the workers at most


def pending_params(region: str, layer_bit: int, layer: str, config: Any, *, tier: int = 1, after: int = 0,
                   limit: int | None = None) -> dict[str, Any]:
    """The parameters of sql/pending.sql's `layer_pending` for a layer's config (LayerConfig)."""
    return {"region": region, "statuses": list(DETECTED_OR_LATER if config.hotel_ids else DETECTED_OR_ENRICHED),
            "tier": tier, "ids": list(config.hotel_ids), "cities": [c.lower() for c in config.cities],
            "force": config.force_refresh, "bit": layer_bit, "stale": config.stale_after_days, "layer": layer,
            "after": after, "limit": limit}


def pending_chunk(conn: psycopg.Connection, params: dict[str, Any]) -> list[Hotel]:
    """The next pending hotels after params["after"]: windows of `limit` candidate ids read in id
    order from the partial index, until one holds hotels that need the layer or none is left
    (empty: the end). Never prepared: an unnamed statement is planned with its values, so the
    planner can prove the status list implies the index's predicate."""
    after = params["after"]
    while True:
        window = [r[0] for r in conn.execute(sql("pending", "pending_window"), {**params, "after": after},
                                             prepare=False)]
        if not window:
            return []
        rows = conn.execute(sql("pending", "layer_pending"), {**params, "window": window}, prepare=False)
        names = [d.name for d in rows.description]
        found = [dict(zip(names, r)) for r in rows.fetchall()]
        if found or params["limit"] is None:
            return found
        after = window[-1]


def explain_pending(conn: psycopg.Connection, params: dict[str, Any]) -> list[str]:
    """EXPLAIN of the first window's two queries as the layers send them."""
    window = [r[0] for r in conn.execute(sql("pending", "pending_window"), params, prepare=False)]
    out = []
    for name, values in (("pending_window", params), ("layer_pending", {**params, "window": window})):
        out += [f"{name}:"] + [r[0] for r in conn.execute("EXPLAIN " + sql("pending", name), values,
                                                          prepare=False).fetchall()]
    return out


def pending_chunks(database: Any, params: dict[str, Any]) -> Iterator[list[Hotel]]:
    """The pending hotels chunk by chunk (keyset on id), each read on its own short connection:
    no transaction stays open while the chunk is worked on."""
    after = 0
    while True:
        with database.connect() as conn:
            chunk = pending_chunk(conn, {**params, "after": after, "limit": params.get("limit") or CHUNK_SIZE})
        if not chunk:
            return
        yield chunk
        after = chunk[-1]["id"]


@dataclass
class QueueStats:
    """What the producer put through the queue; `most_queued` stays <= the queue's maxsize."""

    chunks: int = 0
    hotels: int = 0
    most_queued: int = 0


class _Feed:
    """The lanes' shared view of the queue: the next hotel of the current chunk (with the chunk's
    worker), the next chunk when it runs out, None at the end."""

    def __init__(self, queue: asyncio.Queue[tuple[list[Hotel], Worker] | None]) -> None:
        self.queue, self.current = queue, iter(())
        self.lock, self.ended, self.seq = asyncio.Lock(), False, 0

    async def next(self) -> tuple[int, Hotel, Worker] | None:
        async with self.lock:
            while True:
                item = next(self.current, None)
                if item is not None:
                    self.seq += 1
                    return (self.seq, *item)
                if self.ended:
                    return None
                got = await self.queue.get()
                if got is None:
                    self.ended = True
                    return None
                chunk, worker = got
                self.current = _pairs(chunk, worker)


def _pairs(chunk: list[Hotel], worker: Worker) -> Iterator[tuple[Hotel, Worker]]:
    for hotel in chunk:  # the chunk is released once its last hotel is taken
        yield hotel, worker


async def run_streamed(read_chunk: Callable[[int], list[Hotel]], worker_for: Callable[[list[Hotel]], Worker], *,
                       concurrency: int, queue_chunks: int = QUEUE_CHUNKS, secrets: Sequence[str | None] = (),
                       on_outcome: Callable[[Hotel, ItemOutcome[T]], Awaitable[None]] | None = None,
                       stats: QueueStats | None = None) -> list[ItemOutcome[T]]:
    """Every pending hotel through its chunk's worker, at most `concurrency` at once, each exactly
    once (ok, dead-lettered or skipped, as `run_items` says); the outcomes in id order.
    `read_chunk(after_id)` reads the next chunk (blocking I/O: run in a thread), `worker_for(chunk)`
    builds the chunk's worker (it may read what the chunk's hotels need)."""
    queue: asyncio.Queue[tuple[list[Hotel], Worker] | None] = asyncio.Queue(maxsize=queue_chunks)
    stats = stats if stats is not None else QueueStats()
    done: list[tuple[int, ItemOutcome[T]]] = []

    async def produce() -> None:
        after = 0
        while chunk := await asyncio.to_thread(read_chunk, after):
            after = chunk[-1]["id"]
            worker = await asyncio.to_thread(worker_for, chunk)
            stats.chunks, stats.hotels = stats.chunks + 1, stats.hotels + len(chunk)
            await queue.put((chunk, worker))  # waits while the queue is full: the back-pressure
            stats.most_queued = max(stats.most_queued, queue.qsize())
        await queue.put(None)

    async def lane(feed: _Feed) -> None:
        while (item := await feed.next()) is not None:
            seq, hotel, worker = item
            [outcome] = await run_items([hotel], worker, key=lambda h: f"hotel:{h['id']}", concurrency=1,
                                        secrets=secrets, on_outcome=on_outcome)
            done.append((seq, outcome))

    feed = _Feed(queue)
    async with asyncio.TaskGroup() as group:
        group.create_task(produce())
        for _ in range(max(1, concurrency)):
            group.create_task(lane(feed))
    return [o for _, o in sorted(done, key=lambda pair: pair[0])]

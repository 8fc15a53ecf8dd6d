"""Lead scores (seed 000, Stage 4): hotels that finished enrichment (status 3, ENRICHED), tier-2
hotels straight from detection (status 1, DETECTED), and already scored ones (status 4, SCORED,
re-scored) get a 0-100 score from `core.scoring`, its components in `score_details`, and status 4."""

from __future__ import annotations

import collections
import queue
import threading
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

import orjson
import psycopg

from sadie_pipeline.core.hotel_status import DETECTED_OR_ENRICHED, HotelStatus
from sadie_pipeline.core.scoring import LeadInput, ScoreWeights, score_leads

PREVIEW_ROWS = 10

_TO_SCORE = """
SELECT h.id, be.tier, g.room_count, g.rating, g.review_count, e.nearest_attraction_km,
       (e.attractions_by_radius ->> '5')::int, coalesce(g.filled_fields, 0), coalesce(g.total_fields, 0),
       coalesce(d.contacts, 0), coalesce(d.with_email, 0), coalesce(d.deliverable, 0), coalesce(d.verified, 0)
  FROM sadie_gtm.hotels h
  JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN sadie_gtm.golden_hotels g ON g.hotel_id = h.id
  LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id
  LEFT JOIN (SELECT hotel_id, count(*) AS contacts,
                    count(*) FILTER (WHERE email IS NOT NULL AND email_status IS DISTINCT FROM 'pattern_guess')
                      AS with_email,
                    count(*) FILTER (WHERE email_verified OR email_status = 'valid_domain') AS deliverable,
                    count(*) FILTER (WHERE email_verified) AS verified
               FROM sadie_gtm.hotel_decision_makers
              WHERE merged_into IS NULL
                AND hotel_id IN (SELECT id FROM sadie_gtm.hotels WHERE region = ANY(%(regions)s))
              GROUP BY hotel_id) d
         ON d.hotel_id = h.id
 WHERE h.region = ANY(%(regions)s)
   AND (h.status = ANY(%(enriched_or_scored)s) OR (h.status = %(detected)s AND be.tier = 2))
   AND (cardinality(%(cities)s::text[]) = 0 OR lower(h.city) = ANY(%(cities)s))
"""


@dataclass
class ScoreResult:
    scored: int = 0
    changed: int = 0  # hotels whose score, details or status changed
    histogram: Counter = field(default_factory=Counter)  # by band of 10
    preview: list[tuple[Any, ...]] = field(default_factory=list)
    total_score: int = 0

    @property
    def mean(self) -> float:
        return round(self.total_score / self.scored, 1) if self.scored else 0.0

    def add(self, hotel_id: int, score: int, components: str) -> None:
        self.scored += 1
        self.total_score += score
        self.histogram[min(score // 10 * 10, 90)] += 1
        if len(self.preview) < PREVIEW_ROWS:
            self.preview.append((hotel_id, score, components))


def _lead(r: Sequence[Any]) -> LeadInput:
    return LeadInput(hotel_id=r[0], tier=r[1], room_count=r[2], rating=float(r[3]) if r[3] is not None else None,
                     review_count=r[4], nearest_attraction_km=r[5], attractions_within_5km=r[6],
                     filled_fields=r[7], total_fields=r[8], contacts=r[9], contacts_with_email=r[10],
                     contacts_deliverable=r[11], contacts_verified=r[12])


_SAVE = """
WITH moved AS (
    UPDATE sadie_gtm.hotels h
       SET score = t.score, score_details = t.details, scored_at = now(), updated_at = now(),
           status = CASE WHEN h.status = ANY(%(unscored)s) THEN %(scored)s ELSE h.status END
      FROM tmp_scores t
     WHERE h.id = t.hotel_id
       AND (h.status = ANY(%(unscored)s)
            OR h.score IS DISTINCT FROM t.score OR h.score_details IS DISTINCT FROM t.details)
 RETURNING h.id)
SELECT count(*) FROM moved
"""
_SAVE_PARAMS = {"unscored": list(DETECTED_OR_ENRICHED), "scored": HotelStatus.SCORED}
_DONE = None


def _writer(conn: psycopg.Connection, chunks: queue.Queue, changed: list[int]) -> None:
    """Writes each chunk of scores (COPY of the block into a temp table, one UPDATE) as it comes;
    the database works on chunk n while the workers score the next ones."""
    conn.execute("CREATE TEMP TABLE tmp_scores (hotel_id integer, score integer, details jsonb) ON COMMIT DROP")
    while (block := chunks.get()) is not _DONE:
        with conn.cursor().copy("COPY tmp_scores FROM STDIN") as copy:
            copy.write(block)
        conn.execute("ANALYZE tmp_scores")  # else the planner guesses its size and scans all hotels per chunk
        changed[0] += conn.execute(_SAVE, _SAVE_PARAMS).fetchone()[0]
        conn.execute("TRUNCATE tmp_scores")


def _score_chunk(rows: Sequence[Sequence[Any]], weights: ScoreWeights) -> tuple[bytes, list[tuple[int, int, str]]]:
    """A chunk of input rows scored (in a worker): the chunk as COPY text (hotel id, score,
    details JSON) and (hotel id, score, components in short) per hotel."""
    lines, scored = [], []
    for hotel_id, score, details in score_leads([_lead(r) for r in rows], weights):
        # COPY text format: JSON never holds a raw tab or newline; its backslashes are doubled
        lines.append(b"%d\t%d\t%s\n" % (hotel_id, score, orjson.dumps(details).replace(b"\\", b"\\\\")))
        parts = "" if len(scored) >= PREVIEW_ROWS else ", ".join(
            f"{k} {v['points']:g}" for k, v in details.items() if isinstance(v, dict) and "points" in v)
        scored.append((hotel_id, score, parts))
    return b"".join(lines), scored


def score_regions(database: Any, regions: Sequence[str], weights: ScoreWeights, result: ScoreResult,
                  cities: Sequence[str] = (), *, actor: str = "lead_scores", chunk: int = 5000,
                  workers: int = 2) -> None:
    """Scores the regions' hotels in one pass: the inputs stream from one connection in chunks,
    `workers` forked processes score them, and a writer thread saves each chunk on another
    connection (score, details and status 4 = SCORED, one transaction for all chunks; launched and
    exported hotels keep their status; an unchanged score leaves its row untouched). The
    database writes chunk n while the workers score the next ones; memory stays at a few chunks."""
    params = {"regions": list(regions), "cities": [c.lower() for c in cities],
              "enriched_or_scored": [HotelStatus.ENRICHED, HotelStatus.SCORED], "detected": HotelStatus.DETECTED}
    with database.connect() as read, database.connect(actor=actor) as write:
        chunks: queue.Queue = queue.Queue(maxsize=2)
        changed = [0]
        errors: list[BaseException] = []

        def run_writer() -> None:
            try:
                _writer(write, chunks, changed)
            except BaseException as exc:  # re-raised by the scoring thread
                errors.append(exc)
                while chunks.get() is not _DONE:  # drain, so the producer never blocks
                    pass

        def save(chunk_result: tuple[bytes, list[tuple[int, int, str]]]) -> None:
            block, scored = chunk_result
            chunks.put(block)
            for hotel_id, score, parts in scored:
                result.add(hotel_id, score, parts)

        thread = threading.Thread(target=run_writer, name="score-writer")
        thread.start()
        # fork: the workers start at once with everything imported
        pool = ProcessPoolExecutor(workers, mp_context=get_context("fork")) if workers > 1 else None
        try:
            pending: collections.deque = collections.deque()
            with read.cursor(name="lead_inputs") as cur:
                cur.itersize = chunk
                cur.execute(_TO_SCORE, params)
                while (rows := cur.fetchmany(chunk)) and not errors:
                    if pool is None:
                        save(_score_chunk(rows, weights))
                        continue
                    pending.append(pool.submit(_score_chunk, rows, weights))
                    while len(pending) > workers:
                        save(pending.popleft().result())
            while pending and not errors:
                save(pending.popleft().result())
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)
            chunks.put(_DONE)
            thread.join()
        if errors:
            raise errors[0]
        result.changed += changed[0]

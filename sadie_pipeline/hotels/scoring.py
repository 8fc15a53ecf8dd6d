"""Lead scores (seed 000, Stage 4): hotels that finished enrichment (status 3), tier-2 hotels
straight from detection (status 1), and already scored ones (status 4, re-scored) get a 0-100
score from `core.scoring`, its components in `score_details`, and status 4."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
import psycopg

from sadie_pipeline.core.scoring import LeadInput, ScoreWeights, score_leads

SCORED_STATUS = 4

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
   AND (h.status IN (3, 4) OR (h.status = 1 AND be.tier = 2))
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

    def add(self, hotel_id: int, score: int, details: dict[str, Any]) -> None:
        self.scored += 1
        self.total_score += score
        self.histogram[min(score // 10 * 10, 90)] += 1
        if len(self.preview) < 10:
            parts = {k: v["points"] for k, v in details.items() if isinstance(v, dict) and "points" in v}
            self.preview.append((hotel_id, score, ", ".join(f"{k} {v:g}" for k, v in parts.items())))


def _lead(r: Sequence[Any]) -> LeadInput:
    return LeadInput(hotel_id=r[0], tier=r[1], room_count=r[2], rating=float(r[3]) if r[3] is not None else None,
                     review_count=r[4], nearest_attraction_km=r[5], attractions_within_5km=r[6],
                     filled_fields=r[7], total_fields=r[8], contacts=r[9], contacts_with_email=r[10],
                     contacts_deliverable=r[11], contacts_verified=r[12])


def lead_inputs(conn: psycopg.Connection, regions: Sequence[str], cities: Sequence[str] = ()) -> list[LeadInput]:
    rows = conn.execute(_TO_SCORE, {"regions": list(regions), "cities": [c.lower() for c in cities]}).fetchall()
    return [_lead(r) for r in rows]


_SAVE = """
WITH moved AS (
    UPDATE sadie_gtm.hotels h
       SET score = t.score, score_details = t.details, scored_at = now(), updated_at = now(),
           status = CASE WHEN h.status IN (1, 3) THEN %s ELSE h.status END
      FROM tmp_scores t
     WHERE h.id = t.hotel_id
       AND (h.score IS DISTINCT FROM t.score OR h.score_details IS DISTINCT FROM t.details OR h.status IN (1, 3))
 RETURNING h.id)
SELECT count(*) FROM moved
"""


def score_regions(database: Any, regions: Sequence[str], weights: ScoreWeights, result: ScoreResult,
                  cities: Sequence[str] = (), *, actor: str = "lead_scores", chunk: int = 5000) -> None:
    """Scores the regions' hotels in one pass: the inputs stream from one connection in chunks,
    the scores stream into a COPY on another (the database ingests while Python scores), then
    one UPDATE writes score, details and status 4 (launched and exported hotels keep theirs;
    an unchanged score leaves its row untouched). Memory stays at one chunk."""
    params = {"regions": list(regions), "cities": [c.lower() for c in cities]}
    with database.connect() as read, database.connect() as write:
        write.execute("SELECT set_config('sadie.actor', %s, true)", (actor,))
        write.execute("CREATE TEMP TABLE tmp_scores (hotel_id integer, score integer, details jsonb) ON COMMIT DROP")
        with read.cursor(name="lead_inputs") as cur, write.cursor().copy("COPY tmp_scores FROM STDIN") as copy:
            cur.itersize = chunk
            cur.execute(_TO_SCORE, params)
            while rows := cur.fetchmany(chunk):
                for hotel_id, score, details in score_leads([_lead(r) for r in rows], weights):
                    copy.write_row((hotel_id, score, orjson.dumps(details).decode()))
                    result.add(hotel_id, score, details)
        result.changed += write.execute(_SAVE, (SCORED_STATUS,)).fetchone()[0]

"""The daily launch (seed 000, Stage 5): scored hotels (status 4, SCORED) that meet the criteria go
live (status 5, LIVE); the others stay scored with their rejection reasons recorded on the hotel.
A salesperson's standing decision (core/lead_decisions.py) comes first: an approval launches the
hotel over the criteria (under an actor naming the approval, the reasons it overrode kept on the
decision), a rejection or a hold keeps it out with the person's reason recorded on the hotel."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.rows import dict_row

from sadie_pipeline.core.golden import GOLDEN_FIELDS
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.core.launch import LaunchCriteria, launch_decision, launch_summary
from sadie_pipeline.core.lead_decisions import LeadDecision, Verdict, launch_day, standing, verdict

_SCORED = """
SELECT h.id, h.score, be.tier, {golden},
       d.id AS decision_id, d.decision, d.reason AS decision_reason, d.decided_by, d.held_for
  FROM sadie_gtm.hotels h
  JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN sadie_gtm.golden_hotels g ON g.hotel_id = h.id
  LEFT JOIN LATERAL (SELECT x.id, x.decision, x.reason, x.decided_by, x.held_for
                       FROM sadie_gtm.lead_decisions x WHERE x.hotel_id = h.id
                      ORDER BY x.decided_at DESC, x.id DESC LIMIT 1) d ON true
 WHERE h.region = %(region)s AND h.status = %(scored)s
   AND (cardinality(%(cities)s::text[]) = 0 OR lower(h.city) = ANY(%(cities)s))
 ORDER BY h.id
"""


PREVIEW_ROWS = 50
_SALES_KIND = {Verdict.REJECT: "rejected by sales", Verdict.HOLD: "held by sales"}


@dataclass(frozen=True)
class Decided:
    """One scored hotel's outcome: the verdict, the reasons recorded on the hotel, and the sales
    decision behind it (its row id; the criteria's reasons an approval overrode)."""
    hotel_id: int
    verdict: Verdict
    reasons: list[str]
    decision_id: int | None = None
    overrode: list[str] = field(default_factory=list)


@dataclass
class LaunchResult:
    launched: int = 0
    rejected: int = 0
    held: int = 0
    approved_over_criteria: int = 0
    rejected_by_sales: int = 0
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


def decide(hotel: dict[str, Any], criteria: LaunchCriteria, day: dt.date) -> Decided:
    """The launch's outcome for one scored hotel row (_SCORED's columns) on the launch of `day`."""
    reasons = launch_decision(hotel, criteria)
    stands = standing(hotel.get("decision"), hotel.get("decision_reason"), hotel.get("decided_by"),
                      hotel.get("held_for"), day)
    chosen, recorded = verdict(reasons, stands)
    if stands is None:
        return Decided(hotel["id"], chosen, recorded)
    overrode = reasons if stands.decision is LeadDecision.APPROVED else []
    return Decided(hotel["id"], chosen, recorded, hotel["decision_id"], overrode)


def decisions(conn: psycopg.Connection, region: str, criteria: LaunchCriteria, result: LaunchResult,
              cities: Sequence[str] = (), chunk: int = 5000, day: dt.date | None = None) -> list[Decided]:
    """The outcome of every scored hotel of the region, streamed in chunks."""
    day = day or today()
    golden = ", ".join(f"g.{name}" for name in GOLDEN_FIELDS if name not in ("tier", "score"))
    out = []
    with conn.cursor(name="scored_hotels", row_factory=dict_row) as cur:
        cur.execute(_SCORED.format(golden=golden),
                    {"region": region, "scored": HotelStatus.SCORED, "cities": [c.lower() for c in cities]})
        while rows := cur.fetchmany(chunk):
            for hotel in rows:
                done = decide(hotel, criteria, day)
                result.add(hotel, done.reasons)
                result.held += done.verdict is Verdict.HOLD
                result.approved_over_criteria += bool(done.overrode)
                result.rejected_by_sales += done.verdict is Verdict.REJECT and done.decision_id is not None
                out.append(done)
    return out


def today() -> dt.date:
    """The launch's date in the schedules' time zone (a hold names the launch it skips by it)."""
    from sadie_pipeline.hotels.schedules import schedule_timezone

    return launch_day(dt.datetime.now(dt.UTC), schedule_timezone())


def launch_region(conn: psycopg.Connection, region: str, criteria: LaunchCriteria, result: LaunchResult, *,
                  dry_run: bool = False, cities: Sequence[str] = (), day: dt.date | None = None) -> None:
    outcomes = decisions(conn, region, criteria, result, cities, day=day)
    decided = [(d.hotel_id, d.reasons) for d in outcomes]
    # a person's free-text reason is no kind of its own: the summary counts them as sales decisions
    summary = launch_summary((d.hotel_id, [_SALES_KIND[d.verdict]] if d.decision_id and d.reasons else d.reasons)
                             for d in outcomes) | {"held": result.held, "approved_over_criteria": result.approved_over_criteria,
                                         "rejected_by_sales": result.rejected_by_sales}
    for key, value in summary.items():
        if isinstance(value, dict):
            merged = result.summary.setdefault(key, {})
            for k, v in value.items():
                merged[k] = merged.get(k, 0) + v
        else:
            result.summary[key] = result.summary.get(key, 0) + value
    if dry_run:
        return
    passed = [d.hotel_id for d in outcomes if d.verdict is Verdict.LAUNCH and not d.overrode]
    _go_live(conn, passed)
    _apply_approvals(conn, [d for d in outcomes if d.overrode])
    rejected = [{"id": hotel_id, "reasons": reasons} for hotel_id, reasons in decided if reasons]
    conn.execute("""UPDATE sadie_gtm.hotels h SET launch_rejections = r.reasons
                      FROM (SELECT x.id, ARRAY(SELECT jsonb_array_elements_text(x.reasons)) AS reasons
                              FROM jsonb_to_recordset(%s::jsonb) AS x(id integer, reasons jsonb)) r
                     WHERE h.id = r.id AND h.launch_rejections IS DISTINCT FROM r.reasons""",
                 (json.dumps(rejected),))


def _go_live(conn: psycopg.Connection, ids: list[int]) -> None:
    conn.execute("""UPDATE sadie_gtm.hotels SET status = %s, launched_at = now(), launch_rejections = NULL,
                           updated_at = now()
                     WHERE id = ANY(%s) AND status = %s""", (HotelStatus.LIVE, ids, HotelStatus.SCORED))


def _apply_approvals(conn: psycopg.Connection, approved: list[Decided]) -> None:
    """Hotels launched by a person's approval over the criteria: their status change carries an
    actor naming the approval (the launch check holds the run's own launches to the criteria), and
    each decision keeps the reasons it overrode."""
    if not approved:
        return
    actor = conn.execute("SELECT current_setting('sadie.actor', true)").fetchone()[0] or "launch"
    conn.execute("SELECT set_config('sadie.actor', %s, false)", (f"{actor} approved by sales",))
    try:
        _go_live(conn, [d.hotel_id for d in approved])
    finally:
        conn.execute("SELECT set_config('sadie.actor', %s, false)", (actor,))
    conn.execute("""UPDATE sadie_gtm.lead_decisions d SET applied_at = now(), applied_by = %s, overrode = a.reasons
                      FROM (SELECT x.id, ARRAY(SELECT jsonb_array_elements_text(x.reasons)) AS reasons
                              FROM jsonb_to_recordset(%s::jsonb) AS x(id bigint, reasons jsonb)) a
                     WHERE d.id = a.id""",
                 (actor, json.dumps([{"id": d.decision_id, "reasons": d.overrode} for d in approved])))

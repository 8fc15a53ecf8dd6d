"""Hotel entity review pairs: the pairs of source records entity resolution was unsure of, and
people's decisions on them (`sadie hotel review list|approve|reject`).

A decision is keyed by its pair of hotel_sources rows (source_id_a < source_id_b), so it outlives
the run that asked: every later `hotel_entities` run passes the region's decisions to the
resolver (merge as must_link, separate as cannot_link), and a decided pair is never pending again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from sadie_pipeline.core.places import describe
from sadie_pipeline.hotels.queries import sql

__all__ = ["Decisions", "ReviewDecision", "decide", "describe_pair", "list_pairs", "pending_count",
           "record_pairs", "region_decisions", "why_undecided"]

#: The fields `review list` shows side by side, in this order.
SHOWN_FIELDS = ("name", "address", "city", "state", "phone", "website")


class ReviewDecision(StrEnum):
    """`decision` of sadie_gtm.hotel_entity_reviews (NULL: pending); migration 0023's CHECK holds the
    same values."""
    MERGE = "merge"        # approved: the two records are one hotel
    SEPARATE = "separate"  # rejected: two hotels, never merged and never asked again


@dataclass
class Decisions:
    """A region's decisions as pairs of indices into the records handed to the resolver."""
    must_link: list[tuple[int, int]] = field(default_factory=list)
    cannot_link: list[tuple[int, int]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.must_link) + len(self.cannot_link)


def region_decisions(conn: psycopg.Connection, region: str, source_ids: Sequence[int]) -> Decisions:
    """The region's decisions on pairs whose two records are both among `source_ids` (a decision on a
    record no longer discovered waits until it is)."""
    index = {source_id: i for i, source_id in enumerate(source_ids)}
    out = Decisions()
    for a, b, decision in conn.execute(sql("entity_reviews", "decisions_of_region"), {"region": region}):
        if a in index and b in index:
            pairs = out.must_link if decision == ReviewDecision.MERGE else out.cannot_link
            pairs.append((index[a], index[b]))
    return out


def record_pairs(conn: psycopg.Connection, region: str,
                 pairs: Sequence[tuple[int, int, float, Mapping[str, Any] | None]]) -> None:
    """Stores this run's review pairs (source id a < b, score, explanation) and drops the region's
    pending pairs it no longer reports; decided pairs keep their decision."""
    with conn.cursor() as cur:
        cur.executemany(sql("entity_reviews", "record_pair"), [
            {"a": a, "b": b, "score": score, "explanation": Jsonb(why) if why is not None else None}
            for a, b, score, why in pairs])
    conn.execute(sql("entity_reviews", "drop_unasked"),
                 {"region": region, "a": [p[0] for p in pairs], "b": [p[1] for p in pairs]})


def pending_count(conn: psycopg.Connection, region: str) -> int:
    return conn.execute(sql("entity_reviews", "pending_count"), {"region": region}).fetchone()[0]


def list_pairs(conn: psycopg.Connection, region: str | None = None, include_decided: bool = False) -> list[dict]:
    """Pending pairs (with `include_decided`, every pair), by region then score, best first."""
    with conn.cursor(row_factory=psycopg.rows.dict_row) as cur:
        return cur.execute(sql("entity_reviews", "pairs"),
                           {"region": region.upper() if region else None, "all": include_decided}).fetchall()


def decide(conn: psycopg.Connection, ids: Sequence[int], decision: ReviewDecision, decided_by: str) -> list[int]:
    """Decides the pending pairs among `ids`; returns those decided now."""
    rows = conn.execute(sql("entity_reviews", "decide"),
                        {"ids": list(ids), "decision": decision, "by": decided_by}).fetchall()
    return sorted(r[0] for r in rows)


def why_undecided(conn: psycopg.Connection, ids: Sequence[int]) -> dict[int, str]:
    """For ids `decide` left alone, why (in the order given); ask after deciding."""
    rows = dict(conn.execute(sql("entity_reviews", "why_undecided"), {"ids": list(ids)}).fetchall())
    return {i: rows.get(i, "no hotel review pair with this id") for i in ids}


def describe_pair(pair: Mapping[str, Any], width: int = 38) -> list[str]:
    """A pair as lines: its header, the two records' fields side by side, and why it was asked."""
    state = f"{pair['decision']} by {pair['decided_by']}" if pair["decision"] else "pending"
    left = _cut(f"#{pair['source_id_a']} {pair['source_a']}", width)
    lines = [f"{pair['id']:>6}  {pair['region']}  score {float(pair['score']):.2f}  {state}",
             f"        {'':<8} {left:<{width}} #{pair['source_id_b']} {pair['source_b']}"]
    a, b = pair["record_a"] or {}, pair["record_b"] or {}
    for name in SHOWN_FIELDS:
        left, right = _text(a.get(name)), _text(b.get(name))
        mark = "=" if left and left.casefold() == right.casefold() else " "
        lines.append(f"      {mark} {name:<8} {_cut(left, width):<{width}} {_cut(right, width)}")
    why = describe(pair.get("explanation"))
    if why:
        lines.append(f"        why: {why}")
    return lines


def _text(value: Any) -> str:
    return "" if value is None else " ".join(str(value).split())


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"

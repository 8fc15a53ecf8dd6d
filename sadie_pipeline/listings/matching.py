"""Fuzzy matching of staged records against listings (core.matching does the scoring): at stage,
against the listings sharing a blocking key with them; at promotion, again against the listings
other DMOs' promotions created since the stage began (records still new, and records matched to a
listing that a newer one beats)."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from sadie_pipeline.core.matching import Match, MatchRecord, better_matches, lookup_keys, match_against
from sadie_pipeline.core.places.index import MAX_BLOCK, NAME_BLOCK
from sadie_pipeline.listings import dmo_model, match_keys
from sadie_pipeline.listings.queries import run, sql


def fuzzy_candidates(conn: psycopg.Connection, rows: list[MatchRecord], after: int = 0,
                     keyed: bool = False) -> list[MatchRecord]:
    """The listings (with an id above `after`) sharing a blocking key with the rows; their keys
    brought up to date first, unless the caller did (keyed)."""
    if not keyed:
        match_keys.refresh(conn)
    found = conn.execute(sql("match_keys", "candidates"),
                         {"keys": lookup_keys(rows), "after": after, "max_block": MAX_BLOCK, "name_block": NAME_BLOCK,
                          "exclude": []})
    return [MatchRecord.stored(r) for r in found]


def rematch_new_records(conn: psycopg.Connection, params: dict[str, Any], config: dict[str, Any], after: int) -> None:
    """Records of the jobs to promote that were staged as new listings, matched again against the
    listings created since their stage began (those above `after`): by match hash, then fuzzily;
    and records the stage matched fuzzily, moved to such a listing when it scores higher. What a
    sequential order would have matched at stage is matched now; an unsure match waits for a person,
    as does one on a listing another record of the DMO already takes (rematch_taken)."""
    moved = [tuple(r) for r in run(conn, "promote", "rematch_by_hash", params)]
    moved += _rematch_fuzzily(conn, params, config, after)
    if moved:
        ids, targets = zip(*moved)
        run(conn, "promote", "rematch_taken", {**params, "ids": list(ids), "targets": list(targets)})


def rematch_records(conn: psycopg.Connection, name: str, params: dict[str, Any]
                    ) -> tuple[list[MatchRecord], list[MatchRecord], dict[int, tuple[int, float]]]:
    """The records a query (rematch_records, rematch_records_in_batch) returns: those still new,
    those matched fuzzily, and each matched one's current match (listing, certainty)."""
    new: list[MatchRecord] = []
    matched: list[MatchRecord] = []
    current: dict[int, tuple[int, float]] = {}
    for r in conn.execute(sql("promote", name), params):
        if r[11] is None:
            new.append(MatchRecord.stored(r[:11]))
        else:
            matched.append(MatchRecord.stored(r[:11]))
            current[r[0]] = (r[11], r[12])
    return new, matched, current


def _rematch_fuzzily(conn: psycopg.Connection, params: dict[str, Any], config: dict[str, Any],
                     after: int) -> list[tuple[int, int]]:
    """The records still new, and those matched at stage, matched fuzzily: (record, listing) of
    each match or move."""
    rows, matched, current = rematch_records(conn, "rematch_records", params)
    candidates = fuzzy_candidates(conn, [*rows, *matched], after) if rows or matched else []
    if not candidates:
        return []
    stage = config["stage"]
    model = dmo_model.of_jobs(conn, params["dmo"], params["staged_jobs"])  # as their stage judged
    matches = judge(rows, candidates, stage, model) + better_matches(judge(matched, candidates, stage, model), current)
    # Two records of the DMO on one listing: the best keeps it, the others wait for a person.
    best = {}
    for m in sorted(matches, key=lambda m: (-m.certainty, m.record_id)):
        best.setdefault(m.candidate_id, m.record_id)
    save_rematches(conn, matches, stage, [best[m.candidate_id] != m.record_id for m in matches])
    return [(m.record_id, m.candidate_id) for m in matches]


def judge(records: list[MatchRecord], candidates: list[MatchRecord], stage: dict[str, Any],
          model: Any) -> list[Match]:
    """The records matched against the candidates with the stage's thresholds; each set of records
    is judged in its own context (new ones apart from matched ones, as their stage judged them)."""
    return match_against(records, candidates, stage["review_threshold"], stage["auto_match_threshold"],
                         model) if records else []


def save_rematches(conn: psycopg.Connection, matches: list[Match], stage: dict[str, Any], second: list[bool]) -> None:
    """A re-match's matches written on their records (rematch_fuzzy); `second`: a record whose
    listing another record of the DMO keeps, which waits for a person."""
    if matches:
        run(conn, "promote", "rematch_fuzzy", {
            "ids": [m.record_id for m in matches], "targets": [m.candidate_id for m in matches],
            "certainties": [m.certainty for m in matches], "auto_match": stage["auto_match_threshold"],
            "explanations": [Jsonb(m.explanation) for m in matches],
            "reasons": [m.review_reason for m in matches], "second": second})

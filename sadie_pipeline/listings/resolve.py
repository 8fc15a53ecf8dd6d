"""Resolving a staged job (sql/resolve.sql): duplicates within it, matches to listings (bridge,
match hash, then fuzzy), actions, review flags and deletions, in the stage's own transaction."""

from __future__ import annotations

import json
from typing import Any

import psycopg

from sadie_pipeline.core.matching import MatchRecord, match_against, match_within
from sadie_pipeline.core.places import paused_gc
from sadie_pipeline.listings.matching import fuzzy_candidates
from sadie_pipeline.listings.queries import run, sql
from sadie_pipeline.listings.repository import Dmo
from sadie_pipeline.listings.trusted import rows_of_job


def resolve_job(conn: psycopg.Connection, dmo: Dmo, job_id: int, config: dict[str, Any]) -> None:
    params = {"job": job_id, "dmo": dmo.id, "auto_match": config["stage"]["auto_match_threshold"]}
    run(conn, "resolve", "load_work", params)
    _fuzzy(conn, params, config["stage"]["review_threshold"])
    for name in ("settle_matches", "write_back", "write_back_thin_duplicates"):
        run(conn, "resolve", name, params)
    # The parents of these rows are the job's rows just updated (locked until commit).
    with rows_of_job(conn, job_id, ["staging.listing_info"]):
        run(conn, "resolve", "thicken_duplicates", params)
    if config["import"]["full_import"]:
        run(conn, "resolve", "detect_deletions", params)


def _fuzzy(conn: psycopg.Connection, params: dict[str, Any], review_threshold: float) -> None:
    """Records no exact rule placed: fuzzy candidates among existing listings, then among each other."""
    # streamed: the whole result held at once, besides its rows, would add 30 MB at 100,000 records;
    # the collector paused: 100,000 rows' tuples and no cycle, rescanned as they grow
    with paused_gc():
        rows = [MatchRecord.stored(r) for r in conn.cursor().stream(sql("resolve", "unmatched_rows"), params, size=2000)]
    if not rows:
        return
    auto = params["auto_match"]
    has_listings = conn.execute("SELECT EXISTS (SELECT FROM public.listings)").fetchone()[0]
    candidates = fuzzy_candidates(conn, rows) if has_listings else []
    to_public = match_against(rows, candidates, review_threshold, auto) if candidates else []
    matched = {m.record_id for m in to_public}
    to_batch = match_within([r for r in rows if r.id not in matched], review_threshold, auto)
    run(conn, "resolve", "fuzzy_table")
    with conn.cursor().copy("COPY fuzzy (id, target, dup, certainty, explanation) FROM STDIN") as copy:
        for m in to_public:
            copy.write_row((m.record_id, m.candidate_id, None, m.certainty, json.dumps(m.explanation)))
        for m in to_batch:
            copy.write_row((m.record_id, None, m.candidate_id, m.certainty, json.dumps(m.explanation)))
    run(conn, "resolve", "apply_fuzzy", params)


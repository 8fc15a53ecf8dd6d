"""Resolving a staged job (sql/resolve.sql): duplicates within it, matches to listings (bridge,
match hash, then fuzzy), actions, review flags and deletions, in the stage's own transaction."""

from __future__ import annotations

import json
import logging
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import psycopg

from sadie_pipeline.core.errors import first_line
from sadie_pipeline.core.matching import MatchRecord, match_against, match_within
from sadie_pipeline.core.places import paused_gc
from sadie_pipeline.listings import dmo_model, match_keys
from sadie_pipeline.listings.matching import fuzzy_candidates
from sadie_pipeline.listings.queries import run, sql
from sadie_pipeline.listings.repository import Dmo
from sadie_pipeline.listings.trusted import rows_of_job

_log = logging.getLogger(__name__)


def resolve_job(conn: psycopg.Connection, dmo: Dmo, job_id: int, config: dict[str, Any]) -> None:
    params = {"job": job_id, "dmo": dmo.id, "auto_match": config["stage"]["auto_match_threshold"]}
    # When some record may need fuzzy candidates, the listings' keys are brought up to date on a
    # thread and connection of their own (match_keys) while this transaction finds the exact
    # matches: 0.3 s at 90,000 listings, one after the other. A refresh no record turns out to
    # need is not waited for: it finishes on its own, for the next lookup.
    keying = ThreadPoolExecutor(1)
    try:
        keyed = None
        if run(conn, "resolve", "fuzzy_possible", params).fetchone()[0]:
            keyed = keying.submit(match_keys.refresh_at, conn.info.dsn, conn.info.password)
            keyed.add_done_callback(_log_failure)
        run(conn, "resolve", "load_work", params)
        _fuzzy(conn, params, config["stage"]["review_threshold"], keyed)
    finally:
        keying.shutdown(wait=False)
    for name in ("settle_matches", "write_back", "write_back_thin_duplicates"):
        run(conn, "resolve", name, params)
    # The parents of these rows are the job's rows just updated (locked until commit).
    with rows_of_job(conn, job_id, ["staging.listing_info"]):
        run(conn, "resolve", "thicken_duplicates", params)
    if config["import"]["full_import"]:
        run(conn, "resolve", "detect_deletions", params)


def _log_failure(refresh: Future) -> None:
    if refresh.exception() is not None:
        _log.warning("keying the listings failed (the next lookup keys them): %s", first_line(refresh.exception()))


def _fuzzy(conn: psycopg.Connection, params: dict[str, Any], review_threshold: float, keyed: Future | None) -> None:
    """Records no exact rule placed: fuzzy candidates among existing listings (keyed: the refresh of
    their keys; None: there are none), then among each other, judged by the DMO's model as it was
    before this job; the job's candidate pairs then refine it (dmo_model)."""
    # streamed: the whole result held at once, besides its rows, would add 30 MB at 100,000 records;
    # the collector paused: 100,000 rows' tuples and no cycle, rescanned as they grow
    with paused_gc():
        rows = [MatchRecord.stored(r) for r in conn.cursor().stream(sql("resolve", "unmatched_rows"), params, size=2000)]
    if not rows:
        return
    auto = params["auto_match"]
    model, evidence = dmo_model.judge_job(conn, params["dmo"], params["job"]), []
    candidates = []
    if keyed:
        keyed.result()  # the keys up to date, or the refresh's error raised here
        candidates = fuzzy_candidates(conn, rows, keyed=True)
    to_public = match_against(rows, candidates, review_threshold, auto, model, evidence) if candidates else []
    matched = {m.record_id for m in to_public}
    to_batch = match_within([r for r in rows if r.id not in matched], review_threshold, auto, model, evidence)
    dmo_model.learn(conn, params["dmo"], model, evidence)
    run(conn, "resolve", "fuzzy_table")
    with conn.cursor().copy("COPY fuzzy (id, target, dup, certainty, explanation, reason) FROM STDIN") as copy:
        for m in to_public:
            copy.write_row((m.record_id, m.candidate_id, None, m.certainty, json.dumps(m.explanation), m.review_reason))
        for m in to_batch:
            copy.write_row((m.record_id, None, m.candidate_id, m.certainty, json.dumps(m.explanation), None))
    run(conn, "resolve", "apply_fuzzy", params)

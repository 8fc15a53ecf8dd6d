"""Time-based soft delete in the stage (core/staleness.py has the rule): when the DMO's source is pulled
and its config sets import.stale_after_days, the records it has not shown for longer are proposed for
deletion in the job being staged, pending review; approving one soft-deletes the record at the next
promotion (as a full import's deletions), rejecting it keeps the record until it is shown again."""

from __future__ import annotations

from typing import Any

import psycopg

from sadie_pipeline.core.staleness import cutoff, is_stale, stale_after_days, stale_reason
from sadie_pipeline.listings.queries import run


def propose_stale(conn: psycopg.Connection, dmo_id: int, job_id: int, config: dict[str, Any]) -> int:
    """Adds the deletion proposals to the job's staged rows (the stage's transaction); returns how many."""
    days = stale_after_days(config)
    if days is None:
        return 0
    now = run(conn, "staleness", "now").fetchone()[0]
    params: dict[str, Any] = {"dmo": dmo_id, "job": job_id, "cutoff": cutoff(now, days)}
    found = [r for r in run(conn, "staleness", "stale", params).fetchall() if is_stale(r[2], now, days)]
    if not found:
        return 0
    params.update(infos=[r[0] for r in found], reasons=[stale_reason(r[2], now, days) for r in found],
                  last_infos=[r[3] for r in found])
    run(conn, "staleness", "propose", params)
    return len(found)

"""Review decisions on staged rows. Approving lets a row be promoted; rejecting a fuzzy pairing
(a 0.5-0.8 match or a near-duplicate) makes the record a new listing; rejecting anything else
(a deletion, an exact duplicate, a change to a hand-edited listing) drops the proposed change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.rows import dict_row

from sadie_pipeline.listings.queries import sql
from sadie_pipeline.listings.repository import get_dmo


def list_pending(conn: psycopg.Connection, dmo_slug: str | None = None) -> list[dict[str, Any]]:
    if dmo_slug is not None:
        get_dmo(conn, dmo_slug)  # an unknown slug is a mistake, not an empty queue
    return conn.cursor(row_factory=dict_row).execute(sql("review", "pending"), {"dmo": dmo_slug}).fetchall()


def why_undecided(conn: psycopg.Connection, ids: Sequence[int]) -> dict[int, str]:
    """For staged row ids that approve/reject left alone, why (in the order given): only pending
    rows can be decided. Ask after deciding, so each reason is the row's state now."""
    rows = dict(conn.execute(sql("review", "why_undecided"), {"ids": list(ids)}).fetchall())
    reasons = {i: rows.get(i, "no staged row with this id") for i in ids}
    return {i: reason for i, reason in reasons.items() if reason is not None}


def approve(conn: psycopg.Connection, ids: Sequence[int], decided_by: str = "cli") -> list[int]:
    done = [r[0] for r in conn.execute(sql("review", "approve"), {"ids": list(ids)})]
    _log(conn, done, "approved", decided_by)
    return done


def approve_all(conn: psycopg.Connection, dmo_slug: str, decided_by: str = "cli") -> list[int]:
    dmo = get_dmo(conn, dmo_slug)
    ids = [r[0] for r in conn.execute(sql("review", "pending_of_dmo"), {"dmo": dmo.id})]
    return approve(conn, ids, decided_by)


def reject(conn: psycopg.Connection, ids: Sequence[int], decided_by: str = "cli") -> list[int]:
    params = {"ids": list(ids)}
    as_new = [r[0] for r in conn.execute(sql("review", "reject_as_new"), params)]
    dropped = [r[0] for r in conn.execute(sql("review", "reject"), params)]
    _log(conn, as_new + dropped, "rejected", decided_by)
    return as_new + dropped


def _log(conn: psycopg.Connection, ids: list[int], decision: str, decided_by: str) -> None:
    conn.execute(sql("review", "log"), {"ids": ids, "decision": decision, "by": decided_by})

"""Review decisions on staged rows. Approving lets a row be promoted; rejecting a fuzzy pairing
(a 0.5-0.8 match or a near-duplicate) makes the record a new listing; rejecting anything else
(a deletion, an exact duplicate, a change to a hand-edited listing) drops the proposed change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.rows import dict_row

from sadie_pipeline.listings.repository import get_dmo

PENDING = """
SELECT s.id, d.slug AS dmo, s.job_id, s.action, s.name, s.city, s.target_listing_id, s.certainty_score,
       s.review_reason
  FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_status = 'pending' AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
 ORDER BY s.id
"""


def list_pending(conn: psycopg.Connection, dmo_slug: str | None = None) -> list[dict[str, Any]]:
    if dmo_slug is not None:
        get_dmo(conn, dmo_slug)  # an unknown slug is a mistake, not an empty queue
    return conn.cursor(row_factory=dict_row).execute(PENDING, {"dmo": dmo_slug}).fetchall()


def why_undecided(conn: psycopg.Connection, ids: Sequence[int]) -> dict[int, str]:
    """For staged row ids that approve/reject left alone, why (in the order given): only pending
    rows can be decided. Ask after deciding, so each reason is the row's state now."""
    rows = dict(conn.execute(
        """SELECT id, CASE WHEN promoted_at IS NOT NULL THEN 'already promoted'
                           WHEN review_status = 'superseded' THEN 'superseded by a later import'
                           WHEN review_status IN ('approved', 'rejected') THEN 'already ' || review_status
                           WHEN review_status = 'pending' THEN NULL
                           ELSE 'not waiting for review' END
             FROM staging.listings WHERE id = ANY(%s)""", (list(ids),)).fetchall())
    reasons = {i: rows.get(i, "no staged row with this id") for i in ids}
    return {i: reason for i, reason in reasons.items() if reason is not None}


def approve(conn: psycopg.Connection, ids: Sequence[int], decided_by: str = "cli") -> list[int]:
    done = [r[0] for r in conn.execute(
        """UPDATE staging.listings SET review_status = 'approved', ok_to_promote = true
            WHERE id = ANY(%s) AND review_status = 'pending' RETURNING id""", (list(ids),))]
    _log(conn, done, "approved", decided_by)
    return done


def approve_all(conn: psycopg.Connection, dmo_slug: str, decided_by: str = "cli") -> list[int]:
    dmo = get_dmo(conn, dmo_slug)
    ids = [r[0] for r in conn.execute(
        "SELECT id FROM staging.listings WHERE dmo_id = %s AND review_status = 'pending'", (dmo.id,))]
    return approve(conn, ids, decided_by)


def reject(conn: psycopg.Connection, ids: Sequence[int], decided_by: str = "cli") -> list[int]:
    ids = list(ids)
    as_new = [r[0] for r in conn.execute(
        """UPDATE staging.listings
              SET review_status = 'rejected', ok_to_promote = true, target_listing_id = NULL, duplicate_of = NULL,
                  target_listing_info_id = NULL, action = 'insert', l_action = 'insert', li_action = 'insert'
            WHERE id = ANY(%s) AND review_status = 'pending' AND match_method = 'fuzzy'
              AND (action = 'duplicate' OR review_reason LIKE 'fuzzy match%%') RETURNING id""", (ids,))]
    dropped = [r[0] for r in conn.execute(
        """UPDATE staging.listings SET review_status = 'rejected', ok_to_promote = false
            WHERE id = ANY(%s) AND review_status = 'pending' RETURNING id""", (ids,))]
    _log(conn, as_new + dropped, "rejected", decided_by)
    return as_new + dropped


def _log(conn: psycopg.Connection, ids: list[int], decision: str, decided_by: str) -> None:
    conn.execute(
        """INSERT INTO pipeline.review_decisions (stage_row_id, job_id, dmo_id, action, decision, decided_by)
           SELECT id, job_id, dmo_id, coalesce(action, ''), %s, %s FROM staging.listings WHERE id = ANY(%s)""",
        (decision, decided_by, ids),
    )

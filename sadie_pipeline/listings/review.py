"""Review decisions on staged rows. Approving lets a row be promoted; rejecting a fuzzy pairing
(a 0.5-0.8 match or a near-duplicate) makes the record a new listing; rejecting anything else
(a deletion, an exact duplicate, a change to a hand-edited listing) drops the proposed change.
A change that meets a hand edit is approved field by field: the fields kept keep their live value
at promotion. Every decision can be undone until promotion applies it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from sadie_pipeline.core.review import FIELDS
from sadie_pipeline.listings import curation
from sadie_pipeline.listings.queries import run, sql
from sadie_pipeline.listings.repository import get_dmo


class Decision(StrEnum):
    """pipeline.review_decisions.decision."""
    APPROVED = "approved"
    REJECTED = "rejected"
    FORCE_MATCHED = "force_matched"  # matched by hand to a listing, and approved (curation.py)


class ReviewError(ValueError):
    """A decision that cannot be taken as asked (a field that is not one of the choices): one line."""


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


def _in_order(ids: Sequence[int], done: Sequence[int]) -> list[int]:
    found = set(done)
    return [i for i in dict.fromkeys(ids) if i in found]


def approve(conn: psycopg.Connection, ids: Sequence[int], decided_by: str = "cli",
            keep: Mapping[int, Sequence[str]] | None = None) -> list[int]:
    """Approves the pending rows among ids; `keep` names, per row, the fields whose live value the
    promotion keeps (a person's choice where the change meets a hand edit)."""
    keep = {int(k): list(v) for k, v in (keep or {}).items()}
    unknown = sorted({f for fields in keep.values() for f in fields} - set(FIELDS))
    if unknown:
        raise ReviewError(f"not a field one can keep: {', '.join(unknown)}")
    params = {"ids": list(ids), "by": decided_by, "keep": Jsonb({str(k): v for k, v in keep.items()})}
    return _in_order(ids, [r[0] for r in conn.execute(sql("review", "approve"), params)])


def approve_all(conn: psycopg.Connection, dmo_slug: str, decided_by: str = "cli") -> list[int]:
    dmo = get_dmo(conn, dmo_slug)
    ids = [r[0] for r in conn.execute(sql("review", "pending_of_dmo"), {"dmo": dmo.id})]
    return approve(conn, ids, decided_by)


def reject(conn: psycopg.Connection, ids: Sequence[int], decided_by: str = "cli") -> list[int]:
    params = {"ids": list(ids), "by": decided_by}
    as_new = [r[0] for r in conn.execute(sql("review", "reject_as_new"), params)]
    dropped = [r[0] for r in conn.execute(sql("review", "reject"), params)]
    return _in_order(ids, as_new + dropped)


def force_match(conn: psycopg.Connection, row_id: int, listing_id: int, by: curation.Editor) -> None:
    """curation.force_match, remembering the row as it was so that the match can be undone."""
    found = conn.execute(sql("review", "before"), {"row": row_id}).fetchone()
    curation.force_match(conn, row_id, listing_id, by)
    run(conn, "review", "remember_before", {"row": row_id, "before": Jsonb(found[0]) if found else None})


def undo(conn: psycopg.Connection, ids: Sequence[int], undone_by: str = "cli") -> list[int]:
    """Takes back each row's latest decision while promotion has not applied it: the row waits for
    review again as it was before. Returns the rows put back (why_not_undone says why not the others)."""
    params = {"ids": list(ids), "by": undone_by}
    return _in_order(ids, [r[0] for r in conn.execute(sql("review", "undo"), params)])


def why_not_undone(conn: psycopg.Connection, ids: Sequence[int]) -> dict[int, str]:
    """For staged row ids that undo left alone, why (in the order given)."""
    rows = dict(conn.execute(sql("review", "why_not_undone"), {"ids": list(ids)}).fetchall())
    return {i: rows.get(i, "no staged row with this id") for i in ids}

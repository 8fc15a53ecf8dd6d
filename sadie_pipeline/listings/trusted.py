"""Trusted inserts, a fast path (settings.listings_fast_paths): bulk inserts of many rows whose
foreign keys are checked once per batch by the caller instead of by PostgreSQL's per-row triggers
(session_replication_role = replica for those statements only). Used only when the role may set it
and the tables carry no trigger of their own; callers lock the existing parents (as each per-row
check would) and count the parents they create. Measured: the triggers cost a first import of
100,000 records several seconds."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import psycopg

from sadie_pipeline.listings.queries import sql
from sadie_pipeline.settings import listings_fast_paths

# The public tables promotion inserts into without per-row checks.
PROMOTED_TABLES = ("public.listings", "public.listing_info", "public.listing_images", "public.opening_dates",
                   "public.opening_hours")


def allowed(conn: psycopg.Connection, tables: Iterable[str]) -> bool:
    return listings_fast_paths() and conn.execute(sql("trusted", "allowed"), {"tables": list(tables)}).fetchone() \
        == (True, True)


@contextmanager
def without_row_triggers(conn: psycopg.Connection) -> Iterator[None]:
    """Within the current transaction only, for the statements inside: no row triggers fire."""
    conn.execute("SET LOCAL session_replication_role = replica")
    try:
        yield
    finally:
        if not conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR:
            conn.execute("SET LOCAL session_replication_role = origin")


@contextmanager
def rows_of_job(conn: psycopg.Connection, job_id: int, tables: Iterable[str]) -> Iterator[bool]:
    """For the inserts inside, of many rows of one job into these tables: when allowed, their
    job_id -> pipeline.jobs references are checked once (the job row locked as each per-row check
    would) instead of per row. Yields whether that is the case: the caller then checks any other
    reference of the rows itself."""
    if not allowed(conn, tables):
        yield False
        return
    if conn.execute(sql("trusted", "lock_job"), {"job": job_id}).fetchone() is None:
        raise psycopg.errors.ForeignKeyViolation(f"job {job_id} is gone")
    with without_row_triggers(conn):
        yield True

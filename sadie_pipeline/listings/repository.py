"""Reads and writes of DMOs, configs and jobs: the small queries every listings stage shares."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from sadie_pipeline.core.config import merge_config


@dataclass(frozen=True)
class Dmo:
    id: int
    slug: str
    name: str
    source_type: str


class UnknownDmoError(LookupError):
    pass


def get_dmo(conn: psycopg.Connection, slug: str) -> Dmo:
    row = conn.execute("SELECT id, slug, name, source_type FROM public.dmos WHERE slug = %s", (slug,)).fetchone()
    if row is None:
        raise UnknownDmoError(f"no DMO {slug!r}; add it with `sadie dmo add {slug} --name ...`")
    return Dmo(*row)


def list_dmos(conn: psycopg.Connection) -> list[dict[str, Any]]:
    return conn.cursor(row_factory=dict_row).execute(
        """
        SELECT d.slug, d.name, d.source_type, c.version AS config_version, c.schedule,
               (SELECT count(*) FROM public.listing_info li WHERE li.dmo_id = d.id AND li.info_visible) AS live_listings,
               (SELECT max(j.created_at) FROM pipeline.jobs j WHERE j.dmo_id = d.id) AS last_job_at
        FROM public.dmos d LEFT JOIN pipeline.configs c ON c.dmo_id = d.id AND c.data_domain = 'listings'
        ORDER BY d.slug
        """
    ).fetchall()


def upsert_dmo(conn: psycopg.Connection, slug: str, name: str, config: dict[str, Any]) -> Dmo:
    """Creates the DMO, or updates its name and config (the config version goes up on change)."""
    merge_config(config)  # rejects a bad config before anything is written
    source_type = config.get("import", {}).get("source_type", "csv")
    schedule = config.get("schedule", "manual")
    dmo_id = conn.execute(
        """
        INSERT INTO public.dmos (slug, name, source_type) VALUES (%s, %s, %s)
        ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, source_type = EXCLUDED.source_type, updated_at = now()
        RETURNING id
        """,
        (slug, name, source_type),
    ).fetchone()[0]
    conn.execute(
        """
        INSERT INTO pipeline.configs (dmo_id, source_type, config_params, schedule)
        VALUES (%(dmo)s, %(source_type)s, %(params)s, %(schedule)s)
        ON CONFLICT (dmo_id, data_domain) DO UPDATE
           SET config_params = EXCLUDED.config_params, source_type = EXCLUDED.source_type,
               schedule = EXCLUDED.schedule, updated_at = now(),
               version = pipeline.configs.version
                         + (pipeline.configs.config_params IS DISTINCT FROM EXCLUDED.config_params)::int
        """,
        {"dmo": dmo_id, "source_type": source_type, "params": json.dumps(config), "schedule": schedule},
    )
    return Dmo(dmo_id, slug, name, source_type)


def snapshot_config(conn: psycopg.Connection, job_id: int, dmo: Dmo) -> dict[str, Any]:
    """Copies the DMO's current config into job_configs (once per job) and returns it merged with defaults."""
    conn.execute(
        """
        INSERT INTO pipeline.job_configs (job_id, dmo_id, source_type, data_domain, config_params,
                                          config_version, schedule, source_updated_at)
        SELECT %s, dmo_id, source_type, data_domain, config_params, version, schedule, updated_at
        FROM pipeline.configs WHERE dmo_id = %s AND data_domain = 'listings'
        ON CONFLICT (job_id) DO NOTHING
        """,
        (job_id, dmo.id),
    )
    return job_config(conn, job_id)


def job_config(conn: psycopg.Connection, job_id: int) -> dict[str, Any]:
    row = conn.execute("SELECT config_params FROM pipeline.job_configs WHERE job_id = %s", (job_id,)).fetchone()
    return merge_config(row[0] if row else {})


def dmo_config(conn: psycopg.Connection, dmo: Dmo) -> dict[str, Any]:
    row = conn.execute(
        "SELECT config_params FROM pipeline.configs WHERE dmo_id = %s AND data_domain = 'listings'", (dmo.id,)
    ).fetchone()
    return merge_config(row[0] if row else {})


def set_job_state(conn: psycopg.Connection, job_id: int, *, stage: str, status: str, error: str | None = None) -> None:
    conn.execute(
        """
        UPDATE pipeline.jobs SET stage = %s, status = %s, error_summary = %s,
               finished_at = CASE WHEN %s IN ('succeeded', 'failed') THEN now() END
        WHERE id = %s
        """,
        (stage, status, error, status, job_id),
    )


# --- foreign keys checked per batch instead of per row ------------------------------------------

def trusted_inserts_allowed(conn: psycopg.Connection, tables: Iterable[str]) -> bool:
    """Whether inserts into these tables may have their foreign keys checked set-based by the caller
    instead of by PostgreSQL's per-row triggers: the role may set session_replication_role, and no
    such table has a trigger of its own (it would be skipped too; foreign-key triggers are internal).
    Callers lock the pre-existing parent rows FOR KEY SHARE (as each per-row check would) and count
    the references left without a parent afterwards."""
    return conn.execute(
        """SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
                  OR (current_setting('server_version_num')::int >= 150000
                      AND has_parameter_privilege('session_replication_role', 'SET')),
                  NOT EXISTS (SELECT 1 FROM pg_trigger WHERE NOT tgisinternal AND tgrelid = ANY(%s::regclass[]))""",
        (list(tables),),
    ).fetchone() == (True, True)


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
    would) instead of per row, and no row trigger fires. Yields whether that is the case: the
    caller then checks any other reference of the rows itself."""
    if not trusted_inserts_allowed(conn, tables):
        yield False
        return
    if conn.execute("SELECT id FROM pipeline.jobs WHERE id = %s FOR KEY SHARE", (job_id,)).fetchone() is None:
        raise psycopg.errors.ForeignKeyViolation(f"job {job_id} is gone")
    with without_row_triggers(conn):
        yield True

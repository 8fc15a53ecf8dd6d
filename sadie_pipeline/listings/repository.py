"""Reads and writes of DMOs, configs and jobs: the small queries every listings stage shares."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from sadie_pipeline.core.config import merge_config
from sadie_pipeline.core.schedules import Frequency
from sadie_pipeline.listings.queries import sql
from sadie_pipeline.listings.states import JobStage, JobStatus


@dataclass(frozen=True)
class Dmo:
    id: int
    slug: str
    name: str
    source_type: str


# a slug names the DMO's partition, inbox folder and object keys: nothing that can climb out of one
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
SLUG_RULE = "a DMO slug is 1 to 63 lower-case letters, digits and hyphens, not starting with a hyphen"


class UnknownDmoError(LookupError):
    pass


class BadSlugError(ValueError):
    pass


def _shown(slug: str) -> str:
    return repr(slug) if len(slug) <= 40 else repr(slug[:37] + "...")


def check_slug(slug: str) -> str:
    if not isinstance(slug, str) or not SLUG.fullmatch(slug):
        raise BadSlugError(f"bad DMO slug {_shown(str(slug))}: {SLUG_RULE}")
    return slug


def get_dmo(conn: psycopg.Connection, slug: str) -> Dmo:
    row = conn.execute("SELECT id, slug, name, source_type FROM public.dmos WHERE slug = %s", (slug,)).fetchone()
    if row is None:
        hint = f"add it with sadie dmo add {slug} --name ..." if SLUG.fullmatch(slug) else SLUG_RULE
        raise UnknownDmoError(f"no DMO {_shown(slug)}; {hint}")
    return Dmo(*row)


def list_dmos(conn: psycopg.Connection) -> list[dict[str, Any]]:
    return conn.cursor(row_factory=dict_row).execute(sql("dmos", "list")).fetchall()


def upsert_dmo(conn: psycopg.Connection, slug: str, name: str, config: dict[str, Any]) -> Dmo:
    """Creates the DMO, or updates its name and config (the config version goes up on change)."""
    check_slug(slug)
    merged = merge_config(config)  # rejects a bad config before anything is written
    source_type = config.get("import", {}).get("source_type", "csv")
    schedule = schedule_of(merged)
    params = {"slug": slug, "name": name, "source_type": source_type, "params": json.dumps(config),
              "schedule": schedule}
    params["dmo"] = conn.execute(sql("dmos", "upsert"), params).fetchone()[0]
    conn.execute(sql("dmos", "upsert_config"), params)
    dmo_id = params["dmo"]
    return Dmo(dmo_id, slug, name, source_type)


def schedule_of(merged: dict[str, Any]) -> str:
    """The DMO's import schedule: `import.schedule`, else the older top-level `schedule`."""
    own = merged["import"]["schedule"]
    return own if own != Frequency.MANUAL else merged["schedule"]


def snapshot_config(conn: psycopg.Connection, job_id: int, dmo: Dmo) -> dict[str, Any]:
    """Copies the DMO's current config into job_configs (once per job) and returns it merged with defaults."""
    conn.execute(sql("dmos", "snapshot_config"), {"job": job_id, "dmo": dmo.id})
    return job_config(conn, job_id)


def job_config(conn: psycopg.Connection, job_id: int) -> dict[str, Any]:
    row = conn.execute("SELECT config_params FROM pipeline.job_configs WHERE job_id = %s", (job_id,)).fetchone()
    return merge_config(row[0] if row else {}, stored=True)  # saved before a check existed: read as saved


def set_job_state(conn: psycopg.Connection, job_id: int, *, stage: JobStage, status: JobStatus,
                  error: str | None = None) -> None:
    conn.execute(sql("dmos", "set_job_state"), {"stage": stage, "status": status, "error": error, "job": job_id})

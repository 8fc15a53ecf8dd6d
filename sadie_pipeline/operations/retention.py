"""Retention: rows older than SADIE_RETENTION_DAYS (default 90, the seeds' figure) are archived to
the object store as gzipped JSON lines, then deleted.

Tables: the hotel status audit trail (sadie_gtm.audit_log), resolved dead letters
(pipeline.dead_letters), record errors of finished jobs (pipeline.job_errors) and the staged rows
of old promoted jobs (staging.listings, each line with its staging.listing_info row); which staged
rows may go is spelled out in sql/retention.sql.

A kill loses nothing: each batch is one transaction that locks its rows, writes their archive
(the object exists once the write returns) and only then deletes exactly the archived ids and
commits. Killed before the commit, the rows stay and the next run archives them again under the
same key (the key is the batch's first and last id; an id is never reused, so a committed batch's
key is never written again), and a rerun with nothing old left writes and deletes nothing. The
cutoff is midnight UTC, so reruns of a day pick the same rows.

The same job deletes the object store's raw material older than a year (raw API responses and
website text, seed 000; prefixes and days configurable): operations/object_retention.py.
"""

# No `from __future__ import annotations`: @op reads its config class from the real annotation.
import datetime as dt
import gzip
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

import psycopg
from dagster import (
    Config,
    DefaultScheduleStatus,
    OpExecutionContext,
    Output,
    RunConfig,
    RunRequest,
    ScheduleEvaluationContext,
    job,
    op,
    schedule,
)
from pydantic import Field

from sadie_pipeline.listings.states import JobStage, JobStatus, ReviewStatus
from sadie_pipeline.operations.object_retention import delete_old_objects, object_prefixes, object_retention_days
from sadie_pipeline.operations.queries import run, sql
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.settings import env_count

DEFAULT_RETENTION_DAYS = 90
DEFAULT_BATCH = 5000
ARCHIVE_PREFIX = "archive/retention"


class RetainedTable(StrEnum):
    """The tables retention archives and trims; the value names their queries in retention.sql."""
    STAGING_LISTINGS = "staging_listings"
    JOB_ERRORS = "job_errors"
    DEAD_LETTERS = "dead_letters"
    AUDIT_LOG = "audit_log"


QUALIFIED = {RetainedTable.STAGING_LISTINGS: "staging.listings", RetainedTable.JOB_ERRORS: "pipeline.job_errors",
             RetainedTable.DEAD_LETTERS: "pipeline.dead_letters", RetainedTable.AUDIT_LOG: "sadie_gtm.audit_log"}


def retention_days() -> int:
    """How old a row may get before retention archives and deletes it (read at each tick)."""
    return env_count("SADIE_RETENTION_DAYS", DEFAULT_RETENTION_DAYS)


def cutoff_for(days: int, today: dt.date | None = None) -> dt.datetime:
    """Midnight UTC `days` days before today: every run of a day uses the same cutoff."""
    today = today or dt.datetime.now(dt.UTC).date()
    return dt.datetime.combine(today - dt.timedelta(days=days), dt.time(), tzinfo=dt.UTC)


def archive_key(table: RetainedTable, first_id: int, last_id: int) -> str:
    return f"{ARCHIVE_PREFIX}/{QUALIFIED[table]}/{first_id:012d}-{last_id:012d}.jsonl.gz"


def _gzip_lines(lines: list[str]) -> bytes:
    # mtime=0 and no file name in the header: the same rows always make the same bytes.
    return gzip.compress("".join(f"{line}\n" for line in lines).encode(), mtime=0)


def _archive_batch(conn: psycopg.Connection, store: Any, table: RetainedTable,
                   params: Mapping[str, Any]) -> tuple[int, str | None, int]:
    """One transaction: lock a batch, archive it, delete it, commit. (rows, key, last id)."""
    rows = conn.execute(sql("retention", f"{table}_batch"), params).fetchall()
    if not rows:
        conn.rollback()
        return 0, None, params["after"]
    ids = [r[0] for r in rows]
    key = archive_key(table, ids[0], ids[-1])
    store.put_bytes(key, _gzip_lines([r[1] for r in rows]), content_type="application/gzip")
    deleted = conn.execute(sql("retention", f"{table}_delete"), {"ids": ids}).rowcount
    if deleted != len(ids):  # the rows are locked: anything else is a bug, and nothing is deleted
        raise RuntimeError(f"{QUALIFIED[table]}: archived {len(ids)} rows but would delete {deleted}")
    conn.commit()
    return len(ids), key, ids[-1]


def archive_table(conn: psycopg.Connection, store: Any, table: RetainedTable, cutoff: dt.datetime,
                  batch: int = DEFAULT_BATCH) -> dict[str, Any]:
    """Archives and deletes the table's rows older than the cutoff; {"rows": n, "files": [keys]}."""
    params: dict[str, Any] = {"cutoff": cutoff, "after": 0, "batch": batch,
                              "done_stages": [JobStage.PROMOTED, JobStage.SUPERSEDED]}
    if table is RetainedTable.STAGING_LISTINGS:
        run(conn, "retention", "staging_candidates",
            {"cutoff": cutoff, "promoted": JobStage.PROMOTED, "succeeded": JobStatus.SUCCEEDED,
             "open_reviews": [ReviewStatus.PENDING, ReviewStatus.APPROVED, ReviewStatus.REJECTED]})
        conn.commit()
    total, files = 0, []
    while True:
        n, key, params["after"] = _archive_batch(conn, store, table, params)
        if not n:
            break
        total += n
        files.append(key)
    return {"rows": total, "files": files}


def archive_old_rows(database: Database, store: Any, days: int, batch: int = DEFAULT_BATCH,
                     today: dt.date | None = None) -> dict[str, dict[str, Any]]:
    """Every retained table, in turn; {table: {"rows": n, "files": [keys]}}."""
    cutoff = cutoff_for(days, today)
    with database.connect(actor="retention") as conn:
        return {QUALIFIED[t]: archive_table(conn, store, t, cutoff, batch) for t in RetainedTable}


class RetentionConfig(Config):
    days: int | None = Field(default=None, ge=1)
    """Rows older than this many days go (None: SADIE_RETENTION_DAYS, else 90)."""
    batch_size: int = Field(default=DEFAULT_BATCH, ge=1)
    """Rows per archive file (and per transaction)."""
    object_days: int | None = Field(default=None, ge=1)
    """Objects under object_prefixes older than this many days go (None: SADIE_OBJECT_RETENTION_DAYS, else 365)."""
    object_prefixes: list[str] | None = None
    """Prefixes of the raw objects retention trims (None: SADIE_OBJECT_RETENTION_PREFIXES, else seed 000's)."""
    now: str | None = None
    """ISO time to measure objects' age from (None: now); S3 objects cannot be backdated."""


@op(description="Archives rows older than the retention period to the object store, then deletes them.")
def archive_old_rows_op(context: OpExecutionContext, config: RetentionConfig, database: Database,
                        object_store: ObjectStore):
    days = config.days or retention_days()
    result = archive_old_rows(database, object_store, days, config.batch_size)
    for table, figures in result.items():
        context.log.info(f"{table}: {figures['rows']} rows archived in {len(figures['files'])} files, then deleted")
    metadata = {"retention_days": days, **{f"{t}_rows": f["rows"] for t, f in result.items()}}
    object_days = config.object_days or object_retention_days()
    now = dt.datetime.fromisoformat(config.now) if config.now else None
    objects = delete_old_objects(object_store, config.object_prefixes or object_prefixes(), object_days, now)
    for prefix, counts in objects.items():
        context.log.info(f"{prefix}: {counts['deleted']} objects older than {object_days} days deleted, "
                         f"{counts['kept']} kept")
    metadata |= {"object_retention_days": object_days,
                 "objects_deleted": sum(c["deleted"] for c in objects.values()),
                 "objects_kept": sum(c["kept"] for c in objects.values()),
                 **{f"objects_deleted:{p}": c["deleted"] for p, c in objects.items()}}
    return Output({**result, "objects": objects}, metadata=metadata)


@job(description="Retention: old audit log, resolved dead letters, finished jobs' errors and old staged rows "
                 "archived to the object store as gzipped JSON lines, then deleted; raw API responses and "
                 "website text older than a year deleted from the object store.")
def retention_job():
    archive_old_rows_op()


def build_retention_schedule(timezone: str):
    @schedule(cron_schedule="30 3 * * *", job=retention_job, execution_timezone=timezone,
              # it deletes rows: opt in, like every schedule that deletes or sends
              default_status=DefaultScheduleStatus.STOPPED,
              description="03:30 daily, once turned on: rows older than SADIE_RETENTION_DAYS (default 90) "
                          "archived to the object store, then deleted.")
    def retention_schedule(context: ScheduleEvaluationContext):
        try:
            moment = context.scheduled_execution_time or dt.datetime.now(dt.UTC)
        except Exception:  # a context built without a tick time (a manual evaluation)
            moment = dt.datetime.now(dt.UTC)
        days = retention_days()
        config = RunConfig(ops={"archive_old_rows_op": RetentionConfig(days=days)})
        return RunRequest(run_key=f"retention-{moment:%Y-%m-%d}", run_config=config,
                          tags={"sadie/retention_days": str(days)})

    return retention_schedule

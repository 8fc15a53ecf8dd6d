"""The listings jobs run in-process on the persistent Dagster instance, as `sadie` and the demo run
them (the runs show in the UI), and what they print of a job."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sadie_pipeline.listings import job_queue
from sadie_pipeline.listings.importer import upload_prefix
from sadie_pipeline.listings.promote import job_summary, live_listing_count
from sadie_pipeline.listings.queries import sql
from sadie_pipeline.listings.repository import Dmo, get_dmo
from sadie_pipeline.listings.states import JobStage
from sadie_pipeline.migrations import upgrade
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore

if TYPE_CHECKING:
    from dagster import DagsterInstance


def import_file(database: Database, store: ObjectStore, slug: str, path: Path, promote: bool = True,
                run_id: str | None = None) -> dict[str, Any]:
    """Puts the file among the DMO's uploads (not its inbox: importer.UPLOAD_PREFIX) and runs
    listing_import_job (or listing_stage_job) for it (as run `run_id` when given: a progress bar
    follows it)."""
    upgrade(database.resolved_url())
    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
    key = f"{upload_prefix(slug)}{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%S%f}-{path.name}"
    store.put_file(key, path)
    failure = run_job("listing_import_job" if promote else "listing_stage_job", slug,
                      {"ops": {"listing_raw_files": {"config": {"inbox_key": key}}}}, run_id=run_id)
    return _outcome(database, dmo, "source_key = %s", key, failure)


def pull_now(database: Database, slug: str, promote: bool = True, run_id: str | None = None) -> dict[str, Any]:
    """Pulls the DMO's configured source now (listing_raw_files with no inbox key pulls it), then
    stages and promotes as for a file; the outcome as import_file's."""
    upgrade(database.resolved_url())
    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
        started = conn.execute("SELECT now()").fetchone()[0]
    failure = run_job("listing_import_job" if promote else "listing_stage_job", slug, run_id=run_id)
    return _outcome(database, dmo, "created_at >= %s", started, failure)


def _outcome(database: Database, dmo: Any, which: str, value: Any, failure: str | None) -> dict[str, Any]:
    """The run's job (the newest of the DMO's jobs matching `which`), its summary and the live count."""
    with database.connect() as conn:
        row = conn.execute(f"SELECT id FROM pipeline.jobs WHERE dmo_id = %s AND {which} ORDER BY id DESC LIMIT 1",
                           (dmo.id, value)).fetchone()
        summary = job_summary(conn, row[0]) if row else {}
        live = live_listing_count(conn, dmo)
    return {"job_id": row[0] if row else None, "summary": summary, "live": live, "failure": failure}


def run_job(job_name: str, slug: str, run_config: dict[str, Any] | None = None, *,
            assets: Sequence[str] | None = None, run_id: str | None = None) -> str | None:
    """Executes a job (only `assets` of it, when given) for one DMO partition; returns the failure
    reason, or None when it succeeded."""
    from dagster import AssetKey, DagsterEventType, DagsterInstance

    from sadie_pipeline.definitions import build_defs
    from sadie_pipeline.partitions import DMO_PARTITIONS_NAME

    instance = DagsterInstance.get()
    if not instance.has_dynamic_partition(DMO_PARTITIONS_NAME, slug):
        instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, [slug])
    quiet = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
    # built now: the resources take the settings of the environment as it is (a test's, the demo's)
    result = build_defs().resolve_job_def(job_name).execute_in_process(
        run_config={**quiet, **(run_config or {})}, instance=instance, partition_key=slug, raise_on_error=False,
        asset_selection=[AssetKey(a) for a in assets] if assets else None, run_id=run_id)
    if result.success:
        return None
    for event in result.all_events:
        if event.event_type == DagsterEventType.ASSET_CHECK_EVALUATION:
            evaluation = event.event_specific_data
            if not evaluation.passed:
                meta = {k: v.value for k, v in evaluation.metadata.items()}
                return (f"stage check {evaluation.check_name} failed: error rate {meta.get('error_rate')} over "
                        f"{meta.get('max_error_rate')}; promotion was not run (sadie promote {slug} --accept-errors "
                        f"promotes it anyway)")
        if event.event_type == DagsterEventType.STEP_FAILURE:
            data = event.step_failure_data
            if data.user_failure_data and data.user_failure_data.description:
                return data.user_failure_data.description
            return data.error.message.strip().splitlines()[-1] if data.error else "step failed"
    return "run failed"


def latest_import(database: Database, slug: str) -> dict[str, Any]:
    """The DMO's newest job, as import_file tells of the job it ran (for summary_line); its job_id
    is None when the DMO has imported nothing yet."""
    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
        [job_id] = conn.execute(sql("jobs", "newest"), {"dmo": dmo.id}).fetchone()
        summary = job_summary(conn, job_id) if job_id is not None else {}
        live = live_listing_count(conn, dmo)
    return {"job_id": job_id, "summary": summary, "live": live, "failure": None}


def records_progress(database: Database, run_id: str) -> str:
    """What a run has imported and staged so far: "40 records read, 40 staged"."""
    with database.connect() as conn:
        counts = dict(conn.execute(sql("jobs", "run_records"), {"run": run_id}).fetchall())
    if not counts:
        return ""
    return f"{counts.get('raw', 0)} records read, {counts.get('transformed', 0)} staged"


def summary_line(slug: str, outcome: dict[str, Any]) -> str:
    """One line on the job: what it staged and applied, or what became of it."""
    s = outcome["summary"]
    head = f"{slug}: job {outcome['job_id']}: {s['records_read'] or 0} read; "
    if s["stage"] == JobStage.SUPERSEDED:
        return head + f"superseded by job {s['superseded_by']} before it was promoted: nothing of it was applied"
    return head + (f"{s['inserted']} inserted, {s['updated']} updated, {s['unchanged']} unchanged, "
                   f"{s['duplicate']} duplicate, {s['deleted']} deleted, {s['needing_review']} needing review, "
                   f"{s['errors']} errors; {outcome['live']} listings now live")


_DONE = {"insert": "inserted", "update": "updated", "delete": "deleted"}


@dataclass
class RunWork:
    """What listings runs did for one DMO, read from their assets' materialisations."""
    staged: list[int] = field(default_factory=list)     # jobs its stage took
    promoted: list[int] = field(default_factory=list)   # staged jobs its promotion took
    rows_promoted: dict[str, int] = field(default_factory=dict)  # rows its promotion applied, by action


def runs_work(instance: DagsterInstance, run_ids: Sequence[str]) -> dict[str, RunWork]:
    """By DMO, what the runs' listing_stage and listing_promotion did (a DMO whose runs materialised
    neither, e.g. a stage that failed, is absent)."""
    from dagster import DagsterEventType

    work: dict[str, RunWork] = {}
    for run_id in run_ids:
        for record in instance.get_records_for_run(run_id, of_type=DagsterEventType.ASSET_MATERIALIZATION).records:
            mat = record.event_log_entry.asset_materialization
            if mat is None or mat.partition is None:
                continue
            meta, did = {k: v.value for k, v in mat.metadata.items()}, work.setdefault(mat.partition, RunWork())
            if mat.asset_key.to_user_string() == "listing_stage":
                did.staged += meta.get("jobs_staged") or []
            elif mat.asset_key.to_user_string() == "listing_promotion":
                did.promoted += meta.get("jobs_promoted") or []
                did.rows_promoted.update({k.removeprefix("promoted_"): n for k, n in meta.items()
                                          if k.startswith("promoted_") and k != "promoted_total"})
    return work


def work_line(database: Database, slug: str, work: RunWork) -> str:
    """One line on what a run did for the DMO: the newest job it staged or promoted (summary_line);
    else the rows people decided on it promoted; else that it had nothing to stage or promote."""
    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
        live = live_listing_count(conn, dmo)
        if work.staged or work.promoted:
            job_id = max(work.staged + work.promoted)
            return summary_line(slug, {"job_id": job_id, "summary": job_summary(conn, job_id), "live": live})
    if rows := sum(work.rows_promoted.values()):
        counts = ", ".join(f"{n} {_DONE.get(a, a)}" for a, n in sorted(work.rows_promoted.items()) if n)
        return f"{slug}: nothing to stage; {rows} rows people decided on promoted ({counts}); {live} listings now live"
    return f"{slug}: nothing to stage or promote; {live} listings live"


def blocked_jobs(db: Database, dmo: Dmo) -> str | None:
    """Why the DMO's staged jobs that failed their error-rate check were not promoted, if any are."""
    blocked = [j for j in job_queue.jobs_to_promote(db, dmo.id, None, every=True) if not j.allowed]
    if not blocked:
        return None
    jobs = ", ".join(f"job {j.id} (error rate {j.error_rate} over {j.max_error_rate})" for j in blocked)
    them = "it" if len(blocked) == 1 else "them"
    return (f"not promoted: {jobs} failed the stage's error-rate check; "
            f"sadie promote {dmo.slug} --accept-errors promotes {them} anyway")

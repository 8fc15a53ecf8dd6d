"""A DMO's jobs in arrival order: the jobs of dead processes failed, and what each step takes.
Every function here runs under the DMO's lock (locks.holding_dmo), so what it reads stays true
until the step ends."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sadie_pipeline.listings.locks import Holder, LockSpace
from sadie_pipeline.listings.queries import run, sql
from sadie_pipeline.resources.database import Database


def reap_dead_jobs(db: Database, holder: Holder, dmo_id: int, by: str) -> list[int]:
    """Fails the DMO's jobs marked in progress whose lock nobody holds (every process working on a
    job holds it shared): their process died. What they staged is removed."""
    with db.connect() as conn:
        candidates = [r[0] for r in conn.execute(sql("jobs", "in_progress"), {"dmo": dmo_id})]
    dead = []
    for job_id in candidates:
        if not holder.try_acquire(LockSpace.JOB, job_id):
            continue  # a live process works on it
        try:
            with db.connect() as conn:
                run(conn, "jobs", "fail_dead", {"job": job_id, "by": f"{by} at {dt.datetime.now():%Y-%m-%d %H:%M:%S}"})
            dead.append(job_id)
        finally:
            holder.release(LockSpace.JOB, job_id)
    if dead:
        holder.log(f"jobs {dead}: their process died; marked failed and their staged rows removed")
    return dead


def run_jobs(db: Database, dmo_id: int, run_key: str | None) -> list[int]:
    """The DMO's jobs of a Dagster run (run_key: the root run's id, which a re-executed run keeps)."""
    if not run_key:
        return []
    with db.connect() as conn:
        return [r[0] for r in conn.execute(sql("jobs", "own"), {"dmo": dmo_id, "run": run_key})]


def newest_job(db: Database, dmo_id: int) -> list[int]:
    with db.connect() as conn:
        newest = conn.execute(sql("jobs", "newest"), {"dmo": dmo_id}).fetchone()[0]
    return [newest] if newest is not None else []


def jobs_to_stage(db: Database, holder: Holder, dmo_id: int, own: list[int], by: str) -> list[int]:
    """The jobs a stage takes, in arrival order, up to the newest of `own`; older imports still
    running are waited for first (their lock), so that none is left behind."""
    if not own:
        return []
    params = {"dmo": dmo_id, "upto": max(own), "own": own}
    with db.connect() as conn:
        importing = [r[0] for r in conn.execute(sql("jobs", "importing_before"), params)]
    for job_id in importing:
        holder.acquire(LockSpace.JOB, job_id, f"the import of job {job_id}")
        holder.release(LockSpace.JOB, job_id)
    if importing:
        reap_dead_jobs(db, holder, dmo_id, by)
    with db.connect() as conn:
        return [r[0] for r in conn.execute(sql("jobs", "to_stage"), params)]


@dataclass(frozen=True)
class StagedJob:
    id: int
    allowed: bool  # its stage passed the error-rate check, or somebody accepted its errors
    error_rate: float | None
    max_error_rate: float | None


def jobs_to_promote(db: Database, dmo_id: int, upto: int | None, every: bool) -> list[StagedJob]:
    """The DMO's staged jobs up to `upto` (all when None) whose run meant to promote them, or every
    staged job when `every` (a person's promotion)."""
    with db.connect() as conn:
        rows = conn.execute(sql("jobs", "to_promote"),
                            {"dmo": dmo_id, "upto": upto, "every": every})
        return [StagedJob(i, a, float(r) if r is not None else None, float(m) if m is not None else None)
                for i, a, r, m in rows]

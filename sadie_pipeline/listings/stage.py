"""Transform & stage: a DMO's imported jobs, in arrival order, to resolved staged rows. Each job's
raw files are staged in worker processes (stage_files.py), each file checkpointed, then the job is
resolved in the stage's own transaction (resolve.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import psycopg

from sadie_pipeline.core.errors import first_line
from sadie_pipeline.listings import job_queue, versions
from sadie_pipeline.listings.locks import Holder, LockSpace, holding_dmo
from sadie_pipeline.listings.promote import promote_before
from sadie_pipeline.listings.queries import run, sql, tune
from sadie_pipeline.listings.raw_files import file_key
from sadie_pipeline.listings.repository import Dmo, job_config, set_job_state
from sadie_pipeline.listings.resolve import resolve_job
from sadie_pipeline.listings.stage_files import FileTask, JobContext, init_worker, stage_file_in_worker, worker_pool
from sadie_pipeline.listings.staleness import propose_stale
from sadie_pipeline.listings.states import JobStage, JobStatus
from sadie_pipeline.listings.trusted import rows_of_job
from sadie_pipeline.memory import map_large_blocks
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.settings import listings_fast_paths

# A job with at least this many raw files to stage transforms them in worker processes.
PARALLEL_FROM_FILES = 3
# The most worker processes a stage may be given (each holds one file's records: under 100 MB).
MAX_WORKERS = 32


def default_workers() -> int:
    """One worker per core this process may run on (the machine's cores, unless pinned to fewer)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass
class StageResult:
    job_id: int | None
    records_read: int = 0
    errors: int = 0
    files_staged: int = 0
    files_resumed: int = 0
    records_reused: int = 0
    records_copied: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    needs_review: int = 0
    identifier_reviews: int = 0  # of those, records sharing an identifier with a listing (no silent duplicate)
    transformed_keys: list[str] = field(default_factory=list)
    error_types: dict[str, int] = field(default_factory=dict)
    jobs_staged: list[int] = field(default_factory=list)  # every job this stage took, in order
    promoted_first: list[int] = field(default_factory=list)  # earlier jobs promoted before those
    # A stage that took no job (job_id None): the figures of the job staged earlier that waits for
    # promotion (the run's own, staged by another run's stage, else the DMO's newest), if one does.
    waiting: StageResult | None = None


def stage_dmo(db: Database, store: ObjectStore, dmo: Dmo, run_key: str | None = None,
              log: Callable[[str], None] = lambda m: None, workers: int | None = None) -> StageResult:
    """The stage step, under the DMO's lock: the DMO's jobs waiting to be staged, in arrival order, up
    to the run's own (run_key: the root run's id; without jobs of its own, the DMO's newest job).
    Before each, the earlier jobs their runs meant to promote are promoted, so that concurrent runs
    end where the same runs one after the other end. Returns the last job's result; when there was
    no job to stage, StageResult(None) with the job waiting for promotion (its check is judged again).
    `workers`: the processes transforming a job's files at once (None: default_workers())."""
    map_large_blocks()  # the resolution's temporary arrays given back when freed (memory.py)
    with holding_dmo(db, dmo.id, dmo.slug, "stage", log) as holder:
        by = f"by the stage of {dmo.slug}"
        job_queue.reap_dead_jobs(db, holder, dmo.id, by)
        own = job_queue.run_jobs(db, dmo.id, run_key) or job_queue.newest_job(db, dmo.id)
        todo = job_queue.jobs_to_stage(db, holder, dmo.id, own, by)
        if not todo:
            return StageResult(None, waiting=_waiting(db, own[-1]) if own else None)
        result, promoted = StageResult(None), []
        for job_id in todo:
            promoted += promote_before(db, holder, dmo, job_id)
            result = stage_job(db, store, dmo, job_id, holder, log, workers)
        result.jobs_staged, result.promoted_first = todo, promoted
        return result


def _waiting(db: Database, job_id: int) -> StageResult | None:
    """The figures of the job when an earlier stage staged it and it waits for promotion, so that this
    run's blocking check judges what its promotion would take; None for a job promoted, superseded
    or not staged (an old job's figures would judge nothing this run does)."""
    with db.connect() as conn:
        stage = conn.execute("SELECT stage FROM pipeline.jobs WHERE id = %s", (job_id,)).fetchone()[0]
        if stage != JobStage.STAGED:
            return None
        result = StageResult(job_id)
        _summarise(conn, result)
    return result


def stage_job(db: Database, store: ObjectStore, dmo: Dmo, job_id: int, holder: Holder,
              log: Callable[[str], None] = lambda m: None, workers: int | None = None) -> StageResult:
    """Stages one job (its checkpointed files are not staged again, unless another release staged
    them); it fails with the error."""
    holder.acquire(LockSpace.JOB, job_id, f"job {job_id}", shared=True)
    try:
        with db.connect() as conn:
            _clear_other_release(conn, job_id, log)
            run(conn, "jobs", "start_stage", {"job": job_id, "transform_version": versions.TRANSFORM_VERSION,
                                              "key_version": versions.KEY_VERSION})
            run(conn, "stage", "clear_unfinished_files", {"job": job_id})
        return _stage_job(db, store, dmo, job_id, log, workers if workers is not None else default_workers())
    except BaseException as exc:
        with db.connect() as conn:
            set_job_state(conn, job_id, stage=JobStage.STAGE, status=JobStatus.FAILED,
                          error=first_line(exc))
        raise
    finally:
        holder.release(LockSpace.JOB, job_id, shared=True)


def _clear_other_release(conn: psycopg.Connection, job_id: int, log: Callable[[str], None]) -> None:
    """A failed stage retried after a release starts again from raw: its checkpointed rows are the
    earlier code's, and the job is about to be stamped with the running versions."""
    [staged_by] = conn.execute(sql("jobs", "staged_by"), {"job": job_id}).fetchone()
    if staged_by is not None and staged_by != versions.TRANSFORM_VERSION:
        run(conn, "stage", "clear_other_release", {"job": job_id})
        log(f"job {job_id} was staged in part by another release (transform {staged_by}): staging it from raw")


def _stage_job(db: Database, store: ObjectStore, dmo: Dmo, job_id: int, log: Callable[[str], None],
               workers: int) -> StageResult:
    # The stage's own transaction: the unchanged records, staged thin while the files' own
    # transactions stage the other records, then the job's resolution; they commit together.
    with db.connect() as conn:
        tune(conn)
        config = job_config(conn, job_id)
        files = run(conn, "stage", "raw_files", {"job": job_id}).fetchall()
        reused = _find_reused(conn, dmo, job_id) if listings_fast_paths() else _no_reuse(conn)
        reopened = _reopen_files_missing_records(db, conn, job_id, [batch for _, batch, _, _, done in files if done])
        result = StageResult(job_id, records_reused=reused.thin_count, records_copied=reused.twin_count)
        todo = []
        for file_id, batch, day, records, done in files:
            result.transformed_keys.append(file_key("transformed", dmo.slug, day, job_id, batch))
            if done and batch not in reopened:
                result.files_resumed += 1
            else:
                todo.append(FileTask(file_id, batch, day, records, reused.thin_by_file.get(batch, frozenset()),
                                     *reused.twins.get(batch, ((), ()))))
        job = JobContext(db.resolved_url(), store.plain(), dmo.id, dmo.slug, job_id, config)
        _stage_files(job, todo, workers, log, meanwhile=lambda: _alongside_files(conn, dmo, job_id, reused))
        result.files_staged = len(todo)
        resolve_job(conn, dmo, job_id, config)
        propose_stale(conn, dmo.id, job_id, config)  # a pulled source's records unseen for too long (issue 33)
        _summarise(conn, result)
        rate = result.errors / result.records_read if result.records_read else 0.0
        run(conn, "jobs", "staged", {"job": job_id, "error_rate": round(rate, 5),
                                     "max_error_rate": config["validate"]["max_error_rate"]})
    return result


@dataclass(frozen=True)
class _Reused:
    """The job's records staged from earlier rows instead of their raw lines, by file: thin rows'
    rec_nums (written by _alongside_files), and twins' rec_nums and data rows (copied by the files'
    workers)."""
    thin_by_file: dict[int, frozenset[int]]
    twins: dict[int, tuple[tuple[int, ...], tuple[int, ...]]]

    @property
    def thin_count(self) -> int:
        return sum(map(len, self.thin_by_file.values()))

    @property
    def twin_count(self) -> int:
        return sum(len(rec_nums) for rec_nums, _ in self.twins.values())


def _find_reused(conn: psycopg.Connection, dmo: Dmo, job_id: int) -> _Reused:
    """The job's records not staged yet that the DMO sent unchanged since its last promoted import
    run with the same config and code (none without one): those staged thin (find_thin, kept in
    `thin` for _alongside_files), and those still under review there (twins_by_file)."""
    params = {"job": job_id, "dmo": dmo.id, "transform_version": versions.TRANSFORM_VERSION}
    params["previous"] = conn.execute(sql("stage", "previous_import"), params).fetchone()[0]
    run(conn, "planner", "hash_joins")
    run(conn, "stage", "find_thin", params)
    thin = {batch: frozenset(rec_nums) for batch, rec_nums in run(conn, "stage", "thin_by_file")}
    twins = {batch: (tuple(rec_nums), tuple(data_ids)) for batch, rec_nums, data_ids in
             run(conn, "stage", "twins_by_file", params)} if params["previous"] is not None else {}
    run(conn, "planner", "any_joins")
    return _Reused(thin, twins)


def _no_reuse(conn: psycopg.Connection) -> _Reused:
    """The fast paths off: nothing reused, and `thin` (which missing_records reads) empty."""
    run(conn, "stage", "no_thin")
    return _Reused({}, {})


def _reopen_files_missing_records(db: Database, conn: psycopg.Connection, job_id: int, done: list[int]) -> set[int]:
    """Checkpointed files with a record an earlier attempt skipped as unchanged that is not any more
    (missing_records), emptied, in a transaction of their own that commits before their workers
    write them again. Normally none: the records such attempts skipped are staged thin now."""
    if not done:
        return set()
    run(conn, "planner", "hash_joins")
    files = [r[0] for r in run(conn, "stage", "missing_records", {"job": job_id, "files": done})]
    run(conn, "planner", "any_joins")
    if files:
        with db.connect() as other:
            run(other, "stage", "reopen_files", {"job": job_id, "files": files})
    return set(files)


def _alongside_files(conn: psycopg.Connection, dmo: Dmo, job_id: int, reused: _Reused) -> None:
    """The stage's transaction while the files are staged: the records _find_reused kept in `thin`,
    staged thin, then what older jobs left waiting superseded (whatever this job's resolution finds)."""
    if reused.thin_by_file:
        with rows_of_job(conn, job_id, ["staging.listings"]):
            run(conn, "stage", "write_thin")
    run(conn, "stage", "supersede_older", {"job": job_id, "dmo": dmo.id})


def _stage_files(job: JobContext, todo: list[FileTask], workers: int, log: Callable[[str], None],
                 meanwhile: Callable[[], None]) -> None:
    """Stages the files, in up to `workers` processes when there are enough, while `meanwhile` runs
    on a thread. When that fails, its error is the one raised."""
    # workers only for files with records to transform (not only thin rows and twins to copy), and
    # no more than those files: a worker with no file would only cost its start
    busy = sum(t.records > len(t.thin) + len(t.twins) for t in todo)
    with ExitStack() as stack:
        if workers > 1 and busy >= PARALLEL_FROM_FILES:
            staged: Any = stack.enter_context(worker_pool(job, min(workers, busy))).map(stage_file_in_worker, todo)
        else:
            init_worker(job)
            staged = map(stage_file_in_worker, todo)
        running = stack.enter_context(ThreadPoolExecutor(1)).submit(meanwhile)
        try:
            for task in staged:
                log(f"staged file {task.batch} of job {job.job_id}")
        finally:
            running.result()


def _summarise(conn: psycopg.Connection, result: StageResult) -> None:
    params = {"job": result.job_id}
    for action, count, pending in run(conn, "stage", "action_counts", params):
        result.actions[action] = count
        result.needs_review += pending
    result.records_read = conn.execute("SELECT coalesce(records_read, 0) FROM pipeline.jobs WHERE id = %(job)s",
                                       params).fetchone()[0]
    result.identifier_reviews = run(conn, "stage", "identifier_reviews", params).fetchone()[0]
    result.error_types = dict(run(conn, "stage", "error_types", params).fetchall())
    result.errors = sum(result.error_types.values())


"""Transform & stage: raw files -> staged rows (per file, checkpointed), then job-level matching."""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

import orjson
import psycopg

from sadie_pipeline.core.matching import (
    NO_CANDIDATE_FILTER,
    MatchRecord,
    candidate_blocks,
    candidate_filter,
    match_against,
    match_within,
)
from sadie_pipeline.core.transform import RecordTransformer
from sadie_pipeline.listings import stage_sql as sql
from sadie_pipeline.listings.raw_files import GzipLines, dumps_line, file_key, iter_lines_gz, raw_rec_num
from sadie_pipeline.listings.repository import (
    Dmo,
    job_config,
    rows_of_job,
    set_job_state,
)
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore

LISTING_COLUMNS = ("id", "job_id", "dmo_id", "file_seq", "rec_num", *sql.LISTING_DATA_COLUMNS)
INFO_COLUMNS = ("id", "job_id", *sql.INFO_DATA_COLUMNS)
_JSON_COLUMNS = {"images", "hours"}
# A job with at least this many raw files to stage transforms them in worker processes.
PARALLEL_FROM_FILES = 3


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
    transformed_keys: list[str] = field(default_factory=list)
    error_types: dict[str, int] = field(default_factory=dict)


def job_to_stage(conn: psycopg.Connection, dmo: Dmo) -> int | None:
    row = conn.execute(
        "SELECT id FROM pipeline.jobs WHERE dmo_id = %s AND stage IN ('imported', 'stage') ORDER BY id DESC LIMIT 1",
        (dmo.id,),
    ).fetchone()
    return row[0] if row else None


def stage_latest_job(db: Database, store: ObjectStore, dmo: Dmo, log: Callable[[str], None] = lambda m: None,
                     workers: int | None = None) -> StageResult:
    with db.connect() as conn:
        job_id = job_to_stage(conn, dmo)
        if job_id is None or not _hold_job(conn, job_id):
            return StageResult(None)
        set_job_state(conn, job_id, stage="stage", status="in_progress")
        conn.execute(sql.CLEAR_UNFINISHED_FILES, {"job": job_id})
    # The stage's own transaction: the unchanged records, staged thin while the files' own
    # transactions stage the other records (and older jobs' waiting rows superseded), then the
    # job's resolution. The thin rows commit with the resolution; an attempt that fails before
    # leaves them to the next (sql.CLEAR_UNFINISHED_FILES, FIND_THIN).
    with db.connect() as conn:
        if not _hold_job(conn, job_id):
            return StageResult(None)
        config = job_config(conn, job_id)
        files = conn.execute(
            """SELECT r.id, r.batch, r.file_date, r.record_count, t.id IS NOT NULL
                 FROM pipeline.job_files r
                 LEFT JOIN pipeline.job_files t ON t.job_id = r.job_id AND t.stage = 'transformed' AND t.batch = r.batch
                WHERE r.job_id = %s AND r.stage = 'raw' ORDER BY r.batch""",
            (job_id,),
        ).fetchall()
        reused = _find_reused(conn, dmo, job_id)
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
        job = JobContext(db.resolved_url(), store.model_dump(), dmo, job_id, config)
        _stage_files(job, todo, workers if workers is not None else min(2, os.cpu_count() or 1), log,
                     meanwhile=lambda: _alongside_files(conn, dmo, job_id, reused))
        result.files_staged = len(todo)
        _resolve(conn, dmo, job_id, config)
        set_job_state(conn, job_id, stage="staged", status="succeeded")
        _summarise(conn, result)
    return result


def _hold_job(conn: psycopg.Connection, job_id: int) -> bool:
    """Locks the job row until the transaction ends, so that another stage of the job waits (its
    files' transactions, which lock the row FOR KEY SHARE, do not), and says whether the job is
    still to be staged: a stage that held it meanwhile may have staged it."""
    row = conn.execute("SELECT stage FROM pipeline.jobs WHERE id = %s FOR NO KEY UPDATE", (job_id,)).fetchone()
    return row is not None and row[0] in ("imported", "stage")


def _hash_joined(conn: psycopg.Connection, query: str, params: dict[str, Any]) -> psycopg.Cursor:
    """Runs a query over whole jobs with nested loops off. The jobs' rows were written after the
    last statistics, and nothing indexes a staged row's rec_num: as nested loops, the joins would
    read a job's rows once per record; hashed, once."""
    conn.execute("SET LOCAL enable_nestloop = off")
    found = conn.execute(query, params)
    conn.execute("RESET enable_nestloop")
    return found


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
    run with the same config (none without one): those staged thin (sql.FIND_THIN, kept in `thin`
    for _alongside_files), and those still under review there (sql.TWINS_BY_FILE)."""
    previous = conn.execute(
        """SELECT max(j.id) FROM pipeline.jobs j
             JOIN pipeline.job_configs c ON c.job_id = j.id
             JOIN pipeline.job_configs me ON me.job_id = %(job)s
            WHERE j.dmo_id = %(dmo)s AND j.id < %(job)s AND j.stage = 'promoted' AND c.config_params = me.config_params""",
        {"job": job_id, "dmo": dmo.id},
    ).fetchone()[0]
    params = {"job": job_id, "previous": previous, "dmo": dmo.id}
    for stmt in sql.FIND_SETTINGS:
        conn.execute(stmt)
    _hash_joined(conn, sql.FIND_THIN, params)
    thin = {batch: frozenset(rec_nums) for batch, rec_nums in conn.execute(sql.THIN_BY_FILE)}
    twins = {batch: (tuple(rec_nums), tuple(data_ids)) for batch, rec_nums, data_ids in
             _hash_joined(conn, sql.TWINS_BY_FILE, params)} if previous is not None else {}
    return _Reused(thin, twins)


def _reopen_files_missing_records(db: Database, conn: psycopg.Connection, job_id: int, done: list[int]) -> set[int]:
    """Checkpointed files with a record an earlier attempt skipped as unchanged that is not any more
    (sql.MISSING_RECORDS), emptied, in a transaction of their own that commits before their
    workers write them again. Normally none: the records such attempts skipped are staged thin now."""
    if not done:
        return set()
    files = [r[0] for r in _hash_joined(conn, sql.MISSING_RECORDS, {"job": job_id, "files": done})]
    if files:
        with db.connect() as other:
            for stmt in sql.REOPEN_FILES:
                other.execute(stmt, {"job": job_id, "files": files})
    return set(files)


def _alongside_files(conn: psycopg.Connection, dmo: Dmo, job_id: int, reused: _Reused) -> None:
    """The stage's transaction while the files are staged: the records _find_reused kept in `thin`,
    staged thin, then the waiting rows of older jobs superseded (whatever this job's resolution finds)."""
    if reused.thin_by_file:
        with rows_of_job(conn, job_id, ["staging.listings"]):
            conn.execute(sql.WRITE_THIN)
    for stmt in sql.SUPERSEDE_OLDER:
        conn.execute(stmt, {"job": job_id, "dmo": dmo.id})


def _stage_files(job: JobContext, todo: list[FileTask], workers: int, log: Callable[[str], None],
                 meanwhile: Callable[[], None]) -> None:
    """Stages the files, in worker processes when there are enough, while `meanwhile` runs on a
    thread. When that fails, its error is the one raised."""
    with ExitStack() as stack:
        if workers > 1 and sum(t.records > len(t.thin) for t in todo) >= PARALLEL_FROM_FILES:
            # fork: the workers start in milliseconds with everything imported; they only open their
            # own connections and files. map submits every file: they fork before the thread starts.
            pool = stack.enter_context(ProcessPoolExecutor(workers, mp_context=get_context("fork"),
                                                           initializer=_init_worker, initargs=(job,)))
            staged = pool.map(_stage_file_in_worker, todo)
        else:
            _init_worker(job)
            staged = map(_stage_file_in_worker, todo)
        running = stack.enter_context(ThreadPoolExecutor(1)).submit(meanwhile)
        try:
            for task in staged:
                log(f"staged file {task.batch} of job {job.job_id}")
        finally:
            running.result()


@dataclass(frozen=True)
class FileTask:
    file_id: int
    batch: int
    day: dt.date
    records: int
    thin: frozenset[int] = frozenset()  # rec_nums of the file staged thin (not read)
    twins: tuple[int, ...] = ()  # rec_nums of the file copied from the staged rows data_ids (not read)
    data_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class JobContext:
    """What staging one file needs; plain data, so it crosses into worker processes."""
    database_url: str
    store: dict[str, Any]
    dmo: Dmo
    job_id: int
    config: dict[str, Any]


_job: JobContext | None = None
_transformer: RecordTransformer | None = None


def _init_worker(job: JobContext) -> None:
    global _job, _transformer
    _job, _transformer = job, RecordTransformer(job.config, job.dmo.id)


def _stage_file_in_worker(task: FileTask) -> FileTask:
    assert _job is not None and _transformer is not None
    _stage_file(Database(url=_job.database_url), ObjectStore(**_job.store), _job, task, _transformer)
    return task


def _stage_file(db: Database, store: ObjectStore, job: JobContext, task: FileTask, transformer: RecordTransformer) -> None:
    """The file's records not staged thin, in one transaction: their staged rows (transformed, or
    copied from their twins), their errors and the file's checkpoint row (its transformed file: the
    records transformed). A file staged thin or copied throughout is not read."""
    job_id, dmo, batch = job.job_id, job.dmo, task.batch
    staged: list[dict[str, Any]] = []
    errors: list[tuple[Any, ...]] = []
    skip = task.thin.union(task.twins) if task.twins else task.thin
    out_key = file_key("transformed", dmo.slug, task.day, job_id, batch)
    with store.open_write(out_key) as fh, GzipLines(fh) as out:
        lines = iter_lines_gz(store, file_key("raw", dmo.slug, task.day, job_id, batch)) \
            if task.records > len(skip) else ()
        for line in lines:
            if skip and raw_rec_num(line) in skip:
                continue
            raw = orjson.loads(line)
            res = transformer(raw)
            if res.record is None:
                errors.append((job_id, task.file_id, raw.get("rec_num"), raw.get("source_id"),
                               json.dumps(raw, default=str), res.errors[0].error_type,
                               "; ".join(e.message for e in res.errors)))
                continue
            res.record["rec_num"] = raw.get("rec_num")
            res.record["raw_hash"] = raw.get("raw_hash")
            staged.append(res.record)
            out.write(dumps_line(res.record))
    with db.connect() as conn:
        ids = [r[0] for r in conn.execute(
            "SELECT nextval('staging.listings_id_seq') FROM generate_series(1, %s)", (len(staged) + len(task.twins),))]
        ids, twin_ids = ids[:len(staged)], ids[len(staged):]
        # The staged rows' foreign keys: job_id checked by rows_of_job; listing_info -> listings holds
        # by construction when both COPYs write every row: each info row's parent is the listings
        # row written just before from the same id, in this transaction, where nothing can remove it.
        info_columns = [(c, c in _JSON_COLUMNS) for c in INFO_COLUMNS[2:]]
        with rows_of_job(conn, job_id, ("staging.listings", "staging.listing_info")) as trusted, \
                conn.cursor() as cur:
            with cur.copy(f"COPY staging.listings ({', '.join(LISTING_COLUMNS)}) FROM STDIN") as copy:
                for sid, rec in zip(ids, staged):
                    copy.write_row([sid, job_id, dmo.id, batch, *[rec.get(c) for c in LISTING_COLUMNS[4:]]])
            parents = cur.rowcount
            with cur.copy(f"COPY staging.listing_info ({', '.join(INFO_COLUMNS)}) FROM STDIN") as copy:
                for sid, rec in zip(ids, staged):
                    copy.write_row([sid, job_id, *[orjson.dumps(rec.get(c)).decode() if as_json else rec.get(c)
                                                   for c, as_json in info_columns]])
            if trusted and (parents, cur.rowcount) != (len(staged), len(staged)):
                raise psycopg.errors.ForeignKeyViolation(
                    f"{cur.rowcount} staged listing_info rows written for {parents} listings rows")
            if task.twins:
                params = {"job": job_id, "file_seq": batch, "ids": twin_ids, "rec_nums": list(task.twins),
                          "data_ids": list(task.data_ids)}
                copied = [cur.execute(stmt, params).rowcount for stmt in sql.COPY_TWINS]
                if copied != [len(task.twins)] * 2:  # a data row gone meanwhile: a retry transforms them
                    raise RuntimeError(f"{copied} of {len(task.twins)} records of file {batch} copied from their twins")
        with conn.cursor() as cur:
            if errors:
                cur.executemany(
                    """INSERT INTO pipeline.job_errors (job_id, file_id, stage, rec_num, record_id, original_record,
                                                        error_type, error_message)
                       VALUES (%s, %s, 'stage', %s, %s, %s, %s, %s)""",
                    errors,
                )
        conn.execute(
            """INSERT INTO pipeline.job_files (job_id, s3_path, stage, data_domain, dmo_id, file_date, batch,
                                               format, file_size, record_count)
               VALUES (%s, %s, 'transformed', 'listings', %s, %s, %s, 'jsonl.gz', %s, %s)""",
            (job_id, store.uri(out_key), dmo.id, task.day, batch, store.size(out_key), len(staged)),
        )


def _resolve(conn: psycopg.Connection, dmo: Dmo, job_id: int, config: dict[str, Any]) -> None:
    params = {"job": job_id, "dmo": dmo.id, "auto_match": config["stage"]["auto_match_threshold"]}
    for stmt in sql.LOAD_WORK:
        conn.execute(stmt, params)
    _fuzzy(conn, params, config["stage"]["review_threshold"])
    for stmt in (sql.TARGET_COLLISIONS, sql.MATCH_LISTING_INFO, *sql.WRITE_BACK):
        conn.execute(stmt, params)
    # The parents of these rows are the job's rows WRITE_BACK just updated (locked until commit);
    # the job row locked FOR KEY SHARE keeps them from going with the job.
    with rows_of_job(conn, job_id, ["staging.listing_info"]):
        conn.execute(sql.THICKEN_DUPLICATES, params)
    if config["import"]["full_import"]:
        for stmt in sql.DETECT_DELETIONS:
            conn.execute(stmt, params)


def _fuzzy(conn: psycopg.Connection, params: dict[str, Any], review_threshold: float) -> None:
    """Records no exact rule placed: fuzzy candidates among existing listings, then among each other."""
    rows = [MatchRecord(*r) for r in conn.execute(sql.UNMATCHED_ROWS, params)]
    if not rows:
        return
    candidates = _candidates(conn, rows, review_threshold)
    workers = min(2, os.cpu_count() or 1)
    to_public = match_against(rows, candidates, review_threshold, workers=workers) if candidates else []
    matched = {m.record_id for m in to_public}
    to_batch = match_within([r for r in rows if r.id not in matched], review_threshold, workers=workers)
    conn.execute("CREATE TEMP TABLE fuzzy (id bigint, target int, dup bigint, certainty numeric) ON COMMIT DROP")
    with conn.cursor().copy("COPY fuzzy (id, target, dup, certainty) FROM STDIN") as copy:
        for m in to_public:
            copy.write_row((m.record_id, m.candidate_id, None, m.certainty))
        for m in to_batch:
            copy.write_row((m.record_id, None, m.candidate_id, m.certainty))
    # Its row count and unique ids, so the update hashes these few rows, not the whole of `work`.
    conn.execute("ANALYZE fuzzy")
    conn.execute(sql.APPLY_FUZZY)


def _candidates(conn: psycopg.Connection, rows: list[MatchRecord], review_threshold: float) -> list[MatchRecord]:
    """The listings of the rows' blocks that fuzzy matching may compare with them (narrowed by house
    number: matching.candidate_filter). With no listing at all yet, not even the filter is built."""
    if not conn.execute("SELECT EXISTS (SELECT FROM public.listings)").fetchone()[0]:
        return []
    cities, zips = candidate_blocks(rows)
    wanted = candidate_filter(rows, review_threshold) or NO_CANDIDATE_FILTER
    return [MatchRecord(*r) for r in conn.execute(
        sql.FUZZY_CANDIDATES, {"cities": cities, "zips": zips, **wanted._asdict()})]


def _summarise(conn: psycopg.Connection, result: StageResult) -> None:
    params = {"job": result.job_id}
    for action, count, pending in conn.execute(sql.ACTION_COUNTS, params):
        result.actions[action] = count
        result.needs_review += pending
    result.records_read = conn.execute("SELECT coalesce(records_read, 0) FROM pipeline.jobs WHERE id = %s",
                                       (result.job_id,)).fetchone()[0]
    for error_type, count in conn.execute(
        "SELECT error_type, count(*) FROM pipeline.job_errors WHERE job_id = %s AND stage = 'stage' GROUP BY 1",
        (result.job_id,),
    ):
        result.error_types[error_type] = count
    result.errors = sum(result.error_types.values())

"""Staging one raw file, in a worker process of the stage (or in the stage's own process): its
records not staged thin, transformed (or copied from their twins) and written with the file's
checkpoint in one transaction. Workers are spawned, never forked: they inherit no connection, lock
or thread of the stage, open their own connection, and die with the stage's process. This module
imports no Dagster, so that a worker starts in a fraction of a second."""

from __future__ import annotations

import ctypes
import datetime as dt
import json
import os
import re
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

import orjson
import psycopg

from sadie_pipeline.core.matching import MatchRecord, place_columns
from sadie_pipeline.core.places import paused_gc
from sadie_pipeline.core.transform import RecordTransformer
from sadie_pipeline.listings.locks import LockSpace
from sadie_pipeline.listings.queries import load, sql
from sadie_pipeline.listings.raw_files import GzipLines, dumps_line, file_key, iter_lines_gz, raw_rec_num
from sadie_pipeline.listings.trusted import rows_of_job
from sadie_pipeline.resources.objects import PlainStore

_JSON_COLUMNS = {"images", "hours", "place_form", "place_keys"}
_PR_SET_PDEATHSIG = 1


def copy_columns(statement: str) -> tuple[str, ...]:
    """The column list of a COPY statement (the SQL file is the one place it is written)."""
    return tuple(c.strip() for c in re.search(r"\(([^)]*)\)", statement).group(1).split(","))


LISTING_COLUMNS = copy_columns(sql("stage", "copy_listings"))
INFO_COLUMNS = copy_columns(sql("stage", "copy_listing_info"))


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
    store: PlainStore
    dmo_id: int
    dmo_slug: str
    job_id: int
    config: dict[str, Any]


_job: JobContext | None = None
_transformer: RecordTransformer | None = None


def init_worker(job: JobContext, parent_pid: int | None = None) -> None:
    """Readies this process to stage the job's files; in a worker (parent_pid given), makes the
    kernel kill it when the stage's process dies, however it dies."""
    global _job, _transformer
    if parent_pid is not None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent_pid:  # it died before prctl took effect
            os._exit(1)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the stage's to handle
    _job, _transformer = job, RecordTransformer(job.config, job.dmo_id)


def stage_file_in_worker(task: FileTask) -> FileTask:
    assert _job is not None and _transformer is not None
    stage_file(_job, task, _transformer)
    return task


def worker_pool(job: JobContext, workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=init_worker,
                               initargs=(job, os.getpid()))


def stage_file(job: JobContext, task: FileTask, transformer: RecordTransformer) -> None:
    """The file's records not staged thin, in one transaction: their staged rows (transformed, or
    copied from their twins), their errors and the file's checkpoint row (its transformed file: the
    records transformed). A file staged thin or copied throughout is not read."""
    store = job.store
    out_key = file_key("transformed", job.dmo_slug, task.day, job.job_id, task.batch)
    # the collector paused: a file's records are tens of thousands of dicts and lists and no cycle,
    # rescanned as they grow (about 10 % of a worker's time)
    with store.open_write(out_key) as fh, GzipLines(fh) as out, paused_gc():
        staged, errors = _transform_file(job, task, transformer, out)
    with psycopg.connect(job.database_url) as conn:
        conn.execute(sql("stage", "hold_job"), {"space": LockSpace.JOB, "job": job.job_id})
        _write_rows(conn, job, task, staged)
        if errors:
            with conn.cursor() as cur:
                cur.executemany(sql("stage", "file_errors"), errors)
        conn.execute(sql("stage", "file_done"), {
            "job": job.job_id, "path": store.uri(out_key), "dmo": job.dmo_id, "day": task.day,
            "batch": task.batch, "size": store.size(out_key), "records": len(staged)})


def _transform_file(job: JobContext, task: FileTask, transformer: RecordTransformer,
                    out: GzipLines) -> tuple[list[dict[str, Any]], list[tuple[Any, ...]]]:
    staged: list[dict[str, Any]] = []
    errors: list[tuple[Any, ...]] = []
    skip = task.thin.union(task.twins) if task.twins else task.thin
    if task.records <= len(skip):
        return staged, errors
    for line in iter_lines_gz(job.store, file_key("raw", job.dmo_slug, task.day, job.job_id, task.batch)):
        if skip and raw_rec_num(line) in skip:
            continue
        raw = orjson.loads(line)
        res = transformer(raw)
        if res.record is None:
            errors.append((job.job_id, task.file_id, raw.get("rec_num"), raw.get("source_id"),
                           json.dumps(raw, default=str), res.errors[0].error_type,
                           "; ".join(e.message for e in res.errors)))
            continue
        res.record["rec_num"] = raw.get("rec_num")
        res.record["raw_hash"] = raw.get("raw_hash")
        out.write(dumps_line(res.record))
        res.record["place_form"], res.record["place_keys"] = _place_columns(res.record)
        for name in _JSON_COLUMNS:  # the COPY's text from here on: 2.7 kB a record held, not 5.9 as lists
            res.record[name] = _json(res.record.get(name))
        staged.append(res.record)
    return staged, errors


def _place_columns(rec: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The record's place form and listing keys, computed here in the file's worker so that
    matching the job normalises no text in the stage's own process."""
    return place_columns(MatchRecord(0, rec.get("name"), rec.get("address1"), rec.get("city"), rec.get("zip"),
                                     rec.get("international_phone"), rec.get("state"), rec.get("website_url"),
                                     rec.get("lat"), rec.get("lng")))


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


def _write_rows(conn: psycopg.Connection, job: JobContext, task: FileTask, staged: list[dict[str, Any]]) -> None:
    ids = [r[0] for r in conn.execute(sql("stage", "new_ids"), {"n": len(staged) + len(task.twins)})]
    ids, twin_ids = ids[:len(staged)], ids[len(staged):]
    fixed = {"job_id": job.job_id, "dmo_id": job.dmo_id, "file_seq": task.batch}
    # Trusted, the rows' job_id is checked by rows_of_job, and listing_info -> listings by the counts:
    # each info row's parent is the listings row written just before from the same id.
    with rows_of_job(conn, job.job_id, ("staging.listings", "staging.listing_info")) as trusted, \
            conn.cursor() as cur:
        with cur.copy(sql("stage", "copy_listings")) as copy:
            for row in _rows(LISTING_COLUMNS, ids, staged, fixed):
                copy.write_row(row)
        written = [cur.rowcount]
        with cur.copy(sql("stage", "copy_listing_info")) as copy:
            for row in _rows(INFO_COLUMNS, ids, staged, {"job_id": job.job_id}):
                copy.write_row(row)
        written.append(cur.rowcount)
        if task.twins:
            params = {"job": job.job_id, "file_seq": task.batch, "ids": twin_ids, "rec_nums": list(task.twins),
                      "data_ids": list(task.data_ids)}
            copied = [conn.execute(stmt, params).rowcount for stmt in load("stage")["copy_twins"]]
            if copied != [len(task.twins)] * 2:  # a data row gone meanwhile: a retry transforms them
                raise RuntimeError(f"{copied} of {len(task.twins)} records of file {task.batch} copied from their twins")
        if trusted and written != [len(staged)] * 2:
            raise psycopg.errors.ForeignKeyViolation(f"{written[1]} staged listing_info rows for {written[0]} listings rows")


def _rows(columns: tuple[str, ...], ids: list[int], staged: list[dict[str, Any]],
          fixed: dict[str, Any]) -> Iterator[list[Any]]:
    """Each staged record's values in the COPY's column order, with its id and the job's fixed
    values: the values taken at once by map, then those few put in place (a test per column took
    18 µs a record, this 7.5)."""
    id_at = columns.index("id")
    fixed_at = [(k, fixed[c]) for k, c in enumerate(columns) if c in fixed]
    for sid, rec in zip(ids, staged):
        row = list(map(rec.get, columns))
        row[id_at] = sid
        for k, value in fixed_at:
            row[k] = value
        yield row

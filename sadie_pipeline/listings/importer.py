"""Import: an inbox file becomes immutable raw files with metadata columns, plus job rows."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import psycopg

from sadie_pipeline.core.errors import first_line
from sadie_pipeline.core.fields import CANONICAL_FIELDS
from sadie_pipeline.core.hashing import source_id_for
from sadie_pipeline.core.sources.records import Problem
from sadie_pipeline.listings import job_queue, versions
from sadie_pipeline.listings.locks import Holder, LockSpace
from sadie_pipeline.listings.queries import run, sql
from sadie_pipeline.listings.raw_files import RawLines, SplitWriter, WrittenFile, file_key
from sadie_pipeline.listings.readers import Header, Record, UnreadableFileError, iter_records
from sadie_pipeline.listings.redelivery import (
    EarlierImport,
    NotDerivable,
    derive_raw_files,
    earlier_import_of_same_file,
)
from sadie_pipeline.listings.repository import Dmo, set_job_state, snapshot_config
from sadie_pipeline.listings.sources.raw_items import document_file_items, document_type, write_items, write_problems
from sadie_pipeline.listings.states import JobStage, JobStatus
from sadie_pipeline.listings.trusted import rows_of_job
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.settings import listings_fast_paths

INBOX_PREFIX = "inbox"
# Files a person hands in (`sadie import`, the web upload) wait here, out of the inbox sensor's
# sight: that sensor would import and promote them too, racing the person's own run.
UPLOAD_PREFIX = "uploads"


def inbox_prefix(dmo_slug: str) -> str:
    return f"{INBOX_PREFIX}/{dmo_slug}/"


def upload_prefix(dmo_slug: str) -> str:
    return f"{UPLOAD_PREFIX}/{dmo_slug}/"


@dataclass
class ImportResult:
    job_id: int
    records_read: int
    files: list[WrittenFile] = field(default_factory=list)
    already_imported: bool = False
    sha256: str | None = None
    source_bytes: int | None = None
    same_file_as_job: int | None = None  # the earlier import whose raw files these were derived from
    problems: list[Problem] = field(default_factory=list)  # records or pages read but not kept (job_errors)


def pending_inbox_keys(db: Database, store: ObjectStore, dmo: Dmo) -> list[str]:
    """Inbox files of the DMO that no job has imported yet, oldest name first."""
    keys = store.list_keys(inbox_prefix(dmo.slug))
    with db.connect() as conn:
        done = {r[0] for r in conn.execute(sql("import", "pending_keys"), {"dmo": dmo.id})}
    return [k for k in keys if k not in done]


def import_inbox_file(db: Database, store: ObjectStore, dmo: Dmo, key: str, *, run_key: str | None = None,
                      imported_by: str = "0", promote: bool = True, log: Callable[[str], None] = lambda m: None,
                      before_import: Callable[[], None] | None = None) -> ImportResult:
    """Idempotent per inbox key: a finished import is returned as is; an interrupted one resumes
    without rewriting the raw files it already stored. The job is created (its place in the DMO's
    arrival order) under the DMO's lock; the import itself holds only the job's lock. `promote`:
    whether the run means to promote the job (a stage taking a later job first promotes it).
    `before_import` puts the object at `key` first (a file downloaded from the DMO's source URL)."""
    def work(job: dict[str, Any]) -> ImportResult:
        if before_import is not None:
            before_import()
        return _import(db, store, dmo, key, job, imported_by)

    return run_import(db, dmo, key, work, run_key=run_key, promote=promote, log=log)


def run_import(db: Database, dmo: Dmo, key: str, work: Callable[[dict[str, Any]], ImportResult], *,
               run_key: str | None, promote: bool, log: Callable[[str], None]) -> ImportResult:
    """The job of `key` claimed for this run, then `work(job)` unless it was imported already; a
    failure fails the job with its first line (and is raised)."""
    holder = Holder(db, f"import {dmo.slug}", log)
    try:
        job = _claim_job(db, holder, dmo, key, run_key, promote)
        if job["stage"] != JobStage.IMPORT:
            return ImportResult(job["id"], job["records_read"] or 0, already_imported=True)
        try:
            return work(job)
        except BaseException as exc:
            with db.connect() as conn:
                set_job_state(conn, job["id"], stage=JobStage.IMPORT, status=JobStatus.FAILED,
                              error=first_line(exc))
            raise
    finally:
        holder.close()  # releases the job's lock


def _claim_job(db: Database, holder: Holder, dmo: Dmo, key: str, run_key: str | None, promote: bool) -> dict[str, Any]:
    """The job of the inbox key, created or taken over for this run; when it is to be imported, its
    lock is held (shared, as every process working on a job holds it) on return."""
    params = {"dmo": dmo.id, "key": key, "name": key.rsplit("/", 1)[-1], "run": run_key, "promote": promote,
              "raw_version": versions.RAW_VERSION}
    holder.acquire(LockSpace.DMO, dmo.id, f"DMO {dmo.slug}")
    try:
        while (job := _reaped_job(db, holder, dmo, params)) is not None and job["status"] == JobStatus.IN_PROGRESS:
            # (a job in progress after reaping is a live process's) another process imports this
            # very file now: wait for it, then look again
            holder.acquire(LockSpace.JOB, job["id"], f"the import of job {job['id']} by another process")
            holder.release(LockSpace.JOB, job["id"])
        if job is None:  # new: in progress at once, its lock taken below before the DMO's is let go
            with db.connect() as conn:
                run(conn, "jobs", "create", params)
            job = _job_by_key(db, params)
        params["job"] = job["id"]
        with db.connect() as conn:
            if job["stage"] == JobStage.IMPORT:
                holder.acquire(LockSpace.JOB, job["id"], f"job {job['id']}", shared=True)
                run(conn, "jobs", "start_import", params)
            else:
                run(conn, "jobs", "claim_failed", params)
        return job
    finally:
        holder.release(LockSpace.DMO, dmo.id)


def _reaped_job(db: Database, holder: Holder, dmo: Dmo, params: dict[str, Any]) -> dict[str, Any] | None:
    """The job of the inbox key (if any) after the DMO's dead jobs were failed."""
    job_queue.reap_dead_jobs(db, holder, dmo.id, f"by an import into {dmo.slug}")
    return _job_by_key(db, params)


def _job_by_key(db: Database, params: dict[str, Any]) -> dict[str, Any] | None:
    with db.connect() as conn:
        row = conn.execute(sql("jobs", "by_key"), params).fetchone()
    return dict(zip(("id", "stage", "status", "records_read", "created_at"), row)) if row else None


def _import(db: Database, store: ObjectStore, dmo: Dmo, key: str, job: dict[str, Any], imported_by: str) -> ImportResult:
    job_id, day = job["id"], job["created_at"].date()
    with db.connect() as conn:
        config = snapshot_config(conn, job_id, dmo)
        existing = frozenset(r[0] for r in run(conn, "import", "raw_parts_written", {"job": job_id}))
        size = store.size(key)
        earlier = earlier_import_of_same_file(conn, store, dmo, job_id, key, size, versions.RAW_VERSION) \
            if listings_fast_paths() else None
    # One transaction: the raw keys, streamed as the raw files are written, the files and the state.
    with db.connect() as conn:
        with rows_of_job(conn, job_id, ["staging.raw_keys"]):
            result = _derive(conn, store, dmo, earlier, job_id, day, existing, imported_by) if earlier else None
            if result is None:
                with conn.cursor() as cur, cur.copy(sql("import", "copy_keys")) as keys:
                    write = _write_documents if document_type(config, key) else _write_raw_files
                    result = write(store, dmo, key, job_id, day, config, existing, imported_by, keys.write_row)
        write_problems(conn, job_id, result.problems)
        result.source_bytes = size
        for f in result.files:
            run(conn, "import", "raw_file", {"job": job_id, "path": store.uri(f.key), "dmo": dmo.id, "day": day,
                                             "country": config["transform"]["default_country"], "seq": f.seq,
                                             "size": f.size, "records": f.record_count})
        run(conn, "import", "imported", {"job": job_id, "records": result.records_read, "sha256": result.sha256,
                                         "bytes": size})
    return result


def _now() -> str:
    """A raw record's imported_at."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _derive(conn: psycopg.Connection, store: ObjectStore, dmo: Dmo, earlier: EarlierImport, job_id: int,
            day: dt.date, existing: frozenset[int], imported_by: str) -> ImportResult | None:
    """The redelivered file's raw files and keys, or None (nothing kept) when they cannot be derived."""
    try:
        with conn.transaction():  # a savepoint: the keys copied go if the files cannot be derived
            files = derive_raw_files(conn, store, earlier, job_id, partial(file_key, "raw", dmo.slug, day, job_id),
                                     existing, _now(), imported_by)
    except NotDerivable:
        return None
    return ImportResult(job_id, sum(f.record_count for f in files), files, sha256=earlier.sha256,
                        same_file_as_job=earlier.job_id)


def _write_raw_files(store: ObjectStore, dmo: Dmo, key: str, job_id: int, day: dt.date, config: dict[str, Any],
                     existing: frozenset[int], imported_by: str,
                     write_keys: Callable[[tuple[int, int, int, str, str]], Any]) -> ImportResult:
    imp = config["import"]
    mapped = config["transform"]["map_fields"]
    names = {CANONICAL_FIELDS[f]: col for f, col in mapped.items()}
    writer = SplitWriter(store, partial(file_key, "raw", dmo.slug, day, job_id),
                         imp["max_records_per_file"], imp["max_bytes_per_file"], existing)
    raw_line = RawLines(dmo.id, _now(), imported_by)
    digest = hashlib.sha256()
    count = 0
    try:
        with store.open_read(key) as raw:
            records = iter_records(_HashingReader(raw, digest), key, delimiter=imp.get("delimiter"),
                                   encoding=imp.get("encoding"),
                                   check_header=partial(_check_header, mapped))
            for count, record in enumerate(records, start=1):
                before, after, raw_hash, source_id = _line_parts(raw_line, dmo.id, names, record)
                seq = writer.write(b"%s%d%s" % (before, count, after))
                if seq not in existing:
                    write_keys((job_id, seq, count, raw_hash, source_id))
    except BaseException:
        writer.abort()
        raise
    if count == 0:
        raise UnreadableFileError(f"{key.rsplit('/', 1)[-1]}: the file has a header but no records")
    return ImportResult(job_id, count, writer.close(), sha256=digest.hexdigest())


def _write_documents(store: ObjectStore, dmo: Dmo, key: str, job_id: int, day: dt.date, config: dict[str, Any],
                     existing: frozenset[int], imported_by: str,
                     write_keys: Callable[[tuple[int, int, int, str, str]], Any]) -> ImportResult:
    """A JSON, JSON-lines or GeoJSON file: its records (each object flattened into dotted paths)
    written as a CSV file's rows are; a bad line or a feature without geometry is a problem."""
    digest, name = hashlib.sha256(), key.rsplit("/", 1)[-1]
    with store.open_read(key) as raw:
        items = document_file_items(_HashingReader(raw, digest), name, document_type(config, key),
                                    config["import"]["records_path"])
        written = write_items(store, dmo.slug, dmo.id, job_id, day, config, _now(), imported_by, items, write_keys,
                              existing)
    if written.records == 0:
        first = f": {written.problems[0].message}" if written.problems else ""
        raise UnreadableFileError(f"{name}: no records{first}")
    return ImportResult(job_id, written.records, written.files, sha256=digest.hexdigest(), problems=written.problems)


def _check_header(mapped: dict[str, str | int], header: Header) -> None:
    """A mapped column missing from the file, or mapped by a name the header repeats (which of the
    columns would be meant?), fails the import with the column's name. Columns mapped by position
    (1, 2, ...) are what a file with a repeated name is imported by."""
    by_name = [col for col in mapped.values() if isinstance(col, str)]
    missing = [col for col in by_name if col not in header.names]
    if missing:
        raise UnreadableFileError(f"the file has no column {', '.join(map(repr, missing))} (mapped by the DMO's "
                                  f"config); its columns are {', '.join(map(repr, header.names))}")
    ambiguous = [col for col in header.repeated if col in by_name]
    if ambiguous:
        raise UnreadableFileError(f"the header names column {ambiguous[0]!r} more than once; map the "
                                  f"columns by position (1, 2, ...) in the DMO's config to import it")
    too_far = [col for col in mapped.values() if isinstance(col, int) and col > len(header.names)]
    if too_far:
        raise UnreadableFileError(f"the config maps column {too_far[0]} but the file has {len(header.names)}")


def _line_parts(raw_line: RawLines, dmo_id: int, names: dict[str, str | int],
                record: Record) -> tuple[bytes, bytes, str, str]:
    """A record's raw line around its rec_num, its raw hash and its source id."""
    explicit = _value(record, names.get("explicit_source_id"))
    source_id = source_id_for(dmo_id, _value(record, names.get("name")), _value(record, names.get("city")),
                              explicit.strip() if isinstance(explicit, str) else None)
    before, after, raw_hash = raw_line.parts(record, source_id)
    return before, after, raw_hash, source_id


def _value(record: Record, column: str | int | None):
    """A record's value of a column named or numbered (1-based) in the config."""
    if isinstance(column, int):
        values = list(record.values())
        return values[column - 1] if column <= len(values) else None
    return record.get(column) if column else None


class _HashingReader:
    """Passes reads through while hashing them, so the checksum costs no second pass."""

    def __init__(self, raw, digest):
        self._raw, self._digest = raw, digest

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self._digest.update(data)
        return data

    def readinto(self, buffer) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def readable(self) -> bool:
        return True

    def __getattr__(self, name):
        return getattr(self._raw, name)

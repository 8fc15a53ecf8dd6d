"""Import: an inbox file becomes immutable raw files with metadata columns, plus job rows."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import psycopg

from sadie_pipeline.core.fields import CANONICAL_FIELDS
from sadie_pipeline.core.hashing import source_id_for
from sadie_pipeline.listings.import_split import LineParts, TailProcess, start_tail
from sadie_pipeline.listings.raw_files import RawLines, SplitWriter, WrittenFile, file_key
from sadie_pipeline.listings.readers import Record, UnreadableFileError, iter_records
from sadie_pipeline.listings.redelivery import (
    EarlierImport,
    NotDerivable,
    derive_raw_files,
    earlier_import_of_same_file,
)
from sadie_pipeline.listings.repository import Dmo, rows_of_job, set_job_state, snapshot_config
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore

INBOX_PREFIX = "inbox"


def inbox_prefix(dmo_slug: str) -> str:
    return f"{INBOX_PREFIX}/{dmo_slug}/"


@dataclass
class ImportResult:
    job_id: int
    records_read: int
    files: list[WrittenFile] = field(default_factory=list)
    already_imported: bool = False
    sha256: str | None = None
    source_bytes: int | None = None
    same_file_as_job: int | None = None  # the earlier import whose raw files these were derived from


def pending_inbox_keys(db: Database, store: ObjectStore, dmo: Dmo) -> list[str]:
    """Inbox files of the DMO that no job has imported yet, oldest name first."""
    keys = store.list_keys(inbox_prefix(dmo.slug))
    with db.connect() as conn:
        done = {r[0] for r in conn.execute(
            "SELECT source_key FROM pipeline.jobs WHERE dmo_id = %s AND stage <> 'import'", (dmo.id,))}
    return [k for k in keys if k not in done]


def import_inbox_file(db: Database, store: ObjectStore, dmo: Dmo, key: str, *, run_id: str | None = None,
                      imported_by: str = "0") -> ImportResult:
    """Idempotent per inbox key: a finished import is returned as is; an interrupted one resumes
    without rewriting the raw files it already stored. A file the DMO delivered before, byte for
    byte, is not parsed again: its raw files are derived from that import's (redelivery.py)."""
    with db.connect() as conn:
        job = _find_or_create_job(conn, dmo, key, run_id)
        if job["stage"] != "import":
            return ImportResult(job["id"], job["records_read"] or 0, already_imported=True)
        job_id, day = job["id"], job["created_at"].date()
        config = snapshot_config(conn, job_id, dmo)
        existing = frozenset(r[0] for r in conn.execute(
            "SELECT batch FROM pipeline.job_files WHERE job_id = %s AND stage = 'raw'", (job_id,)))
        size = store.size(key)
        earlier = earlier_import_of_same_file(conn, store, dmo, job_id, key, size)
    try:
        # One transaction: the raw keys, streamed as the raw files are written, the files and the state.
        with db.connect() as conn:
            with rows_of_job(conn, job_id, ["staging.raw_keys"]):
                result = _derive(conn, store, dmo, earlier, job_id, day, existing, imported_by) if earlier else None
                if result is None:
                    with conn.cursor() as cur, cur.copy(
                            "COPY staging.raw_keys (job_id, file_seq, rec_num, raw_hash, source_id) FROM STDIN") as keys:
                        result = _write_raw_files(store, dmo, key, job_id, day, config, existing, imported_by,
                                                  keys.write_row)
            result.source_bytes = size
            _record_files(conn, store, dmo, job_id, day, config, result)
    except UnreadableFileError as exc:
        with db.connect() as conn:
            set_job_state(conn, job_id, stage="import", status="failed", error=str(exc))
        raise
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


def _record_files(conn: psycopg.Connection, store: ObjectStore, dmo: Dmo, job_id: int, day: dt.date,
                  config: dict[str, Any], result: ImportResult) -> None:
    for f in result.files:
        conn.execute(
            """
            INSERT INTO pipeline.job_files (job_id, s3_path, stage, data_domain, country, dmo_id, file_date,
                                            batch, format, file_size, record_count)
            VALUES (%s, %s, 'raw', 'listings', %s, %s, %s, %s, 'jsonl.gz', %s, %s)
            ON CONFLICT (job_id, stage, batch) DO NOTHING
            """,
            (job_id, store.uri(f.key), config["transform"]["default_country"], dmo.id, day, f.seq, f.size, f.record_count),
        )
    conn.execute("UPDATE pipeline.jobs SET records_read = %s, source_sha256 = %s, source_bytes = %s WHERE id = %s",
                 (result.records_read, result.sha256, result.source_bytes, job_id))
    set_job_state(conn, job_id, stage="imported", status="succeeded")


def _find_or_create_job(conn: psycopg.Connection, dmo: Dmo, key: str, run_id: str | None) -> dict[str, Any]:
    conn.execute(
        """
        INSERT INTO pipeline.jobs (dmo_id, status, stage, source_key, source_name, dagster_run_id, started_at)
        VALUES (%s, 'in_progress', 'import', %s, %s, %s, now())
        ON CONFLICT (dmo_id, source_key) DO NOTHING
        """,
        (dmo.id, key, key.rsplit("/", 1)[-1], run_id),
    )
    row = conn.execute(
        "SELECT id, stage, status, records_read, created_at FROM pipeline.jobs WHERE dmo_id = %s AND source_key = %s",
        (dmo.id, key),
    ).fetchone()
    return dict(zip(("id", "stage", "status", "records_read", "created_at"), row))


def _write_raw_files(store: ObjectStore, dmo: Dmo, key: str, job_id: int, day: dt.date, config: dict[str, Any],
                     existing: frozenset[int], imported_by: str,
                     write_keys: Callable[[tuple[int, int, int, str, str]], Any]) -> ImportResult:
    imp = config["import"]
    names = {CANONICAL_FIELDS[f]: col for f, col in config["transform"]["map_fields"].items()}
    name_col, city_col, id_col = names.get("name"), names.get("city"), names.get("explicit_source_id")
    writer = SplitWriter(store, partial(file_key, "raw", dmo.slug, day, job_id),
                         imp["max_records_per_file"], imp["max_bytes_per_file"], existing)
    raw_line = RawLines(dmo.id, _now(), imported_by)
    digest = hashlib.sha256()
    count = 0
    parts = _line_parts(raw_line, dmo.id, name_col, city_col, id_col)

    def write(rec_num: int, line_parts: LineParts) -> None:
        before, after, raw_hash, source_id = line_parts
        seq = writer.write(b"%s%d%s" % (before, rec_num, after))
        if seq not in existing:
            write_keys((job_id, seq, rec_num, raw_hash, source_id))

    try:
        with store.open_read(key) as raw:
            tail = start_tail(raw, key, delimiter=imp.get("delimiter"), encoding=imp.get("encoding"), parts=parts)
            split = tail.split if tail is not None else None
            try:
                hashing = _HashingReader(raw, digest)
                for count, record in enumerate(
                    iter_records(hashing, key, delimiter=imp.get("delimiter"), encoding=imp.get("encoding"),
                                 split=split), start=1
                ):
                    write(count, parts(record))
                if tail is not None and split.reached:
                    count = _write_tail(tail, raw, digest, write, count)
            finally:
                if tail is not None:
                    tail.close()
    except BaseException:
        writer.abort()
        raise
    if count == 0:
        raise UnreadableFileError(f"{key.rsplit('/', 1)[-1]}: the file has a header but no records")
    return ImportResult(job_id, count, writer.close(), sha256=digest.hexdigest())


def _line_parts(raw_line: RawLines, dmo_id: int, name_col: str | None, city_col: str | None,
                id_col: str | None) -> Callable[[Record], LineParts]:
    """A record's raw line around its rec_num, raw hash and source id (in either process)."""
    def parts(record: Record) -> LineParts:
        explicit = record.get(id_col) if id_col else None
        source_id = source_id_for(dmo_id, record.get(name_col), record.get(city_col),
                                  explicit.strip() if isinstance(explicit, str) else None)
        before, after, raw_hash = raw_line.parts(record, source_id)
        return before, after, raw_hash, source_id
    return parts


def _write_tail(tail: TailProcess, raw, digest, write: Callable[[int, LineParts], None], count: int) -> int:
    """Writes the second half's records after the first half's `count`; returns the new count. The
    rest of the file is hashed meanwhile (hashlib lets go of the GIL)."""
    with ThreadPoolExecutor(1, thread_name_prefix="sha256") as hasher:
        hashed = hasher.submit(_hash_rest, raw, digest)
        for line_parts in tail.records():
            count += 1
            write(count, line_parts)
    hashed.result()
    return count


def _hash_rest(raw, digest) -> None:
    while data := raw.read(1 << 20):
        digest.update(data)


class _HashingReader:
    """Passes reads through while hashing them, so the checksum costs no second pass. (Not on a
    thread of its own: hashlib lets go of the GIL while it hashes, a chance at short intervals
    for the thread compressing the raw files to get it.)"""

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

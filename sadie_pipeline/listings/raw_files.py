"""Gzipped JSON-lines files in the object store, split by record count or byte size."""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import io
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, BinaryIO

import orjson

from sadie_pipeline.resources.object_store import ObjectStore


def file_key(stage: str, dmo_slug: str, day: dt.date, job_id: int, seq: int) -> str:
    """{stage}/listings/{dmo}/{YYYYMMDD}/job-{job:06d}-{seq:02d}.jsonl.gz (seed 004)."""
    return f"{stage}/listings/{dmo_slug}/{day:%Y%m%d}/job-{job_id:06d}-{seq:02d}.jsonl.gz"


@dataclass
class WrittenFile:
    seq: int
    key: str
    record_count: int
    size: int           # compressed bytes stored
    skipped: bool = False  # already written by an earlier attempt; raw files are never rewritten


class SplitWriter:
    """Writes lines into part files, cutting at whichever comes first of max_records and
    max_bytes (uncompressed). Parts listed in `existing` are counted but not rewritten."""

    def __init__(self, store: ObjectStore, key_for_seq, max_records: int, max_bytes: int,
                 existing: frozenset[int] = frozenset(), compresslevel: int = 1):
        self.store, self.key_for_seq = store, key_for_seq
        self.max_records, self.max_bytes = max_records, max_bytes
        self.existing, self.compresslevel = existing, compresslevel
        self.written: list[WrittenFile] = []
        self._stack: ExitStack | None = None
        self._gz: Any = None
        self._seq = 0
        self._count = 0
        self._bytes = 0
        self._raw: Any = None

    def write(self, line: bytes) -> None:
        if self._count and (self._count >= self.max_records or self._bytes + len(line) > self.max_bytes):
            self._close_part()
        if not self._count:
            self._open_part()
        if self._gz is not None:
            self._gz.write(line)
        self._count += 1
        self._bytes += len(line)

    def close(self) -> list[WrittenFile]:
        if self._count:
            self._close_part()
        return self.written

    def abort(self) -> None:
        if self._stack is not None:
            self._stack.__exit__(RuntimeError, RuntimeError("aborted"), None)
            self._stack = None

    def _open_part(self) -> None:
        self._seq += 1
        self._count = self._bytes = 0
        if self._seq in self.existing:
            self._gz = None
            return
        self._stack = ExitStack()
        self._raw = self._stack.enter_context(self.store.open_write(self.key_for_seq(self._seq)))
        self._gz = self._stack.enter_context(GzipLines(self._raw, self.compresslevel))

    def _close_part(self) -> None:
        key = self.key_for_seq(self._seq)
        if self._gz is None:
            self.written.append(WrittenFile(self._seq, key, self._count, self.store.size(key), skipped=True))
        else:
            self._stack.close()
            self._stack = None
            self.written.append(WrittenFile(self._seq, key, self._count, self.store.size(key)))
        self._count = 0


class GzipLines:
    """A gzip stream of lines, written in chunks of about 1 MB that a background thread compresses
    (zlib releases the GIL) while the caller builds the next lines. A context manager: a clean
    exit finishes the stream; an exception leaves it unfinished."""

    CHUNK_BYTES = 1 << 20
    MAX_PENDING = 4

    def __init__(self, fileobj: BinaryIO, compresslevel: int = 1):
        self._gz = gzip.GzipFile(fileobj=fileobj, mode="wb", compresslevel=compresslevel, mtime=0)
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="gzip")
        self._pending: deque[Future] = deque()
        self._lines: list[bytes] = []
        self._size = 0

    def write(self, line: bytes) -> None:
        self._lines.append(line)
        self._size += len(line)
        if self._size >= self.CHUNK_BYTES:
            self._flush()

    def _flush(self) -> None:
        if self._lines:
            self._pending.append(self._pool.submit(self._gz.write, b"".join(self._lines)))
            self._lines, self._size = [], 0
        while len(self._pending) > self.MAX_PENDING:
            self._pending.popleft().result()

    def close(self) -> None:
        self._flush()
        self._drain()
        self._gz.close()

    def _drain(self) -> None:
        try:
            while self._pending:
                self._pending.popleft().result()
        finally:
            self._pool.shutdown(wait=True)

    def __enter__(self) -> GzipLines:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
            return
        try:  # the thread must be done with the file before the caller closes it
            self._drain()
        except Exception:  # noqa: BLE001 - the exception already raised is the one that matters
            pass


def iter_lines_gz(store: ObjectStore, key: str) -> Iterator[bytes]:
    with store.open_read(key) as raw, gzip.GzipFile(fileobj=raw, mode="rb") as gz:
        yield from io.BufferedReader(gz, buffer_size=1 << 20)


def iter_jsonl_gz(store: ObjectStore, key: str) -> Iterator[dict[str, Any]]:
    for line in iter_lines_gz(store, key):
        yield orjson.loads(line)


def dumps_line(record: dict[str, Any]) -> bytes:
    """One compact JSON line (orjson: UTF-8 as is, no spaces); values JSON lacks become strings."""
    return orjson.dumps(record, default=str, option=orjson.OPT_APPEND_NEWLINE)


# --- raw lines: the record as imported, then the metadata columns --------------------------------

class RawLines:
    """Builds raw lines: the record as imported plus the metadata columns rec_num, dmo_id, source_id,
    imported_at, imported_by (they win over same-named columns) and raw_hash, a digest of the
    record's own content that lets an unchanged record skip staging work. The metadata comes
    last, so raw_metadata() can read it back without decoding the record."""

    def __init__(self, dmo_id: int, imported_at: str, imported_by: str):
        dumps = orjson.dumps
        self._fixed = b',"dmo_id":' + dumps(dmo_id)
        self._who = b',"imported_at":' + dumps(imported_at) + b',"imported_by":' + dumps(imported_by)

    def __call__(self, record: dict[str, Any], rec_num: int, source_id: str) -> bytes:
        body = orjson.dumps(record)
        raw_hash = hashlib.blake2b(body, digest_size=16).hexdigest()
        plain = source_id.isascii() and source_id.isalnum()  # a sha1 hex digest, most of the time
        source = b'"%s"' % source_id.encode() if plain else orjson.dumps(source_id)
        meta = b'"rec_num":%d%s,"source_id":%s%s,"raw_hash":"%s"}\n' % (
            rec_num, self._fixed, source, self._who, raw_hash.encode())
        return (body[:-1] + b"," if len(body) > 2 else b"{") + meta


_META_START = b',"rec_num":'


def raw_metadata(line: bytes) -> dict[str, Any]:
    """The metadata columns of a raw line (see RawLines), without decoding the record itself.
    Inside JSON strings a quote is escaped, so the last `,"rec_num":` is the metadata's key."""
    start = line.rfind(_META_START)
    if start < 0:
        return orjson.loads(line)
    return orjson.loads(b"{" + line[start + 1:])

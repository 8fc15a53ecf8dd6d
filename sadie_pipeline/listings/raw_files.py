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
from isal import igzip, isal_zlib

from sadie_pipeline.resources.objects import StoreOps as ObjectStore  # no Dagster: stage workers read raw files


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


class Deflate:
    """A gzip stream with GzipFile's header (gzip.GzipFile(fileobj, "wb", level, mtime=0)),
    compressed by ISA-L (python-isal: several times faster than zlib; the stream is plain gzip,
    which any reader reads) with one call per chunk: its own gzip framing computes the CRC (no
    second pass, and one GIL hand-over less for a background thread), its header is swapped for
    GzipFile's. The header is written at once, compressed bytes in pieces of about 1 MB.
    compress() and finish() may run on another thread than the constructor, one call at a time."""

    WRITE_BYTES = 1 << 20

    def __init__(self, fileobj: BinaryIO, level: int):
        name = getattr(fileobj, "name", "")
        header = io.BytesIO()
        with gzip.GzipFile(name if isinstance(name, (str, bytes)) else "", "wb", level, header, mtime=0):
            fileobj.write(header.getvalue())  # GzipFile writes its header when created, so do we
        self._out: list[bytes] = []
        self._size = 0
        self._fileobj = fileobj
        self._isal = isal_zlib.compressobj(min(level, isal_zlib.ISAL_BEST_COMPRESSION), isal_zlib.DEFLATED,
                                           16 + isal_zlib.MAX_WBITS)
        self._skip = 10  # the header ISA-L writes (no name, no time): GzipFile's is written instead
        self._finished = False

    def compress(self, data: bytes) -> None:
        self._add(self._isal.compress(data))
        if self._size >= self.WRITE_BYTES:
            self._fileobj.write(b"".join(self._out))
            self._out, self._size = [], 0

    def finish(self) -> None:
        """Ends the stream (once; like GzipFile.close(), again does nothing)."""
        if self._finished:
            return
        self._finished = True
        self._add(self._isal.flush())  # the rest, then the CRC and the length
        self._fileobj.write(b"".join(self._out))
        self._out, self._size = [], 0

    def _add(self, out: bytes) -> None:
        if self._skip:
            cut = min(self._skip, len(out))
            out, self._skip = out[cut:], self._skip - cut
        if out:
            self._out.append(out)
            self._size += len(out)


class _Background:
    """One thread running tasks in the order submitted, with at most max_pending of them not yet
    done (bounding memory); a failed task's exception comes out of a later submit() or drain()."""

    def __init__(self, max_pending: int):
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="gzip")
        self._pending: deque[Future] = deque()
        self._max_pending = max_pending

    def submit(self, fn, *args) -> Future:
        future = self._pool.submit(fn, *args)
        self._pending.append(future)
        while len(self._pending) > self._max_pending:
            self._pending.popleft().result()
        return future

    def then(self, fn, *args) -> None:
        """Queues fn after the tasks submitted, without waiting for it or for them."""
        self._pool.submit(fn, *args)

    def drain(self) -> None:
        """Waits for every task, raising the first failure (in the order submitted)."""
        while self._pending:
            self._pending.popleft().result()

    def shutdown(self) -> None:
        """Runs what is queued, then ends the thread; failures not drained are dropped."""
        self._pool.shutdown(wait=True)
        self._pending.clear()


class SplitWriter:
    """Writes lines into part files, cutting at whichever comes first of max_records and
    max_bytes (uncompressed). Parts listed in `existing` are counted but not rewritten.

    One background thread compresses (ISA-L releases the GIL) while the caller builds the next
    lines, and also finishes each part (the end of its gzip stream, then storing it), so the
    caller never waits for a part to be stored; close() returns once all are. A part is stored
    only if nothing failed before it; abort() lets the parts already cut be stored and drops
    the one being written."""

    # Big chunks: the compressor needs the GIL back each time its output buffer grows (about once
    # per MB here), and that wait grows with the time the caller keeps the GIL.
    CHUNK_BYTES = 4 << 20
    MAX_PENDING = 3  # chunks and part endings not yet done; memory stays within about 16 MB

    def __init__(self, store: ObjectStore, key_for_seq, max_records: int, max_bytes: int,
                 existing: frozenset[int] = frozenset(), compresslevel: int = 1):
        self.store, self.key_for_seq = store, key_for_seq
        self.max_records, self.max_bytes = max_records, max_bytes
        self.existing, self.compresslevel = existing, compresslevel
        self.written: list[WrittenFile] = []
        self._parts: list[WrittenFile | Future[WrittenFile]] = []
        self._background: _Background | None = None
        self._failed = False  # set by the background thread when one of its tasks fails
        self._part: _Part | None = None  # None for a part in `existing`
        self._lines: list[bytes] = []
        self._size = 0
        self._seq = 0
        self._count = 0
        self._bytes = 0

    def write(self, line: bytes) -> int:
        """Writes the line; returns the number of the part it went to."""
        n = len(line)
        if not self._count:
            self._open_part()
        elif self._count >= self.max_records or self._bytes + n > self.max_bytes:
            self._close_part()
            self._open_part()
        self._count += 1
        self._bytes += n
        if self._part is not None:
            self._lines.append(line)
            self._size += n
            if self._size >= self.CHUNK_BYTES:
                self._flush()
        return self._seq

    def close(self) -> list[WrittenFile]:
        try:
            if self._count:
                self._close_part()
            if self._background is not None:
                self._background.drain()
            self.written = [p if isinstance(p, WrittenFile) else p.result() for p in self._parts]
        except BaseException:
            self.abort()
            raise
        self._shutdown()
        return self.written

    def abort(self) -> None:
        part, self._part, self._lines = self._part, None, []
        if part is not None:
            assert self._background is not None
            self._background.then(self._drop, part)
        self._shutdown()

    def _shutdown(self) -> None:
        if self._background is not None:
            self._background.shutdown()  # runs what is queued: finishing parts, dropping one
            self._background = None

    def _open_part(self) -> None:
        self._seq += 1
        self._count = self._bytes = 0
        if self._seq in self.existing:
            self._part = None
            return
        if self._background is None:
            self._background = _Background(self.MAX_PENDING)
        stack = ExitStack()
        raw = stack.enter_context(self.store.open_write(self.key_for_seq(self._seq)))
        try:
            self._part = _Part(self._seq, stack, Deflate(raw, self.compresslevel))
        except BaseException as exc:
            stack.__exit__(type(exc), exc, exc.__traceback__)
            raise

    def _close_part(self) -> None:
        key = self.key_for_seq(self._seq)
        part = self._part
        if part is None:
            self._parts.append(WrittenFile(self._seq, key, self._count, self.store.size(key), skipped=True))
        else:
            self._flush()
            self._part = None
            self._parts.append(self._background.submit(self._finish, part, key, self._count))
        self._count = 0

    def _flush(self) -> None:
        if self._lines:
            data, self._lines, self._size = b"".join(self._lines), [], 0
            self._background.submit(self._compress, self._part, data)

    # --- on the background thread, one task at a time in the order submitted ---

    def _compress(self, part: _Part, data: bytes) -> None:
        if self._failed:
            return
        try:
            part.deflate.compress(data)
        except BaseException:
            self._failed = True
            raise

    def _finish(self, part: _Part, key: str, count: int) -> WrittenFile:
        if self._failed:
            self._drop(part)
            raise RuntimeError(f"part {part.seq} not stored: an earlier part failed")
        try:
            part.deflate.finish()
        except BaseException as exc:
            self._failed = True
            part.stack.__exit__(type(exc), exc, exc.__traceback__)
            raise
        try:
            part.stack.close()
            return WrittenFile(part.seq, key, count, self.store.size(key))
        except BaseException:
            self._failed = True
            raise

    def _drop(self, part: _Part) -> None:
        self._failed = True
        part.stack.__exit__(RuntimeError, RuntimeError("aborted"), None)


@dataclass
class _Part:
    seq: int
    stack: ExitStack
    deflate: Deflate


class GzipLines:
    """A gzip stream of lines, written in chunks of about 1 MB that a background thread compresses
    (ISA-L releases the GIL) while the caller builds the next lines. A context manager: a clean
    exit finishes the stream; an exception leaves it unfinished."""

    CHUNK_BYTES = 1 << 20
    MAX_PENDING = 4

    def __init__(self, fileobj: BinaryIO, compresslevel: int = 1):
        self._gz = Deflate(fileobj, compresslevel)
        self._background = _Background(self.MAX_PENDING)
        self._lines: list[bytes] = []
        self._size = 0

    def write(self, line: bytes) -> None:
        self._lines.append(line)
        self._size += len(line)
        if self._size >= self.CHUNK_BYTES:
            self._flush()

    def _flush(self) -> None:
        if self._lines:
            self._background.submit(self._gz.compress, b"".join(self._lines))
            self._lines, self._size = [], 0

    def close(self) -> None:
        self._flush()
        self._drain()
        self._gz.finish()

    def _drain(self) -> None:
        try:
            self._background.drain()
        finally:
            self._background.shutdown()

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
    with store.open_read(key) as raw, igzip.GzipFile(fileobj=raw, mode="rb") as gz:
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
        fixed = (b',"dmo_id":' + dumps(dmo_id)).replace(b"%", b"%%")
        who = import_metadata(imported_at, imported_by).replace(b"%", b"%%")
        # The metadata after the rec_num, as one format each: for a plain source id (a sha1 hex
        # digest, most of the time), quoted as is, and for any other, as JSON.
        self._plain_after = fixed + b',"source_id":"%s"' + who + b',"raw_hash":"%s"}\n'
        self._json_after = fixed + b',"source_id":%s' + who + b',"raw_hash":"%s"}\n'

    def __call__(self, record: dict[str, Any], rec_num: int, source_id: str) -> bytes:
        return self.keyed(record, rec_num, source_id)[0]

    def keyed(self, record: dict[str, Any], rec_num: int, source_id: str) -> tuple[bytes, str]:
        """The raw line and the record's raw hash."""
        before, after, raw_hash = self.parts(record, source_id)
        return b"%s%d%s" % (before, rec_num, after), raw_hash

    def parts(self, record: dict[str, Any], source_id: str) -> tuple[bytes, bytes, str]:
        """The raw line around its rec_num, and the raw hash: the line is b"%s%d%s" % (before, rec_num, after)."""
        body = _dumps(record)
        raw_hash = _blake2b(body, digest_size=16).hexdigest()
        if source_id.isascii() and source_id.isalnum():
            after = self._plain_after % (source_id.encode(), raw_hash.encode())
        else:
            after = self._json_after % (_dumps(source_id), raw_hash.encode())
        before = body[:-1] + b',"rec_num":' if len(body) > 2 else b'{"rec_num":'
        return before, after, raw_hash


_dumps = orjson.dumps
_blake2b = hashlib.blake2b
METADATA_START = b',"rec_num":'  # where a raw line's metadata begins (see RawLines)


def import_metadata(imported_at: str, imported_by: str) -> bytes:
    """The part of a raw line's metadata that says who imported it and when: the same bytes in
    every line of an import, and its only difference from the line another import of the same
    file wrote."""
    return b',"imported_at":' + _dumps(imported_at) + b',"imported_by":' + _dumps(imported_by)


def raw_metadata(line: bytes) -> dict[str, Any]:
    """The metadata columns of a raw line (see RawLines), without decoding the record itself.
    Inside JSON strings a quote is escaped, so the last `,"rec_num":` is the metadata's key."""
    start = line.rfind(METADATA_START)
    if start < 0:
        return orjson.loads(line)
    return orjson.loads(b"{" + line[start + 1:])


def raw_rec_num(line: bytes) -> int:
    """The rec_num of a raw line (see RawLines), read without decoding the line."""
    start = line.rfind(METADATA_START)
    if start < 0:
        return orjson.loads(line)["rec_num"]
    start += len(METADATA_START)
    return int(line[start:line.index(b",", start)])

"""A large CSV upload imported in two halves: a forked process reads the records of the second half
and builds their raw lines (all but the rec_num) while the calling process imports the first half;
the caller then writes the second half's lines and keys after its own, so parts, rec_nums and
keys come out as a sequential import makes them.

Only for a plain local file (seekable, with a descriptor: S3 bodies are not) read as UTF-8 or
Windows-1252 with a one-character delimiter; everything else, and small files, stays sequential.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import signal
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from sadie_pipeline.listings.readers import SNIFF_BYTES, Record, SplitAt, iter_tail_records, split_delimiter

# Below this, forking costs more than it saves.
MIN_BYTES = 8 << 20
# The share of the bytes the calling process reads itself: besides its records it compresses
# (on a thread), streams the keys and writes the second half's lines.
FIRST_SHARE = 0.48
# How far past the share's end a record boundary is looked for.
_SCAN_BYTES = 4 << 20
_READ_BYTES = 1 << 20
_CHUNK_RECORDS = 1000
# What the caller gets for each record of the second half: the line before and after its rec_num,
# its raw hash and source id.
LineParts = tuple[bytes, bytes, str, str]


def start_tail(raw: BinaryIO, filename: str, *, delimiter: str | None, encoding: str | None,
               parts: Callable[[Record], LineParts]) -> TailProcess | None:
    """The process reading the second half of the file just opened, started; None when the file
    is to be read sequentially."""
    plan = plan_split(raw, filename, delimiter=delimiter, encoding=encoding)
    if plan is None:
        return None
    try:
        return TailProcess(raw, *plan, parts)
    except OSError:  # no fork today (out of memory or processes): sequentially then
        return None


def plan_split(raw: BinaryIO, filename: str, *, delimiter: str | None, encoding: str | None) -> tuple[SplitAt, str] | None:
    """Where to split the file just opened (and the delimiter it is read with), or None to read it
    sequentially."""
    fd = _local_descriptor(raw)
    if fd is None or "fork" not in multiprocessing.get_all_start_methods() or multiprocessing.current_process().daemon:
        return None
    size = os.fstat(fd).st_size
    if size < MIN_BYTES:
        return None
    found = split_delimiter(os.pread(fd, SNIFF_BYTES, 0), filename, delimiter=delimiter, encoding=encoding)
    if found is None:
        return None
    offset = _record_boundary(fd, int(size * FIRST_SHARE), size)
    return (SplitAt(offset), found) if offset is not None else None


def _local_descriptor(raw: BinaryIO) -> int | None:
    try:
        if not raw.seekable() or raw.tell() != 0:
            return None
        return raw.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return None


def _record_boundary(fd: int, start: int, size: int) -> int | None:
    """The first offset after `start` following a "\\n" that is outside quotes, counting quotes from
    the file's start (exact for well-formed CSV; iter_records checks it: see SplitAt)."""
    quotes = 0
    pos = 0
    while pos < start:
        data = os.pread(fd, min(_READ_BYTES, start - pos), pos)
        if not data:
            return None
        quotes += data.count(b'"')
        pos += len(data)
    window = os.pread(fd, _SCAN_BYTES, start)
    at = 0
    while (newline := window.find(b"\n", at)) >= 0:
        quotes += window.count(b'"', at, newline)
        at = newline + 1
        if not quotes & 1:
            offset = start + at
            return offset if SNIFF_BYTES < offset < size else None
    return None


class _RangeReader:
    """Reads bytes [start, end) of a descriptor with pread: the file offset, shared with the parent
    process, stays untouched."""

    def __init__(self, fd: int, start: int, end: int) -> None:
        self._fd, self._pos, self._end = fd, start, end

    def read(self, size: int = -1) -> bytes:
        left = self._end - self._pos
        data = os.pread(self._fd, left if size < 0 else min(size, left), self._pos)
        self._pos += len(data)
        return data


class TailProcess:
    """The forked process reading the records after the split. records() yields their LineParts
    in order, then raises the error that ended the reading, if any; close() ends the process."""

    def __init__(self, raw: BinaryIO, split: SplitAt, delimiter: str, parts: Callable[[Record], LineParts]) -> None:
        self.split = split
        context = multiprocessing.get_context("fork")  # starts at once, with everything imported
        self._queue = context.Queue()
        fd = raw.fileno()
        args = (self._queue, fd, split.offset, os.fstat(fd).st_size, delimiter, parts)
        self._process = context.Process(target=_read_tail, args=args, name="import-tail", daemon=True)
        try:
            self._process.start()
        except BaseException:
            self._queue.close()
            raise
        self._done = False  # its last message (the end or an error) was read

    def records(self) -> Iterator[LineParts]:
        while True:
            kind, payload = self._next()
            if kind != "lines":
                self._done = True
                if kind == "error":
                    raise payload
                return
            yield from payload

    def _next(self) -> tuple[str, Any]:
        while True:
            try:
                return self._queue.get(timeout=1.0)
            except queue.Empty:
                if self._process.exitcode is None:
                    continue
            try:  # it has ended: what it sent is all in the pipe
                return self._queue.get(timeout=1.0)
            except queue.Empty:
                raise RuntimeError(f"the import's reading process ended unexpectedly "
                                   f"(exit code {self._process.exitcode})") from None

    def close(self) -> None:
        """Ends the process (it ends by itself once all was read) and waits for it."""
        process = self._process
        if not self._done:
            process.terminate()
        process.join(timeout=10)
        if process.exitcode is None:
            process.kill()
            process.join()
        process.close()
        self._queue.close()
        self._queue.join_thread()


def _read_tail(out: Any, fd: int, offset: int, size: int, delimiter: str, parts: Callable[[Record], LineParts]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; it ends this process on Ctrl-C
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    chunk: list[LineParts] = []
    try:
        for record in iter_tail_records(_RangeReader(fd, 0, offset), _RangeReader(fd, offset, size),
                                        delimiter=delimiter):
            chunk.append(parts(record))
            if len(chunk) >= _CHUNK_RECORDS:
                out.put(("lines", chunk))
                chunk = []
        last: tuple[str, Any] = ("end", None)
    except BaseException as exc:  # noqa: BLE001 - the parent raises it after the records before it
        last = ("error", _sendable(exc))
    out.put(("lines", chunk))
    out.put(last)


def _sendable(exc: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001
        return RuntimeError(f"reading the second half of the file failed: {exc!r}")

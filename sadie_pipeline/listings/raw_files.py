"""Gzipped JSON-lines files in the object store, split by record count or byte size."""

from __future__ import annotations

import datetime as dt
import gzip
import io
import json
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

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
        self._gz = self._stack.enter_context(gzip.GzipFile(fileobj=self._raw, mode="wb", compresslevel=self.compresslevel, mtime=0))

    def _close_part(self) -> None:
        key = self.key_for_seq(self._seq)
        if self._gz is None:
            self.written.append(WrittenFile(self._seq, key, self._count, self.store.size(key), skipped=True))
        else:
            self._stack.close()
            self._stack = None
            self.written.append(WrittenFile(self._seq, key, self._count, self.store.size(key)))
        self._count = 0


def iter_jsonl_gz(store: ObjectStore, key: str) -> Iterator[dict[str, Any]]:
    with store.open_read(key) as raw, gzip.GzipFile(fileobj=raw, mode="rb") as gz:
        for line in io.BufferedReader(gz, buffer_size=1 << 20):
            yield json.loads(line)


def dumps_line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str) + "\n").encode()

"""A redelivered file: an inbox file byte for byte the same as one the DMO imported before, under
the same config. Its raw records are that import's but for this import's own metadata (when and by
whom, raw_files.import_metadata), so its raw files are derived from the earlier import's
(decompressed, that metadata replaced, compressed again) and its raw keys copied in SQL, instead of
parsing the file again. They come out as parsing would write them: the same lines, rec_nums and
file boundaries (a different length of metadata would move the boundaries: then the file is parsed).
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import psycopg
from isal import igzip
from isal.isal_zlib import error as IsalError

from sadie_pipeline.listings.queries import sql
from sadie_pipeline.listings.raw_files import (
    METADATA_START,
    Deflate,
    WrittenFile,
    file_key,
    import_metadata,
    iter_lines_gz,
    raw_metadata,
)
from sadie_pipeline.listings.repository import Dmo
from sadie_pipeline.resources.object_store import ObjectStore

_CHUNK_BYTES = 4 << 20
_THREADS = 2  # ISA-L lets go of the GIL: two files at once
_UNREADABLE = (FileNotFoundError, EOFError, gzip.BadGzipFile, IsalError)

class NotDerivable(Exception):
    """The earlier raw files do not read as expected (another line format): parse the file."""


@dataclass(frozen=True)
class EarlierImport:
    job_id: int
    sha256: str
    files: list[tuple[int, str, int]]  # (seq, raw file key, records)


def earlier_import_of_same_file(conn: psycopg.Connection, store: ObjectStore, dmo: Dmo, job_id: int, key: str,
                                size: int, raw_version: str) -> EarlierImport | None:
    """The DMO's latest earlier import of the very bytes of `key`, under this job's config and by the
    same raw-line code. The file is read (hashed) only when an earlier import of its size exists."""
    earlier = conn.execute(sql("import", "earlier_imports"),
                           {"job": job_id, "dmo": dmo.id, "bytes": size, "raw_version": raw_version}).fetchall()
    if not earlier:
        return None
    digest = _sha256(store, key)
    match = next((job for job, sha in earlier if sha == digest), None)
    if match is None:
        return None
    files = conn.execute(sql("import", "earlier_files"), {"job": match}).fetchall()
    return EarlierImport(match, digest, [(seq, file_key("raw", dmo.slug, day, match, seq), n) for seq, day, n in files])


def _sha256(store: ObjectStore, key: str) -> str:
    with store.open_read(key) as raw:
        return hashlib.file_digest(raw, "sha256").hexdigest()


def derive_raw_files(conn: psycopg.Connection, store: ObjectStore, earlier: EarlierImport, job_id: int,
                     key_for_seq: Callable[[int], str], existing: frozenset[int], imported_at: str,
                     imported_by: str) -> list[WrittenFile]:
    """This job's raw files and raw keys from the earlier import's (the parts in `existing`, written
    by an earlier attempt, are kept); NotDerivable when its files cannot be read so."""
    if not earlier.files:
        raise NotDerivable("the earlier import has no raw files")
    try:
        first_line = next(iter_lines_gz(store, earlier.files[0][1]), b"")
        meta = raw_metadata(first_line) if first_line else {}
    except (*_UNREADABLE, ValueError) as exc:  # ValueError: not JSON lines
        raise NotDerivable(f"{earlier.files[0][1]}: {exc}") from exc
    if "imported_at" not in meta or "imported_by" not in meta:
        raise NotDerivable("the earlier raw lines carry no import metadata")
    old = import_metadata(meta["imported_at"], meta["imported_by"])
    new = import_metadata(imported_at, imported_by)
    if len(old) != len(new):
        raise NotDerivable("metadata of another length: the files would be cut elsewhere")

    def derive(file: tuple[int, str, int]) -> WrittenFile:
        seq, earlier_key, records = file
        key = key_for_seq(seq)
        if seq in existing:
            return WrittenFile(seq, key, records, store.size(key), skipped=True)
        _rewrite(store, earlier_key, key, records, old, new)
        return WrittenFile(seq, key, records, store.size(key))

    with ThreadPoolExecutor(_THREADS, thread_name_prefix="redelivery") as pool:
        files = pool.map(derive, earlier.files)
        # Meanwhile (psycopg lets go of the GIL while it waits for the server):
        conn.execute(sql("import", "copy_raw_keys"), {"job": job_id, "earlier": earlier.job_id, "existing": sorted(existing)})
        return list(files)


def _rewrite(store: ObjectStore, earlier_key: str, key: str, records: int, old: bytes, new: bytes) -> None:
    lines = 0
    try:
        with store.open_read(earlier_key) as raw, igzip.GzipFile(fileobj=raw, mode="rb") as gz, \
                store.open_write(key) as out:
            deflate, rest = Deflate(out, 1), b""
            while chunk := gz.read(_CHUNK_BYTES):
                data = rest + chunk
                cut = data.rfind(b"\n") + 1
                data, rest = data[:cut], data[cut:]
                count = data.count(b"\n")
                lines += count
                deflate.compress(_replaced(data, count, old, new))
            if rest or lines != records:
                raise NotDerivable(f"{earlier_key}: {lines} lines for {records} records")
            deflate.finish()
    except _UNREADABLE as exc:  # the earlier raw file gone or damaged: the file is parsed instead
        raise NotDerivable(f"{earlier_key}: {exc}") from exc


def _replaced(data: bytes, lines: int, old: bytes, new: bytes) -> bytes:
    """The lines with `old` replaced in their metadata. Once per line is the rule; a record whose
    own content holds those bytes too is done line by line, in its metadata only."""
    if data.count(old) == lines:
        return data.replace(old, new)
    out = []
    for line in data.splitlines(keepends=True):
        start = line.rfind(METADATA_START)
        if start < 0 or line.count(old, start) != 1:
            raise NotDerivable("a raw line without the earlier import's metadata")
        out.append(line[:start] + line[start:].replace(old, new))
    return b"".join(out)

"""Pulled records into raw files: the same writer, raw lines and metadata columns as a CSV file's
(importer.py), with the source's own id as the source id unless the config maps
`listing_info.source_id`. Problems (a page that failed, a feature without geometry) are kept for
job_errors. Also the JSON, JSON-lines and GeoJSON files of the inbox, read as such items."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import PurePath
from typing import Any, BinaryIO

import orjson
import psycopg

from sadie_pipeline.core.fields import CANONICAL_FIELDS
from sadie_pipeline.core.hashing import source_id_for
from sadie_pipeline.core.sources.config import SourceType
from sadie_pipeline.core.sources.documents import document_items, jsonl_items
from sadie_pipeline.core.sources.geojson import shape_collection
from sadie_pipeline.core.sources.paging import later
from sadie_pipeline.core.sources.records import Item, Problem, Pulled
from sadie_pipeline.listings.queries import sql
from sadie_pipeline.listings.raw_files import RawLines, SplitWriter, WrittenFile, file_key
from sadie_pipeline.listings.readers import UnreadableFileError
from sadie_pipeline.resources.objects import StoreOps as ObjectStore

DOCUMENT_SOURCES = frozenset({SourceType.JSON, SourceType.JSONL, SourceType.POI})
DOCUMENT_EXTENSIONS = {".json": SourceType.JSON, ".jsonl": SourceType.JSONL, ".ndjson": SourceType.JSONL,
                       ".geojson": SourceType.POI}
KeyWriter = Callable[[tuple[int, int, int, str, str]], Any]


@dataclass
class WrittenItems:
    records: int = 0
    files: list[WrittenFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    mark: str | None = None      # the latest modification time among the records
    duplicates: int = 0          # records whose source id came again in the same pull (paging overlap)


def write_items(store: ObjectStore, dmo_slug: str, dmo_id: int, job_id: int, day: dt.date, config: dict[str, Any],
                imported_at: str, imported_by: str, items: Iterable[Item], write_keys: KeyWriter,
                existing: frozenset[int] = frozenset(), dedupe: bool = False) -> WrittenItems:
    imp = config["import"]
    names = {CANONICAL_FIELDS[f]: col for f, col in config["transform"]["map_fields"].items() if isinstance(col, str)}
    writer = SplitWriter(store, partial(file_key, "raw", dmo_slug, day, job_id), imp["max_records_per_file"],
                         imp["max_bytes_per_file"], existing)
    raw_line, out, seen = RawLines(dmo_id, imported_at, imported_by), WrittenItems(), set()
    try:
        for item in items:
            if isinstance(item, Problem):
                out.problems.append(item)
                continue
            source_id = _source_id(dmo_id, names, item)
            if dedupe and source_id in seen:
                out.duplicates += 1
                continue
            seen.add(source_id)
            out.records += 1
            before, after, raw_hash = raw_line.parts(item.record, source_id)
            seq = writer.write(b"%s%d%s" % (before, out.records, after))
            if seq not in existing:
                write_keys((job_id, seq, out.records, raw_hash, source_id))
            if item.modified:
                out.mark = later(out.mark, item.modified)
    except BaseException:
        writer.abort()
        raise
    out.files = writer.close()
    return out


def _source_id(dmo_id: int, names: dict[str, str], item: Pulled) -> str:
    record = item.record
    explicit = record.get(names["explicit_source_id"], "").strip() if "explicit_source_id" in names else ""
    return source_id_for(dmo_id, record.get(names.get("name", "")), record.get(names.get("city", "")),
                         explicit or item.source_id)


def write_problems(conn: psycopg.Connection, job_id: int, problems: list[Problem]) -> None:
    """The problems as job_errors rows of the import stage."""
    if not problems:
        return
    with conn.cursor() as cur:
        cur.executemany(sql("pulls", "problem"), [
            (job_id, p.record_id, orjson.dumps(p.original, default=str).decode() if p.original is not None else None,
             p.kind.value, p.message) for p in problems])


def document_type(config: dict[str, Any], key: str) -> SourceType | None:
    """The document reader a stored file takes (by the DMO's source type, else its extension)."""
    source_type = SourceType(config["import"]["source_type"])
    if source_type in DOCUMENT_SOURCES:
        return source_type
    return DOCUMENT_EXTENSIONS.get(PurePath(key).suffix.lower())


def document_file_items(raw: BinaryIO, name: str, source_type: SourceType, records_path: str | None) -> Iterator[Item]:
    """The items of a JSON, JSON-lines or GeoJSON file."""
    if source_type == SourceType.JSONL:
        yield from jsonl_items(io.BufferedReader(raw, 1 << 20), name)  # type: ignore[arg-type]
        return
    data = raw.read()
    if source_type == SourceType.JSON:
        yield from document_items(data, records_path, name)
        return
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise UnreadableFileError(f"{name} is not GeoJSON ({exc})") from None
    yield from shape_collection(doc, records_path, name)

"""A stored file's first records as a table, read as a stream and stopped after them: never the
whole file. Raw and transformed files (gzipped JSON lines), and the files DMOs deliver: CSV/TSV
(the importer's own reader), JSON lines, workbooks (python-calamine loads the first sheet, so a
workbook is previewed only under a size), JSON and GeoJSON documents (parsed whole, so only under
a size)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from itertools import islice
from pathlib import PurePath
from typing import Any

import orjson

from sadie_pipeline.listings.raw_files import iter_jsonl_gz
from sadie_pipeline.listings.readers import CSV_EXTENSIONS, XLSX_EXTENSIONS, UnreadableFileError, iter_records

ROWS = 20
MAX_COLUMNS = 40
MAX_CELL = 300
DOCUMENT_BYTES = 5 * 1024 * 1024    # a JSON document is parsed whole: larger ones are not previewed
WORKBOOK_BYTES = 50 * 1024 * 1024   # calamine loads the sheet
LINE_EXTENSIONS = {".jsonl", ".ndjson"}
DOCUMENT_EXTENSIONS = {".json", ".geojson"}


@dataclass
class Preview:
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    problem: str | None = None   # why nothing (or not everything) is shown


def _cell(value: Any) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else orjson.dumps(value, default=str).decode()
    return text if len(text) <= MAX_CELL else text[:MAX_CELL - 1] + "…"


def table(records: Iterable[Any], limit: int = ROWS) -> Preview:
    """The first `limit` records as rows under the union of their keys (first seen first)."""
    taken = [r if isinstance(r, dict) else {"value": r} for r in islice(records, limit)]
    columns: dict[str, None] = {}
    for record in taken:
        columns.update(dict.fromkeys(map(str, record)))
    names = list(columns)[:MAX_COLUMNS]
    return Preview(names, [[_cell(r.get(c)) for c in names] for r in taken],
                   None if taken else "the file holds no records")


def stored_lines(store: Any, key: str, limit: int = ROWS) -> Preview:
    """A raw or transformed file (gzipped JSON lines): its first records."""
    with closing(iter_jsonl_gz(store, key)) as records:
        return table(records, limit)


def delivered(store: Any, key: str, records_path: str | None = None, limit: int = ROWS) -> Preview:
    """A file as a DMO delivered it (upload, inbox or download), by its extension."""
    ext = PurePath(key).suffix.lower()
    try:
        if ext in CSV_EXTENSIONS:
            with store.open_read(key) as fh, closing(iter_records(fh, key)) as records:
                return table(records, limit)
        if ext in LINE_EXTENSIONS:
            with store.open_read(key) as fh:
                return table(_json_lines(fh), limit)
        if ext in XLSX_EXTENSIONS or ext in DOCUMENT_EXTENSIONS:
            return _whole(store, key, ext, records_path, limit)
    except UnreadableFileError as exc:
        return Preview(problem=f"unreadable: {exc}")
    return Preview(problem=f"no preview of {ext or 'files without an extension'}: download it")


def _json_lines(fh: Any) -> Iterator[Any]:
    for line in fh:  # a buffered stream (ObjectStore.open_read): line by line
        if line.strip():
            try:
                yield orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                raise UnreadableFileError(f"a line is not JSON ({exc})") from None


def _whole(store: Any, key: str, ext: str, records_path: str | None, limit: int) -> Preview:
    """Formats read whole by their parser: only under their size limit."""
    size, cap = store.size(key), WORKBOOK_BYTES if ext in XLSX_EXTENSIONS else DOCUMENT_BYTES
    if size > cap:
        return Preview(problem=f"{size:,} bytes: over the {cap // (1024 * 1024)} MB a {ext} file is previewed "
                               f"under (it is parsed whole); download it")
    with store.open_read(key) as fh:
        if ext in XLSX_EXTENSIONS:
            with closing(iter_records(fh, key)) as records:
                return table(records, limit)
        try:
            doc = orjson.loads(fh.read())
        except orjson.JSONDecodeError as exc:
            raise UnreadableFileError(f"not JSON ({exc})") from None
    return table(_document_records(doc, records_path), limit)


def _document_records(doc: Any, records_path: str | None) -> list[Any]:
    """The records of a JSON document: at the config's records_path (dotted), a GeoJSON
    FeatureCollection's features' properties, a top-level array, or the first array in the object."""
    for part in (records_path or "").split(".") if records_path else []:
        doc = doc.get(part) if isinstance(doc, dict) else None
    if isinstance(doc, dict) and isinstance(doc.get("features"), list):
        return [f.get("properties", f) if isinstance(f, dict) else f for f in doc["features"]]
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict):
        return next((v for v in doc.values() if isinstance(v, list)), [doc])
    return []

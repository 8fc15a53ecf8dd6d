"""JSON documents of records (a file's array, an API page) and JSON-lines files as pulled records:
each object flattened; the source's id is its "id" (a partner's id is the listing's source id)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import orjson

from sadie_pipeline.core.sources.records import (
    Item,
    Problem,
    ProblemKind,
    Pulled,
    flatten,
    get_path,
    snippet,
    text_of,
)


def records_at(doc: Any, records_path: str | None, where: str) -> list[Any] | Problem:
    """The list of records at the path ("" or None: the document itself), or the problem."""
    found = get_path(doc, records_path)
    if isinstance(found, list):
        return found
    at = f"at {records_path!r}" if records_path else "(the document itself)"
    return Problem(ProblemKind.SCHEMA, f"{where}: no list of records {at}{_keys_hint(doc, records_path)}", where,
                   doc if isinstance(doc, Mapping) else None)


def _keys_hint(doc: Any, records_path: str | None) -> str:
    """Where the path stops matching, and the keys found there (a renamed list is then plain)."""
    reached, obj = [], doc
    for step in (records_path or "").split(".")[:-1]:
        if not isinstance(obj, Mapping) or not isinstance(obj.get(step), Mapping):
            break
        reached.append(step)
        obj = obj[step]
    if not isinstance(obj, Mapping):
        return ""
    label = repr(".".join(reached)) if reached else "the document"
    return f"; {label} has keys: {', '.join(list(obj)[:8])}"


def shape_records(records: Iterable[Any], modified_field: str | None, where: str) -> Iterator[Item]:
    for number, record in enumerate(records, start=1):
        yield shape_object(record, modified_field, f"{where} #{number}")


def shape_object(obj: Any, modified_field: str | None, label: str) -> Item:
    if not isinstance(obj, Mapping):
        return Problem(ProblemKind.BAD_RECORD, f"{label}: not a JSON object ({type(obj).__name__})", label,
                       {"value": obj})
    source_id = obj.get("id")
    modified = get_path(obj, modified_field) if modified_field else None
    return Pulled(flatten(obj), text_of(source_id) if source_id not in (None, "") else None,
                  text_of(modified) if modified is not None else None)


def document_items(data: bytes, records_path: str | None, name: str) -> Iterator[Item]:
    """A JSON file's records."""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        yield Problem(ProblemKind.NOT_JSON, f"{name}: not JSON ({exc}): {snippet(data)}", name)
        return
    found = records_at(doc, records_path, name)
    if isinstance(found, Problem):
        yield found
        return
    yield from shape_records(found, None, name)


def jsonl_items(lines: Iterable[bytes], name: str) -> Iterator[Item]:
    """A JSON-lines file's records: a line that is not a JSON object is a problem, the rest go on."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            yield Problem(ProblemKind.BAD_RECORD, f"{name} line {number}: not JSON ({exc})", f"line {number}",
                          {"line": snippet(line, 500)})
            continue
        yield shape_object(obj, None, f"{name} line {number}")

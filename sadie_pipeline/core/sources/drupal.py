"""Drupal JSON:API documents (/jsonapi/node/{type}?include=...) as pulled records.

A node's attributes keep their names ("title", "field_phone", "body" as text); each relationship
is resolved through the document's `included` resources (images, taxonomy terms, address
entities, media and their files, up to MAX_DEPTH steps) into "{relationship}.{attribute}" keys,
several related resources' values on lines ("field_tags.name" = "Museum\\nHistory"). A related
resource that was not included keeps its id ("field_x.id"). File URLs ("uri.url": "/sites/...")
are made absolute against the site."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urljoin

from sadie_pipeline.core.sources.records import (
    Item,
    Problem,
    ProblemKind,
    Pulled,
    Record,
    flatten,
    get_path,
    html_text,
    joined,
    text_of,
)

MAX_DEPTH = 3  # node -> media -> file, node -> paragraph -> term
Index = dict[tuple[str, str], Mapping[str, Any]]


def shape_document(doc: Any, site: str, modified_field: str | None, where: str) -> Iterator[Item]:
    """The nodes of one JSON:API page; a page without a `data` list is one problem."""
    data = doc.get("data") if isinstance(doc, Mapping) else None
    if not isinstance(data, list):
        yield Problem(ProblemKind.SCHEMA, f"{where}: expected a JSON:API document with a data list",
                      where, doc if isinstance(doc, Mapping) else None)
        return
    index: Index = {(r["type"], r["id"]): r for r in doc.get("included") or []
                    if isinstance(r, Mapping) and isinstance(r.get("type"), str) and isinstance(r.get("id"), str)}
    for node in data:
        yield shape_node(node, index, site, modified_field, where)


def shape_node(node: Any, index: Index, site: str, modified_field: str | None, where: str = "") -> Item:
    if not isinstance(node, Mapping) or not node.get("id") or not isinstance(node.get("attributes"), Mapping):
        return Problem(ProblemKind.SCHEMA, f"{where}: a resource without id or attributes", where, node)
    record = _resource(node, index, site, 0, set())
    modified = get_path(node["attributes"], modified_field) if modified_field else None
    return Pulled(record, text_of(node["id"]), text_of(modified) if modified is not None else None)


def _resource(res: Mapping[str, Any], index: Index, site: str, depth: int, seen: set[tuple[str, str]]) -> Record:
    record: Record = {"id": text_of(res.get("id")), "type": text_of(res.get("type"))}
    attributes = res.get("attributes") or {}
    flatten({key: _rich(value) for key, value in attributes.items()}, "", record)
    for key, value in record.items():
        if key.endswith("uri.url") and value.startswith("/"):
            record[key] = urljoin(site, value)
    if depth >= MAX_DEPTH:
        return record
    for name, rel in (res.get("relationships") or {}).items():
        refs = rel.get("data") if isinstance(rel, Mapping) else None
        refs = refs if isinstance(refs, list) else [refs] if isinstance(refs, Mapping) else []
        related = [_related(ref, index, site, depth, seen) for ref in refs if isinstance(ref, Mapping)]
        record.update({f"{name}.{key}": value for key, value in joined(related).items()})
    return record


def _related(ref: Mapping[str, Any], index: Index, site: str, depth: int, seen: set[tuple[str, str]]) -> Record:
    key = (text_of(ref.get("type")), text_of(ref.get("id")))
    res = index.get(key)
    if res is None or key in seen:
        return {"id": key[1]}
    return _resource(res, index, site, depth + 1, seen | {key})


def _rich(value: Any) -> Any:
    # text fields are {"value": ..., "format": ..., "processed": html}: their text is the value
    if isinstance(value, Mapping) and isinstance(value.get("processed"), str):
        return html_text(value["processed"])
    return value


def changed_filter(mark: str, field: str) -> dict[str, str]:
    """JSON:API filter params for resources changed after the high-water mark (a timestamp field is
    filtered by its Unix time)."""
    return {f"filter[{field}][condition][path]": field, f"filter[{field}][condition][operator]": ">",
            f"filter[{field}][condition][value]": str(unix_time(mark))}


def unix_time(mark: str) -> int:
    if mark.lstrip("-").isdigit():
        return int(mark)
    moment = dt.datetime.fromisoformat(mark)
    return int((moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)).timestamp())

"""What a connector yields: a pulled record (flat, as raw files keep records), or a problem with a
record or a page that becomes a `job_errors` row while the pull goes on.

A pulled JSON record is flattened into dotted paths ("acf.address", "terms.category",
"_embedded.wp:featuredmedia.0.source_url"), so `transform.map_fields` maps canonical fields to
paths the way it maps them to CSV columns, and the stage reads pulled and uploaded records alike."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

Record = dict[str, str]


class ProblemKind(StrEnum):
    """The job_errors error_type of an import-time problem."""
    PAGE_FAILED = "page_failed"          # the page could not be fetched (after the guard's retries)
    NOT_JSON = "not_json"                # a page answered something other than JSON (an HTML error page...)
    SCHEMA = "schema_changed"            # the page's or record's shape is not the one configured
    MISSING_GEOMETRY = "missing_geometry"
    BAD_RECORD = "bad_record"            # a line or item that is not a JSON object
    ROBOTS = "robots_disallowed"


@dataclass(frozen=True)
class Pulled:
    record: Record
    source_id: str | None = None   # the source's own id (post id, node uuid, partner id, feature id, URL)
    modified: str | None = None    # the record's modification time, for the high-water mark


@dataclass(frozen=True)
class Problem:
    kind: ProblemKind
    message: str                   # one line: what and where (page URL, record id)
    record_id: str | None = None   # page URL or record id
    original: Any = None           # the record (or the start of the page) as received


Item = Pulled | Problem


def get_path(obj: Any, path: str | None) -> Any:
    """The value at a dotted path ("data.items", "links.next.href", "features"); list items by
    number ("media.0.url"). "" or None: obj itself. A missing step gives None."""
    if not path:
        return obj
    for step in path.split("."):
        if isinstance(obj, Mapping):
            obj = obj.get(step)
        elif isinstance(obj, list) and step.isdigit() and int(step) < len(obj):
            obj = obj[int(step)]
        else:
            return None
    return obj


def text_of(value: Any) -> str:
    """A JSON scalar as a cell: JSON's own spelling of numbers and booleans, "" for null."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def flatten(obj: Mapping[str, Any], prefix: str = "", out: Record | None = None) -> Record:
    """Nested objects into dotted keys; a list of scalars into one value, items on lines (as the
    image and hours columns of a file give them); a list of objects item by item ("tags.0.name")."""
    out = {} if out is None else out
    for key, value in obj.items():
        name = prefix + key
        kind = type(value)  # exact types first: parsed JSON holds only these, and ABC checks cost
        if kind is str:
            out[name] = value
        elif kind is dict or (kind is not list and isinstance(value, Mapping)):
            flatten(value, name + ".", out)
        elif kind is list:
            _flatten_list(name, value, out)
        else:
            out[name] = text_of(value)
    return out


def _flatten_list(name: str, values: list[Any], out: Record) -> None:
    if all(type(v) is not dict and type(v) is not list for v in values):
        out[name] = "\n".join(text_of(v) for v in values if v is not None)
        return
    for i, value in enumerate(values):
        if isinstance(value, Mapping):
            flatten(value, f"{name}.{i}.", out)
        elif isinstance(value, list):
            _flatten_list(f"{name}.{i}", value, out)
        else:
            out[f"{name}.{i}"] = text_of(value)


def joined(records: Iterable[Record]) -> Record:
    """Several related records (a listing's terms, its images) as one: each key's values on lines."""
    out: dict[str, list[str]] = {}
    for record in records:
        for key, value in record.items():
            if value != "":
                out.setdefault(key, []).append(value)
    return {key: "\n".join(values) for key, values in out.items()}


_HIDDEN = re.compile(r"(?is)<(script|style|template)\b.*?</\1\s*>|<!--.*?-->")
_BLOCK_END = re.compile(r"(?i)</(?:p|div|li|h[1-6]|tr|blockquote)\s*>|<br\s*/?>")
_TAG = re.compile(r"<[^>]*>")
_LINES = re.compile(r"[ \t\r]*\n\s*")
_SPACES = re.compile(r"[ \t\r\f\v\xa0]+")


def html_text(fragment: str) -> str:
    """The text of an HTML fragment (a rendered title, a body): tags dropped, entities decoded, a
    line per paragraph (inline tags such as <b> do not break words apart). Regular expressions, not
    a parser: rendered CMS fields are well-formed, and this runs for several fields of every record."""
    if "<" not in fragment:
        return html.unescape(fragment).strip() if "&" in fragment else fragment.strip()
    text = _TAG.sub("", _BLOCK_END.sub("\n", _HIDDEN.sub("", fragment)))
    return _LINES.sub("\n", _SPACES.sub(" ", html.unescape(text))).strip()


def snippet(data: bytes | str, limit: int = 200) -> str:
    """The start of a body, on one line, for a problem's message."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return " ".join(text[:limit].split())

"""A listing's timeline: what each import changed, beside people's changes, newest first.

The pipeline keeps no per-field diff of an import: it keeps each applied version of a DMO record (the
staged row a promotion applied, with its job, until retention archives it). So an import's changes
are those between the record's version it applied and the version applied before it; an unchanged
record is staged as a thin row that promotion does not apply, and is no version."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

LIST_SHOWN = 3  # values of a list (images, hours) spelt out in a line; past that, counts


@dataclass(frozen=True)
class Version:
    """A DMO record as one import applied it (a promoted staged row)."""
    info_id: int
    dmo: str
    job_id: int
    at: datetime
    action: str                      # insert, update, unchanged, delete (listings/states.py Action)
    fields: Mapping[str, Any]
    job_source: str | None = None
    job_created: datetime | None = None


@dataclass(frozen=True)
class ImportEvent:
    at: datetime
    dmo: str
    job_id: int
    action: str
    job_source: str | None
    job_created: datetime | None
    changes: tuple[tuple[str, Any, Any], ...] = ()  # (field, before, after)
    earlier_kept: bool = True        # False: the version before this one is no longer kept
    lines: list[str] = field(default_factory=list)


def changed_fields(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[tuple[str, Any, Any], ...]:
    """The fields whose value differs (a blank string and nothing are one), in `after`'s order."""
    names = list(after) + [k for k in before if k not in after]
    return tuple((k, before.get(k), after.get(k)) for k in names if _norm(before.get(k)) != _norm(after.get(k)))


def _norm(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip() or None
    if value in ([], {}):
        return None
    if isinstance(value, float | int) and not isinstance(value, bool):
        return float(value)
    return value


def import_events(versions: Iterable[Version]) -> list[ImportEvent]:
    """Each applied version as an event with what it changed from the record's previous version;
    deletions carry no fields and are skipped as a previous version."""
    events, last = [], {}
    for v in sorted(versions, key=lambda v: (v.at, v.job_id)):
        previous = last.get(v.info_id)
        changes: tuple[tuple[str, Any, Any], ...] = ()
        if v.action != "delete":
            changes = changed_fields(previous, v.fields) if previous is not None else ()
            last[v.info_id] = v.fields
        earlier = previous is not None or v.action in ("insert", "delete")
        event = ImportEvent(v.at, v.dmo, v.job_id, v.action, v.job_source, v.job_created, changes, earlier)
        event.lines.extend(describe(event))
        events.append(event)
    return events


def describe(event: ImportEvent) -> list[str]:
    if event.action == "delete":
        return ["left out of a full import: the DMO's record hidden"]
    if event.action == "insert":
        return ["first imported"]
    if not event.earlier_kept:
        return ["the version before this import is no longer kept: its changes are unknown"]
    if not event.changes:
        return ["no field changed"]
    return [f"{name}: {plain(before)} → {plain(after)}" for name, before, after in event.changes]


def plain(value: Any) -> str:
    if value is None or value == "" or value == []:
        return "(empty)"
    if isinstance(value, list):
        shown = ", ".join(plain(v) if not isinstance(v, dict) else _mapping(v) for v in value[:LIST_SHOWN])
        return shown + (f" and {len(value) - LIST_SHOWN} more" if len(value) > LIST_SHOWN else "")
    if isinstance(value, dict):
        return _mapping(value)
    return str(value)


def _mapping(value: Mapping[str, Any]) -> str:
    return " ".join(str(v) for v in value.values() if v not in (None, ""))


def merged(imports: Sequence[ImportEvent], changes: Sequence[Mapping[str, Any]], limit: int = 200) -> list[dict]:
    """Import events (as history rows: at, what, dmo, who, lines, job_id) and people's changes, newest
    first; a record's 'imported' row is left out where its first import is among the events."""
    first_imports = {e.dmo for e in imports if e.action == "insert"}
    rows = [{"at": e.at, "what": "import", "action": e.action, "dmo": e.dmo, "who": "pipeline", "detail": None,
             "lines": e.lines, "job_id": e.job_id, "job_source": e.job_source, "job_created": e.job_created}
            for e in imports]
    rows += [dict(c) for c in changes if not (c.get("what") == "imported" and c.get("dmo") in first_imports)]
    rows.sort(key=lambda r: (r["at"] is not None, r["at"] or datetime.min), reverse=True)
    return rows[:limit]

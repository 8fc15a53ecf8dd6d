"""Dead letters of the enrichment layers: listed, requeued, counted per layer.

How they are retried today: a layer asset selects the detected hotels still missing the layer's
bit (enrichment/common.py ``hotels_needing``) whether or not they have a dead letter, so every run
of the layer tries a dead-lettered hotel again; a success resolves its dead letter, a failure adds
its attempts. A requeue therefore changes no selection: it records that a person asked for the
retry (``requeued_at``), which takes the row out of the open count the Slack alert watches until
it fails again, and it says, per row, which run will retry it. A hotel that already has the layer
(its dead letter comes from a failed refresh) is retried by the next refresh run, not the next run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import psycopg

from sadie_pipeline.core.hotel_status import DETECTED_OR_ENRICHED
from sadie_pipeline.hotels.enrichment.common import LAYER_ASSETS
from sadie_pipeline.hotels.jobs import ENRICHMENT_LAYER_ASSETS
from sadie_pipeline.operations.queries import sql

__all__ = ["DeadLetter", "DeadLetterState", "Retry", "UnknownDeadLetters", "dead_letters", "known_layers",
           "open_by_layer", "requeue"]

LAYER_BITS = {asset: bit for bit, asset in LAYER_ASSETS.items()}


class DeadLetterState(StrEnum):
    OPEN = "open"            # failed, nobody asked for a retry since
    REQUEUED = "requeued"    # a person requeued it and it has not failed since
    RESOLVED = "resolved"    # its item succeeded since


class Retry(StrEnum):
    """Which run of the layer tries the item again."""
    NEXT_RUN = "next run"
    NEXT_REFRESH = "next refresh run"         # the hotel has the layer: only force_refresh runs it
    NOT_ENRICHED = "no: hotel not enrichable"  # merged, not detected, or past enrichment
    NO_HOTEL = "no: hotel gone"
    UNKNOWN = "?"                              # not a hotel layer this code knows
    NOT_NEEDED = "-"                           # resolved: the item succeeded


class UnknownDeadLetters(ValueError):
    """A layer or ids that name no dead letter (a person's mistake: the CLI shows one line)."""


@dataclass(frozen=True)
class DeadLetter:
    id: int
    layer: str
    item_key: str
    error_class: str
    attempts: int
    last_error: str
    last_failed_at: datetime
    state: DeadLetterState
    retry: Retry


def _state(row: Mapping[str, Any]) -> DeadLetterState:
    if row["resolved_at"] is not None:
        return DeadLetterState.RESOLVED
    requeued = row["requeued_at"]
    if requeued is not None and requeued >= row["last_failed_at"]:
        return DeadLetterState.REQUEUED
    return DeadLetterState.OPEN


def _retry(row: Mapping[str, Any]) -> Retry:
    if row["resolved_at"] is not None:
        return Retry.NOT_NEEDED
    bit = LAYER_BITS.get(row["layer"])
    if bit is None or not row["item_key"].startswith("hotel:"):
        return Retry.UNKNOWN
    if row["hotel_status"] is None:
        return Retry.NO_HOTEL
    if row["hotel_status"] not in DETECTED_OR_ENRICHED:
        return Retry.NOT_ENRICHED
    return Retry.NEXT_REFRESH if row["layers_completed"] & bit else Retry.NEXT_RUN


def known_layers(conn: psycopg.Connection) -> list[str]:
    """The enrichment layers plus any other layer that has dead letters."""
    present = [r[0] for r in conn.execute(sql("dead_letters", "layers"))]
    return sorted({*ENRICHMENT_LAYER_ASSETS, *present})


def check_layer(conn: psycopg.Connection, layer: str | None) -> None:
    if layer is not None and layer not in known_layers(conn):
        raise UnknownDeadLetters(f"unknown layer {layer!r}; layers: {', '.join(known_layers(conn))}")


def dead_letters(conn: psycopg.Connection, *, layer: str | None = None, ids: Sequence[int] | None = None,
                 include_resolved: bool = False) -> list[DeadLetter]:
    """Dead letters by layer, then id (unresolved only unless include_resolved)."""
    check_layer(conn, layer)
    cur = conn.execute(sql("dead_letters", "dead_letters"),
                       {"layer": layer, "ids": list(ids) if ids is not None else None,
                        "include_resolved": include_resolved})
    names = [d.name for d in cur.description]
    rows = [dict(zip(names, r)) for r in cur.fetchall()]
    return [DeadLetter(r["id"], r["layer"], r["item_key"], r["error_class"], r["attempts"], r["last_error"],
                       r["last_failed_at"], _state(r), _retry(r)) for r in rows]


def requeue(conn: psycopg.Connection, *, ids: Sequence[int] = (), layer: str | None = None,
            by: str) -> tuple[list[DeadLetter], list[DeadLetter]]:
    """Requeues the unresolved dead letters with these ids, or all of a layer's. Every id must name
    a dead letter, or nothing changes. Returns (requeued, left alone because resolved)."""
    if ids:
        wanted = list(dict.fromkeys(ids))
        found = dead_letters(conn, ids=wanted, include_resolved=True)
        missing = sorted(set(wanted) - {d.id for d in found})
        if missing:
            raise UnknownDeadLetters(f"no dead letter with id {', '.join(map(str, missing))}")
    else:
        found = dead_letters(conn, layer=layer)
    targets = [d.id for d in found if d.state is not DeadLetterState.RESOLVED]
    done = {r[0] for r in conn.execute(sql("dead_letters", "requeue"), {"ids": targets, "by": by})}
    after = {d.id: d for d in dead_letters(conn, ids=sorted(done))}
    return [after[i] for i in sorted(after)], [d for d in found if d.id not in done]


def open_by_layer(conn: psycopg.Connection) -> dict[str, int]:
    """Open dead letters per layer: unresolved and not waiting on a requeue."""
    return dict(conn.execute(sql("dead_letters", "open_by_layer")).fetchall())


def format_table(letters: Sequence[DeadLetter], error_chars: int = 60) -> list[str]:
    """Aligned lines: a header, then one line per dead letter."""
    header = ("ID", "LAYER", "ITEM", "CLASS", "ATTEMPTS", "LAST FAILED (UTC)", "STATE", "RETRIED BY", "LAST ERROR")
    rows = [(str(d.id), d.layer, d.item_key, d.error_class, str(d.attempts),
             d.last_failed_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M"), str(d.state), str(d.retry),
             _one_line(d.last_error, error_chars)) for d in letters]
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header) - 1)]
    return ["  ".join([*(c.ljust(w) for c, w in zip(r, widths)), r[-1]]).rstrip() for r in (header, *rows)]


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


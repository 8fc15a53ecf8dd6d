"""`sadie sync pull`: the enriched results new since the last pull, from the object store to a local
folder (DEST/{region}/{domain}.json and .md), and into sadie_gtm.hybrid_results when a database is
configured.

What is new is decided by the index objects (indexes/domains/{domain}.json, written after their
result): an entry is new when DEST/.sadie-sync.json has no pull of that domain at that entry's
timestamp (core/hybrid.newer_than_pulled). The file is written after the downloads, so a pull
interrupted halfway is done again next time (the downloads overwrite, the upsert is idempotent).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from psycopg.types.json import Jsonb

from sadie_pipeline.core import listing_fields
from sadie_pipeline.core.hybrid import INDEX_PREFIX, IndexEntry, newer_than_pulled, parse_index, result_keys
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.sql_files import SqlFiles

SYNC_FILE = ".sadie-sync.json"
_SQL = SqlFiles(Path(__file__).parent / "sql")


@dataclass
class PullReport:
    indexed: int = 0                       # index objects read (of the region, when one is given)
    new: int = 0                           # pulled this time
    loaded: int = 0                        # upserted into the database
    by_region: dict[str, int] = field(default_factory=dict)
    last_pull: str | None = None           # the previous pull's time


def load_state(dest: Path) -> dict[str, Any]:
    path = dest / SYNC_FILE
    if not path.is_file():
        return {"last_pull": None, "pulled": {}}
    return json.loads(path.read_text())


def save_state(dest: Path, state: dict[str, Any]) -> None:
    """Written beside and renamed over: a pull killed while writing keeps the previous state."""
    tmp = dest / f"{SYNC_FILE}.tmp"
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True))
    os.replace(tmp, dest / SYNC_FILE)


def index_keys(store: ObjectStore) -> list[str]:
    return [k for k in store.list_keys(INDEX_PREFIX) if k.endswith(".json")]


def _download(store: ObjectStore, entry: IndexEntry, dest: Path) -> dict[str, Any]:
    json_key, md_key = result_keys(entry.region, entry.domain)
    folder = dest / entry.region
    folder.mkdir(parents=True, exist_ok=True)
    data = store.get_bytes(json_key)
    (folder / f"{entry.domain}.json").write_bytes(data)
    if store.exists(md_key):
        (folder / f"{entry.domain}.md").write_bytes(store.get_bytes(md_key))
    return json.loads(data)


def _valid(check: Callable[[Any], str | None], value: Any) -> str | None:
    """The value as the app's own fields take it (core/listing_fields.py), or None: a result comes
    from elsewhere, and nothing unchecked goes into the database."""
    try:
        return check(value)
    except listing_fields.FieldError:
        return None


def _row(record: dict[str, Any], entry: IndexEntry) -> dict[str, Any]:
    engine = record.get("engine") or {}
    emails = [e for e in (_valid(listing_fields.email, v) for v in record.get("emails") or []) if e]
    return {"domain": entry.domain, "region": entry.region, "name": record.get("name"), "city": record.get("city"),
            "website": _valid(listing_fields.web_url, record.get("website")),
            "state": record.get("state") or entry.state.value,
            "reason": record.get("reason"), "engine": engine.get("name"), "engine_tier": engine.get("tier"),
            "booking_url": _valid(listing_fields.web_url, engine.get("booking_url")), "emails": emails,
            "phones": record.get("phones") or [], "people": Jsonb(record.get("people") or []),
            "result_key": entry.result_key, "enriched_at": entry.enriched_at}


def pull(store: ObjectStore, dest: Path, region: str | None = None, *, database: Database | None = None,
         keys: list[str] | None = None, on_key: Callable[[], None] = lambda: None) -> PullReport:
    """Downloads what is new (see the module's doc); `keys`: the index keys, when the caller
    listed them already (to size a progress bar)."""
    dest.mkdir(parents=True, exist_ok=True)
    state = load_state(dest)
    report = PullReport(last_pull=state.get("last_pull"))
    started = dt.datetime.now(dt.UTC).isoformat()
    rows = []
    for key in index_keys(store) if keys is None else keys:
        on_key()
        entry = parse_index(store.get_bytes(key))
        if entry is None or (region is not None and entry.region != region):
            continue
        report.indexed += 1
        if not newer_than_pulled(entry, state["pulled"]):
            continue
        rows.append(_row(_download(store, entry, dest), entry))
        state["pulled"][entry.domain] = entry.enriched_at.isoformat()
        report.by_region[entry.region] = report.by_region.get(entry.region, 0) + 1
    report.new = len(rows)
    if database is not None and rows:
        with database.connect() as conn, conn.cursor() as cur:
            cur.executemany(_SQL.sql("sync", "upsert_result"), rows)
        report.loaded = len(rows)
    state["last_pull"] = started
    save_state(dest, state)
    return report

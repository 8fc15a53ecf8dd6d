"""Drives the listings assets the way the sensor and the CLI do: a file in the inbox, then
import -> stage -> promote materialised for the DMO's partition."""

from __future__ import annotations

import csv
import itertools
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
from dagster import DagsterInstance, ExecuteInProcessResult, materialize

from sadie_pipeline.listings.assets import listing_assets, listing_promotion
from sadie_pipeline.listings.importer import inbox_prefix
from sadie_pipeline.listings.promote import job_summary
from sadie_pipeline.listings.repository import Dmo, upsert_dmo
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.settings import SAMPLE_DIR
from sadie_pipeline_tests.conftest import add_partition

_sequence = itertools.count(1)


def sample_config(slug: str) -> dict[str, Any]:
    return json.loads((SAMPLE_DIR / f"{slug}.config.json").read_text())


def register(database: Database, instance: DagsterInstance, slug: str, config: dict[str, Any] | None = None) -> Dmo:
    with database.connect() as conn:
        dmo = upsert_dmo(conn, slug, slug.replace("-", " ").title(), config if config is not None else sample_config(slug))
    add_partition(instance, slug)
    return dmo


def drop_in_inbox(store: ObjectStore, slug: str, path: Path) -> str:
    key = f"{inbox_prefix(slug)}{next(_sequence):04d}-{path.name}"
    store.put_file(key, path)
    return key


def run_assets(database: Database, store: ObjectStore, instance: DagsterInstance, slug: str,
               inbox_key: str | None = None, assets=None, raise_on_error: bool = True) -> ExecuteInProcessResult:
    config = {"ops": {"listing_raw_files": {"config": {"inbox_key": inbox_key}}}} if inbox_key else None
    selected = assets or listing_assets
    return materialize(
        selected, partition_key=slug, instance=instance, run_config=config,
        resources={"database": database, "object_store": store}, raise_on_error=raise_on_error,
    )


def import_file(database: Database, store: ObjectStore, instance: DagsterInstance, slug: str, path: Path,
                **kwargs: Any) -> tuple[ExecuteInProcessResult, dict[str, Any]]:
    key = drop_in_inbox(store, slug, path)
    result = run_assets(database, store, instance, slug, key, **kwargs)
    with database.connect() as conn:
        row = conn.execute("SELECT id FROM pipeline.jobs WHERE source_key = %s", (key,)).fetchone()
        summary = job_summary(conn, row[0]) if row else {}
    summary["job_id"] = row[0] if row else None
    return result, summary


def promote(database: Database, store: ObjectStore, instance: DagsterInstance, slug: str) -> ExecuteInProcessResult:
    return run_assets(database, store, instance, slug, assets=[listing_promotion])


def sample(name: str) -> Path:
    return SAMPLE_DIR / name


def metadata(result: ExecuteInProcessResult, asset_name: str) -> dict[str, Any]:
    [mat] = [m for m in result.asset_materializations_for_node(asset_name)]
    return {k: v.value for k, v in mat.metadata.items()}


# A small DMO file layout for rule tests: a few columns mapped by SIMPLE_CONFIG.
SIMPLE_COLUMNS = ["Name", "Address", "City", "Phone", "Description", "Website"]
SIMPLE_CONFIG = {
    "transform": {"map_fields": {
        "listings.name": "Name", "locations.address1": "Address", "locations.city": "City",
        "contact_info.local_phone": "Phone", "listing_info.description": "Description",
        "contact_info.website_url": "Website"}},
}


def write_csv(path: Path, rows: list[dict[str, str]], columns: list[str] = SIMPLE_COLUMNS) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "") for c in columns})
    return path


GRILL = {"Name": "Harbourfront Grill", "Address": "12 Water St", "City": "Charlottetown",
         "Phone": "902-555-0100", "Description": "Seafood on the wharf."}
INN = {"Name": "Blue Heron Inn", "Address": "4 Main St", "City": "Souris", "Phone": "902-555-0101",
       "Description": "Rooms by the sea."}
PUB = {"Name": "Olde Dublin Pub", "Address": "131 Sydney St", "City": "Charlottetown", "Phone": "902-555-0102",
       "Description": "Irish pub."}


def waiting_on_a_lock(database: Database, count: int) -> bool:
    """Whether at least `count` sessions of the test's database wait for a lock."""
    with database.connect() as conn:
        return conn.execute("""SELECT count(*) FROM pg_stat_activity
                                WHERE datname = current_database() AND wait_event_type = 'Lock'""").fetchone()[0] >= count


def blocked_by(url: str, holder: psycopg.Connection) -> set[tuple[int, Any]]:
    """The transactions (server pid, start) waiting for a lock the test's own session (holder)
    holds: the wait the test holds a process at, not any other (a short one between its own
    connections, say)."""
    with psycopg.connect(url) as conn:
        return set(conn.execute("SELECT pid, xact_start FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                                (holder.info.backend_pid,)).fetchall())


def until(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)

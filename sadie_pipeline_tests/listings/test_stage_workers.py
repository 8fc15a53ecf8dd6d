"""The stage's worker processes (listing_stage's `workers` config): a run asking for 3 transforms
its job's files in 3 spawned processes, counted while the stage runs; without the setting, one per
core; a count out of range is refused before the stage touches anything."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import psutil
import pytest
from dagster import DagsterInstance, materialize

from sadie_pipeline.listings.assets import listing_assets, listing_stage
from sadie_pipeline.listings.stage import MAX_WORKERS, default_workers
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline_tests.listings.helpers import SIMPLE_CONFIG, drop_in_inbox, metadata, register, write_csv

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL, with spawned workers

SLUG = "workers-dmo"
RECORDS, PER_FILE = 360, 30  # twelve raw files: more than any count of workers asked here
CONFIG = {**SIMPLE_CONFIG, "import": {"max_records_per_file": PER_FILE}}


def _spawned_workers() -> set[int]:
    """This process's children started by multiprocessing's spawn (the stage's pool)."""
    pids = set()
    for child in psutil.Process().children():
        try:
            if "spawn_main" in " ".join(child.cmdline()):
                pids.add(child.pid)
        except psutil.NoSuchProcess:
            pass
    return pids


class _Watch:
    """Counts the spawned workers alive at once, every 20 ms, while its block runs."""

    def __init__(self):
        self.peak, self.seen, self._stop = 0, set(), threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            alive = _spawned_workers()
            self.peak, self.seen = max(self.peak, len(alive)), self.seen | alive
            time.sleep(0.02)

    def __enter__(self) -> _Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def _stage_config(workers: int | None) -> dict:
    return {"listing_stage": {"config": {"workers": workers}}} if workers is not None else {}


@pytest.mark.parametrize("workers", [3, None])
def test_the_stage_runs_the_workers_asked_for(database: Database, local_object_store: ObjectStore,
                                              instance: DagsterInstance, tmp_path: Path, workers: int | None):
    register(database, instance, SLUG, CONFIG)
    rows = [{"Name": f"Place {i}", "Address": f"{i} Main St", "City": "Charlottetown",
             "Phone": f"902-555-{i:04d}"} for i in range(RECORDS)]
    key = drop_in_inbox(local_object_store, SLUG, write_csv(tmp_path / "places.csv", rows))
    with _Watch() as watch:
        result = materialize(listing_assets, partition_key=SLUG, instance=instance,
                             resources={"database": database, "object_store": local_object_store},
                             run_config={"ops": {"listing_raw_files": {"config": {"inbox_key": key}},
                                                 **_stage_config(workers)}})
    assert result.success
    staged = metadata(result, "listing_stage")
    assert (staged["records_read"], staged["files_staged"], staged["errors"]) == (RECORDS, RECORDS // PER_FILE, 0)
    expected = workers or default_workers()
    if expected == 1:  # one core: the files are staged in the run's own process
        expected = 0
    assert (watch.peak, len(watch.seen)) == (expected, expected)
    assert not _spawned_workers()  # the pool ended with the stage


@pytest.mark.parametrize("workers", [0, MAX_WORKERS + 1])
def test_workers_out_of_range_are_refused(database: Database, local_object_store: ObjectStore,
                                          instance: DagsterInstance, workers: int):
    register(database, instance, SLUG, CONFIG)
    result = materialize([listing_stage], partition_key=SLUG, instance=instance, raise_on_error=False,
                         resources={"database": database, "object_store": local_object_store},
                         run_config={"ops": _stage_config(workers)})
    assert not result.success
    [failure] = [e for e in result.all_events if e.is_step_failure]
    assert "workers" in str(failure.step_failure_data.error)
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM pipeline.jobs").fetchone()[0] == 0

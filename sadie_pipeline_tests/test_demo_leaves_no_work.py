"""`make demo`, then `make dev`: the daemon's first ticks start no run. The demo works through the
Dagster instance `make dev` uses, and its hotel run is the one the hotel inbox sensor asks for its
Florida list (that sensor's run key), so the daemon finds nothing to do: no discovery of the list
again, and so none of the twelve hotel assets automation would run after it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from dagster import DagsterInstance, DefaultSensorStatus
from dagster._core.storage.tags import RUN_KEY_TAG, SENSOR_NAME_TAG

from sadie_pipeline import demo_sources
from sadie_pipeline.definitions import defs
from sadie_pipeline.demo import run_demo
from sadie_pipeline.demo_sources import DEMO_DMOS
from sadie_pipeline.instance import ensure_dagster_home
from sadie_pipeline.settings import PROJECT_ROOT
from sadie_pipeline_tests.fixtures.dagster_services import stop_session

pytestmark = pytest.mark.slow  # the demo (its hotel half whole) and a real dagster-daemon

BIN = Path(sys.executable).parent
RUNNING = sorted(s.name for s in defs.sensors if s.default_status == DefaultSensorStatus.RUNNING)
# sensors whose second tick is awaited too: a run their first tick started would be running by then
WATCHED = ("hotel_inbox_sensor", "hotel_automation_sensor", "dmo_inbox_sensor", "listing_enrichment_sensor")


@contextmanager
def _make_dev_daemon(env: dict[str, str], log: Path) -> Iterator[None]:
    """`dagster-daemon run` on the workspace of `make dev` (its code location, so its sensors'
    names and selectors), stopped with its code server at the end."""
    with open(log, "w") as out:
        proc = subprocess.Popen([str(BIN / "dagster-daemon"), "run", "-w", str(PROJECT_ROOT / "workspace.yaml")],
                                env=env, cwd=log.parent, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield
    finally:
        stop_session(proc)


def _ticks(instance: DagsterInstance) -> dict[str, list]:
    return {s.instigator_name: list(instance.get_ticks(s.instigator_origin_id, s.selector_id))
            for s in instance.all_instigator_state()}


def _settled(instance: DagsterInstance) -> bool:
    ticks = _ticks(instance)
    return all(ticks.get(name) for name in RUNNING) and all(len(ticks[name]) >= 2 for name in WATCHED)


def test_a_first_make_dev_after_the_demo_starts_no_run(sadie_env, monkeypatch):
    # one DMO dropped in the inbox and one pulled: the other source types take these same paths
    monkeypatch.setattr(demo_sources, "DEMO_DMOS", tuple(d for d in DEMO_DMOS if d.slug in ("demo-csv", "demo-poi")))
    monkeypatch.setenv("SADIE_SANDBOX_PORT", "0")   # tests run side by side
    ensure_dagster_home()   # as `sadie` does before any command
    lines: list[str] = []
    run_demo(reset=False, echo=lines.append)
    assert not [line for line in lines if ": failed: " in line or "run failed" in line], "\n".join(lines)
    instance = DagsterInstance.get()
    demo_runs = {r.run_id for r in instance.get_runs()}
    [hotel_run] = [r for r in instance.get_runs() if r.job_name == "hotel_leads_job"]
    assert hotel_run.tags[SENSOR_NAME_TAG] == "hotel_inbox_sensor"

    with _make_dev_daemon({**os.environ}, sadie_env / "daemon.log"):
        deadline = time.monotonic() + 300
        while not _settled(instance):
            assert time.monotonic() < deadline, (sadie_env / "daemon.log").read_text()[-4000:]
            time.sleep(3)

    assert {r.run_id for r in instance.get_runs()} == demo_runs, (sadie_env / "daemon.log").read_text()[-4000:]
    ticks = _ticks(instance)
    # the inbox sensor did see the demo's list, and found the run of its key done
    first = ticks["hotel_inbox_sensor"][-1]
    assert first.run_keys == [hotel_run.tags[RUN_KEY_TAG]] and not first.run_ids
    assert not any(t.run_ids for name in RUNNING for t in ticks[name])

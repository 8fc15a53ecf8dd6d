"""The daemon of `make dev` at work, as a real `dagster-daemon run` on the instance `sadie` writes
(the project's dagster.yaml: SQLite storage, queued runs) and the sandbox world:

* a CSV hotel list lands in a region's inbox, and with no other step the region's hotels reach
  status 4 (scored): the inbox sensor starts discovery, the automation sensor the rest. Both
  sensors are running by default, so nothing is turned on here (as with `make dev`);
* `sadie market run` and `sadie listings run` see the daemon and become backfills on the instance
  (what the UI's Backfills page lists), which the daemon runs through the run queue."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from dagster import DagsterEventType, DagsterInstance, DagsterRunStatus, RunsFilter
from dagster._core.storage.tags import AUTOMATION_CONDITION_TAG, BACKFILL_ID_TAG

from sadie_pipeline.backfills import daemon_running
from sadie_pipeline.cli import main
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.instance import create_instance_storage, local_instance_yaml
from sadie_pipeline.settings import PROJECT_ROOT, SAMPLE_DIR
from sadie_pipeline_tests.fixtures.dagster_services import stop_session

pytestmark = pytest.mark.slow  # passes without Chromium too: JavaScript-only sites become dead ends

BIN = Path(sys.executable).parent
UNFINISHED = [DagsterRunStatus.QUEUED, DagsterRunStatus.NOT_STARTED, DagsterRunStatus.STARTING,
              DagsterRunStatus.STARTED, DagsterRunStatus.CANCELING]


@dataclass(frozen=True)
class Daemon:
    home: Path          # DAGSTER_HOME
    sadie_home: Path    # SADIE_HOME: the local object store is its objects/ folder
    env: dict[str, str]
    log: Path
    instance: DagsterInstance

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory, pg_url: str, sandbox_server) -> Iterator[Daemon]:
    """`dagster-daemon run` on the workspace of `make dev`, stopped (killed if need be) at the end."""
    tmp = tmp_path_factory.mktemp("daemon")
    home = tmp / "dagster"
    home.mkdir()
    (home / "dagster.yaml").write_text(local_instance_yaml(postgres=False))  # what `sadie` writes
    env = {k: v for k, v in os.environ.items() if k not in ("SADIE_S3_BUCKET", "SADIE_DAGSTER_PG_URL")}
    env.update(sandbox_server.client_env(), DAGSTER_HOME=str(home), SADIE_HOME=str(tmp / "sadie"),
               SADIE_DATABASE_URL=pg_url)
    log = tmp / "daemon.log"
    create_instance_storage(home)
    with open(log, "w") as out:
        proc = subprocess.Popen([str(BIN / "dagster-daemon"), "run", "-w", str(PROJECT_ROOT / "workspace.yaml")],
                                env=env, cwd=tmp, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    instance = DagsterInstance.from_config(str(home))
    service = Daemon(home, tmp / "sadie", env, log, instance)
    try:
        _wait(lambda: daemon_running(instance), 240, "the daemon's first heartbeats", service,
              alive=lambda: proc.poll() is None)
        yield service
    finally:
        stop_session(proc)
        instance.dispose()


def _wait(ready: Callable[[], Any], timeout_s: float, what: str, daemon: Daemon,
          alive: Callable[[], bool] = lambda: True, poll_s: float = 3.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while True:
        if value := ready():
            return value
        if time.monotonic() > deadline or not alive():
            pytest.fail(f"no {what} after {timeout_s} s; daemon log:\n{daemon.log_tail()}")
        time.sleep(poll_s)


def _ticks(instance: DagsterInstance, sensor: str) -> int:
    for state in instance.all_instigator_state():
        if state.instigator_name == sensor:
            return len(instance.get_ticks(state.instigator_origin_id, state.selector_id))
    return 0


def _idle(instance: DagsterInstance) -> bool:
    return not instance.get_runs(RunsFilter(statuses=UNFINISHED))


@pytest.fixture
def as_user(daemon: Daemon, monkeypatch: pytest.MonkeyPatch, database, sb) -> Iterator[Daemon]:
    """`sadie` in this process on the daemon's instance, database, object store and sandbox."""
    for name in ("SADIE_S3_BUCKET", "SADIE_DAGSTER_PG_URL"):
        monkeypatch.delenv(name, raising=False)
    for name in ("DAGSTER_HOME", "SADIE_HOME", "SADIE_DATABASE_URL", *sb.client_env()):
        monkeypatch.setenv(name, daemon.env[name])
    sb.configure("sites", hang_s=2.0)   # dead sites time out in 2 s, not 30
    yield daemon
    _wait(lambda: _idle(daemon.instance), 600, "end of the runs", daemon)   # nothing left for the next test


def _sadie(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_a_csv_in_the_inbox_reaches_scores_with_no_manual_step(as_user: Daemon, database):
    instance = as_user.instance
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Key West"])
    # The automation sensor has taken stock before the list lands, as one running since `make dev` has.
    _wait(lambda: _ticks(instance, "hotel_automation_sensor"), 300, "tick of hotel_automation_sensor", as_user)
    inbox = as_user.sadie_home / "objects" / "inbox" / "hotels" / "US-FL" / "hotels.csv"
    inbox.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(SAMPLE_DIR / "hotels-us-fl.csv", inbox)
    try:
        statuses = _wait(lambda: _scored(database), 1200, "scored hotels in US-FL", as_user, poll_s=5)
    finally:
        inbox.unlink()   # later tests' discoveries read no list

    with database.connect() as conn:
        from_csv = [r[0] for r in conn.execute(
            """SELECT DISTINCT h.name FROM sadie_gtm.hotels h JOIN sadie_gtm.hotel_sources s ON s.hotel_id = h.id
                WHERE s.source = 'csv' AND h.status <> %s""", (HotelStatus.DUPLICATE,))]
    assert from_csv, "the CSV's Key West hotels were discovered"
    assert any(statuses[n] == HotelStatus.SCORED for n in from_csv), {n: statuses[n] for n in from_csv}
    _wait(lambda: _idle(instance), 600, "end of the runs", as_user)   # scores are written before the run ends
    runs = instance.get_runs()
    assert {r.status for r in runs} == {DagsterRunStatus.SUCCESS}
    assert any(r.tags.get("sadie/trigger") == "hotel_inbox" for r in runs)        # the inbox sensor's discovery
    assert any(r.tags.get(AUTOMATION_CONDITION_TAG) == "true" for r in runs)      # the automation's chain


def _scored(database) -> dict[str, int] | None:
    """The region's hotels by name when none waits between discovery and its score any more."""
    with database.connect() as conn:
        statuses = dict(conn.execute("SELECT name, status FROM sadie_gtm.hotels WHERE region = 'US-FL'").fetchall())
    waiting = {HotelStatus.SCRAPED, HotelStatus.DETECTED, HotelStatus.ENRICHED}
    if HotelStatus.SCORED in statuses.values() and not waiting.intersection(statuses.values()):
        return statuses
    return None


def _backfill_of(output: str, instance: DagsterInstance):
    first = output.splitlines()[0]
    assert first.startswith("backfill ") and "submitted to the Dagster daemon: http" in first, output
    backfill = instance.get_backfill(first.split()[1])
    runs = instance.get_runs(RunsFilter(tags={BACKFILL_ID_TAG: backfill.backfill_id}))
    return backfill, runs


# The market backfill (several regions, one run per stretch) shares this submission path
# (backfills.py); test_backfill_graphql runs such a backfill of three regions through a daemon.


def test_listings_run_with_a_daemon_is_a_backfill_of_one_run_per_dmo(as_user: Daemon, database):
    for slug, name in (("visit-pei", "Tourism PEI"), ("charlottetown-eats", "Charlottetown Eats")):
        _sadie("dmo", "add", slug, "--name", name, "--config", str(SAMPLE_DIR / f"{slug}.config.json"))
        _sadie("import", slug, str(SAMPLE_DIR / f"{slug}.csv"))   # in this process, daemon or not
    assert "35 listings now live" in _sadie("import", "visit-pei", str(SAMPLE_DIR / "visit-pei.revision.csv"),
                                            "--no-promote")
    out = _sadie("listings", "run", "--dmo", "visit-pei", "charlottetown-eats")

    backfill, runs = _backfill_of(out, as_user.instance)
    assert backfill.status.value == "COMPLETED_SUCCESS"
    assert sorted(r.tags["dagster/partition"] for r in runs) == ["charlottetown-eats", "visit-pei"]
    for run in runs:
        assert run.status == DagsterRunStatus.SUCCESS
        events = as_user.instance.get_records_for_run(run.run_id, of_type=DagsterEventType.ASSET_MATERIALIZATION)
        assert sorted(r.event_log_entry.dagster_event.asset_key.to_user_string() for r in events.records) == [
            "listing_promotion", "listing_stage"]
    pei = next(line for line in out.splitlines() if line.startswith("visit-pei: "))
    assert "2 inserted, 5 updated" in pei and pei.endswith("37 listings now live"), out   # the revision, promoted
    # its import was staged and promoted already: its run had nothing to do, and says so
    assert any(line.startswith("charlottetown-eats: nothing to stage or promote; ") for line in out.splitlines()), out

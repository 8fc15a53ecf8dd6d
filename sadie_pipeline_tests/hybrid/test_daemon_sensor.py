"""The cloud side on a real `dagster-daemon run`: with a queue configured the sensor runs by default;
a local scrape sent twice to the queue is enriched once per domain by the runs the sensor launches
(region partition US-FL), and the queue ends empty."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from dagster import DagsterEventType, DagsterInstance, DagsterRunStatus, RunsFilter

from sadie_pipeline.cli import main
from sadie_pipeline.core.hybrid import index_key, prospect_message
from sadie_pipeline.hybrid.definitions import JOB
from sadie_pipeline.instance import local_instance_yaml
from sadie_pipeline.settings import environ
from sadie_pipeline_tests.fixtures.dagster_services import dagster_daemon
from sadie_pipeline_tests.hybrid.conftest import REGION

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent
CITY = "Key West"
WAIT_S = 300


@contextmanager
def daemon(home: Path) -> Iterator[DagsterInstance]:
    """dagster-daemon on the code location, on the local instance `sadie` writes."""
    (home / "dagster.yaml").write_text(local_instance_yaml(postgres=False))
    with dagster_daemon(home) as instance:
        yield instance


def _enriched_counts(instance: DagsterInstance, run_ids: list[str]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for run_id in run_ids:
        for record in instance.get_records_for_run(run_id, of_type=DagsterEventType.STEP_OUTPUT).records:
            for key, value in record.event_log_entry.dagster_event.event_specific_data.metadata.items():
                if key in ("enriched", "skipped_fresh", "duplicate", "failed"):
                    totals[key] = totals.get(key, 0) + int(value.value)
    return totals


def test_the_sensor_on_a_daemon_enriches_each_prospect_once(hybrid) -> None:
    home = Path(hybrid.env["DAGSTER_HOME"])
    expected = {m.domain for p in hybrid.sb.world.hotels if p.city == CITY
                if (m := prospect_message({"website": p.website}, REGION)) is not None}
    with environ({"SADIE_HYBRID_SENSOR_INTERVAL_S": "3"}), daemon(home) as instance:
        for _ in range(2):   # sent twice
            result = CliRunner().invoke(main, ["scrape-prospects", REGION, "--city", CITY, "--target", "cloud"])
            assert result.exit_code == 0, result.output
        deadline = time.monotonic() + WAIT_S
        while True:
            runs = instance.get_runs(RunsFilter(job_name=JOB))
            counts = hybrid.queue.counts()
            done = (all(hybrid.store.exists(index_key(d)) for d in expected)
                    and counts["queue_visible"] + counts["queue_in_flight"] == 0
                    and runs and all(r.is_finished for r in runs))
            if done:
                break
            assert time.monotonic() < deadline, ((home / "daemon.log").read_text()[-3000:], counts, runs)
            time.sleep(3)
        totals = _enriched_counts(instance, [r.run_id for r in runs])
    assert all(r.status == DagsterRunStatus.SUCCESS for r in runs)
    assert {r.tags.get("dagster/partition") for r in runs} == {REGION}
    assert all(r.tags.get("dagster/sensor_name") == "hybrid_queue_sensor" for r in runs)
    assert totals["enriched"] == len(expected)
    assert totals.get("skipped_fresh", 0) + totals.get("duplicate", 0) == len(expected)

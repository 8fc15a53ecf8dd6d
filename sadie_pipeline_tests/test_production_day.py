"""A small production day on a real `dagster-daemon` and the production instance configuration
(dagster-postgres storage, the run queue and its limits, the default run launcher): five DMOs
(files in the inbox, WordPress and Drupal pulls from the sandbox; a tenth of the files' places sent
by two DMOs with real-world divergences) and the hotel chain of one region at the same time, as
benchmarks/production_day.py runs it at scale. Every record ends live, in error or in review; no
place two DMOs sent ends as two listings; every DMO's job is promoted; the region's backfill ends
and its hotels are scored."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline_tests.fixtures.postgres import admin_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from production_day import Settings, run_phase  # noqa: E402
from production_day_data import plan_day  # noqa: E402

pytestmark = pytest.mark.slow

# One city of two hotels whose sites all answer without JavaScript: the region's chain is Dagster's
# runs more than the hotels' work.
SMALL = Settings(dmos=5, records=200, regions=1, shared=0.10, max_runs=4, cities_per_region=1, hotels_per_city=2,
                 timeout_s=900, js_share=0.0, dead_share=0.0)


def test_a_small_day_on_the_daemon_loses_nothing_and_splits_no_shared_place():
    day = plan_day(SMALL.dmos, SMALL.records, SMALL.shared, SMALL.seed)
    assert {p.kind for p in day.dmos} == {"csv", "wordpress", "drupal"} and day.shared_places > 0

    phase = run_phase(day, SMALL, admin_url(), serial=False)

    assert phase["failed_runs"] == 0, phase["failures"]
    assert {slug: e["lost"] for slug, e in phase["ends"].items()} == {p.slug: 0 for p in day.dmos}, phase["ends"]
    assert phase["cross_dmo_duplicates"] == 0, phase["split_places"]
    assert {slug: stages.get("promoted", 0) for slug, stages in phase["job_stages"].items()} == {
        p.slug: 1 for p in day.dmos}, phase["job_stages"]
    # the chain ran to its end; hotels found without a website (the licence register's) stay scraped
    assert phase["hotel_backfill"] in ("COMPLETED", "COMPLETED_SUCCESS"), phase["hotel_backfill"]
    statuses = phase["hotels"]["US-FL"]
    assert sum(n for status, n in statuses.items() if status >= HotelStatus.SCORED) > 0, statuses   # scored, or past

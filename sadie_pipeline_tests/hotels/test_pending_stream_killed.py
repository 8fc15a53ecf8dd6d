"""A streamed layer killed mid-way (SIGKILL, a real process, chunks of 7 hotels read ahead through
the bounded queue): no hotel is left half-done (its layer bit without its people, or its people
without the bit), the next run takes up exactly the hotels not done, and the end is what a clean
run of every hotel gives (issue 34 item 4)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from sadie_pipeline.core.enrichment.layers import LAYER_WHOIS
from sadie_pipeline.hotels.enrichment.common import FLUSH_INTERVAL
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.sandbox.seeding import write_detected
from sadie_pipeline.sandbox.world import World
from sadie_pipeline.settings import PROJECT_ROOT
from sadie_pipeline_tests.hotels.test_layer_killed_midway import _done, _run, _state

pytestmark = pytest.mark.slow

RUN_LAYER = """
import sys
from dagster import DagsterInstance, materialize
from sadie_pipeline.hotels.enrichment import pending
from sadie_pipeline.hotels.enrichment.whois import whois_owner
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
pending.CHUNK_SIZE = 7  # many chunks: the kill lands while chunks wait in the queue
database, store = Database(url=sys.argv[1]), ObjectStore(local_root=sys.argv[2])
with DagsterInstance.ephemeral() as instance:
    materialize([whois_owner], partition_key="US-FL", instance=instance,
                resources={"database": database, "object_store": store, **io_manager_resources(database, store),
                           "whois": resolved(configured("whois", requests_per_second=100, max_concurrency=3))})
"""


def _half_done(database) -> list[int]:
    """Hotels with WHOIS people but no WHOIS bit: a hotel whose batch was only partly written."""
    with database.connect() as conn:
        return [r[0] for r in conn.execute(
            """SELECT DISTINCT d.hotel_id FROM sadie_gtm.hotel_decision_makers d
                LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = d.hotel_id
                WHERE 'whois' = ANY(d.sources) AND coalesce(e.layers_completed, 0) & %s = 0""", (LAYER_WHOIS,))]


def test_a_streamed_layer_killed_mid_way_leaves_no_hotel_half_done(database, local_object_store, instance):
    world = World.synthetic(120, seed=34)
    with Sandbox(world=world, seed=34) as sb:
        total = len(write_detected(database.url, world.hotels, local_object_store, sb.proxy_url))
        assert total >= 4 * FLUSH_INTERVAL
        sb.configure("whois", latency_ms=60)
        env = {**os.environ, **sb.client_env(), "PYTHONPATH": str(PROJECT_ROOT)}
        killed = subprocess.Popen([sys.executable, "-c", RUN_LAYER, database.url, local_object_store.local_root],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while _done(database) < 2 * FLUSH_INTERVAL and time.monotonic() < deadline and killed.poll() is None:
            time.sleep(0.02)
        killed.send_signal(signal.SIGKILL)
        killed.wait(10)
        kept = _done(database)
        assert 2 * FLUSH_INTERVAL <= kept < total, (kept, total)
        assert _half_done(database) == []

        sb.configure("whois", latency_ms=0)
        again = _run(sb, database, local_object_store, instance)
        assert again["hotels"] == total - kept       # each hotel once: the kept ones are not taken up again
        assert _done(database) == total and _half_done(database) == []
        resumed = _state(database)
        forced = _run(sb, database, local_object_store, instance, force=True)
        assert forced["hotels"] == total
        assert _state(database) == resumed           # what a clean run of every hotel gives

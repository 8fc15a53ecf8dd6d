"""Nothing finished is lost (issue 31): an enrichment layer saves its hotels in batches as they
finish, so a run killed halfway (SIGKILL, a real process) keeps what it finished, the next run
takes up only the rest, and the end is what a clean run gives."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from dagster import materialize

from sadie_pipeline.core.enrichment.layers import LAYER_WHOIS
from sadie_pipeline.hotels.enrichment.common import FLUSH_INTERVAL
from sadie_pipeline.hotels.enrichment.whois import whois_owner
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.resources.whois import WhoisResource
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.sandbox.seeding import write_detected
from sadie_pipeline.sandbox.world import World
from sadie_pipeline.settings import PROJECT_ROOT

pytestmark = pytest.mark.slow

RUN_LAYER = """
import sys
from dagster import DagsterInstance, materialize
from sadie_pipeline.hotels.enrichment.whois import whois_owner
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
database, store = Database(url=sys.argv[1]), ObjectStore(local_root=sys.argv[2])
with DagsterInstance.ephemeral() as instance:
    materialize([whois_owner], partition_key="US-FL", instance=instance,
                resources={"database": database, "object_store": store, **io_manager_resources(database, store),
                           "whois": resolved(configured("whois", requests_per_second=100, max_concurrency=2))})
"""


def _done(database) -> int:
    with database.connect() as conn:
        return conn.execute("SELECT count(*) FROM sadie_gtm.hotel_owner_enrichment WHERE layers_completed & %s <> 0",
                            (LAYER_WHOIS,)).fetchone()[0]


def _state(database):
    with database.connect() as conn:
        return (conn.execute("""SELECT hotel_id, layers_completed, whois_server, whois_registrant_org, whois_privacy
                                  FROM sadie_gtm.hotel_owner_enrichment ORDER BY hotel_id""").fetchall(),
                conn.execute("""SELECT hotel_id, full_name, title, email, sources FROM sadie_gtm.hotel_decision_makers
                                 ORDER BY hotel_id, full_name""").fetchall())


def _run(sb, database, store, instance, force=False):
    whois = WhoisResource(**{"server": sb.client_env()["SADIE_WHOIS_SERVER"],
                             "referrals": sb.client_env()["SADIE_WHOIS_REFERRALS"]},
                          requests_per_second=100, max_concurrency=2)
    result = materialize([whois_owner], partition_key="US-FL", instance=instance,
                         run_config={"ops": {"whois_owner": {"config": {"force_refresh": force}}}},
                         resources={"database": database, "object_store": store, "whois": whois,
                                    **io_manager_resources(database, store)})
    assert result.success
    return {k: v.value for k, v in result.asset_materializations_for_node("whois_owner")[0].metadata.items()}


def test_a_layer_killed_halfway_keeps_what_it_finished(database, local_object_store, instance):
    world = World.synthetic(90, seed=5)
    with Sandbox(world=world, seed=5) as sb:
        hotels = write_detected(database.url, world.hotels, local_object_store, sb.proxy_url)
        total = len(hotels)
        assert total >= 3 * FLUSH_INTERVAL
        sb.configure("whois", latency_ms=60)  # each query takes a while: the run is killed mid-layer
        env = {**os.environ, **sb.client_env(), "PYTHONPATH": str(PROJECT_ROOT)}
        killed = subprocess.Popen([sys.executable, "-c", RUN_LAYER, database.url, local_object_store.local_root],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while _done(database) < FLUSH_INTERVAL and time.monotonic() < deadline and killed.poll() is None:
            time.sleep(0.05)
        killed.send_signal(signal.SIGKILL)
        killed.wait(10)
        kept = _done(database)
        # batches written before the kill are kept; the run did not get to the end
        assert FLUSH_INTERVAL <= kept < total, (kept, total)

        sb.configure("whois", latency_ms=0)
        again = _run(sb, database, local_object_store, instance)
        assert again["hotels"] == total - kept          # only the rest is taken up
        assert _done(database) == total
        resumed = _state(database)

        forced = _run(sb, database, local_object_store, instance, force=True)
        assert forced["hotels"] == total
        assert _state(database) == resumed              # what a clean run of every hotel gives

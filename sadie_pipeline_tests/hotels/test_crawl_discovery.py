"""Common Crawl discovery on the sandbox's CDX index and WARC files (demo world, `.test` standing
in for a generic TLD): lodging home pages become `crawl` rows and non-lodging pages with lodging
words in their hosts do not; engine client pages become `engine_client` rows with their engine,
client id and booking URL, one per client id; a crawl scanned once is not scanned again (nor for
another region of the same languages); a scan stopped after a page resumes where it stopped and
ends with the same rows; an AU region scans *.au."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from urllib.parse import urlsplit

import pytest
from dagster import materialize

from sadie_pipeline.core.normalize import registrable_domain
from sadie_pipeline.hotels.discovery_crawl import crawl_discovery
from sadie_pipeline.sandbox.services.commoncrawl import NEWEST
from sadie_pipeline.settings import PROJECT_ROOT
from sadie_pipeline_tests.hotels.conftest import sandbox_resources

RUN_SCAN = """
import sys
from dagster import DagsterInstance, materialize
from sadie_pipeline.hotels.discovery_crawl import crawl_discovery
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.resources.common_crawl import CommonCrawlResource
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
database, store = Database(url=sys.argv[1]), ObjectStore(local_root=sys.argv[2])
cc = CommonCrawlResource(index_url=sys.argv[3], data_url=sys.argv[4], index_requests_per_second=100,
                         data_requests_per_second=100)
with DagsterInstance.ephemeral() as instance:
    materialize([crawl_discovery], partition_key="US-FL", instance=instance,
                run_config={"ops": {"crawl_discovery": {"config": {"tlds": ["test"], "engines": False}}}},
                resources={"database": database, "object_store": store, "common_crawl": cc,
                           **io_manager_resources(database, store)})
"""


def _run(database, store, instance, sb, region="US-FL", **config):
    result = materialize([crawl_discovery], partition_key=region, instance=instance,
                         resources=sandbox_resources(database, store, sb),
                         run_config={"ops": {"crawl_discovery": {"config": {"tlds": ["test"], **config}}}})
    assert result.success
    return {k: v.value for k, v in result.asset_materializations_for_node("crawl_discovery")[0].metadata.items()}


def _rows(database, source):
    with database.connect() as conn:
        return {r[0]: (r[1], r[2]) for r in conn.execute(
            "SELECT external_id, region, record FROM sadie_gtm.hotel_sources WHERE source = %s", (source,))}


def _truth(sb):
    return sb.services["commoncrawl"].discovery(NEWEST).truth


def test_crawl_and_engine_client_rows_and_no_second_scan(database, local_object_store, instance, sb):
    meta = _run(database, local_object_store, instance, sb)
    truth = _truth(sb)
    crawl = _rows(database, "crawl")
    assert crawl and set(crawl) <= truth.lodging  # every kept page is a lodging business
    assert not set(crawl) & truth.not_lodging
    assert len(crawl) >= 0.9 * len(truth.lodging), sorted(truth.lodging - set(crawl))
    for domain, (region, record) in crawl.items():
        assert region == "US-FL" and record["name"] and record["state"] == "FL" and record["phone"]
        assert registrable_domain(urlsplit(record["website"]).hostname) == domain and record["crawl_id"] == NEWEST
    rejected = meta["rejected"]
    assert sum(rejected.values()) >= len(truth.not_lodging), rejected

    clients = _rows(database, "engine_client")
    found = {(registrable_domain(urlsplit(r["booking_url"]).hostname), r["client_id"]) for _, r in clients.values()}
    assert found == truth.engine_clients  # one row per client id, none missed, no engine home page
    for external_id, (region, record) in clients.items():
        assert external_id == f"{record['booking_engine'].lower()}:{record['client_id']}"
        assert record["name"] and region == "US-FL" and record["client_id"] == record["client_id"].lower()
    assert meta["queries_scanned"] == meta["queries"] and meta["queries_done_before"] == 0

    before = sb.stats("commoncrawl")["requests"]
    again = _run(database, local_object_store, instance, sb)
    assert again["queries_scanned"] == 0 and again["queries_done_before"] == meta["queries"]
    assert sb.stats("commoncrawl")["requests"] - before <= 1  # collinfo.json alone: no index page read again
    assert _rows(database, "crawl") == crawl
    # another region of the same languages shares every scan: the crawl is not read again for it
    georgia = _run(database, local_object_store, instance, sb, region="US-GA")
    assert georgia["queries_scanned"] == 0 and georgia["queries_done_before"] == meta["queries"]


def test_a_stopped_scan_resumes_without_loss(database, local_object_store, instance, sb):
    first = _run(database, local_object_store, instance, sb, engines=False, max_pages=1)
    assert first["queries_scanned"] == 2  # words:us:en+es and words:test:en+es
    with database.connect() as conn:
        [(pages, next_page, done)] = conn.execute(
            """SELECT pages, next_page, finished_at IS NOT NULL FROM sadie_gtm.crawl_discovery_scans
                WHERE query_key = 'words:test:en+es'""").fetchall()
    assert pages >= 3 and next_page == 1 and not done
    partial = set(_rows(database, "crawl"))
    _run(database, local_object_store, instance, sb, engines=False)
    with database.connect() as conn:
        states = conn.execute("SELECT query_key, next_page, pages, finished_at IS NOT NULL "
                              "FROM sadie_gtm.crawl_discovery_scans").fetchall()
    assert all(done and next_page == pages for _, next_page, pages, done in states), states
    rows = set(_rows(database, "crawl"))
    assert partial < rows and rows <= _truth(sb).lodging
    assert len(rows) >= 0.9 * len(_truth(sb).lodging)


def test_an_australian_region_scans_its_cctld(database, local_object_store, instance, sb):
    result = materialize([crawl_discovery], partition_key="AU-NSW", instance=instance,
                         resources=sandbox_resources(database, local_object_store, sb),
                         run_config={"ops": {"crawl_discovery": {"config": {"engines": False}}}})
    assert result.success
    meta = {k: v.value for k, v in result.asset_materializations_for_node("crawl_discovery")[0].metadata.items()}
    assert meta["queries"] == 1 and not meta["failures"]  # words:au alone
    rows = _rows(database, "crawl")
    assert set(rows) == _truth(sb).lodging_au
    assert {region for region, _ in rows.values()} == {"AU-NSW"}


def _progress(database) -> int:
    with database.connect() as conn:
        return conn.execute("SELECT coalesce(sum(next_page), 0) FROM sadie_gtm.crawl_discovery_scans").fetchone()[0]


@pytest.mark.slow
def test_a_scan_killed_midway_ends_where_a_clean_scan_ends(database, local_object_store, instance, sb):
    """SIGKILL to a real run once it has recorded a page; the next run finishes the scan, and the
    rows are those a clean scan writes."""
    # index pages and WARC reads take a while: the run dies between its first recorded page and its last
    sb.configure("commoncrawl", latency_ms=400)
    sb.configure("commoncrawl_data", latency_ms=200)
    env = {**os.environ, **sb.client_env(), "PYTHONPATH": str(PROJECT_ROOT)}
    killed = subprocess.Popen([sys.executable, "-c", RUN_SCAN, database.url, local_object_store.local_root,
                               f"{sb.base_url('commoncrawl')}/index", sb.base_url("commoncrawl_data")],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while _progress(database) < 1 and time.monotonic() < deadline and killed.poll() is None:
        time.sleep(0.02)
    killed.send_signal(signal.SIGKILL)
    killed.wait(10)
    with database.connect() as conn:
        unfinished = conn.execute("SELECT count(*) FROM sadie_gtm.crawl_discovery_scans "
                                  "WHERE finished_at IS NULL").fetchone()[0]
    assert _progress(database) >= 1 and unfinished, "the run was not killed mid-scan"

    sb.configure("commoncrawl", latency_ms=0)
    sb.configure("commoncrawl_data", latency_ms=0)
    _run(database, local_object_store, instance, sb, engines=False)
    resumed = _rows(database, "crawl")
    with database.connect() as conn:
        conn.execute("DELETE FROM sadie_gtm.hotel_sources WHERE source = 'crawl'")
        conn.execute("DELETE FROM sadie_gtm.crawl_discovery_scans")
    _run(database, local_object_store, instance, sb, engines=False)
    assert resumed == _rows(database, "crawl")  # a clean scan's rows, records included

"""Common Crawl discovery on the sandbox's CDX index and WARC files (demo world, `.test` standing
in for a generic TLD): lodging home pages become `crawl` rows and non-lodging pages with lodging
words in their hosts do not; engine client pages become `engine_client` rows with their engine,
client id and booking URL, one per client id; a crawl scanned once is not scanned again (nor for
another region of the same languages); a scan stopped after a page resumes where it stopped and
ends with the same rows; an AU region scans *.au."""

from __future__ import annotations

from urllib.parse import urlsplit

from dagster import materialize

from sadie_pipeline.core.normalize import registrable_domain
from sadie_pipeline.hotels.discovery_crawl import crawl_discovery
from sadie_pipeline.sandbox.services.commoncrawl import NEWEST
from sadie_pipeline_tests.hotels.conftest import sandbox_resources


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

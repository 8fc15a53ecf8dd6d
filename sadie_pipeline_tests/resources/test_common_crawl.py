"""CommonCrawlResource against the sandbox over real HTTP: collinfo, the CDX API, a ranged GET of a
WARC record parsed with warcio; its index and data calls under separate guards."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from sadie_pipeline.core.enrichment.common_crawl import select_captures, site_scope
from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.common_crawl import CommonCrawlResource, read_record
from sadie_pipeline.resources.reliability import ServiceCallFailed
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.sandbox.env import client_env
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline_tests.resources.helpers import run

FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, "backoff_jitter_s": 0.0, "index_requests_per_second": 1000,
        "data_requests_per_second": 1000}


def _cc(sb: Sandbox, **kw: Any) -> CommonCrawlResource:
    base = sb.base_url("commoncrawl")
    return CommonCrawlResource(index_url=f"{base}/index", data_url=f"{base}/data", **{**FAST, **kw})


def test_read_record_round_trip_of_a_gzip_member() -> None:
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=True, warc_version="1.0")
    body = "<p>Caf\u00e9 owner: Jane Doe</p>".encode("latin-1")
    http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=ISO-8859-1")], protocol="HTTP/1.1")
    request = StatusAndHeaders("GET /about HTTP/1.1", [("Host", "x.test")], is_http_request=True)
    writer.write_record(writer.create_warc_record("http://x.test/about", "request", payload=io.BytesIO(b""),
                                                  http_headers=request))
    start = buf.tell()
    writer.write_record(writer.create_warc_record("http://x.test/about", "response", payload=io.BytesIO(body),
                                                  http_headers=http))
    page = read_record(buf.getvalue()[start:])
    assert (page.url, page.status, page.html) == ("http://x.test/about", 200, "<p>Caf\u00e9 owner: Jane Doe</p>")
    with pytest.raises(ValueError):
        read_record(buf.getvalue()[:start])  # only the request record


def test_newest_crawl_captures_and_ranged_records(sb: Sandbox) -> None:
    cc = _cc(sb)
    place = sb.world.hotel("biscaynebayinn.test")

    async def harvest() -> Any:
        crawl = await cc.newest_crawl()
        captures = await cc.captures("biscaynebayinn.test")
        chosen = select_captures(captures, site_scope(place.website or ""), 3)
        pages = await asyncio.gather(*(cc.page(c) for c in chosen))
        return crawl, captures, chosen, pages, await cc.captures("no-such-hotel.test")

    crawl, captures, chosen, pages, missing = run(cc, harvest)
    assert crawl.id == "CC-MAIN-2026-08" and crawl.cdx_api.endswith("/index/CC-MAIN-2026-08-index")
    assert len(captures) > len(chosen) == 3 and missing == []  # 404: not in the crawl
    assert chosen[0].url == "http://www.biscaynebayinn.test/contact"
    assert [p.url for p in pages] == [c.url for c in chosen] and {p.status for p in pages} == {200}
    for person in owner_truth(place).cc_people:
        assert person.name in pages[0].html
    stats = sb.stats("commoncrawl")["statuses"]
    assert stats == {"200": 2, "404": 1, "206": 3}  # collinfo + CDX, the unknown domain, three ranges


def test_index_failures_are_retried_under_their_own_guard(sb: Sandbox) -> None:
    sb.configure("commoncrawl", error_rate=1.0, error_status=503)
    cc = _cc(sb, max_attempts=3)

    async def lookup() -> Any:
        guards = cc.guards()
        try:
            await cc.captures("biscaynebayinn.test")
        except ServiceCallFailed as exc:
            return exc, guards
        raise AssertionError("the index answered")

    failure, guards = run(cc, lookup)
    assert failure.error_class is ErrorClass.TRANSIENT and failure.attempts == 3
    assert guards["index"].name == "cc_index" and guards["data"].name == "cc_data"
    assert guards["index"].stats.attempts == 3 and guards["data"].stats.attempts == 0
    defaults = CommonCrawlResource()  # the CC index is slow and asks for politeness: many in flight, few a second
    assert defaults.index_max_concurrency >= 16 and defaults.index_requests_per_second <= 1
    assert sb.stats("commoncrawl")["requests"] == 3


def test_urls_from_the_environment_through_the_definitions(sb: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    assert CommonCrawlResource().resolved_index_url() == "https://index.commoncrawl.org"
    assert CommonCrawlResource().resolved_data_url() == "https://data.commoncrawl.org"
    env = client_env(sb.describe(), {})
    for name in ("SADIE_CC_INDEX_URL", "SADIE_CC_DATA_URL"):
        monkeypatch.setenv(name, env[name])
    cc = resolved(configured("common_crawl", **FAST))
    assert (cc.resolved_index_url(), cc.resolved_data_url()) == (env["SADIE_CC_INDEX_URL"], env["SADIE_CC_DATA_URL"])
    assert run(cc, cc.newest_crawl).id == "CC-MAIN-2026-08"

"""The scrape connector's politeness: a pause between two requests to one host (none between
hosts), robots.txt read once per origin, from the sandbox's sites."""

from __future__ import annotations

import asyncio
import time

from sadie_pipeline.core.config import merge_config
from sadie_pipeline.listings.sources.http import SourceHttp
from sadie_pipeline.listings.sources.scrape import Polite


def _section(sb) -> dict:
    return merge_config({"import": {"source_type": "scrape", "url": "http://www.explore-static.test/listings/",
                                    "selectors": {"item_link": "a.more", "fields": {"name": "h1"}}}})["import"]


def test_one_host_waits_its_delay_and_other_hosts_do_not():
    polite = Polite(None, 0.2)  # type: ignore[arg-type] - pauses need no client

    async def pauses() -> tuple[float, float]:
        started = time.monotonic()
        for _ in range(3):
            await polite.pause("http://a.test/x")
        same = time.monotonic() - started
        started = time.monotonic()
        for host in ("b", "c", "d"):
            await polite.pause(f"http://{host}.test/x")
        return same, time.monotonic() - started

    same, others = asyncio.run(pauses())
    assert same >= 0.4 and others < 0.15


def test_robots_txt_is_read_once_per_origin(sb):
    async def check() -> list[bool]:
        async with SourceHttp("scrape", _section(sb), proxy=sb.proxy_url) as http:
            polite = Polite(http, 0.0)
            return [await polite.allowed(f"http://www.explore-static.test{path}")
                    for path in ("/listings/", "/private/x/", "/listings/y/")]

    assert asyncio.run(check()) == [True, False, True]
    assert [r["path"] for r in sb.requests("scrape")] == ["/robots.txt"]

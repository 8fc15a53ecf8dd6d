"""WebsiteFetcher and fetch_and_detect against the sandbox's hotel websites (through its proxy)."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from typing import Any

import pytest

from sadie_pipeline.core.booking_engines import TEXT_MAX_BYTES
from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.web import (
    DEFAULT_CHROMIUM,
    FetchResult,
    WebsiteFetcher,
    domain_key,
    fetch_and_detect,
    has_script_placeholder,
)
from sadie_pipeline.sandbox import Sandbox


def fetcher(sb: Sandbox, **kw: Any) -> WebsiteFetcher:
    return WebsiteFetcher(**({"proxy": sb.proxy_url, "total_timeout_s": 1.0, "retry_backoff_s": 0.01} | kw))


def run(f: WebsiteFetcher, coro_fn: Any) -> Any:
    async def main() -> Any:
        async with f.running():
            return await coro_fn()

    return asyncio.run(main())


def fetch_all(f: WebsiteFetcher, urls: list[str]) -> list[FetchResult]:
    return run(f, lambda: asyncio.gather(*(f.fetch(u) for u in urls)))


def test_redirects_are_followed(sb: Sandbox) -> None:
    www, moved, ok = fetch_all(fetcher(sb), ["http://wynwoodarthouse.test/", "http://www.southernmostbeachinn.test/",
                                             "www.biscaynebayinn.test"])
    assert www.ok and www.status == 200 and www.final_url == "http://www.wynwoodarthouse.test/"
    assert www.redirects == ("http://wynwoodarthouse.test/",)
    assert moved.ok and moved.final_url == sb.world.hotel("eyw-05").serving_url
    assert ok.url == "http://www.biscaynebayinn.test/" and ok.redirects == () and "Biscayne Bay Inn" in ok.html
    assert ok.via == "httpx" and not ok.truncated and ok.bytes_read == len(ok.html.encode())


def test_dead_sites_are_classified(sb: Sandbox) -> None:
    sites = {kind: sb.site_url(h.id) for h in sb.hotels if h.website
             for kind in [h.site] if kind in ("dead_refused", "dead_5xx", "dead_timeout", "nxdomain", "redirect_loop")}
    f = fetcher(sb, max_attempts=2)
    results = dict(zip(sites, fetch_all(f, list(sites.values()))))
    refused = results["dead_refused"]
    assert refused.dead and refused.error_class is ErrorClass.TRANSIENT and refused.reason == "connection_dropped"
    assert refused.attempts == 2 and refused.status is None and refused.html == ""
    assert results["nxdomain"].reason == "connection_dropped"  # through a proxy, a dead name drops the connection
    down = results["dead_5xx"]
    assert down.status == 503 and down.error_class is ErrorClass.TRANSIENT and down.reason == "http_503"
    assert down.attempts == 2
    hung = results["dead_timeout"]
    assert hung.reason == "timeout" and hung.attempts == 1 and hung.elapsed_s < 1.9  # timeouts are not retried
    loop = results["redirect_loop"]
    assert loop.error_class is ErrorClass.PERMANENT and loop.reason == "too_many_redirects" and loop.attempts == 1
    https = run(f, lambda: f.fetch("https://www.biscaynebayinn.test/"))  # the sandbox proxy refuses CONNECT
    assert https.dead and https.reason == "proxy_error" and https.attempts == 1
    assert run(f, lambda: fetch_and_detect(f, sites["dead_5xx"]))[1:] == ([], "")
    stats = f.stats()  # still readable after the run closed the fetcher
    assert stats["fetches"] == 1 and stats["fetch_http_503"] == 1 and stats["fetch_retries"] == 1  # the last run


def test_huge_page_is_capped(sb: Sandbox) -> None:
    f = fetcher(sb, max_bytes=1_000_000, total_timeout_s=5.0)
    result, detections, text = run(f, lambda: fetch_and_detect(f, "http://www.midbeachgrand.test/"))
    assert result.ok and result.truncated and result.bytes_read == 1_000_000
    assert len(result.html) <= 1_000_000
    assert detections and detections[0].booking_url == "https://reservations.travelclick.com/98211"
    assert len(text.encode()) <= TEXT_MAX_BYTES


def test_one_request_at_a_time_per_domain(sb: Sandbox) -> None:
    sb.configure("sites", latency_ms=150)
    same_domain = ["http://www.hilton.test/en/hotels/miadwhx-hilton-miami-downtown-waterfront/",
                   "http://www.hilton.test/en/hotels/mcodthx-hampton-orlando-downtown/",
                   "http://hilton.test/"]  # www. folded: the same server
    assert len({domain_key(u) for u in same_domain}) == 1
    started = time.monotonic()
    results = fetch_all(fetcher(sb, total_timeout_s=5.0), same_domain)
    elapsed = time.monotonic() - started
    assert all(r.status is not None for r in results)
    assert sb.stats("sites")["max_in_flight"] == 1
    assert elapsed >= 3 * 0.15
    log = [e for e in sb.requests("sites") if "hilton.test" in e["host"]]
    arrivals = sorted(e["t"] for e in log)
    assert all(b - a >= 0.14 for a, b in zip(arrivals, arrivals[1:]))  # never overlapping

    sb.reset_stats("sites")
    others = ["http://www.biscaynebayinn.test/", "http://www.lakeeolainn.test/", "http://www.lbvlodge.test/"]
    fetch_all(fetcher(sb, total_timeout_s=5.0), others)
    assert sb.stats("sites")["max_in_flight"] == 3  # different domains do overlap: all three at once


def test_global_concurrency_limit(sb: Sandbox) -> None:
    sb.configure("sites", latency_ms=100)
    urls = [sb.site_url(h.id) for h in sb.hotels if h.site == "ok"][:6]
    fetch_all(fetcher(sb, max_concurrency=2, total_timeout_s=5.0), urls)
    assert sb.stats("sites")["max_in_flight"] == 2


def test_proxy_from_the_environment_and_credentials_redacted(sb: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SADIE_HTTP_PROXY", sb.proxy_url)
    f = resolved(configured("website_fetcher", total_timeout_s=2.0))  # as the definitions configure it
    assert run(f, lambda: f.fetch("http://www.biscaynebayinn.test/")).ok
    monkeypatch.setenv("SADIE_HTTP_PROXY", "http://crawler:pr0xy-s3cret@127.0.0.1:9")  # nothing listens there
    f = resolved(configured("website_fetcher", total_timeout_s=2.0))
    failed = run(f, lambda: f.fetch("http://www.biscaynebayinn.test/"))
    assert failed.dead and failed.error_class is ErrorClass.TRANSIENT
    assert "pr0xy-s3cret" not in (failed.error or "")


def test_static_pages_are_detected_without_a_browser(sb: Sandbox) -> None:
    f = fetcher(sb, browser_enabled=False, total_timeout_s=5.0)

    async def detect_all() -> Any:
        return await asyncio.gather(*(fetch_and_detect(f, u) for u in (
            "http://www.littlehavanasuites.test/", "http://artdecopalms.test/", "http://www.coralwaymotorlodge.test/")))

    (cloudbeds, _, text), (siteminder, found, _), (none, nothing, _) = run(f, detect_all)
    assert cloudbeds.via == "httpx" and "Little Havana Suites" in text
    assert found[0].name == "SiteMinder" and siteminder.final_url == "http://www.artdecopalms.test/"
    assert none.ok and nothing == []


def test_script_placeholder_heuristic() -> None:
    empty = '<div id="booking-widget" data-loading="true">Loading availability&hellip;</div><script src="b.js"></script>'
    assert has_script_placeholder(empty)
    assert not has_script_placeholder(empty.replace('<script src="b.js"></script>', ""))
    filled = '<section class="reserve"><h2>Reservations</h2><p>To reserve a room, please call us at (305) 555-0100.</p></section><script src="a.js"></script>'
    assert not has_script_placeholder(filled)


def require_chromium() -> None:
    if not (os.path.exists(DEFAULT_CHROMIUM) or shutil.which("chromium")):
        if os.environ.get("CI"):  # .ci/run installs it: missing there is a failure, not a skip
            pytest.fail(f"no system Chromium at {DEFAULT_CHROMIUM} in CI")
        pytest.skip(f"no system Chromium at {DEFAULT_CHROMIUM} (apt-get install chromium)")


@pytest.mark.browser
def test_js_only_page_is_rendered_and_shows_the_booking_link(sb: Sandbox) -> None:
    require_chromium()
    f = fetcher(sb, total_timeout_s=5.0, browser_concurrency=2)

    async def detect_all() -> Any:
        return await asyncio.gather(fetch_and_detect(f, "http://www.brickellharborhotel.test/"),
                                    fetch_and_detect(f, "http://www.conchrepubliccottages.test/"),
                                    f.render("http://www.collinsboutiquehotel.test/"))

    (link_page, link_found, text), (frame_page, frame_found, _), rendered = run(f, detect_all)
    assert link_page.via == "browser" and link_page.rendered_from == "http://www.brickellharborhotel.test/"
    assert 'id="book-now"' in link_page.html
    assert link_found[0].name == "Sabre SynXis"
    assert link_found[0].booking_url == "https://be.synxis.com/?hotel=51277&chain=24447"
    assert "Brickell Harbor Hotel" in text
    assert frame_page.via == "browser" and frame_found[0].name == "SiteMinder"
    assert "https://book-directonline.com/properties/ConchRepublicCottagesDirect" in frame_page.request_urls
    assert rendered.ok and rendered.status == 200 and 'id="booking-frame"' in rendered.html
    assert "http://www.collinsboutiquehotel.test/assets/booking.js" in rendered.request_urls

"""The fetcher on the detection corpus served by a local proxy (sandbox/corpus_server.py): an honest
User-Agent, robots.txt obeyed, the followed booking page kept, JavaScript-only pages rendered."""

from __future__ import annotations

import asyncio
import os
import shutil
from typing import Any

import pytest

from sadie_pipeline.resources.web import (
    DEFAULT_CHROMIUM,
    ROBOTS_AGENT,
    USER_AGENT,
    WebsiteFetcher,
    engine_found,
    fetch_and_detect,
    has_script_placeholder,
)
from sadie_pipeline.sandbox.corpus_server import CorpusServer
from sadie_pipeline.sandbox.detection_corpus import (
    CorpusSite,
    followed_sites,
    home_page,
    js_only_sites,
    negative_sites,
    unknown_sites,
)

OPEN = CorpusSite("open", "negative", "www.open-inn.test", {"/": home_page("Open Inn", ""), "/private/": "x"})
CLOSED = CorpusSite("closed", "negative", "www.closed-inn.test", {"/": home_page("Closed Inn", "")})
ROBOTS = {"www.closed-inn.test": f"User-agent: {ROBOTS_AGENT}\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
          "www.open-inn.test": f"User-agent: {ROBOTS_AGENT}\nDisallow: /private/\n"}


def run(f: WebsiteFetcher, make: Any) -> Any:
    async def main() -> Any:
        async with f.running():
            return await make()

    return asyncio.run(main())


def test_every_request_names_the_platform_and_robots_txt_is_obeyed() -> None:
    with CorpusServer([OPEN, CLOSED], robots=ROBOTS) as server:
        f = WebsiteFetcher(proxy=server.proxy_url, total_timeout_s=3, browser_enabled=False)
        home, private, closed, again = run(f, lambda: asyncio.gather(*(f.fetch(u) for u in (
            "http://www.open-inn.test/", "http://www.open-inn.test/private/", "http://www.closed-inn.test/",
            "http://www.open-inn.test/rooms/"))))
        stats = f.stats()
    assert home.ok and "Open Inn" in home.html
    assert (private.ok, private.reason, closed.reason) == (False, "robots_disallowed", "robots_disallowed")
    assert again.status == 404  # allowed, simply missing
    assert server.requests["www.open-inn.test /private/"] == 0 and server.requests["www.closed-inn.test /"] == 0
    assert server.requests["www.open-inn.test /robots.txt"] == 1  # once per origin per run
    assert stats["robots_disallowed"] == 2
    agents = set(server.user_agents)
    assert agents == {USER_AGENT} and USER_AGENT.startswith(f"{ROBOTS_AGENT}/") and "hotel website analysis" in USER_AGENT


def test_robots_can_be_turned_off() -> None:
    with CorpusServer([CLOSED], robots=ROBOTS) as server:
        f = WebsiteFetcher(proxy=server.proxy_url, total_timeout_s=3, browser_enabled=False, respect_robots=False)
        result = run(f, lambda: f.fetch("http://www.closed-inn.test/"))
    assert result.ok and server.requests["www.closed-inn.test /robots.txt"] == 0


def test_the_followed_booking_page_is_kept_with_its_engine() -> None:
    sites = followed_sites(every=20)
    with CorpusServer(sites) as server:
        f = WebsiteFetcher(proxy=server.proxy_url, total_timeout_s=3, browser_enabled=False)
        results = run(f, lambda: asyncio.gather(*(fetch_and_detect(f, s.url) for s in sites)))
    for site, (result, detections, _text) in zip(sites, results):
        assert engine_found(detections) and detections[0].name == site.engine, site.key
        assert result.followed_url == site.url + "booking/" and result.followed_html == site.pages["/booking/"]


def test_negatives_and_unknown_hosts_through_the_fetcher() -> None:
    sites = [*negative_sites(), *unknown_sites()]
    with CorpusServer(sites) as server:
        f = WebsiteFetcher(proxy=server.proxy_url, total_timeout_s=3, browser_enabled=False)
        results = run(f, lambda: asyncio.gather(*(fetch_and_detect(f, s.url) for s in sites)))
    assert [s.key for s, (_r, d, _t) in zip(sites, results) if engine_found(d)] == []


def test_an_inline_script_can_fill_a_placeholder() -> None:
    assert has_script_placeholder('<div id="booking-widget"></div><script>load("w")</script>')
    assert not has_script_placeholder('<div id="booking-widget"></div><script></script>')


@pytest.mark.browser
def test_javascript_only_pages_are_rendered_and_their_engines_found() -> None:
    if not (os.path.exists(DEFAULT_CHROMIUM) or shutil.which("chromium")):
        if os.environ.get("CI"):  # .ci/run installs it: missing there is a failure, not a skip
            pytest.fail(f"no system Chromium at {DEFAULT_CHROMIUM} in CI")
        pytest.skip(f"no system Chromium at {DEFAULT_CHROMIUM} (apt-get install chromium)")
    sites = js_only_sites(every=12)
    with CorpusServer(sites) as server:
        f = WebsiteFetcher(proxy=server.proxy_url, total_timeout_s=5, browser_concurrency=4)
        results = run(f, lambda: asyncio.gather(*(fetch_and_detect(f, s.url) for s in sites)))
    assert len(sites) >= 12
    for site, (result, detections, _text) in zip(sites, results):
        assert result.via == "browser", site.key
        strong = [d for d in detections if d.confidence > 0.4]
        assert strong and strong[0].name == site.engine, (site.key, detections)

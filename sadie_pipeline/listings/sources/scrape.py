"""The scrape connector: list pages (followed by their next-page link) and the detail pages they
link to, read with the config's CSS selectors (core/sources/scrape.py).

Politeness: robots.txt (Protego) is read once per origin, before its first page; a disallowed
page is a problem, not a request. Requests to one host wait `http.delay_s` (default 1 s, or the
robots.txt Crawl-delay when longer) after the previous one. The User-Agent names the platform.
Pages are fetched with httpx through the website proxy (SADIE_HTTP_PROXY), or rendered in the
system Chromium (Playwright) when the config's `selectors.javascript` says they need JavaScript."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from protego import Protego

from sadie_pipeline.core.sources.records import Item, Problem, ProblemKind, Pulled
from sadie_pipeline.core.sources.scrape import fields_of, links, parse
from sadie_pipeline.listings.sources.http import PageError, SourceError, SourceHttp, user_agent
from sadie_pipeline.listings.sources.paged import PullState
from sadie_pipeline.resources.reliability import ServiceCallFailed

ROBOTS_AGENT = "sadie-pipeline"  # the product token robots.txt rules are matched against
DEFAULT_DELAY_S = 1.0
CHROMIUM = "/usr/bin/chromium"


def chromium_executable() -> str | None:
    """The Chromium a JavaScript site is rendered with: SADIE_CHROMIUM, Debian's, or one on PATH."""
    return os.environ.get("SADIE_CHROMIUM") or (CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium"))


class Polite:
    """robots.txt per origin and a pause between two requests to one host."""

    def __init__(self, http: SourceHttp, delay_s: float):
        self.http, self.delay_s = http, delay_s
        self._robots: dict[str, Protego | None] = {}
        self._last: dict[str, float] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def allowed(self, url: str) -> bool:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in self._robots:
            self._robots[origin] = await self._read_robots(origin)
        robots = self._robots[origin]
        return robots is None or robots.can_fetch(url, ROBOTS_AGENT)

    async def _read_robots(self, origin: str) -> Protego | None:
        await self.pause(origin)
        client = self.http.client
        try:
            response = await self.http.guard.call(lambda: client.get(f"{origin}/robots.txt"), raise_for_status=False)
        except ServiceCallFailed as exc:  # unreachable: the site's failure, as its page's would be
            raise PageError(ProblemKind.PAGE_FAILED, f"{origin}/robots.txt: {exc.last_error.splitlines()[0]}") from None
        if response.status_code >= 400:  # none (4xx) or broken (5xx): everything allowed, as web.py does
            return None
        robots = Protego.parse(response.text[:512 * 1024])
        delay = robots.crawl_delay(ROBOTS_AGENT)
        if delay:
            self.delay_s = max(self.delay_s, float(delay))
        return robots

    async def pause(self, url: str) -> None:
        """Waits until this host's delay has passed since its previous request."""
        host = urlsplit(url).netloc
        async with self._locks.setdefault(host, asyncio.Lock()):
            wait = self._last.get(host, 0.0) + self.delay_s - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._last[host] = time.monotonic()


class Browser:
    """The system Chromium through Playwright, started on first use (only for `javascript` sites)."""

    def __init__(self, proxy: str | None, timeout_s: float):
        self.proxy, self.timeout_ms = proxy, timeout_s * 1000
        self._playwright: Any = None
        self._context: Any = None

    async def html(self, url: str) -> str:
        page = await self._context.new_page()
        try:
            response = await page.goto(url, wait_until="networkidle", timeout=self.timeout_ms)
            if response is not None and response.status >= 400:
                raise PageError(ProblemKind.PAGE_FAILED, f"{url}: HTTP {response.status}")
            return await page.content()
        finally:
            await page.close()

    async def start(self) -> None:
        """Launches Chromium once (outside the pages' timeouts: it takes seconds on a small machine)."""
        if self._context is not None:
            return
        from playwright.async_api import async_playwright

        executable = chromium_executable()
        if not executable:
            raise SourceError("the site needs JavaScript (selectors.javascript) but no Chromium is installed "
                              "(apt-get install chromium)")
        self._playwright = await async_playwright().start()
        browser = await self._playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox", "--disable-gpu"],
            proxy={"server": self.proxy} if self.proxy else None)
        self._context = await browser.new_context(user_agent=user_agent())

    async def close(self) -> None:
        if self._playwright is not None:
            await self._playwright.stop()


async def scrape_pages(http: SourceHttp, section: Mapping[str, Any], state: PullState) -> AsyncIterator[list[Item]]:
    selectors = section["selectors"]
    delay = section["http"]["delay_s"]
    polite = Polite(http, DEFAULT_DELAY_S if delay is None else delay)
    browser = Browser(http.proxy, section["http"]["timeout_s"]) if selectors["javascript"] else None
    url, seen = section["url"], set()
    try:
        while url and url not in seen and (not selectors["max_pages"] or len(seen) < selectors["max_pages"]):
            seen.add(url)
            try:
                html = await _page(http, polite, browser, url)
            except PageError as exc:
                if len(seen) == 1:
                    raise SourceError(f"cannot pull {exc.message}") from None
                state.pages_failed += 1
                yield [Problem(exc.kind, exc.message, url)]
                return
            state.pages_fetched += 1
            tree = parse(html)
            if selectors["items"]:
                yield [_listing(node, selectors["fields"], url, f"{url}#{n}")
                       for n, node in enumerate(tree.css(selectors["items"]), start=1)]
            else:
                yield [await _detail(http, polite, browser, link, selectors["fields"], state)
                       for link in links(tree, selectors["item_link"], url)]
            following = links(tree, selectors["next_page"], url) if selectors["next_page"] else []
            url = following[0] if following else None
    finally:
        if browser is not None:
            await browser.close()


async def _page(http: SourceHttp, polite: Polite, browser: Browser | None, url: str) -> str:
    if not await polite.allowed(url):
        raise PageError(ProblemKind.ROBOTS, f"robots.txt disallows {url}")
    await polite.pause(url)
    if browser is None:
        return (await http.get_text(url)).body
    await browser.start()
    try:
        return await http.guard.call(lambda: browser.html(url), raise_for_status=False, item_key=url)
    except Exception as exc:  # ServiceCallFailed, or PageError raised by the render
        raise PageError(ProblemKind.PAGE_FAILED, str(exc).splitlines()[0]) from None


async def _detail(http: SourceHttp, polite: Polite, browser: Browser | None, link: str,
                  fields: Mapping[str, str], state: PullState) -> Item:
    try:
        html = await _page(http, polite, browser, link)
    except PageError as exc:
        if exc.kind != ProblemKind.ROBOTS:
            state.pages_failed += 1
        return Problem(exc.kind, exc.message, link)
    state.pages_fetched += 1
    return _listing(parse(html), fields, link, link)


def _listing(node: Any, fields: Mapping[str, str], page_url: str, source_id: str) -> Item:
    record = fields_of(node, fields, page_url)
    if not any(record.values()):
        return Problem(ProblemKind.SCHEMA, f"{source_id}: none of the configured fields is on the page", source_id)
    return Pulled({"url": source_id, **record}, source_id)

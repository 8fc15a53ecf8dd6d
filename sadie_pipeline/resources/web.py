"""Hotel websites: httpx first, the system Chromium (Playwright) for pages that need JavaScript.

`WebsiteFetcher` is the resource; `fetch_and_detect` is the per-site recipe of the detection
stage (fetch -> analyze -> render when `needs_javascript` -> analyze -> follow one same-site
booking link when no engine was found).

* `fetch(url)`: one GET with httpx through the configured proxy (``proxy``), redirects
  followed up to ``max_redirects``, connect/read timeouts plus a budget for the whole fetch,
  reading stopped after ``max_bytes`` (``truncated=True``), at most ``max_concurrency`` fetches
  at once and **one request at a time per domain** (``www.`` folded). Never raises for a dead
  site: the `FetchResult` carries ``error_class`` (`ErrorClass`) and a specific ``reason``
  (timeout, connection_dropped, connect_error, nxdomain, too_many_redirects, http_503, ...).
  Transient failures other than timeouts are retried once (``max_attempts``) through the run's
  `ServiceGuard` ("websites": no breaker and no shared rate, the sites being independent), while
  the fetch's budget lasts.
* `render(url)`: the page in Chromium (`resources/web_browser.py`), for detection by
  ``request`` / ``cookie`` / ``js_global``.
* `fetch_and_detect` and its heuristics are in `resources/web_detect.py`, `FetchResult` and the
  URL helpers in `resources/web_pages.py`; all are importable from here.

Politeness: every request names the platform (`USER_AGENT`, ``sadie-pipeline/<version> (hotel website analysis)``, with ``+<url>`` when the package declares one)
and obeys robots.txt (Protego): it is read once per origin per run, before the first page
(``respect_robots``); a disallowed page is ``reason="robots_disallowed"``. A robots.txt that is
missing (4xx) or broken (5xx, redirect loop) allows everything; one that cannot be reached at all
(timeout, refused) is the site's failure, reported as the page's. Redirect targets are not
checked again.

State (httpx client, locks, browser) belongs to the running event loop: it is created on first
use and released by `aclose()` (or ``async with fetcher.running(): ...``).
"""

from __future__ import annotations

import asyncio
import time
import zlib
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

import httpx
from dagster import ConfigurableResource
from protego import Protego
from pydantic import Field, PrivateAttr

from sadie_pipeline.core.errors import ErrorClass, classify_status, redact
from sadie_pipeline.resources.reliability import PerLoop, ServiceCallFailed, ServiceGuard, ServicePolicy
from sadie_pipeline.resources.web_browser import DEFAULT_CHROMIUM, BrowserRendering, RunningBrowser
from sadie_pipeline.resources.web_detect import SiteDetection, engine_found, fetch_and_detect, has_script_placeholder
from sadie_pipeline.resources.web_pages import (
    ROBOTS_AGENT,
    USER_AGENT,
    DomainLocks,
    FetchResult,
    classify_fetch_error,
    decode_body,
    domain_key,
    normalise_url,
    origin_of,
    robots_refusal,
)

__all__ = [
    "DEFAULT_CHROMIUM", "ROBOTS_AGENT", "USER_AGENT", "FetchResult", "SiteDetection", "WebsiteFetcher", "domain_key",
    "engine_found", "fetch_and_detect", "has_script_placeholder", "normalise_url",
]

PROXY_ENV = "SADIE_HTTP_PROXY"
SERVICE = "websites"
ROBOTS_MAX_BYTES = 512 * 1024  # RFC 9309: parse at least 500 KiB, ignore the rest
HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "application/xml", "text/xml")
POOL_SHARD_SIZE = 8  # connections per httpx client (see WebsiteFetcher._current)


@dataclass
class FetchSession:
    proxy: str | None
    clients: tuple[httpx.AsyncClient, ...]
    guard: ServiceGuard  # retries, and max_concurrency fetches in flight
    page_semaphore: asyncio.Semaphore
    domains: DomainLocks = field(default_factory=DomainLocks)
    browser_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    browser: RunningBrowser | None = None
    browser_failed: str | None = None
    stats: Counter[str] = field(default_factory=Counter)
    robots: dict[str, Protego | None] = field(default_factory=dict)  # origin -> rules (None: allow all)


class _RetryableFetch(Exception):
    """A failed fetch worth another attempt, raised to the guard (which reads its error_class)."""

    def __init__(self, result: FetchResult) -> None:
        super().__init__(f"{result.reason}: {result.error or ''}".strip())
        self.result, self.error_class = result, result.error_class


def _worth_retrying(result: FetchResult) -> bool:
    # a timeout has spent the fetch's budget; a proxy failure is ours, not the site's
    return (result.error_class in (ErrorClass.TRANSIENT, ErrorClass.RATE_LIMITED)
            and result.reason not in ("timeout", "proxy_error"))


class WebsiteFetcher(ConfigurableResource, BrowserRendering):
    """Fetches hotel websites (httpx) and renders the ones that need JavaScript (Chromium)."""

    proxy: str | None = Field(default=None, description=f"HTTP proxy for every site (from {PROXY_ENV}); None: none")
    connect_timeout_s: float = Field(default=10.0, gt=0)
    read_timeout_s: float = Field(default=15.0, gt=0)
    total_timeout_s: float = Field(default=30.0, gt=0, description="budget of one fetch: redirects, headers and body")
    max_bytes: int = Field(default=2 * 1024 * 1024, ge=1024, description="stop reading a page after this many bytes")
    max_redirects: int = Field(default=5, ge=0)
    max_concurrency: int = Field(default=32, ge=1, description="fetches in flight at once (one per domain)")
    max_attempts: int = Field(default=2, ge=1, description="attempts for transient failures other than timeouts")
    retry_backoff_s: float = Field(default=0.5, ge=0)
    user_agent: str = USER_AGENT
    respect_robots: bool = Field(default=True, description="obey robots.txt (read once per origin per run)")
    chromium_path: str = DEFAULT_CHROMIUM
    chromium_extra_args: list[str] = Field(default_factory=list, description="added to the standard flags")
    share_renderer_processes: bool = Field(
        default=True, description="let sites share renderer processes (no site isolation): much less CPU per page")
    browser_enabled: bool = True
    browser_concurrency: int = Field(default=6, ge=1, description="pages rendered at once in the one browser")
    render_timeout_s: float = Field(default=20.0, gt=0, description="navigation until the load event")
    render_quiet_ms: int = Field(default=400, ge=0, description="after load, the page is done when the network "
                                 "has been quiet this long (scripts that inject widgets fetch them)")
    render_settle_max_ms: int = Field(default=2500, ge=0, description="after load, wait at most this long for quiet")
    block_third_party_frames: bool = Field(
        default=False, description="abort third-party frames, fonts and media (intercepts every request: "
        "one round trip through Python each, slower when the event loop is busy)")
    load_images: bool = False

    _sessions: PerLoop[FetchSession] = PrivateAttr(default_factory=PerLoop)
    _last_stats: Any = PrivateAttr(default=None)

    # ---- settings and state ------------------------------------------------------------------
    def resolved_proxy(self) -> str | None:
        return (self.proxy or "").strip() or None

    def configured(self) -> bool:
        return True

    def _secrets(self, proxy: str | None) -> tuple[str, ...]:
        if not proxy:
            return ()
        parts = urlsplit(proxy)
        return tuple(s for s in (parts.password, parts.username) if s)

    def _current(self) -> FetchSession:
        proxy = self.resolved_proxy()
        return self._sessions.get(proxy, lambda: self._new_session(proxy))

    def _new_session(self, proxy: str | None) -> FetchSession:
        timeout = httpx.Timeout(self.read_timeout_s, connect=self.connect_timeout_s)
        # httpcore's pool scans every queued request against every connection whenever one
        # changes state (quadratic in its size), so many sites at once use several small
        # pools, a domain always the same one (its keep-alive connection stays useful).
        shards = max(1, -(-self.max_concurrency // POOL_SHARD_SIZE))
        limits = httpx.Limits(max_connections=self.max_concurrency,
                              max_keepalive_connections=min(self.max_concurrency, POOL_SHARD_SIZE))
        clients = tuple(
            httpx.AsyncClient(
                proxy=proxy, timeout=timeout, limits=limits, follow_redirects=True,
                max_redirects=self.max_redirects, trust_env=False, verify=True,
                headers={"User-Agent": self.user_agent, "Accept-Language": "en-US,en;q=0.9",
                         "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"},
            )
            for _ in range(shards)
        )
        return FetchSession(proxy, clients, ServiceGuard(self._policy(), secrets=self._secrets(proxy)),
                            asyncio.Semaphore(self.browser_concurrency))

    def _policy(self) -> ServicePolicy:
        # Independent sites: no breaker (a dead site says nothing of the next), no shared pace
        # (politeness is one request at a time per domain); each fetch has its own time budget.
        return ServicePolicy(name=SERVICE, max_concurrency=self.max_concurrency, max_attempts=self.max_attempts,
                             backoff_base_s=self.retry_backoff_s, backoff_jitter_s=0.0, timeout_s=None,
                             failure_threshold=None)

    def stats(self) -> dict[str, int]:
        """Counters of the current (or last closed) run: fetches, renders, failures by reason,
        retries, bytes read; for asset metadata."""
        current = self._sessions.value
        counters = current.stats if current is not None else self._last_stats
        return dict(sorted(counters.items())) if counters else {}

    async def aclose(self) -> None:
        """Close the httpx clients and the browser of this run (its `stats()` stay readable)."""
        s = self._sessions.pop()
        if s is None:
            return
        self._last_stats = s.stats
        for client in s.clients:
            await client.aclose()
        if s.browser is not None:
            try:
                await s.browser.browser.close()
            finally:
                await s.browser.playwright.stop()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[WebsiteFetcher]:
        """``async with fetcher.running():`` closes the client and the browser at the end."""
        try:
            yield self
        finally:
            await self.aclose()

    # ---- httpx ---------------------------------------------------------------------------------
    async def fetch(self, url: str) -> FetchResult:
        """GET a page (see the module docstring). Never raises for network or HTTP failures."""
        s = self._current()
        started = time.perf_counter()
        try:
            url = normalise_url(url)
            domain = domain_key(url)
        except ValueError as exc:
            return self._failure(url, exc, started, None)
        if not domain:
            return self._failure(url, httpx.InvalidURL(f"no host in {url!r}"), started, None)
        tried: list[FetchResult] = []

        async def attempt() -> FetchResult:
            result = await self._get_allowed(s, url, started)
            tried.append(result)
            if _worth_retrying(result):
                raise _RetryableFetch(result)
            return result

        async with s.domains.hold(domain):
            budget = self.total_timeout_s - (time.perf_counter() - started)  # the fetch's, waits included
            try:
                result = await s.guard.call(attempt, item_key=domain, budget_s=budget)
            except ServiceCallFailed:
                if not tried:
                    raise
                result = tried[-1]  # the guard gave up: the last attempt's page tells why
        s.stats["fetches"] += 1
        s.stats["fetch_retries"] += len(tried) - 1
        s.stats[f"fetch_{result.reason or 'ok'}"] += 1
        s.stats["bytes_read"] += result.bytes_read
        return replace(result, attempts=len(tried), elapsed_s=round(time.perf_counter() - started, 4))

    async def _get_allowed(self, s: FetchSession, url: str, started: float) -> FetchResult:
        """GET the page unless robots.txt disallows it (or cannot be reached: the site is down)."""
        verdict = await self._robots_allow(s, url, started)
        if isinstance(verdict, FetchResult):
            return verdict
        if not verdict:
            return robots_refusal(url, "httpx")
        return await self._get(s, url, started)

    async def _robots_allow(self, s: FetchSession, url: str, started: float) -> bool | FetchResult:
        """Whether robots.txt lets us fetch `url`; the failure itself when robots.txt is unreachable."""
        if not self.respect_robots:
            return True
        origin = origin_of(url)
        if origin not in s.robots:
            rules = await self._read_robots(s, origin, url, started)
            if isinstance(rules, FetchResult):
                return rules  # not cached: a retry reads it again
            s.robots[origin] = rules
        rules = s.robots[origin]
        if rules is None or rules.can_fetch(url, ROBOTS_AGENT):
            return True
        s.stats["robots_disallowed"] += 1
        return False

    async def _read_robots(self, s: FetchSession, origin: str, url: str, started: float) -> Protego | None | FetchResult:
        client = s.clients[zlib.crc32(domain_key(url).encode()) % len(s.clients)]
        try:
            async with asyncio.timeout(self.total_timeout_s), client.stream("GET", origin + "/robots.txt") as response:
                body = b""
                if 200 <= response.status_code < 300:
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        if len(body) >= ROBOTS_MAX_BYTES:
                            break
        except Exception as exc:  # unreachable: the page would fail the same way, say so now
            failure = self._failure(url, exc, started, s.proxy)
            if failure.error_class in (ErrorClass.TRANSIENT, ErrorClass.NOT_FOUND):
                return failure
            return None
        s.stats["robots_read"] += 1
        if not body:
            return None  # 4xx (no robots.txt) and 5xx: every page allowed
        return Protego.parse(body[:ROBOTS_MAX_BYTES].decode("utf-8", errors="replace"))

    async def _get(self, s: FetchSession, url: str, started: float) -> FetchResult:
        try:
            async with asyncio.timeout(self.total_timeout_s):
                client = s.clients[zlib.crc32(domain_key(url).encode()) % len(s.clients)]
                async with client.stream("GET", url) as response:
                    redirects = tuple(str(r.url) for r in response.history)
                    final_url = str(response.url)
                    content_type = response.headers.get("content-type")
                    mime = (content_type or "").split(";", 1)[0].strip().lower()
                    if mime and not mime.startswith(HTML_TYPES):
                        return FetchResult(url, final_url, response.status_code, "", ErrorClass.PERMANENT,
                                           reason="not_html", error=f"content-type {mime}", redirects=redirects,
                                           content_type=content_type)
                    chunks: list[bytes] = []
                    size, truncated = 0, False
                    async for chunk in response.aiter_bytes():
                        chunks.append(chunk)
                        size += len(chunk)
                        if size >= self.max_bytes:
                            truncated = True
                            break
                    body = b"".join(chunks)[: self.max_bytes]
                    html = decode_body(body, response.charset_encoding)
                    status = response.status_code
                    error_class = classify_status(status) if status >= 400 else None
                    return FetchResult(
                        url, final_url, status, html, error_class, reason=f"http_{status}" if error_class else None,
                        truncated=truncated, bytes_read=len(body), redirects=redirects, content_type=content_type,
                    )
        except Exception as exc:  # every network failure becomes a classified result
            return self._failure(url, exc, started, s.proxy)

    def _failure(self, url: str, exc: BaseException, started: float, proxy: str | None) -> FetchResult:
        error_class, reason = classify_fetch_error(exc)
        text = redact(f"{type(exc).__name__}: {exc}".strip(), self._secrets(proxy))[:500]
        return FetchResult(url, url, None, "", error_class, reason=reason, error=text,
                           elapsed_s=round(time.perf_counter() - started, 4))

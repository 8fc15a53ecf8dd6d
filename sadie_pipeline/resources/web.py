"""Hotel websites: httpx first, the system Chromium (Playwright) for pages that need JavaScript.

`WebsiteFetcher` is the resource; `fetch_and_detect` is the per-site recipe of the detection
stage (fetch -> analyze -> render when `needs_javascript` -> analyze -> follow one same-site
booking link when no engine was found).

* `fetch(url)`: one GET with httpx through the configured proxy (SADIE_HTTP_PROXY), redirects
  followed up to ``max_redirects``, connect/read timeouts plus a budget for the whole fetch,
  reading stopped after ``max_bytes`` (``truncated=True``), at most ``max_concurrency`` fetches
  at once and **one request at a time per domain** (``www.`` folded). Never raises for a dead
  site: the `FetchResult` carries ``error_class`` (`ErrorClass`) and a specific ``reason``
  (timeout, connection_dropped, connect_error, nxdomain, too_many_redirects, http_503, ...).
  Transient failures other than timeouts are retried once (``max_attempts``).
* `render(url)`: the page in Chromium (``chromium_path``, headless, the same proxy), one browser
  per run started on first use, ``browser_concurrency`` pages at once, each tab in its own
  context (cookies cleared between sites) and reused; images are not loaded, sites share
  renderer processes (see SHARED_RENDERER_ARGS), and a page is done when the network has been
  quiet for ``render_quiet_ms`` after the load event. Returns the rendered HTML with the request
  URLs, cookies and non-standard window globals the page produced, for detection by
  ``request`` / ``cookie`` / ``js_global``.

The detection recipe also renders a page that `needs_javascript` does not flag when httpx found
no engine and the page has an empty booking/reservation/widget container plus a script
(`has_script_placeholder`): widgets injected after load, as on the sandbox's js_only sites.

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
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple
from urllib.parse import urlsplit

import httpx
from dagster import ConfigurableResource
from protego import Protego
from pydantic import Field, PrivateAttr
from selectolax.lexbor import LexborHTMLParser

from sadie_pipeline.core.booking_engines import Detection, analyze
from sadie_pipeline.core.errors import ErrorClass, classify, classify_status, redact
from sadie_pipeline.resources.reliability import PerLoop
from sadie_pipeline.settings import env

PROXY_ENV = "SADIE_HTTP_PROXY"
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run")
# Sites are rendered anonymously (no logins, fresh cookies), so one renderer process may serve
# several sites: without this every navigation spawns a process, the biggest cost of a render.
SHARED_RENDERER_ARGS = ("--disable-features=site-per-process,IsolateOrigins,SpareRendererForSitePerProcess",
                        "--disable-site-isolation-trials")
# One evaluation returns the serialised DOM and the page's window property names.
SNAPSHOT_JS = """() => {
  const doctype = document.doctype ? "<!DOCTYPE " + document.doctype.name + ">" : "";
  const html = document.documentElement ? document.documentElement.outerHTML : "";
  return [doctype + html, Object.keys(window)];
}"""
ROBOTS_AGENT = "sadie-pipeline"  # the product token robots.txt rules are matched against
ROBOTS_MAX_BYTES = 512 * 1024  # RFC 9309: parse at least 500 KiB, ignore the rest
HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "application/xml", "text/xml")
POOL_SHARD_SIZE = 8  # connections per httpx client (see WebsiteFetcher._current)
BLOCKED_RESOURCE_TYPES = frozenset({"image", "media", "font"})
_LODGING = frozenset({"hotel_booking_engine", "crs", "vacation_rental"})


def _user_agent() -> str:
    """An honest User-Agent: the platform, its version and, when the package declares a project
    URL, where to read about it (none is invented)."""
    from importlib import metadata

    try:
        meta = metadata.metadata("sadie_pipeline")
        version = meta["Version"]
        urls = [u.split(",", 1)[1].strip() for u in meta.get_all("Project-URL") or [] if "," in u]
    except metadata.PackageNotFoundError:
        version, urls = "0", []
    return f"{ROBOTS_AGENT}/{version} ({f'+{urls[0]}; ' if urls else ''}hotel website analysis)"


USER_AGENT = _user_agent()



def normalise_url(url: str) -> str:
    """``www.x.com`` -> ``http://www.x.com/``; whitespace stripped."""
    url = url.strip()
    if "://" not in url[:12]:
        url = "http://" + url.lstrip("/")
    parts = urlsplit(url)
    if not parts.path:
        url = parts._replace(path="/").geturl()
    return url


def domain_key(url: str) -> str:
    """The politeness key of a URL: its host, lower-cased, without a leading ``www.``."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return host[4:] if host.startswith("www.") else host


@dataclass(frozen=True)
class FetchResult:
    """What one fetch (or render) of a page saw. ``ok``: a page came back (status < 400)."""

    url: str
    final_url: str
    status: int | None
    html: str
    error_class: ErrorClass | None
    via: Literal["httpx", "browser"] = "httpx"
    reason: str | None = None          # specific failure: timeout, connection_dropped, nxdomain, http_503, ...
    error: str | None = None           # redacted one-line description of the failure
    truncated: bool = False            # stopped reading at max_bytes
    bytes_read: int = 0
    elapsed_s: float = 0.0
    attempts: int = 1
    redirects: tuple[str, ...] = ()    # URLs that redirected, in order
    content_type: str | None = None
    request_urls: tuple[str, ...] = ()  # browser only: every request the page made
    cookies: tuple[dict[str, Any], ...] = ()
    js_globals: tuple[str, ...] = ()
    rendered_from: str | None = None   # set by fetch_and_detect when the browser result replaced httpx's
    render_error: str | None = None    # the browser was tried and failed (the httpx page was kept)
    followed_url: str | None = None    # booking link followed by fetch_and_detect when it gave the engine
    followed_html: str = ""            # that followed page (its engine, or unknown booking host, is on it)

    @property
    def ok(self) -> bool:
        return self.error_class is None

    @property
    def dead(self) -> bool:
        return not self.ok


class SiteDetection(NamedTuple):
    """`fetch_and_detect`'s answer: unpack as ``result, detections, text``."""

    result: FetchResult
    detections: list[Detection]
    text: str


class _DomainLocks:
    """One asyncio.Lock per domain, dropped when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, list[Any]] = {}

    @asynccontextmanager
    async def hold(self, domain: str) -> AsyncIterator[None]:
        entry = self._locks.get(domain)
        if entry is None:
            entry = self._locks[domain] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                self._locks.pop(domain, None)

    def __len__(self) -> int:
        return len(self._locks)


@dataclass
class _Tab:
    """One reusable page in its own browser context, with what its current navigation did."""

    context: Any
    page: Any
    site: str = ""                      # domain_key of the page being rendered (third-party frames)
    requests: list[str] = field(default_factory=list)
    in_flight: int = 0
    last_activity: float = 0.0

    def on_request(self, request: Any) -> None:
        self.requests.append(request.url)
        self.in_flight += 1
        self.last_activity = time.monotonic()

    def on_done(self, request: Any) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        self.last_activity = time.monotonic()


@dataclass
class _Browser:
    playwright: Any
    browser: Any
    baseline_globals: frozenset[str]
    free_tabs: list[_Tab] = field(default_factory=list)


@dataclass
class _Session:
    proxy: str | None
    clients: tuple[httpx.AsyncClient, ...]
    semaphore: asyncio.Semaphore
    page_semaphore: asyncio.Semaphore
    domains: _DomainLocks = field(default_factory=_DomainLocks)
    browser_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    browser: _Browser | None = None
    browser_failed: str | None = None
    stats: Counter[str] = field(default_factory=Counter)
    robots: dict[str, Protego | None] = field(default_factory=dict)  # origin -> rules (None: allow all)


class WebsiteFetcher(ConfigurableResource):
    """Fetches hotel websites (httpx) and renders the ones that need JavaScript (Chromium)."""

    proxy: str | None = Field(default=None, description="HTTP proxy for every site; None: SADIE_HTTP_PROXY, else none")
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

    _sessions: PerLoop[_Session] = PrivateAttr(default_factory=PerLoop)
    _last_stats: Any = PrivateAttr(default=None)

    # ---- settings and state ------------------------------------------------------------------
    def resolved_proxy(self) -> str | None:
        return (self.proxy or "").strip() or env(PROXY_ENV)

    def configured(self) -> bool:
        return True

    def _secrets(self, proxy: str | None) -> tuple[str, ...]:
        if not proxy:
            return ()
        parts = urlsplit(proxy)
        return tuple(s for s in (parts.password, parts.username) if s)

    def chromium_args(self) -> list[str]:
        args = list(CHROMIUM_ARGS)
        if not self.load_images:
            args.append("--blink-settings=imagesEnabled=false")
        if self.share_renderer_processes:
            args += [*SHARED_RENDERER_ARGS, f"--renderer-process-limit={self.browser_concurrency}"]
        return args + list(self.chromium_extra_args)

    def _current(self) -> _Session:
        proxy = self.resolved_proxy()
        return self._sessions.get(proxy, lambda: self._new_session(proxy))

    def _new_session(self, proxy: str | None) -> _Session:
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
        return _Session(proxy, clients, asyncio.Semaphore(self.max_concurrency),
                        asyncio.Semaphore(self.browser_concurrency))

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
        async with s.domains.hold(domain):
            attempt = 0
            while True:
                attempt += 1
                async with s.semaphore:
                    result = await self._get_allowed(s, url, started)
                retry = (result.error_class in (ErrorClass.TRANSIENT, ErrorClass.RATE_LIMITED)
                         and result.reason not in ("timeout", "proxy_error") and attempt < self.max_attempts
                         and time.perf_counter() - started + self.retry_backoff_s * attempt < self.total_timeout_s)
                if not retry:
                    break
                s.stats["fetch_retries"] += 1
                await asyncio.sleep(self.retry_backoff_s * attempt)
        s.stats["fetches"] += 1
        s.stats[f"fetch_{result.reason or 'ok'}"] += 1
        s.stats["bytes_read"] += result.bytes_read
        return replace(result, attempts=attempt, elapsed_s=round(time.perf_counter() - started, 4))

    async def _get_allowed(self, s: _Session, url: str, started: float) -> FetchResult:
        """GET the page unless robots.txt disallows it (or cannot be reached: the site is down)."""
        verdict = await self._robots_allow(s, url, started)
        if isinstance(verdict, FetchResult):
            return verdict
        if not verdict:
            return _robots_refusal(url, "httpx")
        return await self._get(s, url, started)

    async def _robots_allow(self, s: _Session, url: str, started: float) -> bool | FetchResult:
        """Whether robots.txt lets us fetch `url`; the failure itself when robots.txt is unreachable."""
        if not self.respect_robots:
            return True
        origin = _origin(url)
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

    async def _read_robots(self, s: _Session, origin: str, url: str, started: float) -> Protego | None | FetchResult:
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

    async def _get(self, s: _Session, url: str, started: float) -> FetchResult:
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
                    html = _decode(body, response.charset_encoding)
                    status = response.status_code
                    error_class = classify_status(status) if status >= 400 else None
                    return FetchResult(
                        url, final_url, status, html, error_class, reason=f"http_{status}" if error_class else None,
                        truncated=truncated, bytes_read=len(body), redirects=redirects, content_type=content_type,
                    )
        except Exception as exc:  # every network failure becomes a classified result
            return self._failure(url, exc, started, s.proxy)

    def _failure(self, url: str, exc: BaseException, started: float, proxy: str | None) -> FetchResult:
        error_class, reason = _classify_fetch_error(exc)
        text = redact(f"{type(exc).__name__}: {exc}".strip(), self._secrets(proxy))[:500]
        return FetchResult(url, url, None, "", error_class, reason=reason, error=text,
                           elapsed_s=round(time.perf_counter() - started, 4))

    # ---- Chromium ------------------------------------------------------------------------------
    async def _browser(self, s: _Session) -> _Browser:
        if s.browser is not None:
            return s.browser
        async with s.browser_lock:
            if s.browser is not None:
                return s.browser
            if s.browser_failed:
                raise RuntimeError(s.browser_failed)
            from playwright.async_api import async_playwright

            pw = await async_playwright().start()
            try:
                launch: dict[str, Any] = {"executable_path": self.chromium_path, "headless": True,
                                          "args": self.chromium_args()}
                if s.proxy:
                    launch["proxy"] = {"server": s.proxy}
                browser = await pw.chromium.launch(**launch)
                page = await browser.new_page()
                baseline = frozenset(await page.evaluate("Object.keys(window)"))
                await page.close()
            except Exception as exc:
                await pw.stop()
                s.browser_failed = redact(f"browser unavailable: {type(exc).__name__}: {exc}", self._secrets(s.proxy))[:500]
                raise
            s.browser = _Browser(pw, browser, baseline)
            s.stats["browser_launches"] += 1
            return s.browser

    async def render(self, url: str) -> FetchResult:
        """The page as Chromium renders it, with the request URLs, cookies and window globals it
        produced. Never raises for page failures (``error_class`` / ``reason`` tell)."""
        s = self._current()
        started = time.perf_counter()
        url = normalise_url(url)
        async with s.domains.hold(domain_key(url)), s.page_semaphore:
            verdict = await self._robots_allow(s, url, started)
            if verdict is not True:
                return verdict if isinstance(verdict, FetchResult) else _robots_refusal(url, "browser")
            try:
                browser = await self._browser(s)
                tab = browser.free_tabs.pop() if browser.free_tabs else await self._new_tab(browser)
            except Exception as exc:
                s.stats["render_browser_unavailable"] += 1
                return replace(self._failure(url, exc, started, s.proxy), via="browser", reason="browser_unavailable",
                               error_class=ErrorClass.PERMANENT)
            result, reusable = await self._render(browser, tab, url, started, s)
            if reusable:
                browser.free_tabs.append(tab)
            else:
                s.stats["render_tabs_discarded"] += 1
                await _close_quietly(tab.context)
        s.stats["renders"] += 1
        s.stats[f"render_{result.reason or 'ok'}"] += 1
        return result

    async def _new_tab(self, b: _Browser) -> _Tab:
        context = await b.browser.new_context(user_agent=self.user_agent, service_workers="block",
                                              ignore_https_errors=True)
        page = await context.new_page()
        tab = _Tab(context, page)

        if self.block_third_party_frames:
            async def route(route: Any) -> None:
                request = route.request
                if request.resource_type in BLOCKED_RESOURCE_TYPES:
                    await route.abort()
                    return
                if request.resource_type == "document" and tab.site:
                    try:
                        is_subframe = request.frame.parent_frame is not None
                    except Exception:
                        is_subframe = False
                    if is_subframe and domain_key(request.url) != tab.site:
                        await route.abort()  # its URL is recorded; the engine's own app is not needed
                        return
                await route.fallback()

            await context.route("**/*", route)
        page.on("request", tab.on_request)
        page.on("requestfinished", tab.on_done)
        page.on("requestfailed", tab.on_done)
        return tab

    async def _settle(self, tab: _Tab) -> None:
        """After load: until the network has been quiet for render_quiet_ms (at most render_settle_max_ms)."""
        if not self.render_quiet_ms or not self.render_settle_max_ms:
            return
        quiet, deadline = self.render_quiet_ms / 1000, time.monotonic() + self.render_settle_max_ms / 1000
        tab.last_activity = max(tab.last_activity, time.monotonic())
        while (now := time.monotonic()) < deadline:
            idle_for = now - tab.last_activity
            if tab.in_flight == 0 and idle_for >= quiet:
                return
            await asyncio.sleep(max(0.02, min(quiet - idle_for if tab.in_flight == 0 else 0.05, deadline - now)))

    async def _render(self, b: _Browser, tab: _Tab, url: str, started: float,
                      s: _Session) -> tuple[FetchResult, bool]:
        """(result, whether the tab can be reused)."""
        from playwright.async_api import Error as PlaywrightError
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        page = tab.page
        tab.site, tab.requests, tab.in_flight = domain_key(url), [], 0
        try:
            await tab.context.clear_cookies()
            try:
                response = await page.goto(url, wait_until="load", timeout=self.render_timeout_s * 1000)
            except PlaywrightTimeout as exc:
                return self._render_failure(url, exc, "timeout", ErrorClass.TRANSIENT, started, tab.requests, s), False
            except PlaywrightError as exc:
                error_class, reason = _classify_browser_error(exc)
                result = self._render_failure(url, exc, reason, error_class, started, tab.requests, s)
                return result, await self._blank(page)
            await self._settle(tab)
            html, names = await page.evaluate(SNAPSHOT_JS)
            final_url = page.url
            cookies = await tab.context.cookies()
        except PlaywrightError as exc:  # the page crashed or the browser went away
            return self._render_failure(url, exc, "browser_error", ErrorClass.TRANSIENT, started, tab.requests, s), False
        requests = tuple(dict.fromkeys(tab.requests))
        # the tab stays on this page until its next render replaces it (a navigation to
        # about:blank in between would cost a process swap per render)
        reusable = not page.is_closed()
        js_globals = tuple(n for n in names if isinstance(n, str) and not n.isdigit()
                           and n not in b.baseline_globals)
        status = response.status if response is not None else None
        error_class = classify_status(status) if status is not None and status >= 400 else None
        body = html.encode("utf-8", errors="replace")
        truncated = len(body) > self.max_bytes
        if truncated:
            html = body[: self.max_bytes].decode("utf-8", errors="ignore")
        result = FetchResult(
            url, final_url, status, html, error_class, via="browser",
            reason=f"http_{status}" if error_class else None, truncated=truncated,
            bytes_read=min(len(body), self.max_bytes), elapsed_s=round(time.perf_counter() - started, 4),
            request_urls=requests,
            cookies=tuple({"name": c.get("name"), "domain": c.get("domain")} for c in cookies),
            js_globals=js_globals,
        )
        return result, reusable

    async def _blank(self, page: Any) -> bool:
        """Leave the page on about:blank (stops its scripts and requests); False if that fails."""
        try:
            await page.goto("about:blank", timeout=5000)
            return True
        except Exception:
            return False

    def _render_failure(self, url: str, exc: BaseException, reason: str, error_class: ErrorClass, started: float,
                        request_urls: Sequence[str], s: _Session) -> FetchResult:
        text = redact(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}", self._secrets(s.proxy))
        return FetchResult(url, url, None, "", error_class, via="browser", reason=reason, error=text[:500],
                           elapsed_s=round(time.perf_counter() - started, 4),
                           request_urls=tuple(dict.fromkeys(request_urls)))


# ---- helpers ------------------------------------------------------------------------------------

def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _robots_refusal(url: str, via: Literal["httpx", "browser"]) -> FetchResult:
    return FetchResult(url, url, None, "", ErrorClass.PERMANENT, via=via, reason="robots_disallowed",
                       error="disallowed by robots.txt")


async def _close_quietly(context: Any) -> None:
    try:
        await context.close()
    except Exception:
        pass


def _decode(body: bytes, charset: str | None) -> str:
    encoding = charset
    if not encoding:
        head = body[:2048].lower()
        at = head.find(b"charset=")
        if at >= 0:
            raw = head[at + 8: at + 40].strip(b"\"' ")
            encoding = raw.split(b'"')[0].split(b"'")[0].split(b";")[0].split(b">")[0].split(b" ")[0].decode(
                "ascii", errors="ignore") or None
    try:
        return body.decode(encoding or "utf-8", errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


def _classify_fetch_error(exc: BaseException) -> tuple[ErrorClass, str]:
    if isinstance(exc, httpx.TooManyRedirects):
        return ErrorClass.PERMANENT, "too_many_redirects"
    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        return ErrorClass.TRANSIENT, "timeout"
    if isinstance(exc, httpx.UnsupportedProtocol | httpx.InvalidURL | ValueError):
        return ErrorClass.PERMANENT, "invalid_url"
    if isinstance(exc, httpx.DecodingError):
        return ErrorClass.PERMANENT, "decoding_error"
    error_class = classify(exc)
    if error_class is ErrorClass.NOT_FOUND:
        return error_class, "nxdomain"
    if isinstance(exc, httpx.ProxyError):
        return ErrorClass.TRANSIENT, "proxy_error"
    if isinstance(exc, httpx.RemoteProtocolError):
        return ErrorClass.TRANSIENT, "connection_dropped"
    if isinstance(exc, httpx.ConnectError):
        return ErrorClass.TRANSIENT, "connect_error"
    if isinstance(exc, httpx.TransportError):
        return ErrorClass.TRANSIENT, "transport_error"
    return error_class, "error"


def _classify_browser_error(exc: BaseException) -> tuple[ErrorClass, str]:
    message = str(exc)
    if "ERR_NAME_NOT_RESOLVED" in message:
        return ErrorClass.NOT_FOUND, "nxdomain"
    if "ERR_TOO_MANY_REDIRECTS" in message:
        return ErrorClass.PERMANENT, "too_many_redirects"
    if any(code in message for code in ("ERR_EMPTY_RESPONSE", "ERR_CONNECTION_CLOSED", "ERR_CONNECTION_RESET",
                                        "ERR_CONNECTION_REFUSED", "ERR_TUNNEL_CONNECTION_FAILED", "ERR_PROXY")):
        return ErrorClass.TRANSIENT, "connection_dropped"
    if "ERR_TIMED_OUT" in message or "Timeout" in message:
        return ErrorClass.TRANSIENT, "timeout"
    return ErrorClass.TRANSIENT, "browser_error"


_PLACEHOLDER_SELECTOR = ", ".join(
    f"{tag}[{attr}*={word!r} i]" for tag in ("div", "section", "aside", "span")
    for attr in ("id", "class") for word in ("book", "reserv", "availab", "widget")
) + ", [data-loading]"


def has_script_placeholder(html: str) -> bool:
    """A page that loads scripts and has an (almost) empty booking/reservation/availability/widget
    container: the booking engine is probably injected by JavaScript after load."""
    if not html or "<script" not in html.lower():
        return False
    tree = LexborHTMLParser(html)
    # inline scripts count too: they inject widgets as well as loaders do
    if not any(n.attrs.get("src") or (n.text(deep=False) or "").strip() for n in tree.css("script")):
        return False
    for node in tree.css(_PLACEHOLDER_SELECTOR):
        if node.css_first("a[href], iframe, form") is None and len(node.text(deep=True, strip=True)) < 40:
            return True
    return False


def engine_found(detections: Sequence[Detection]) -> bool:
    """A lodging booking engine seen with more than a vendor link's weak evidence."""
    return any(d.category in _LODGING and d.confidence > 0.4 for d in detections)


async def fetch_and_detect(fetcher: WebsiteFetcher, hotel_url: str, *, render: bool = True,
                           follow_booking_link: bool = True) -> SiteDetection:
    """Fetch a hotel's site and detect its booking engine: ``(result, detections, text)``.

    httpx fetch -> analyze; if the page needs JavaScript (`needs_javascript`, or no engine and an
    empty booking/widget container filled by a script, see `has_script_placeholder`): render ->
    analyze with what the browser saw; if still no engine: follow one same-site "Book now" link
    (httpx) and take its detections (``result.followed_url`` and ``followed_html`` keep that page,
    also when it shows only an uncatalogued booking host and the home page none). ``text`` is the
    page's visible text (<= 50 KB), empty when the site is dead. ``result.via == "browser"`` when
    the rendered page was used.
    """
    result = await fetcher.fetch(hotel_url)
    if not result.ok:
        return SiteDetection(result, [], "")
    page = analyze(result.html, result.final_url)
    wants_browser = page.needs_javascript or (
        not engine_found(page.detections) and has_script_placeholder(result.html))
    if wants_browser and render and fetcher.browser_enabled:
        rendered = await fetcher.render(result.final_url)
        if rendered.ok and rendered.html:
            page = analyze(rendered.html, rendered.final_url, request_urls=rendered.request_urls,
                           cookies=rendered.cookies, js_globals=rendered.js_globals)
            result = replace(rendered, url=result.url, redirects=result.redirects, rendered_from=result.final_url)
        else:
            result = replace(result, render_error=rendered.reason or "render_failed")
    detections = list(page.detections)
    if follow_booking_link and not engine_found(detections):
        site = domain_key(result.final_url)
        link = next((u for u in page.booking_links if domain_key(u) == site and u != result.final_url), None)
        if link is not None:
            hop = await fetcher.fetch(link)
            if hop.ok and hop.html:
                hop_page = analyze(hop.html, hop.final_url)
                if engine_found(hop_page.detections):
                    detections = list(hop_page.detections)
                if engine_found(hop_page.detections) or (hop_page.unknown_engines and not page.unknown_engines):
                    result = replace(result, followed_url=hop.final_url, followed_html=hop.html)
    return SiteDetection(result, detections, page.text)

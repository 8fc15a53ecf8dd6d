"""Chromium rendering for `WebsiteFetcher` (a mixin: the fetcher's settings, its per-run session):
one browser per run, started on first use, ``browser_concurrency`` pages at once, each tab in its
own context (cookies cleared between sites) and reused; images are not loaded, sites share
renderer processes (see SHARED_RENDERER_ARGS), and a page is done when the network has been quiet
for ``render_quiet_ms`` after the load event. A render returns the HTML with the request URLs,
cookies and non-standard window globals the page produced."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sadie_pipeline.core.errors import ErrorClass, classify_status, redact
from sadie_pipeline.resources.web_pages import FetchResult, domain_key, normalise_url, robots_refusal

if TYPE_CHECKING:
    from sadie_pipeline.resources.web import FetchSession

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
BLOCKED_RESOURCE_TYPES = frozenset({"image", "media", "font"})


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
class RunningBrowser:
    playwright: Any
    browser: Any
    baseline_globals: frozenset[str]
    free_tabs: list[_Tab] = field(default_factory=list)


class BrowserRendering:
    """`WebsiteFetcher.render` and its parts; the fields and session are the fetcher's."""

    def chromium_args(self) -> list[str]:
        args = list(CHROMIUM_ARGS)
        if not self.load_images:
            args.append("--blink-settings=imagesEnabled=false")
        if self.share_renderer_processes:
            args += [*SHARED_RENDERER_ARGS, f"--renderer-process-limit={self.browser_concurrency}"]
        return args + list(self.chromium_extra_args)

    # ---- Chromium ------------------------------------------------------------------------------
    async def _browser(self, s: FetchSession) -> RunningBrowser:
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
            s.browser = RunningBrowser(pw, browser, baseline)
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
                return verdict if isinstance(verdict, FetchResult) else robots_refusal(url, "browser")
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

    async def _new_tab(self, b: RunningBrowser) -> _Tab:
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

    async def _render(self, b: RunningBrowser, tab: _Tab, url: str, started: float,
                      s: FetchSession) -> tuple[FetchResult, bool]:
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
                        request_urls: Sequence[str], s: FetchSession) -> FetchResult:
        text = redact(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}", self._secrets(s.proxy))
        return FetchResult(url, url, None, "", error_class, via="browser", reason=reason, error=text[:500],
                           elapsed_s=round(time.perf_counter() - started, 4),
                           request_urls=tuple(dict.fromkeys(request_urls)))


async def _close_quietly(context: Any) -> None:
    try:
        await context.close()
    except Exception:
        pass


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


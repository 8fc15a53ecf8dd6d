"""Downloads of listing images: one GET per image URL with aiohttp (a third of httpx's CPU for
a body of a megabyte, which at 50 images a second is a core's worth), through a `ServiceGuard` per
host (a dead CDN opens its own breaker, not everyone's; 429 with Retry-After, 5xx, timeouts and cut
connections are retried with backoff), at most `max_concurrency` downloads at once in all.

An answer is refused by its headers before its body is read (a content type other than an image,
a Content-Length over the limit), and a body without a length is read only up to the limit. A
refusal is an answer of a working host: it comes back as `ImageRejected`, not as a failed call.

    fetched = await fetcher.fetch(url, rules)   # bytes, or ImageRejected; raises ServiceCallFailed
    fetcher.metadata()                          # the guards' counters, summed over hosts
"""

from __future__ import annotations

import asyncio
from collections import Counter
from importlib.metadata import PackageNotFoundError, version
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import httpx
from dagster import ConfigurableResource
from pydantic import Field, PrivateAttr

from sadie_pipeline.core.images import ImageFailure, ImageRejected, ImageRules, check_response
from sadie_pipeline.resources.reliability import PerLoop, ServiceGuard, ServicePolicy


def _user_agent() -> str:
    try:
        own = version("sadie_pipeline")
    except PackageNotFoundError:  # a source tree that was never installed
        own = "0"
    return f"sadie-pipeline/{own} (listing images)"


USER_AGENT = _user_agent()


class _Session:
    def __init__(self, settings: ImageFetcher) -> None:
        self.settings = settings
        self.guards: dict[str, ServiceGuard] = {}
        self.slots = asyncio.Semaphore(settings.max_concurrency)
        connector = aiohttp.TCPConnector(limit=settings.max_concurrency * 2)
        self.client = aiohttp.ClientSession(
            connector=connector, headers={"User-Agent": USER_AGENT, "Accept": "image/*"},
            timeout=aiohttp.ClientTimeout(total=None, sock_connect=10.0, sock_read=settings.timeout_s))

    def guard(self, host: str) -> ServiceGuard:
        if host not in self.guards:
            s = self.settings
            self.guards[host] = ServiceGuard(ServicePolicy(
                name=f"images:{host}", requests_per_second=s.requests_per_second_per_host,
                max_concurrency=s.max_concurrency_per_host, max_attempts=s.max_attempts,
                backoff_base_s=s.backoff_base_s, timeout_s=s.timeout_s, failure_threshold=s.failure_threshold,
                reset_timeout_s=s.reset_timeout_s))
        return self.guards[host]


class ImageFetcher(ConfigurableResource):
    """Listing image downloads (no keys, no base URL: the DMOs' image URLs are absolute)."""

    max_concurrency: int = Field(default=8, ge=1, description="downloads at once, all hosts together")
    max_concurrency_per_host: int = Field(default=6, ge=1)
    requests_per_second_per_host: float | None = Field(default=None, gt=0, description="None: no pacing")
    max_attempts: int = Field(default=3, ge=1)
    backoff_base_s: float = Field(default=0.5, ge=0)
    timeout_s: float = Field(default=30.0, gt=0)
    failure_threshold: int = Field(default=5, ge=1, description="consecutive failures that open a host's breaker")
    reset_timeout_s: float = Field(default=60.0, gt=0)

    _sessions: PerLoop[_Session] = PrivateAttr(default_factory=PerLoop)

    def _current(self) -> _Session:
        return self._sessions.get(None, lambda: _Session(self))

    async def aclose(self) -> None:
        if (s := self._sessions.pop()) is not None:
            await s.client.close()

    def metadata(self) -> dict[str, Any]:
        """The per-host guards' counters summed, and the hosts whose breaker is open."""
        session = self._sessions.value
        totals: Counter[str] = Counter()
        open_hosts = []
        for host, guard in (session.guards.items() if session else ()):
            stats = guard.stats.as_metadata()
            totals.update({k: v for k, v in stats.items() if isinstance(v, int)})
            if guard.breaker_state != "closed":
                open_hosts.append(host)
        return {"hosts": len(session.guards) if session else 0, **dict(totals), "breakers_not_closed": open_hosts}

    async def fetch(self, url: str, rules: ImageRules) -> bytes | ImageRejected:
        """The image's bytes, or why its answer is refused. Raises `ServiceCallFailed` when the
        host fails (after retries), answers an error status, or its breaker is open."""
        s = self._current()
        host = (urlsplit(url).hostname or "").lower()
        if urlsplit(url).scheme not in ("http", "https") or not host:
            return ImageRejected(ImageFailure.HTTP_ERROR, f"not an http(s) URL: {url[:200]}")

        async def attempt() -> bytes | ImageRejected:
            async with s.client.get(url, max_redirects=5) as response:
                if response.status >= 400:
                    raise _status_error(url, response)  # the body is not read: an error page may be anything
                try:
                    return await _body(response, rules)
                except aiohttp.ClientPayloadError as exc:  # the connection dropped mid-body: worth a retry
                    raise ConnectionError(f"the body was cut short: {exc}") from exc

        async with s.slots:
            return await s.guard(host).call(attempt, item_key=url)


def _status_error(url: str, response: aiohttp.ClientResponse) -> httpx.HTTPStatusError:
    """The error status as the guard reads it everywhere (status code, Retry-After)."""
    request = httpx.Request("GET", url)
    answer = httpx.Response(response.status, headers=list(response.headers.items()), request=request)
    return httpx.HTTPStatusError(f"HTTP {response.status}", request=request, response=answer)


async def _body(response: aiohttp.ClientResponse, rules: ImageRules) -> bytes | ImageRejected:
    length = response.content_length
    try:
        check_response(response.headers.get("Content-Type"), length, rules)
    except ImageRejected as rejected:
        return rejected
    if length is not None:
        return await response.read()  # at most max_bytes: check_response saw the length
    body = bytearray()
    async for chunk in response.content.iter_chunked(1 << 20):
        body += chunk
        if len(body) > rules.max_bytes:
            return ImageRejected(ImageFailure.TOO_LARGE, f"over {rules.max_bytes} bytes streamed")
    return bytes(body)

"""What a fetch of a hotel website sees, and the small pure pieces the fetcher and the browser share:
`FetchResult`, URL normalisation and the politeness key (`domain_key`), the honest `USER_AGENT`,
per-domain locks, body decoding and the classification of network failures."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx

from sadie_pipeline.core.errors import ErrorClass, classify

ROBOTS_AGENT = "sadie-pipeline"  # the product token robots.txt rules are matched against


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



class DomainLocks:
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


# ---- helpers ------------------------------------------------------------------------------------

def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def robots_refusal(url: str, via: Literal["httpx", "browser"]) -> FetchResult:
    return FetchResult(url, url, None, "", ErrorClass.PERMANENT, via=via, reason="robots_disallowed",
                       error="disallowed by robots.txt")


def decode_body(body: bytes, charset: str | None) -> str:
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


def classify_fetch_error(exc: BaseException) -> tuple[ErrorClass, str]:
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


"""Common Crawl: the index server (CDX API) and the data server (WARC records by byte range).

* `newest_crawl()`: ``GET {index_url}/collinfo.json``, the newest crawl and its ``cdx-api`` URL
  (once per event loop).
* `captures(domain)`: ``GET {cdx-api}?url={domain}/*&output=json``, one `Capture` per line;
  404 ("No Captures found") -> [].
* `num_pages(url, filters)` / `query_page(url, filters, page)`: a domain-wide scan
  (``matchType=domain``, ``filter=`` repeated, ``showNumPages=true`` then ``page=0..n-1``,
  ``output=json``), as discovery pages through a TLD or an engine's domain (issue 32).
* `page(capture)`: ``GET {data_url}/{filename}`` with ``Range: bytes=offset-(offset+length-1)``
  (206), the slice is one gzip member holding the response record, read with warcio's
  ArchiveIterator: the HTTP status and the decoded HTML.

Index and data calls go through their own `ServiceGuard`: the CC index is slow (seconds to half
a minute a query) and asks for politeness, so its policy allows many queries in flight at a modest
rate; the data server (CloudFront / S3) takes more. The definitions set ``index_url`` /
``data_url`` from SADIE_CC_INDEX_URL / SADIE_CC_DATA_URL.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
from dagster import ConfigurableResource
from pydantic import Field, PrivateAttr
from warcio.archiveiterator import ArchiveIterator

from sadie_pipeline.core.enrichment.common_crawl import Capture, Crawl, newest_crawl, parse_cdx
from sadie_pipeline.resources.reliability import PerLoop, ServiceGuard, ServicePolicy

INDEX_URL_ENV = "SADIE_CC_INDEX_URL"
DATA_URL_ENV = "SADIE_CC_DATA_URL"
DISCOVERY_TLDS_ENV = "SADIE_CC_DISCOVERY_TLDS"
DEFAULT_INDEX_URL = "https://index.commoncrawl.org"
DEFAULT_DATA_URL = "https://data.commoncrawl.org"
USER_AGENT = "sadie-pipeline/0.1 (+common-crawl)"


class NoCrawl(Exception):
    """collinfo.json listed no crawl with a CDX API."""


@dataclass(frozen=True)
class WarcPage:
    """A capture's response record as read back from its WARC file."""

    url: str
    status: int | None
    content_type: str
    html: str


def read_record(data: bytes) -> WarcPage:
    """The response record in `data` (one gzip member, or several: the first response counts)."""
    for record in ArchiveIterator(io.BytesIO(data)):
        if record.rec_type != "response":
            continue
        headers = record.http_headers
        content_type = (headers.get_header("Content-Type") or "") if headers else ""
        charset = "utf-8"
        for part in content_type.split(";")[1:]:
            key, _, value = part.strip().partition("=")
            if key.lower() == "charset" and value:
                charset = value.strip('"')
        body = record.content_stream().read()
        try:
            text = body.decode(charset, errors="replace")
        except LookupError:
            text = body.decode("utf-8", errors="replace")
        status = headers.get_statuscode() if headers else None
        return WarcPage(record.rec_headers.get_header("WARC-Target-URI") or "",
                        int(status) if status and status.isdigit() else None, content_type, text)
    raise ValueError("no WARC response record in the range")


def _client(timeout_s: float, connections: int) -> httpx.AsyncClient:
    # a pool with room for every call the guard lets through: fewer connections queue the calls inside
    # httpcore, whose pool scans its queue and connections on every request and release
    return httpx.AsyncClient(timeout=httpx.Timeout(timeout_s, connect=10.0), follow_redirects=True, trust_env=False,
                             headers={"User-Agent": USER_AGENT},
                             limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections))


class _Session:
    def __init__(self, index: ServiceGuard, data: ServiceGuard, timeout_s: float) -> None:
        self.index, self.data = index, data
        # one client per server: the index's slow queries do not sit in the data server's pool
        self.client = _client(timeout_s, index.policy.max_concurrency)
        self.data_client = _client(timeout_s, data.policy.max_concurrency)
        self.crawl: asyncio.Future[Crawl] | None = None


class CommonCrawlResource(ConfigurableResource):
    """Common Crawl's CDX index and WARC data servers."""

    index_url: str | None = Field(default=None, description=f"None: {DEFAULT_INDEX_URL}")
    data_url: str | None = Field(default=None, description=f"None: {DEFAULT_DATA_URL}")
    discovery_tlds: str | None = Field(default=None, description="TLDs discovery scans beside a region's own "
                                       "ccTLD, comma-separated (e.g. 'com'); None: none")
    index_requests_per_second: float = Field(default=1.0, gt=0)
    index_max_concurrency: int = Field(default=32, ge=1)
    index_timeout_s: float = Field(default=90.0, gt=0)
    data_requests_per_second: float = Field(default=10.0, gt=0)
    data_max_concurrency: int = Field(default=16, ge=1)
    data_timeout_s: float = Field(default=30.0, gt=0)
    max_attempts: int = Field(default=3, ge=1)
    backoff_base_s: float = Field(default=1.0, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)
    backoff_jitter_s: float = Field(default=0.25, ge=0)
    failure_threshold: int = Field(default=5, ge=1)
    reset_timeout_s: float = Field(default=60.0, gt=0)
    max_retry_after_s: float = Field(default=120.0, ge=0)

    _sessions: PerLoop[_Session] = PrivateAttr(default_factory=PerLoop)

    def resolved_index_url(self) -> str:
        return ((self.index_url or "").strip() or DEFAULT_INDEX_URL).rstrip("/")

    def resolved_data_url(self) -> str:
        return ((self.data_url or "").strip() or DEFAULT_DATA_URL).rstrip("/")

    def extra_tlds(self) -> list[str]:
        return [t.strip().strip(".").lower() for t in (self.discovery_tlds or "").split(",") if t.strip(" .")]

    def configured(self) -> bool:
        return True

    @property
    def max_concurrency(self) -> int:
        """Hotels in flight: as many as index queries may be (each hotel starts with one)."""
        return self.index_max_concurrency

    def _policy(self, name: str, rate: float, concurrency: int, timeout_s: float) -> ServicePolicy:
        return ServicePolicy(
            name=name, requests_per_second=rate, max_concurrency=concurrency, max_attempts=self.max_attempts,
            backoff_base_s=self.backoff_base_s, backoff_max_s=self.backoff_max_s,
            backoff_jitter_s=self.backoff_jitter_s, timeout_s=timeout_s, failure_threshold=self.failure_threshold,
            reset_timeout_s=self.reset_timeout_s, max_retry_after_s=self.max_retry_after_s)

    def _current(self) -> _Session:
        where = (self.resolved_index_url(), self.resolved_data_url())
        return self._sessions.get(where, lambda: _Session(
            ServiceGuard(self._policy("cc_index", self.index_requests_per_second, self.index_max_concurrency,
                                      self.index_timeout_s)),
            ServiceGuard(self._policy("cc_data", self.data_requests_per_second, self.data_max_concurrency,
                                      self.data_timeout_s)),
            max(self.index_timeout_s, self.data_timeout_s)))

    def guards(self) -> dict[str, ServiceGuard]:
        s = self._current()
        return {"index": s.index, "data": s.data}

    async def aclose(self) -> None:
        if (s := self._sessions.pop()) is not None:
            await s.client.aclose()
            await s.data_client.aclose()

    async def newest_crawl(self) -> Crawl:
        """The newest crawl (asked once per loop; every caller shares the answer)."""
        s = self._current()
        if s.crawl is None or (s.crawl.done() and s.crawl.exception() is not None):
            s.crawl = asyncio.ensure_future(self._collinfo(s))
        return await asyncio.shield(s.crawl)

    async def _collinfo(self, s: _Session) -> Crawl:
        url = f"{self.resolved_index_url()}/collinfo.json"

        async def attempt() -> Any:
            response = await s.client.get(url)
            response.raise_for_status()
            return response.json()

        crawl = newest_crawl(await s.index.call(attempt, item_key="collinfo"))
        if crawl is None:
            raise NoCrawl(f"{url} lists no crawl")
        return crawl

    async def captures(self, domain: str, crawl: Crawl | None = None) -> list[Capture]:
        """Every capture of ``domain`` (and its www host) in the crawl (default: the newest)."""
        crawl = crawl or await self.newest_crawl()
        s = self._current()
        name = domain.strip().lower().rstrip(".")

        async def attempt() -> list[Capture]:
            response = await s.client.get(crawl.cdx_api, params={"url": f"{name}/*", "output": "json"})
            if response.status_code == 404:  # "No Captures found"
                return []
            response.raise_for_status()
            return parse_cdx(response.text)

        return await s.index.call(attempt, item_key=f"{crawl.id}:{name}")

    def _scan_params(self, url: str, filters: Sequence[str], match_type: str) -> list[tuple[str, str]]:
        return [("url", url), ("matchType", match_type), ("output", "json"), *(("filter", f) for f in filters)]

    async def num_pages(self, url: str, filters: Sequence[str] = (), crawl: Crawl | None = None,
                        match_type: str = "domain") -> int:
        """How many index pages a scan of `url` has (``showNumPages=true``)."""
        crawl = crawl or await self.newest_crawl()
        s = self._current()
        params = [*self._scan_params(url, filters, match_type), ("showNumPages", "true")]

        async def attempt() -> int:
            response = await s.client.get(crawl.cdx_api, params=params)
            if response.status_code == 404:
                return 0
            response.raise_for_status()
            text = response.text.strip()
            return int(json.loads(text)["pages"]) if text.startswith("{") else int(text or 0)

        return await s.index.call(attempt, item_key=f"{crawl.id}:{url}:pages")

    async def query_page(self, url: str, filters: Sequence[str], page: int, crawl: Crawl | None = None,
                         match_type: str = "domain") -> list[Capture]:
        """The captures of one index page of a scan (filters applied by the index server)."""
        crawl = crawl or await self.newest_crawl()
        s = self._current()
        params = [*self._scan_params(url, filters, match_type), ("page", str(page))]

        async def attempt() -> list[Capture]:
            response = await s.client.get(crawl.cdx_api, params=params)
            if response.status_code == 404:  # "No Captures found": nothing on this page passes the filters
                return []
            response.raise_for_status()
            return parse_cdx(response.text)

        return await s.index.call(attempt, item_key=f"{crawl.id}:{url}:{page}")

    async def page(self, capture: Capture) -> WarcPage:
        """The capture's response record, fetched by its byte range and parsed."""
        s = self._current()
        url = f"{self.resolved_data_url()}/{quote(capture.filename, safe='/')}"
        last = capture.offset + capture.length - 1

        async def attempt() -> WarcPage:
            response = await s.data_client.get(url, headers={"Range": f"bytes={capture.offset}-{last}"})
            response.raise_for_status()
            data = response.content
            if response.status_code == 200 and len(data) != capture.length:  # the Range was ignored
                data = data[capture.offset:last + 1]
            if len(data) != capture.length:
                raise ValueError(f"asked {capture.length} bytes of {capture.filename}, got {len(data)}")
            return read_record(data)

        return await s.data.call(attempt, item_key=f"{capture.filename}@{capture.offset}")

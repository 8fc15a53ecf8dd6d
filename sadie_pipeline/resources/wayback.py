"""The Internet Archive's Wayback Machine: what was archived of a URL, and the archived page.

* `captures(url)`: the CDX API, ``GET {base}/cdx/search/cdx?url=...&output=json
  &fl=timestamp,original,statuscode&filter=statuscode:200`` -> `Capture` rows, oldest first.
* `snapshot(capture)`: ``GET {base}/web/<timestamp>id_/<original>`` -> the page as captured
  (``id_``: without the Wayback toolbar), redirects to the nearest capture followed.

One `ServiceGuard` (seed limit ``whois_wayback``: 3/s, 5 at a time, its own breaker) for both;
404 -> empty / None. No key; ``base_url`` from SADIE_WAYBACK_BASE_URL (default
https://web.archive.org).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from sadie_pipeline.core.enrichment.whois import Capture, parse_cdx
from sadie_pipeline.resources.rdap_dns import GuardedHttp

BASE_URL_ENV = "SADIE_WAYBACK_BASE_URL"
DEFAULT_BASE_URL = "https://web.archive.org"
USER_AGENT = "sadie-pipeline/0.1 (+whois-history)"


class WaybackResource(GuardedHttp):
    """CDX lookups and archived pages of the Wayback Machine."""

    service: ClassVar[str] = "whois_wayback"
    default_base_url: ClassVar[str] = DEFAULT_BASE_URL
    headers: ClassVar[dict[str, str]] = {"User-Agent": USER_AGENT}

    base_url: str | None = Field(default=None, description=f"None: {DEFAULT_BASE_URL}")
    requests_per_second: float = Field(default=3.0, gt=0)
    max_concurrency: int = Field(default=5, ge=1)
    timeout_s: float = Field(default=30.0, gt=0)

    async def captures(self, url: str, status: str = "200") -> list[Capture]:
        """Captures of `url` answered with HTTP `status`, oldest first ([] when none)."""
        s = self._current()
        params: dict[str, Any] = {"url": url, "output": "json", "fl": "timestamp,original,statuscode",
                                  "filter": f"statuscode:{status}"}

        async def attempt() -> list[Capture]:
            response = await s.client.get(f"{s.base_url}/cdx/search/cdx", params=params)
            if response.status_code == 404:
                return []
            response.raise_for_status()
            return parse_cdx(response.text) if response.text.strip() else []

        return await s.guard.call(attempt, item_key=url)

    async def snapshot(self, capture: Capture) -> str | None:
        """The archived page of a capture as it was captured; None when the archive has no such page."""
        s = self._current()
        url = f"{s.base_url}/web/{capture.timestamp}id_/{capture.original}"

        async def attempt() -> str | None:
            response = await s.client.get(url)
            if response.status_code == 404:
                return None
            response.raise_for_status()
            return response.text

        return await s.guard.call(attempt, item_key=f"{capture.timestamp}/{capture.original}")

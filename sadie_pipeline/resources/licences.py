"""Government lodging licence registers: the configured registers and their files' downloads.

`LicenceRegisterResource` reads the register catalogue (``sadie_pipeline/data/licence_registers.json``
unless ``config_file`` names another) and downloads a register's files with httpx through a
`ServiceGuard` (its own rate limit and breaker: a state's server is slow and large files are few).
``base_url`` (SADIE_LICENCE_BASE_URL) points every register at one server: the configured URL's
path and query are appended to it (the sandbox); unset, the configured URLs are used as they are.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from pydantic import Field

from sadie_pipeline.core.licences import RegisterCatalog, RegistryConfig, parse_catalog
from sadie_pipeline.resources.rdap_dns import _GuardedSettings
from sadie_pipeline.resources.reliability import ServiceGuard

LICENCE_BASE_URL_ENV = "SADIE_LICENCE_BASE_URL"
LICENCE_REGISTERS_ENV = "SADIE_LICENCE_REGISTERS"
BUNDLED_REGISTERS = Path(__file__).resolve().parents[1] / "data" / "licence_registers.json"
USER_AGENT = "sadie-pipeline/0.1 (+licence registers)"


@cache
def _catalog(path: str) -> RegisterCatalog:
    return parse_catalog(Path(path).read_text())


class _Session:
    def __init__(self, guard: ServiceGuard, timeout_s: float) -> None:
        self.guard = guard
        self.client = httpx.AsyncClient(timeout=httpx.Timeout(timeout_s, connect=10.0), follow_redirects=True,
                                        max_redirects=5, trust_env=False,
                                        headers={"Accept": "text/csv, text/plain, */*", "User-Agent": USER_AGENT})


class LicenceRegisterResource(_GuardedSettings):
    """Register files over HTTP(S), guarded."""

    base_url: str | None = Field(default=None, description="None: each register's own URLs")
    config_file: str | None = Field(default=None, description=f"None: {BUNDLED_REGISTERS.name} of the package")
    requests_per_second: float = Field(default=0.5, gt=0)
    max_concurrency: int = Field(default=2, ge=1)
    timeout_s: float = Field(default=300.0, gt=0)
    max_bytes: int = Field(default=500_000_000, ge=1, description="a larger file is refused")
    refresh_after_hours: float = Field(default=24.0, ge=0,
                                       description="a file downloaded more recently is not downloaded again")

    def catalog(self) -> RegisterCatalog:
        return _catalog(str(Path(self.config_file) if self.config_file else BUNDLED_REGISTERS))

    def for_region(self, region: str) -> list[RegistryConfig]:
        return self.catalog().for_region(region)

    def resolved_url(self, url: str) -> str:
        """The URL to download: the configured one, or its path and query under base_url."""
        base = (self.base_url or "").strip().rstrip("/")
        if not base:
            return url
        parts = urlsplit(url)
        return f"{base}{parts.path}" + (f"?{parts.query}" if parts.query else "")

    def _current(self) -> _Session:
        return self._sessions.get("licences", lambda: _Session(ServiceGuard(self._policy("licences")), self.timeout_s))

    def guard(self) -> ServiceGuard:
        return self._current().guard

    async def aclose(self) -> None:
        if (s := self._sessions.pop()) is not None:
            await s.client.aclose()

    async def download(self, url: str) -> bytes:
        """The file at `url` (already resolved). Raises `ServiceCallFailed` when the guard gives up."""
        s = self._current()

        async def attempt() -> bytes:
            async with s.client.stream("GET", url) as response:
                response.raise_for_status()
                body = bytearray()
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > self.max_bytes:
                        raise ValueError(f"{url}: larger than {self.max_bytes} bytes")
                return bytes(body)

        return await s.guard.call(attempt, item_key=url)

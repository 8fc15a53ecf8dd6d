"""ABN Lookup, the Australian Business Register's JSON web services (JSONP).

`AbnLookupResource` calls ``GET {base_url}/json/MatchingNames.aspx?name=&maxResults=&guid=&callback=``
(entities and business names matching a name) and ``GET {base_url}/json/AbnDetails.aspx?abn=&guid=&callback=``
(one ABN's entity, business names, state, status) with httpx through a `ServiceGuard` (its own
policy ``abn_lookup``: 2/s x 2; the ABR publishes no limit, this stays polite). The register answers
problems with HTTP 200 and a ``Message``: an unknown GUID is an auth failure (no retry, opens the
breaker), an unknown ABN is None. The definitions set ``base_url`` from SADIE_ABR_BASE_URL
(default https://abr.business.gov.au) and ``guid`` (the authentication GUID the ABR issues on
registration) from SADIE_ABR_GUID; without a GUID the resource is not configured.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from sadie_pipeline.core.enrichment.abn import GUID_UNKNOWN, abn_valid, parse_jsonp
from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resources.rdap_dns import GuardedHttp, HttpSession
from sadie_pipeline.resources.reliability import ServiceGuard, SkipItem

BASE_URL_ENV = "SADIE_ABR_BASE_URL"
GUID_ENV = "SADIE_ABR_GUID"
DEFAULT_BASE_URL = "https://abr.business.gov.au"
USER_AGENT = "sadie-pipeline/0.1 (+abn-lookup)"
CALLBACK = "sadieAbr"


class AbnLookupError(Exception):
    """ABN Lookup answered with a Message that is not a plain "nothing found"."""

    def __init__(self, message: str, error_class: ErrorClass) -> None:
        super().__init__(message)
        self.error_class = error_class


class AbnLookupResource(GuardedHttp):
    """ABN Lookup's name search and ABN details."""

    service: ClassVar[str] = "abn_lookup"
    default_base_url: ClassVar[str] = DEFAULT_BASE_URL
    headers: ClassVar[dict[str, str]] = {"User-Agent": USER_AGENT}

    base_url: str | None = Field(default=None, description=f"None: {DEFAULT_BASE_URL}")
    guid: str | None = Field(default=None, description=f"the ABR authentication GUID ({GUID_ENV})")
    requests_per_second: float = Field(default=2.0, gt=0)
    max_concurrency: int = Field(default=2, ge=1)
    max_results: int = Field(default=10, ge=1, le=200)

    def configured(self) -> bool:
        return bool((self.guid or "").strip())

    def not_configured_message(self) -> str:
        return f"ABN Lookup not configured: set {GUID_ENV} to the GUID the ABR issued"

    def _current(self) -> HttpSession:
        base, guid = self.resolved_base_url(), (self.guid or "").strip()
        # the GUID is in every URL: the guard redacts it from errors and logs
        return self._sessions.get((base, guid), lambda: HttpSession(
            base, ServiceGuard(self._policy(self.service), secrets=[guid]), self.timeout_s, self.headers))

    async def _get(self, path: str, params: dict[str, str], item_key: str) -> dict[str, Any]:
        if not self.configured():
            raise SkipItem(self.not_configured_message())
        s = self._current()
        guid = (self.guid or "").strip()

        async def attempt() -> dict[str, Any]:
            response = await s.client.get(f"{s.base_url}/json/{path}",
                                          params={**params, "guid": guid, "callback": CALLBACK})
            response.raise_for_status()
            data = parse_jsonp(response.text)
            message = str(data.get("Message") or "")
            if message == GUID_UNKNOWN:
                raise AbnLookupError(message, ErrorClass.AUTH)
            return data

        return await s.guard.call(attempt, item_key=item_key)

    async def matching_names(self, name: str) -> list[dict[str, Any]]:
        """The register's names matching `name` (entity, business and trading names), best first."""
        data = await self._get("MatchingNames.aspx", {"name": name, "maxResults": str(self.max_results)},
                               item_key=f"name:{name}")
        names = data.get("Names") or []
        return [n for n in names if isinstance(n, dict)]

    async def details(self, abn: str) -> dict[str, Any] | None:
        """The ABN's details, or None when the register has no such ABN."""
        digits = "".join(str(abn).split())
        if not abn_valid(digits):
            raise ValueError(f"not a valid ABN: {abn!r}")
        data = await self._get("AbnDetails.aspx", {"abn": digits}, item_key=f"abn:{digits}")
        if data.get("Message") or not data.get("Abn"):
            return None
        return data

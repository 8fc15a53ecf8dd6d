"""Owner layers' lookups: RDAP (who registered a hotel's domain) and DNS (MX / TXT for the mail provider).

* `RdapResource`: ``GET {base_url}/domain/{name}`` with httpx (redirects followed: rdap.org
  sends each query on to the registry's RDAP server); 404 -> None.
* `DnsResource`: dnspython's async resolver, against ``nameserver``:``port`` when set (the
  sandbox, a company resolver) or the system's resolvers; NXDOMAIN / no answer -> [].

Both go through a `ServiceGuard` (seed limits: RDAP 2/s x 3, DNS 50/s x 20), so timeouts, 429s
and 5xx (SERVFAIL for DNS) are retried with backoff and a dead service opens the breaker.
No API keys; the definitions set ``base_url`` / ``nameserver`` from SADIE_RDAP_BASE_URL /
SADIE_DNS_NAMESERVER.
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import quote

import dns.asyncresolver
import dns.exception
import dns.nameserver
import dns.resolver
import httpx
from dagster import ConfigurableResource
from pydantic import Field, PrivateAttr

from sadie_pipeline.resources.reliability import PerLoop, ServiceGuard, ServicePolicy

RDAP_BASE_URL_ENV = "SADIE_RDAP_BASE_URL"
DNS_NAMESERVER_ENV = "SADIE_DNS_NAMESERVER"
DEFAULT_RDAP_BASE_URL = "https://rdap.org"
USER_AGENT = "sadie-pipeline/0.1 (+rdap)"



def _domain_name(name: str) -> str:
    name = name.strip().lower().rstrip(".")
    if name.startswith(("http://", "https://")):
        name = httpx.URL(name).host
    if not name or "." not in name or "/" in name or " " in name:
        raise ValueError(f"not a domain name: {name!r}")
    return name


class _GuardedSettings(ConfigurableResource):
    requests_per_second: float = Field(default=2.0, gt=0)
    max_concurrency: int = Field(default=3, ge=1)
    max_attempts: int = Field(default=3, ge=1)
    backoff_base_s: float = Field(default=0.5, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)
    backoff_jitter_s: float = Field(default=0.25, ge=0)
    timeout_s: float = Field(default=15.0, gt=0)
    failure_threshold: int = Field(default=5, ge=1)
    reset_timeout_s: float = Field(default=60.0, gt=0)
    max_retry_after_s: float = Field(default=120.0, ge=0)

    _sessions: PerLoop[Any] = PrivateAttr(default_factory=PerLoop)

    def _policy(self, name: str) -> ServicePolicy:
        return ServicePolicy(
            name=name, requests_per_second=self.requests_per_second, max_concurrency=self.max_concurrency,
            max_attempts=self.max_attempts, backoff_base_s=self.backoff_base_s, backoff_max_s=self.backoff_max_s,
            backoff_jitter_s=self.backoff_jitter_s,
            timeout_s=self.timeout_s, failure_threshold=self.failure_threshold,
            reset_timeout_s=self.reset_timeout_s, max_retry_after_s=self.max_retry_after_s,
        )

    def configured(self) -> bool:
        return True


class HttpSession:
    """One base URL's httpx client and guard, built per event loop (a resource's `PerLoop`)."""

    def __init__(self, base_url: str, guard: ServiceGuard, timeout_s: float, headers: dict[str, str]) -> None:
        self.base_url, self.guard = base_url, guard
        self.client = httpx.AsyncClient(timeout=httpx.Timeout(timeout_s, connect=10.0), follow_redirects=True,
                                        max_redirects=5, trust_env=False, headers=headers)


class GuardedHttp(_GuardedSettings):
    """A guarded HTTP service at one base URL (RDAP, crt.sh, the Wayback Machine, ABN Lookup):
    the subclass names its `service` (the guard's policy), `default_base_url` and `headers`."""

    service: ClassVar[str]
    default_base_url: ClassVar[str]
    headers: ClassVar[dict[str, str]]

    def resolved_base_url(self) -> str:
        return ((getattr(self, "base_url", None) or "").strip() or self.default_base_url).rstrip("/")

    def _current(self) -> HttpSession:
        base = self.resolved_base_url()
        return self._sessions.get(base, lambda: HttpSession(base, ServiceGuard(self._policy(self.service)),
                                                            self.timeout_s, self.headers))

    def guard(self) -> ServiceGuard:
        return self._current().guard

    async def aclose(self) -> None:
        if (s := self._sessions.pop()) is not None:
            await s.client.aclose()


class RdapResource(GuardedHttp):
    """RDAP domain lookups."""

    service: ClassVar[str] = "rdap"
    default_base_url: ClassVar[str] = DEFAULT_RDAP_BASE_URL
    headers: ClassVar[dict[str, str]] = {"Accept": "application/rdap+json, application/json", "User-Agent": USER_AGENT}
    base_url: str | None = Field(default=None, description=f"None: {DEFAULT_RDAP_BASE_URL}")

    async def domain(self, name: str) -> dict[str, Any] | None:
        """The RDAP domain object (RFC 9083) of ``name``, or None when the registry has no such
        domain (404). Raises `ServiceCallFailed` when the guard gives up."""
        domain = _domain_name(name)
        s = self._current()
        url = f"{s.base_url}/domain/{quote(domain, safe='')}"

        async def attempt() -> dict[str, Any] | None:
            response = await s.client.get(url)
            if response.status_code == 404:
                return None
            response.raise_for_status()
            data = response.json()
            if not isinstance(data, dict):
                raise ValueError("RDAP answered something other than an object")
            return data

        return await s.guard.call(attempt, item_key=domain)


class _DnsSession:
    def __init__(self, where: tuple[str | None, int], guard: ServiceGuard, timeout_s: float) -> None:
        self.guard = guard
        ip, port = where
        if ip is None:
            resolver = dns.asyncresolver.Resolver()  # the system's resolvers (/etc/resolv.conf)
        else:
            resolver = dns.asyncresolver.Resolver(configure=False)
            resolver.nameservers = [dns.nameserver.Do53Nameserver(ip, port)]
        resolver.timeout = min(timeout_s, 3.0)
        resolver.lifetime = timeout_s
        resolver.cache = None
        self.resolver = resolver


class DnsResource(_GuardedSettings):
    """DNS lookups with dnspython's async resolver."""

    nameserver: str | None = Field(default=None, description='"ip" or "ip:port"; None: the system\'s resolvers')
    port: int = Field(default=53, ge=1, le=65535)
    requests_per_second: float = Field(default=50.0, gt=0)
    max_concurrency: int = Field(default=20, ge=1)
    timeout_s: float = Field(default=5.0, gt=0)
    backoff_base_s: float = Field(default=0.2, ge=0)

    def resolved_nameserver(self) -> tuple[str | None, int]:
        value = (self.nameserver or "").strip()
        if not value:
            return None, self.port
        if value.count(":") == 1:  # ip:port (an IPv6 address has several colons)
            host, _, port = value.partition(":")
            return host, int(port)
        return value.strip("[]"), self.port

    def _current(self) -> _DnsSession:
        where = self.resolved_nameserver()
        return self._sessions.get(where, lambda: _DnsSession(where, ServiceGuard(self._policy("dns")), self.timeout_s))

    def guard(self) -> ServiceGuard:
        return self._current().guard

    async def aclose(self) -> None:
        self._sessions.pop()

    async def _resolve(self, name: str, rdtype: str) -> dns.resolver.Answer | None:
        s = self._current()
        qname = _domain_name(name)

        async def attempt() -> dns.resolver.Answer | None:
            try:
                return await s.resolver.resolve(qname, rdtype, search=False)
            except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
                return None

        return await s.guard.call(attempt, item_key=f"{qname}/{rdtype}")

    async def mx(self, domain: str) -> list[tuple[int, str]]:
        """(preference, host) pairs, lowest preference first, hosts without the final dot."""
        answer = await self._resolve(domain, "MX")
        if answer is None:
            return []
        return sorted((int(rr.preference), rr.exchange.to_text(omit_final_dot=True).lower()) for rr in answer)

    async def txt(self, domain: str) -> list[str]:
        """TXT records, each record's strings joined (SPF, verification tokens, DMARC at ``_dmarc.``)."""
        answer = await self._resolve(domain, "TXT")
        if answer is None:
            return []
        return [b"".join(rr.strings).decode("utf-8", errors="replace") for rr in answer]

    async def a(self, name: str) -> list[str]:
        """IPv4 addresses of a host name ([] when it does not resolve)."""
        answer = await self._resolve(name, "A")
        return [] if answer is None else [rr.address for rr in answer]

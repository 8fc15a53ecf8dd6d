"""crt.sh, the certificate transparency search: the certificates logged for a domain and their PEM.

`CrtShResource` asks ``GET {base_url}/?q={domain}&output=json`` (crt.sh's JSON rows) and
``GET {base_url}/?d={id}`` (one certificate, PEM) with httpx through a `ServiceGuard` (seed
limit: crt_sh 1/s x 2; crt.sh is a shared free service that answers overload with 502/503 and
timeouts, all retried with backoff). No key; the definitions set ``base_url`` from
SADIE_CRTSH_BASE_URL (default https://crt.sh).

    crtsh = CrtShResource()
    rows = await crtsh.search("hotel.com")     # [] when nothing is logged
    pem = await crtsh.certificate(rows[0]["id"])
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from sadie_pipeline.resources.rdap_dns import GuardedHttp, _domain_name

BASE_URL_ENV = "SADIE_CRTSH_BASE_URL"
DEFAULT_BASE_URL = "https://crt.sh"
USER_AGENT = "sadie-pipeline/0.1 (+certificate-transparency)"


class CrtShResource(GuardedHttp):
    """crt.sh's JSON search and certificate downloads."""

    service: ClassVar[str] = "crt_sh"
    default_base_url: ClassVar[str] = DEFAULT_BASE_URL
    headers: ClassVar[dict[str, str]] = {"User-Agent": USER_AGENT}

    base_url: str | None = Field(default=None, description=f"None: {DEFAULT_BASE_URL}")
    requests_per_second: float = Field(default=1.0, gt=0)
    max_concurrency: int = Field(default=2, ge=1)
    timeout_s: float = Field(default=30.0, gt=0)  # crt.sh's searches of large domains are slow
    max_certificates: int = Field(default=3, ge=1, description="certificates downloaded per domain")

    async def search(self, domain: str) -> list[dict[str, Any]]:
        """crt.sh's JSON rows for the certificates naming `domain` (or its subdomains)."""
        name = _domain_name(domain)
        s = self._current()

        async def attempt() -> list[dict[str, Any]]:
            response = await s.client.get(f"{s.base_url}/", params={"q": name, "output": "json"})
            response.raise_for_status()
            data = response.json() if response.content.strip() else []
            if not isinstance(data, list):
                raise ValueError("crt.sh answered something other than a JSON list")
            return data

        return await s.guard.call(attempt, item_key=name)

    async def certificate(self, cert_id: int) -> str | None:
        """The PEM text of crt.sh certificate `cert_id` (None: crt.sh does not have it)."""
        s = self._current()

        async def attempt() -> str | None:
            response = await s.client.get(f"{s.base_url}/", params={"d": str(int(cert_id))})
            if response.status_code == 404:
                return None
            response.raise_for_status()
            text = response.text
            if "-----BEGIN CERTIFICATE-----" not in text:
                raise ValueError(f"crt.sh certificate {cert_id} is not PEM")
            return text

        return await s.guard.call(attempt, item_key=f"crt.sh:{cert_id}")

"""WHOIS over its own protocol (RFC 3912, TCP port 43) with asyncio streams.

`WhoisResource.lookup(domain)` sends ``<domain>\\r\\n`` to the first server, reads to EOF, and
follows the referral each answer names (IANA's ``refer:``, a registry's ``Registrar WHOIS
Server:``) to the next server, at most `max_referrals` times and never to a server already
asked, then merges the answers (`core.enrichment.whois.merge_records`): the registry's registrar
and dates, the registrar's registrant. ``None`` when the first server has no such domain.

Where servers are reached:

* ``server`` (SADIE_WHOIS_SERVER, ``host[:port]``): the first server asked. Default
  ``whois.iana.org``, which refers each TLD to its registry (e.g. ``whois.verisign-grs.com``).
* ``referrals`` (SADIE_WHOIS_REFERRALS, ``host=ip:port,...``): where a referred host is actually
  reached. Unset in production (referred hosts are resolved by DNS, port 43); the sandbox serves
  every registrar on one local port, so it maps ``whois.godaddy.test`` and the like there.

Every query goes through the `ServiceGuard` of the server it is sent to (``whois:<host>``, by
default 1 query/s and 2 at a time per server, its own breaker): WHOIS servers throttle per
client and each registrar's server fails on its own. A refusal for asking too fast ("limit
exceeded") is rate-limited and retried after a pause; an empty answer or a dropped connection is
transient.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from sadie_pipeline.core.enrichment.whois import WhoisRecord, is_not_found, is_rate_limited, merge_records, parse_whois
from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resources.rdap_dns import _GuardedSettings
from sadie_pipeline.resources.reliability import ServiceGuard

SERVER_ENV = "SADIE_WHOIS_SERVER"
REFERRALS_ENV = "SADIE_WHOIS_REFERRALS"
DEFAULT_SERVER = "whois.iana.org"
WHOIS_PORT = 43


class WhoisRateLimited(Exception):
    """The server refused the query for asking too fast."""

    error_class = ErrorClass.RATE_LIMITED

    def __init__(self, message: str, retry_after_s: float) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s  # the guard waits this long before asking that server again


class WhoisNoAnswer(Exception):
    """The server closed the connection without answering."""

    error_class = ErrorClass.TRANSIENT


@dataclass(frozen=True)
class WhoisAnswer:
    """A domain's WHOIS: each server asked and its text, in order, and the merged record."""

    domain: str
    answers: tuple[tuple[str, str], ...]
    record: WhoisRecord

    @property
    def server(self) -> str:
        """The server whose answer is final (the registrar's, when the registry referred)."""
        return self.answers[-1][0]


def _domain(name: str) -> str:
    name = name.strip().lower().rstrip(".")
    if "://" in name:
        name = name.split("://", 1)[1].split("/", 1)[0]
    if not name or "." not in name or any(c in name for c in " /@\r\n"):
        raise ValueError(f"not a domain name: {name!r}")
    return name.encode("idna").decode("ascii")


def _address(value: str, default_port: int = WHOIS_PORT) -> tuple[str, int]:
    value = value.strip()
    host, sep, port = value.rpartition(":")
    if sep and port.isdigit() and ":" not in host.strip("[]"):
        return host.strip("[]"), int(port)
    return value.strip("[]"), default_port


def parse_referrals(value: str | None) -> dict[str, str]:
    """``"whois.a.test=127.0.0.1:4343, whois.b.test=10.0.0.2"`` -> {host: "ip[:port]"}."""
    out = {}
    for item in (value or "").split(","):
        host, sep, where = item.partition("=")
        if sep and host.strip() and where.strip():
            out[host.strip().lower().rstrip(".")] = where.strip()
    return out


class _WhoisSession:
    def __init__(self, build_guard: Any) -> None:
        self.build_guard = build_guard
        self.guards: dict[str, ServiceGuard] = {}

    def guard(self, server: str) -> ServiceGuard:
        if server not in self.guards:
            self.guards[server] = self.build_guard(server)
        return self.guards[server]


class WhoisResource(_GuardedSettings):
    """WHOIS lookups over TCP port 43, referrals followed."""

    server: str | None = Field(default=None, description=f'"host[:port]"; None: {DEFAULT_SERVER}')
    referrals: str | None = Field(default=None, description='"host=ip:port,...": where referred hosts are reached')
    max_referrals: int = Field(default=2, ge=0)
    requests_per_second: float = Field(default=1.0, gt=0, description="per WHOIS server")
    max_concurrency: int = Field(default=2, ge=1, description="per WHOIS server")
    timeout_s: float = Field(default=15.0, gt=0)
    max_answer_bytes: int = Field(default=1_000_000, ge=1024)
    rate_limited_pause_s: float = Field(default=5.0, ge=0, description="wait after a 'limit exceeded' answer")

    def resolved_server(self) -> str:
        return (self.server or "").strip() or DEFAULT_SERVER

    def referral_map(self) -> Mapping[str, str]:
        return parse_referrals(self.referrals)

    def _current(self) -> _WhoisSession:
        settings = (self.resolved_server(), self.referrals)
        return self._sessions.get(settings, lambda: _WhoisSession(lambda s: ServiceGuard(self._policy(f"whois:{s}"))))

    def guards(self) -> dict[str, ServiceGuard]:
        """This loop's guard of each server asked so far (for metadata)."""
        return dict(self._current().guards)

    async def aclose(self) -> None:
        self._sessions.pop()

    async def query(self, server: str, domain: str) -> str:
        """One query to one server (its text, not interpreted), through that server's guard."""
        host, port = _address(self.referral_map().get(server.lower(), server))

        async def attempt() -> str:
            reader, writer = await asyncio.open_connection(host, port)
            try:
                writer.write(f"{domain}\r\n".encode("ascii"))
                await writer.drain()
                data = bytearray()
                while chunk := await reader.read(65536):
                    data += chunk
                    if len(data) > self.max_answer_bytes:
                        break
            finally:
                writer.close()
                with contextlib.suppress(Exception):
                    await writer.wait_closed()
            text = data.decode("utf-8", errors="replace")
            if not text.strip():
                raise WhoisNoAnswer(f"{server} closed the connection without an answer")
            if is_rate_limited(text):
                raise WhoisRateLimited(f"{server}: {text.strip()[:200]}", self.rate_limited_pause_s)
            return text

        return await self._current().guard(server).call(attempt, item_key=f"{server}/{domain}")

    async def lookup(self, name: str) -> WhoisAnswer | None:
        """The domain's WHOIS, referrals followed; None when the first server has no such domain.
        Raises `ServiceCallFailed` when a server's guard gives up."""
        domain = _domain(name)
        server = self.resolved_server()
        answers: list[tuple[str, str]] = []
        records: list[WhoisRecord] = []
        while True:
            text = await self.query(server, domain)
            if is_not_found(text):
                if not answers:
                    return None
                break  # the referred server does not know it: the answers so far stand
            answers.append((server, text))
            records.append(parse_whois(text))
            nxt = records[-1].referral
            asked = {s.lower() for s, _ in answers}
            if not nxt or nxt in asked or len(answers) > self.max_referrals:
                break
            server = nxt
        return WhoisAnswer(domain, tuple(answers), merge_records(records))

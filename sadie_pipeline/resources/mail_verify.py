"""Mailbox checks: SMTP ``RCPT TO`` against the domain's MX, or Microsoft's account-existence
call for domains on Exchange Online (``LAYER_EMAIL_VERIFY``; decisions in
`core/enrichment/mailbox.py`).

SMTP, one connection per domain for all its candidates: ``EHLO`` with the configured name
(``SADIE_SMTP_HELO``), ``MAIL FROM`` the configured sender (``SADIE_SMTP_FROM``), ``RCPT TO`` a
random local part first (catch-all detection), then each candidate, ``QUIT`` always; no DATA
is ever sent. A 4xx (greylisting) is asked again in a new session after ``greylist_wait_s``,
only for the addresses still open, within ``retry_budget_s``. Each MX host has its own
`ServiceGuard` (rate limit, breaker): port 25 closed or silent ends in ``unknown``. MX hosts are
resolved with ``nameserver`` (``SADIE_DNS_NAMESERVER``; unset: the system's resolvers) and
reached on ``port`` (``SADIE_SMTP_PORT``, 25).

Microsoft 365: ``POST {o365_base_url}/common/GetCredentialType`` ``{"Username": email}``
(``SADIE_O365_BASE_URL``, https://login.microsoftonline.com) with a limiter of its own.

Off unless ``verify`` (``SADIE_SMTP_VERIFY``) is on: many networks block outbound port 25, and
the sending host's reputation is at stake; the sandbox turns it on.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosmtplib
import dns.asyncresolver
import dns.exception
import dns.nameserver
import httpx
from dagster import ConfigurableResource
from pydantic import Field, PrivateAttr

from sadie_pipeline.core.enrichment.mailbox import (
    MailboxCheck,
    MailboxStatus,
    RcptOutcome,
    domain_statuses,
    is_microsoft_mx,
    o365_status,
    rcpt_outcome,
)
from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resources.reliability import PerLoop, ServiceCallFailed, ServiceGuard, ServicePolicy

SMTP_VERIFY_ENV = "SADIE_SMTP_VERIFY"
SMTP_PORT_ENV = "SADIE_SMTP_PORT"
SMTP_HELO_ENV = "SADIE_SMTP_HELO"
SMTP_FROM_ENV = "SADIE_SMTP_FROM"
O365_BASE_URL_ENV = "SADIE_O365_BASE_URL"
DNS_NAMESERVER_ENV = "SADIE_DNS_NAMESERVER"
DEFAULT_O365_BASE_URL = "https://login.microsoftonline.com"
_ON = {"1", "on", "true", "yes"}


class TryLater(Exception):
    """Some recipients got a 4xx: ask again in a new session (greylisting is not a failure of
    the host, so it neither trips the breaker nor counts as transient)."""

    error_class = ErrorClass.RATE_LIMITED

    def __init__(self, wait_s: float, open_count: int) -> None:
        super().__init__(f"{open_count} recipient(s) answered 4xx (greylisting?)")
        self.retry_after_s = wait_s


@dataclass
class _DomainState:
    """What one domain's sessions have learned so far (kept across the guard's retries)."""

    probe: str
    candidates: list[str]
    replies: dict[str, tuple[int, str]] = field(default_factory=dict)
    failure: str | None = None

    def open(self) -> list[str]:
        """Addresses still to ask: never answered, or answered 4xx."""
        return [a for a in (self.probe, *self.candidates)
                if a not in self.replies or rcpt_outcome(self.replies[a][0]) is RcptOutcome.TEMPORARY]


class _Session:
    def __init__(self, resource: MailVerifierResource) -> None:
        self.resource = resource
        self.hosts: dict[str, ServiceGuard] = {}
        self.o365 = ServiceGuard(resource.policy("o365", resource.o365_requests_per_second,
                                                 resource.o365_max_concurrency))
        self.http = httpx.AsyncClient(timeout=httpx.Timeout(resource.timeout_s), trust_env=False,
                                      headers={"User-Agent": "sadie-pipeline/0.1 (+mailbox check)"})
        where = resource.resolved_nameserver()
        resolver = dns.asyncresolver.Resolver(configure=where is None)
        if where is not None:
            resolver.nameservers = [dns.nameserver.Do53Nameserver(*where)]
        resolver.lifetime = resource.timeout_s
        self.resolver = resolver

    def guard(self, host: str) -> ServiceGuard:
        r = self.resource
        if host not in self.hosts:  # one limiter and breaker per MX host: a busy host slows only itself
            self.hosts[host] = ServiceGuard(r.policy(f"smtp:{host}", r.per_host_requests_per_second,
                                                     r.per_host_max_concurrency))
        return self.hosts[host]


class MailVerifierResource(ConfigurableResource):
    """SMTP and Microsoft 365 mailbox checks (see the module)."""

    verify: str | None = Field(default=None, description="on / off (default off in production)")
    port: str | None = Field(default=None, description="the MX port; None: 25")
    helo_name: str | None = Field(default=None, description="EHLO name: a name this host answers to")
    mail_from: str | None = Field(default=None, description="MAIL FROM address; None: postmaster@<helo name>")
    o365_base_url: str | None = Field(default=None, description=f"None: {DEFAULT_O365_BASE_URL}")
    nameserver: str | None = Field(default=None, description='"ip" or "ip:port" for MX host addresses')
    per_host_requests_per_second: float = Field(default=0.5, gt=0, description="SMTP sessions per MX host")
    per_host_max_concurrency: int = Field(default=2, ge=1)
    o365_requests_per_second: float = Field(default=2.0, gt=0)
    o365_max_concurrency: int = Field(default=2, ge=1)
    max_concurrency: int = Field(default=8, ge=1, description="hotels checked at once")
    max_attempts: int = Field(default=3, ge=1, description="sessions per domain (greylisting retries)")
    greylist_wait_s: float = Field(default=30.0, ge=0, description="wait before asking a 4xx again")
    retry_budget_s: float = Field(default=120.0, gt=0, description="no retry starts later than this")
    timeout_s: float = Field(default=15.0, gt=0, description="per SMTP command / HTTP call")
    failure_threshold: int = Field(default=5, ge=1)
    reset_timeout_s: float = Field(default=120.0, gt=0)

    _sessions: PerLoop[_Session] = PrivateAttr(default_factory=PerLoop)

    def enabled(self) -> bool:
        return (self.verify or "").strip().lower() in _ON

    def resolved_port(self) -> int:
        return int((self.port or "").strip() or 25)

    def resolved_helo(self) -> str:
        import socket

        return (self.helo_name or "").strip() or socket.getfqdn()

    def resolved_from(self) -> str:
        return (self.mail_from or "").strip() or f"postmaster@{self.resolved_helo()}"

    def resolved_o365_base_url(self) -> str:
        return ((self.o365_base_url or "").strip() or DEFAULT_O365_BASE_URL).rstrip("/")

    def resolved_nameserver(self) -> tuple[str, int] | None:
        value = (self.nameserver or "").strip()
        if not value:
            return None
        host, _, port = value.rpartition(":") if value.count(":") == 1 else (value, "", "53")
        return host.strip("[]"), int(port or 53)

    def policy(self, name: str, rate: float, concurrency: int) -> ServicePolicy:
        return ServicePolicy(name=name, requests_per_second=rate, max_concurrency=concurrency,
                             max_attempts=self.max_attempts, backoff_base_s=0.5, backoff_max_s=10.0,
                             timeout_s=None, failure_threshold=self.failure_threshold,
                             reset_timeout_s=self.reset_timeout_s,
                             max_retry_after_s=max(self.greylist_wait_s, 1.0))

    def _current(self) -> _Session:
        settings = (self.resolved_nameserver(), self.resolved_o365_base_url(), self.timeout_s)
        return self._sessions.get(settings, lambda: _Session(self))

    def guards(self) -> list[ServiceGuard]:
        s = self._current()
        return [s.o365, *s.hosts.values()]

    async def aclose(self) -> None:
        if (s := self._sessions.pop()) is not None:
            await s.http.aclose()

    async def check_domain(self, domain: str, mx_hosts: Sequence[str], emails: Sequence[str]) -> list[MailboxCheck]:
        """Each address of `emails` (all at `domain`) checked: Microsoft's call when the MX is
        Exchange Online, else one SMTP session (plus greylisting retries) with the first MX host
        that answers. Never raises for a mail server's failure: those are ``unknown``."""
        emails = list(dict.fromkeys(e.strip().lower() for e in emails))
        if not emails:
            return []
        if is_microsoft_mx(mx_hosts):
            return [await self.check_o365(e) for e in emails]
        return await self._check_smtp(domain, list(mx_hosts), emails)

    async def check_o365(self, email: str) -> MailboxCheck:
        s = self._current()
        url = f"{self.resolved_o365_base_url()}/common/GetCredentialType"

        async def attempt() -> dict[str, Any]:
            response = await s.http.post(url, json={"Username": email})
            response.raise_for_status()
            data = response.json()
            if data.get("ThrottleStatus") == 1:  # Microsoft's "slow down": the answer is not real
                raise TryLater(self.greylist_wait_s, 1)
            return data

        try:
            data = await s.o365.call(attempt, item_key=email, budget_s=self.retry_budget_s)
        except ServiceCallFailed as exc:
            return MailboxCheck(email, MailboxStatus.UNKNOWN, f"o365: {exc}"[:500])
        result = data.get("IfExistsResult")
        return MailboxCheck(email, o365_status(result if isinstance(result, int) else None),
                            f"o365 IfExistsResult={result}")

    async def _address(self, host: str) -> str | None:
        try:
            answer = await self._current().resolver.resolve(host, "A", search=False)
        except dns.exception.DNSException:
            return None
        return next((rr.address for rr in answer), None)

    async def _check_smtp(self, domain: str, mx_hosts: list[str], emails: list[str]) -> list[MailboxCheck]:
        # the same random local part across retries: a greylister must see the same pair again
        state = _DomainState(probe=f"sadie-{secrets.token_hex(6)}@{domain}", candidates=emails)
        for host in mx_hosts[:2] or [domain]:  # RFC 5321 5.1: no MX, the domain itself
            ip = await self._address(host)
            if ip is None:
                state.failure = f"{host}: no address"
                continue
            guard = self._current().guard(host)
            try:
                await guard.call(lambda ip=ip: self._session(ip, state), item_key=domain, budget_s=self.retry_budget_s)
                break
            except ServiceCallFailed as exc:
                state.failure = f"{host}:{self.resolved_port()}: {exc}"[:500]
                if state.replies:  # the host talked (4xx until the budget ran out): no other host
                    break
        probe = state.replies.get(state.probe)
        return domain_statuses(probe, state.replies, emails, state.failure)

    async def _session(self, ip: str, state: _DomainState) -> None:
        """One SMTP session for the addresses still open. A connect failure raises (the guard
        retries, the host's breaker counts it); a silence after connecting leaves the open
        addresses without an answer; 4xx answers raise `TryLater` once the session is over."""
        client = aiosmtplib.SMTP(hostname=ip, port=self.resolved_port(), local_hostname=self.resolved_helo(),
                                 timeout=self.timeout_s, start_tls=False, use_tls=False)
        await client.connect()
        try:
            await client.ehlo()
            await client.mail(self.resolved_from())
            for address in state.open():
                try:
                    reply = await client.rcpt(address)
                    state.replies[address] = (reply.code, reply.message)
                except aiosmtplib.SMTPRecipientRefused as refused:
                    state.replies[address] = (refused.code, refused.message)
        except (aiosmtplib.SMTPTimeoutError, aiosmtplib.SMTPServerDisconnected) as exc:
            state.failure = f"{ip}: {type(exc).__name__}: {exc}"[:500]
            return  # the server went quiet mid-session: asking again would only wait as long
        except (aiosmtplib.SMTPHeloError, aiosmtplib.SMTPSenderRefused) as exc:
            state.failure = f"{ip}: {exc.code} {exc.message}"[:500]  # refused us, not the mailbox
            return
        finally:
            await _quit(client)
        still_open = state.open()
        if still_open:
            raise TryLater(self.greylist_wait_s, len(still_open))


async def _quit(client: aiosmtplib.SMTP) -> None:
    """QUIT, always; a connection that is already gone is just closed."""
    try:
        if client.is_connected:
            await client.quit(timeout=2.0)
    except aiosmtplib.SMTPException:
        client.close()

"""Mailbox checks over real sockets: the verifier (`resources/mail_verify.py`) against the
sandbox's SMTP server (`sandbox/smtp_server.py`, its own instance per test so sessions and
greylisting start fresh) and its Microsoft account check, MX hosts found through the sandbox DNS."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx
import pytest

from sadie_pipeline.core.enrichment.mailbox import MailboxStatus
from sadie_pipeline.resources.mail_verify import MailVerifierResource
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline.sandbox.smtp_server import SmtpListener
from sadie_pipeline.sandbox.world import Place


def _place(sb, pick: Callable[[Place], bool]) -> Place:
    return next(p for p in sb.world.hotels if p.domain and p.mail and pick(p))


def _kind(kind: str, provider: str | None = None) -> Callable[[Place], bool]:
    return lambda p: (owner_truth(p).mail_kind == kind and p.mail != "microsoft"
                      and (provider is None or p.mail == provider))


def _verifier(sb, port: int, **overrides) -> MailVerifierResource:
    ip, dns_port = sb.nameserver
    settings = {"verify": "on", "port": str(port), "helo_name": "verify.sadie.test", "mail_from": "verify@sadie.test",
                "o365_base_url": sb.base_url("login"), "nameserver": f"{ip}:{dns_port}",
                "per_host_requests_per_second": 500, "greylist_wait_s": 0.05, "timeout_s": 1.0, "max_attempts": 3,
                **overrides}
    return MailVerifierResource(**settings)


async def _mx(sb, domain: str) -> list[str]:
    import dns.asyncresolver
    import dns.nameserver

    resolver = dns.asyncresolver.Resolver(configure=False)
    resolver.nameservers = [dns.nameserver.Do53Nameserver(*sb.nameserver)]
    answer = await resolver.resolve(domain, "MX")
    return [rr.exchange.to_text(omit_final_dot=True) for rr in sorted(answer, key=lambda r: r.preference)]


def _check(sb, domain: str, emails: list[str], **overrides) -> tuple[list, SmtpListener, float]:
    """Checks `emails` at `domain` against a fresh SMTP listener; (results, listener, seconds)."""

    async def run() -> tuple[list, SmtpListener, float]:
        listener = SmtpListener(sb.ctx)
        info = await listener.start("127.0.0.1")
        verifier = _verifier(sb, info["port"], **overrides)
        try:
            started = time.monotonic()
            results = await verifier.check_domain(domain, await _mx(sb, domain), emails)
            return results, listener, time.monotonic() - started
        finally:
            await verifier.aclose()
            await listener.stop()

    return asyncio.run(run())


def test_known_and_unknown_mailboxes_in_one_session(sb):
    place = _place(sb, _kind("normal", "google"))
    truth = owner_truth(place)
    known = sorted(truth.mailboxes)[0]
    missing = f"nobody.here@{place.domain}"
    results, listener, _ = _check(sb, place.domain, [known, missing])
    by_email = {r.email: r for r in results}
    assert by_email[known].status is MailboxStatus.VERIFIED_SMTP and by_email[known].verified
    assert by_email[known].reply.startswith("250")
    assert by_email[missing].status is MailboxStatus.REJECTED and not by_email[missing].verified
    assert by_email[missing].reply.startswith("550 5.1.1")
    sessions = [s for s in listener.sessions if place.domain in s.domains()]
    assert len(sessions) == 1, "one connection per domain for all its candidates"
    session = sessions[0]
    assert session.quit, "QUIT is always sent"
    assert session.helo == "verify.sadie.test" and session.mail_from == "verify@sadie.test"
    rcpts = [r for r, _ in session.rcpts]
    assert rcpts[0].startswith("sadie-") and rcpts[1:] == [known, missing], "random local part first"


def test_catch_all_domain_is_never_verified(sb):
    place = _place(sb, _kind("catch_all"))
    existing = sorted(owner_truth(place).mailboxes)[0]
    results, listener, _ = _check(sb, place.domain, [existing, f"made.up@{place.domain}"])
    assert {r.status for r in results} == {MailboxStatus.CATCH_ALL}
    assert not any(r.verified for r in results)
    assert all("catch-all" in r.reply for r in results)
    assert len([s for s in listener.sessions if place.domain in s.domains()]) == 1


def test_greylisting_is_retried_in_a_new_session(sb):
    place = _place(sb, _kind("greylist"))
    existing = sorted(owner_truth(place).mailboxes)[0]
    missing = f"nobody.here@{place.domain}"
    results, listener, _ = _check(sb, place.domain, [existing, missing])
    by_email = {r.email: r for r in results}
    assert by_email[existing].status is MailboxStatus.VERIFIED_SMTP
    assert by_email[missing].status is MailboxStatus.REJECTED
    sessions = [s for s in listener.sessions if place.domain in s.domains()]
    assert len(sessions) == 2 and all(s.quit for s in sessions)
    assert [code for _, code in sessions[0].rcpts] == [451, 451, 451]
    assert sorted(code for _, code in sessions[1].rcpts) == [250, 550, 550]
    assert sessions[0].rcpts[0][0] == sessions[1].rcpts[0][0], "the same probe address is asked again"


def test_greylisting_past_the_budget_is_unknown(sb):
    place = _place(sb, _kind("greylist"))
    existing = sorted(owner_truth(place).mailboxes)[0]
    results, _, _ = _check(sb, place.domain, [existing], max_attempts=1)
    assert results[0].status is MailboxStatus.UNKNOWN and results[0].reply.startswith("451 4.7.1")


def test_silent_domain_is_unknown_within_bounded_time(sb):
    place = _place(sb, _kind("silent"))
    existing = sorted(owner_truth(place).mailboxes)[0]
    results, _, seconds = _check(sb, place.domain, [existing], timeout_s=0.5)
    assert results[0].status is MailboxStatus.UNKNOWN and not results[0].verified
    assert seconds < 3.0


def test_closed_port_is_unknown(sb):
    place = _place(sb, _kind("normal", "google"))

    async def run() -> list:
        import socket

        with socket.socket() as s:  # a port nothing listens on
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        verifier = _verifier(sb, port, max_attempts=2)
        try:
            return await verifier.check_domain(place.domain, await _mx(sb, place.domain), [f"info@{place.domain}"])
        finally:
            await verifier.aclose()

    results = asyncio.run(run())
    assert results[0].status is MailboxStatus.UNKNOWN and str(results[0].reply)


def test_microsoft_domains_use_the_account_check(sb):
    place = _place(sb, lambda p: p.mail == "microsoft" and bool(owner_truth(p).mailboxes))
    existing = sorted(owner_truth(place).mailboxes)[0]
    missing = f"nobody.here@{place.domain}"
    results, listener, _ = _check(sb, place.domain, [existing, missing])
    by_email = {r.email: r for r in results}
    assert by_email[existing].status is MailboxStatus.VERIFIED_O365 and by_email[existing].verified
    assert by_email[missing].status is MailboxStatus.REJECTED
    assert not listener.sessions, "no SMTP session for an Exchange Online domain"
    # the endpoint speaks Microsoft's shape
    answer = httpx.post(f"{sb.base_url('login')}/common/GetCredentialType", json={"Username": existing}).json()
    assert answer["IfExistsResult"] == 0 and answer["ThrottleStatus"] == 0


@pytest.mark.parametrize("value,expected", [("on", True), ("1", True), ("off", False), (None, False)])
def test_verification_is_a_setting(value, expected):
    assert MailVerifierResource(verify=value).enabled() is expected

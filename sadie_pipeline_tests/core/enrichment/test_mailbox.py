"""What a mailbox check proves (`core/enrichment/mailbox.py`)."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.enrichment.mailbox import (
    MailboxStatus,
    RcptOutcome,
    domain_statuses,
    is_microsoft_mx,
    o365_status,
    rcpt_outcome,
)


@pytest.mark.parametrize("code,outcome", [
    (250, RcptOutcome.ACCEPTED), (251, RcptOutcome.ACCEPTED), (550, RcptOutcome.REJECTED),
    (551, RcptOutcome.REJECTED), (553, RcptOutcome.REJECTED), (451, RcptOutcome.TEMPORARY),
    (421, RcptOutcome.TEMPORARY), (552, RcptOutcome.INCONCLUSIVE), (554, RcptOutcome.INCONCLUSIVE)])
def test_reply_codes(code, outcome):
    assert rcpt_outcome(code) is outcome


def test_a_refused_probe_lets_250_verify_and_550_reject():
    out = domain_statuses((550, "5.1.1 unknown"), {"a@x.com": (250, "2.1.5 OK"), "b@x.com": (550, "5.1.1 no")},
                          ["a@x.com", "b@x.com", "c@x.com"], failure="timeout")
    assert [c.status for c in out] == [MailboxStatus.VERIFIED_SMTP, MailboxStatus.REJECTED, MailboxStatus.UNKNOWN]
    assert out[0].verified and not out[1].verified
    assert out[0].reply == "250 2.1.5 OK" and out[2].reply == "timeout"


def test_catch_all_domain_proves_nothing():
    out = domain_statuses((250, "OK"), {"a@x.com": (250, "OK")}, ["a@x.com"])
    assert out[0].status is MailboxStatus.CATCH_ALL and not out[0].verified


def test_an_unanswered_probe_never_verifies():
    """Without a refused random address, catch-all cannot be ruled out."""
    for probe in (None, (451, "greylisted")):
        out = domain_statuses(probe, {"a@x.com": (250, "OK")}, ["a@x.com"])
        assert out[0].status is MailboxStatus.UNKNOWN


def test_o365_results():
    assert o365_status(0) is MailboxStatus.VERIFIED_O365
    assert o365_status(6) is MailboxStatus.VERIFIED_O365
    assert o365_status(1) is MailboxStatus.REJECTED
    assert o365_status(5) is MailboxStatus.UNKNOWN  # a personal Microsoft account: not this mailbox
    assert o365_status(None) is MailboxStatus.UNKNOWN
    assert [s.value for s in MailboxStatus] == ["verified_smtp", "verified_o365", "catch_all", "rejected", "unknown"]


def test_microsoft_mx():
    assert is_microsoft_mx(["hotel-com.mail.protection.outlook.com."])
    assert not is_microsoft_mx(["aspmx.l.google.com", "outlook.com.evil.test"])

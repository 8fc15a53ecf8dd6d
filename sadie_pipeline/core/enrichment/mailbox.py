"""What a mailbox check proves (``LAYER_EMAIL_VERIFY``): SMTP reply codes and Microsoft's
account-existence answer turned into one status per address. No I/O here: the client
(`resources/mail_verify.py`) talks to the servers, this module decides.

=================  =========================================================================
status             when
=================  =========================================================================
``verified_smtp``  the domain's MX answered 250/251 to ``RCPT TO`` and refused a random address
``verified_o365``  Microsoft's GetCredentialType said the account exists (IfExistsResult 0 or 6)
``catch_all``      the MX accepted a random local part: its 250s prove nothing, never verified
``rejected``       550/551/553 to ``RCPT TO`` (or IfExistsResult 1): the mailbox does not exist
``unknown``        4xx after every retry, a timeout, port 25 closed, any other answer
=================  =========================================================================

Only the two ``verified_*`` statuses make ``email_verified`` true.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["PATTERN_GUESS", "MailboxCheck", "MailboxStatus", "RcptOutcome", "StoredEmail", "domain_statuses",
           "is_microsoft_mx", "o365_status", "rcpt_outcome", "stored_email"]


class MailboxStatus(StrEnum):
    VERIFIED_SMTP = "verified_smtp"
    VERIFIED_O365 = "verified_o365"
    CATCH_ALL = "catch_all"
    REJECTED = "rejected"
    UNKNOWN = "unknown"

    @property
    def verified(self) -> bool:
        return self in (MailboxStatus.VERIFIED_SMTP, MailboxStatus.VERIFIED_O365)


class RcptOutcome(StrEnum):
    ACCEPTED = "accepted"      # 250 / 251
    REJECTED = "rejected"      # 550 / 551 / 553: no such user
    TEMPORARY = "temporary"    # 4xx: greylisting, a busy server; worth asking again later
    INCONCLUSIVE = "inconclusive"  # other 5xx (policy blocks, 552 quota): says nothing of the mailbox


# 550 mailbox unavailable, 551 user not local, 553 mailbox name not allowed (RFC 5321 4.2.3)
_NO_SUCH_USER = frozenset({550, 551, 553})
# GetCredentialType's IfExistsResult: 0 the account exists in the tenant, 6 exists here and in
# another identity provider; 5 only elsewhere (a personal Microsoft account): not this mailbox.
_O365_EXISTS = frozenset({0, 6})
_O365_ABSENT = frozenset({1})


def rcpt_outcome(code: int) -> RcptOutcome:
    """What one ``RCPT TO`` reply code says about the recipient."""
    if code in (250, 251):
        return RcptOutcome.ACCEPTED
    if code in _NO_SUCH_USER:
        return RcptOutcome.REJECTED
    if 400 <= code < 500:
        return RcptOutcome.TEMPORARY
    return RcptOutcome.INCONCLUSIVE


@dataclass(frozen=True)
class MailboxCheck:
    """One address's outcome with the evidence (the server's reply, or Microsoft's answer)."""

    email: str
    status: MailboxStatus
    reply: str

    @property
    def verified(self) -> bool:
        return self.status.verified


def _status(code: int | None, catch_all: bool) -> MailboxStatus:
    outcome = rcpt_outcome(code) if code is not None else RcptOutcome.INCONCLUSIVE
    if outcome is RcptOutcome.REJECTED:
        return MailboxStatus.REJECTED
    if catch_all:  # a server that takes everything cannot vouch for one address
        return MailboxStatus.CATCH_ALL
    if outcome is RcptOutcome.ACCEPTED:
        return MailboxStatus.VERIFIED_SMTP
    return MailboxStatus.UNKNOWN


def domain_statuses(probe: tuple[int, str] | None, replies: dict[str, tuple[int, str]],
                    candidates: Iterable[str], failure: str | None = None) -> list[MailboxCheck]:
    """Each candidate's status from one domain's SMTP session(s). `probe` is the reply to the
    random local part (None: never answered); `replies` maps an address to its last (code,
    text); `failure` says why addresses without a reply have none (timeout, port closed). A
    candidate is verified only when the probe was refused: an unknown probe proves nothing."""
    probe_code = probe[0] if probe else None
    catch_all = probe_code is not None and rcpt_outcome(probe_code) is RcptOutcome.ACCEPTED
    probe_refused = probe_code is not None and rcpt_outcome(probe_code) is RcptOutcome.REJECTED
    out = []
    for email in candidates:
        if email not in replies:
            out.append(MailboxCheck(email, MailboxStatus.UNKNOWN, failure or "no answer"))
            continue
        code, text = replies[email]
        status = _status(code, catch_all)
        if status is MailboxStatus.VERIFIED_SMTP and not probe_refused:
            status = MailboxStatus.UNKNOWN  # the random address got a 4xx or nothing: cannot rule catch-all out
        reply = f"{code} {text}".strip()
        if catch_all and probe:
            reply = f"{reply} (catch-all: a random address got {probe[0]})"
        out.append(MailboxCheck(email, status, reply))
    return out


def o365_status(if_exists_result: int | None) -> MailboxStatus:
    """Microsoft's account-existence answer (GetCredentialType's IfExistsResult) as a status."""
    if if_exists_result in _O365_EXISTS:
        return MailboxStatus.VERIFIED_O365
    if if_exists_result in _O365_ABSENT:
        return MailboxStatus.REJECTED
    return MailboxStatus.UNKNOWN


def is_microsoft_mx(mx_hosts: Iterable[str]) -> bool:
    """True when the domain's mail goes to Exchange Online (``*.mail.protection.outlook.com``)."""
    return any(h.lower().rstrip(".").endswith(".mail.protection.outlook.com") for h in mx_hosts)


PATTERN_GUESS = "pattern_guess"


@dataclass(frozen=True)
class StoredEmail:
    """What the verification layer writes for one decision maker's address."""

    email: str | None
    status: str
    verified: bool
    reply: str | None
    checked: bool


def stored_email(email: str, precheck: str, guessed: bool, check: MailboxCheck | None) -> StoredEmail:
    """The row's address and status after the checks. `precheck` is the syntax / MX status
    (`email_verify.verify_email`, or ``pattern_guess``). A found address takes the check's status;
    a guess that verifies becomes a verified address (no longer a guess), a rejected guess is
    removed (status ``rejected``, the reply naming it), any other guess stays ``pattern_guess``."""
    if check is None:
        return StoredEmail(email, precheck, False, None, False)
    if not guessed:
        return StoredEmail(email, check.status.value, check.verified, check.reply, True)
    if check.verified:
        return StoredEmail(email, check.status.value, True, check.reply, True)
    if check.status is MailboxStatus.REJECTED:
        return StoredEmail(None, MailboxStatus.REJECTED.value, False, f"{email}: {check.reply}", True)
    return StoredEmail(email, PATTERN_GUESS, False, f"{check.status.value}: {check.reply}", True)

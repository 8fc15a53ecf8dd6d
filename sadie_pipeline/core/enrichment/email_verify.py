"""E-mail verification without SMTP (``LAYER_EMAIL_VERIFY``; it runs after the website contacts
and DNS layers, see ``layers.DEPENDENCIES``).

Nothing here talks to a mail server, so nothing here sets ``email_verified``: the statuses say
how far an address can be trusted from what the earlier layers saw.

``verify_email(email, mx_hosts, full_name=None, known=())``, in order:

==================  ==========  ==================================================================
status              confidence  when
==================  ==========  ==================================================================
``invalid_syntax``  0.00        not an address (RFC 5321 lengths, dots, labels, TLD)
``no_mx``           0.05        the domain has no MX (or a null MX, RFC 7505): mail bounces
``role_account``    0.50        a generic mailbox (``info@``, ``reservations@`` ...): deliverable,
                                nobody in particular
``valid_domain``    0.60        deliverable domain, personal mailbox; +0.10 when it follows the
                                domain's known pattern for `full_name`, +0.05 when it spells the
                                name in some other way; disposable domains 0.10
==================  ==========  ==================================================================

``guess_email(full_name, domain, mx_hosts, known)`` builds an address from the domain's pattern,
learned from ``known`` addresses at that domain whose owners' names are known (``first.last``,
``flast``, ``first``, ``firstlast``, ``first_last``, ``f.last``, ``firstl``, ``last``,
``lastf``, ``last.first``): status ``pattern_guess``, confidence 0.20 + 0.10 per address supporting
the pattern (at most 0.50), minus 0.10 when other patterns are also seen; ``no_mx`` when the domain
cannot receive mail. Without a learned pattern it guesses only when given ``default_pattern``
(confidence 0.15).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz

from .dns_email import mx_hosts as _mx_hosts
from .dns_email import provider_from_mx
from .emails_phones import is_generic_mailbox
from .names import split_name

__all__ = [
    "DISPOSABLE_DOMAINS",
    "FREE_MAIL_DOMAINS",
    "PATTERNS",
    "STATUSES",
    "EmailVerification",
    "PatternMatch",
    "detect_pattern",
    "email_for_pattern",
    "guess_email",
    "patterns_of",
    "verify_email",
]

STATUSES = ("valid_domain", "no_mx", "invalid_syntax", "role_account", "pattern_guess")

FREE_MAIL_DOMAINS = frozenset("""
gmail.com googlemail.com yahoo.com yahoo.ca yahoo.co.uk ymail.com rocketmail.com hotmail.com hotmail.ca
hotmail.co.uk outlook.com live.com live.ca msn.com aol.com icloud.com me.com mac.com protonmail.com proton.me
pm.me gmx.com gmx.net mail.com zoho.com zohomail.com yandex.com yandex.ru fastmail.com hey.com tutanota.com
comcast.net att.net sbcglobal.net bellsouth.net verizon.net cox.net charter.net spectrum.net earthlink.net
optonline.net frontier.com windstream.net centurylink.net juno.com netzero.net shaw.ca rogers.com sympatico.ca
bell.net telus.net videotron.ca cogeco.ca eastlink.ca nb.sympatico.ca live.co.uk btinternet.com
""".split())
DISPOSABLE_DOMAINS = frozenset("""
mailinator.com guerrillamail.com guerrillamail.net sharklasers.com grr.la 10minutemail.com 10minutemail.net
tempmail.com temp-mail.org tempmail.net throwawaymail.com yopmail.com yopmail.net trashmail.com trashmail.net
getnada.com nada.email dispostable.com maildrop.cc mintemail.com mohmal.com emailondeck.com fakeinbox.com
mailnesia.com spamgourmet.com mytemp.email tempr.email discard.email burnermail.io inboxkitten.com
""".split())

#: pattern name -> builder(first, last); names are lower-case ASCII letters (``names.split_name``).
PATTERNS: dict[str, Any] = {
    "first.last": lambda f, s: f"{f}.{s}" if s else None,
    "flast": lambda f, s: f"{f[0]}{s}" if s else None,
    "first": lambda f, s: f,
    "firstlast": lambda f, s: f"{f}{s}" if s else None,
    "first_last": lambda f, s: f"{f}_{s}" if s else None,
    "first-last": lambda f, s: f"{f}-{s}" if s else None,
    "f.last": lambda f, s: f"{f[0]}.{s}" if s else None,
    "firstl": lambda f, s: f"{f}{s[0]}" if s else None,
    "last": lambda f, s: s or None,
    "lastf": lambda f, s: f"{s}{f[0]}" if s else None,
    "last.first": lambda f, s: f"{s}.{f}" if s else None,
}

_LOCAL = re.compile(r"^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
_LABEL = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")
_TYPO_TARGETS = ("gmail.com", "yahoo.com", "hotmail.com", "outlook.com", "aol.com", "icloud.com", "comcast.net")


@dataclass(frozen=True)
class EmailVerification:
    email: str
    status: str
    confidence: float
    is_free: bool = False
    is_disposable: bool = False
    is_role: bool = False
    has_mx: bool | None = None
    provider: str | None = None
    pattern: str | None = None
    reasons: tuple[str, ...] = field(default=())
    verified: bool = False  # only an SMTP / O365 check may say True; none happens here

    def as_row(self) -> dict[str, Any]:
        return {
            "email": self.email,
            "email_status": self.status,
            "email_confidence": self.confidence,
            "email_verified": self.verified,
            "email_is_free": self.is_free,
            "email_is_disposable": self.is_disposable,
            "email_is_role": self.is_role,
            "email_pattern": self.pattern,
        }


@dataclass(frozen=True)
class PatternMatch:
    pattern: str
    support: int  # known addresses following it
    total: int  # known addresses of named people at the domain
    rivals: int  # known addresses following only other patterns


def _syntax(email: str | None) -> tuple[str, str, str] | None:
    """(address, local, domain) normalised, or None when it is not a valid address."""
    if not email or not isinstance(email, str):
        return None
    address = email.strip().lower().removeprefix("mailto:")
    if address.count("@") != 1 or len(address) > 254:
        return None
    local, domain = address.split("@")
    domain = domain.rstrip(".")
    if not local or len(local) > 64 or not _LOCAL.match(local):
        return None
    if len(domain) > 253 or "." not in domain:
        return None
    labels = domain.split(".")
    if not all(_LABEL.match(label) for label in labels) or not re.fullmatch(r"[a-z]{2,24}|xn--[a-z0-9-]+", labels[-1]):
        return None
    return f"{local}@{domain}", local, domain


def patterns_of(local: str, full_name: str | None) -> list[str]:
    """The patterns `local` follows for `full_name` (several when the name is short)."""
    first, last = split_name(full_name)
    if not first:
        return []
    local = local.lower()
    return [name for name, build in PATTERNS.items() if build(first, last) == local]


def email_for_pattern(full_name: str | None, domain: str, pattern: str) -> str | None:
    """The address `pattern` gives for `full_name` at `domain`, or None (no surname for a pattern
    that needs one, unknown pattern)."""
    first, last = split_name(full_name)
    build = PATTERNS.get(pattern)
    if not first or build is None:
        return None
    local = build(first, last)
    return f"{local}@{domain.lower()}" if local else None


def detect_pattern(known: Iterable[tuple[str, str | None] | str], domain: str) -> PatternMatch | None:
    """The address pattern of `domain` learned from `known` addresses: ``(email, full_name)``
    pairs (or bare addresses, which count only when they look like ``first.last``). Generic
    mailboxes and other domains are ignored. Ties go to the earlier pattern of ``PATTERNS``."""
    domain = domain.lower().removeprefix("www.")
    votes: Counter[str] = Counter()
    total = 0
    per_address: list[set[str]] = []
    for item in known or ():
        email, name = (item, None) if isinstance(item, str) else (item[0], item[1])
        parsed = _syntax(email)
        if not parsed or parsed[2] != domain or is_generic_mailbox(parsed[0]):
            continue
        local = parsed[1]
        if name:
            pats = set(patterns_of(local, name))
            total += 1
        elif re.fullmatch(r"[a-z]{2,}\.[a-z]{2,}", local):
            pats = {"first.last"}
            total += 1
        else:
            continue
        per_address.append(pats)
        votes.update(pats)
    if not votes:
        return None
    order = list(PATTERNS)
    best = max(votes, key=lambda p: (votes[p], -order.index(p)))
    rivals = sum(1 for pats in per_address if pats and best not in pats)
    return PatternMatch(best, votes[best], total, rivals)


def _typo(domain: str) -> str | None:
    if domain in FREE_MAIL_DOMAINS:
        return None
    for target in _TYPO_TARGETS:
        if domain != target and fuzz.ratio(domain, target) >= 85:
            return target
    return None


def _mx(mx_hosts: Sequence[str] | None, domain: str) -> list[str] | None:
    if mx_hosts is None:
        if domain in FREE_MAIL_DOMAINS:
            return None  # the big providers receive mail; no lookup needed
        raise ValueError(f"MX hosts of {domain} are needed (run the DNS layer first)")
    return _mx_hosts(mx_hosts)


def verify_email(email: str | None, mx_hosts: Sequence[str] | None, *, full_name: str | None = None,
                 known: Iterable[tuple[str, str | None] | str] = ()) -> EmailVerification:
    """How far `email` can be trusted without SMTP (see the module's table). `mx_hosts` are the
    MX records of the address's domain (``[]`` when it has none); None is accepted only for
    free-mail domains. `full_name` and `known` (other addresses at the domain with their owners'
    names) check the address against the domain's pattern."""
    parsed = _syntax(email)
    if parsed is None:
        return EmailVerification(email=(email or "").strip(), status="invalid_syntax", confidence=0.0,
                                 reasons=("invalid_syntax",))
    address, local, domain = parsed
    is_free = domain in FREE_MAIL_DOMAINS
    is_disposable = domain in DISPOSABLE_DOMAINS
    is_role = is_generic_mailbox(address)
    reasons: list[str] = []
    typo = _typo(domain)
    if typo:
        reasons.append(f"possible_typo_of:{typo}")
    hosts = _mx(mx_hosts, domain)
    has_mx = True if hosts is None else bool(hosts)
    provider = provider_from_mx(hosts, domain) if hosts else None
    common = {"is_free": is_free, "is_disposable": is_disposable, "is_role": is_role, "has_mx": has_mx,
              "provider": provider}
    if is_disposable:
        reasons.append("disposable")
    if is_free:
        reasons.append("free_mail")
    if not has_mx:
        return EmailVerification(address, "no_mx", 0.05, **common, reasons=(*reasons, "no_mx"))
    if is_role:
        return EmailVerification(address, "role_account", 0.1 if is_disposable else 0.5, **common,
                                 reasons=(*reasons, "role_account"))
    conf = 0.6
    pattern = None
    if full_name:
        own = patterns_of(local, full_name)
        learned = detect_pattern(known, domain) if not is_free else None
        if learned and learned.pattern in own:
            pattern = learned.pattern
            conf += 0.1
            reasons.append("matches_domain_pattern")
        elif own:
            pattern = own[0]
            conf += 0.05
            reasons.append("spells_name")
    if is_disposable:
        conf = 0.1
    return EmailVerification(address, "valid_domain", round(conf, 2), **common, pattern=pattern,
                             reasons=tuple(reasons))


def guess_email(full_name: str | None, domain: str, mx_hosts: Sequence[str] | None,
                known: Iterable[tuple[str, str | None] | str] = (), *, default_pattern: str | None = None
                ) -> EmailVerification | None:
    """A pattern-built address for a person without one (see the module's table), or None when
    there is no pattern to follow or the name does not fit it (first name only with a
    ``first.last`` domain). Never guesses at free-mail or disposable domains."""
    domain = domain.lower().strip().removeprefix("www.")
    if domain in FREE_MAIL_DOMAINS or domain in DISPOSABLE_DOMAINS:
        return None
    known = list(known or ())
    learned = detect_pattern(known, domain)
    if learned:
        pattern = learned.pattern
        conf = min(0.5, 0.2 + 0.1 * learned.support) - (0.1 if learned.rivals else 0.0)
    elif default_pattern:
        if default_pattern not in PATTERNS:
            raise ValueError(f"unknown pattern {default_pattern!r}")
        pattern, conf = default_pattern, 0.15
    else:
        return None
    address = email_for_pattern(full_name, domain, pattern)
    if address is None or _syntax(address) is None:
        return None
    known_addresses = {(k if isinstance(k, str) else k[0]).strip().lower() for k in known}
    if address in known_addresses:  # not a guess: it is on record
        return verify_email(address, mx_hosts, full_name=full_name, known=known)
    hosts = _mx(mx_hosts, domain)
    has_mx = True if hosts is None else bool(hosts)
    provider = provider_from_mx(hosts, domain) if hosts else None
    if not has_mx:
        return EmailVerification(address, "no_mx", 0.05, has_mx=False, pattern=pattern, reasons=("no_mx",))
    reasons = ("learned_pattern",) if learned else ("default_pattern",)
    return EmailVerification(address, "pattern_guess", round(max(0.05, conf), 2), has_mx=True, provider=provider,
                             pattern=pattern, reasons=reasons)

"""WHOIS answers (RFC 3912, port 43) and archived WHOIS pages, for the owner layers ``LAYER_WHOIS``
and ``LAYER_WHOIS_HISTORY``. Pure: no sockets, no HTTP.

* `parse_whois(text)` reads a registry's thin record or a registrar's thick one into `WhoisRecord`:
  the referral to follow (``Registrar WHOIS Server:``, IANA's ``refer:``, ARIN-style
  ``ReferralServer: whois://host``), registrar, registrant name / organisation / e-mail, dates,
  name servers, and whether the registrant is privacy-masked ("REDACTED FOR PRIVACY", Domains By
  Proxy, Withheld for Privacy, "Registration Private", a web-form address instead of an e-mail).
* `is_not_found` / `is_rate_limited`: the free-text answers servers give for an unknown domain
  ("No match for") and for a client asking too fast.
* `parse_cdx(json)`: the Wayback Machine's CDX API rows (first row: the field names).
* `whois_text_from_html(html)`: the WHOIS text of an archived lookup page (its ``<pre>``).
* `newest_unmasked(snapshots)`: the newest archived record that names its registrant.
* `registrant_belongs(...)`: False for a registrant that is evidently someone else's (a web
  agency that registered the domain for the hotel): owner precision counts.
"""

from __future__ import annotations

import html as html_lib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from html.parser import HTMLParser
from typing import Any

from .email_verify import FREE_MAIL_DOMAINS
from .rdap import is_privacy_value

__all__ = ["Capture", "WhoisRecord", "is_not_found", "is_rate_limited", "merge_records", "newest_unmasked",
           "parse_cdx", "parse_whois", "registrant_belongs", "whois_text_from_html"]

# "key: value" lines; keys are matched case-insensitively after collapsing spaces.
_LINE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9 /_.()-]{1,60}?)\s*:\s?(.*?)\s*$")
_NOT_FOUND = re.compile(
    r"^[\s%#]*(?:no match for|not found|no data found|no entries found|domain not found|no object found|"
    r"the queried object does not exist|status:\s*(?:free|available)\b)|is available for registration|"
    r"no matching objects found", re.IGNORECASE | re.MULTILINE)
_RATE_LIMITED = re.compile(
    r"limit exceeded|exceeded the (?:query|request) limit|too many (?:requests|queries|connections)|"
    r"please (?:slow down|try again later)|number of allowed queries|query rate", re.IGNORECASE)
# Registrant values that hide the owner, beyond what RDAP's privacy test knows.
_MASK = re.compile(r"registration private|select contact domain holder|tieredaccess|rdds service|"
                   r"contact privacy|whois privacy|private registrant|^private$", re.IGNORECASE)
_EMAIL = re.compile(r"^[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$")
_LEGAL = re.compile(r"\b(?:llc|l\.l\.c|inc|incorporated|ltd|limited|corp|corporation|co|company|lp|llp|plc|"
                    r"pty|gmbh|the)\b\.?", re.IGNORECASE)
_REFERRAL_KEYS = ("registrar whois server", "whois server", "refer", "referralserver", "whois")
_CREATED_KEYS = ("creation date", "created", "created on", "registered on", "domain registration date",
                 "registration time")
_UPDATED_KEYS = ("updated date", "last updated", "changed", "last modified", "updated")
_EXPIRES_KEYS = ("registry expiry date", "registrar registration expiration date", "expiration date",
                 "expiry date", "paid-till", "expires on", "expire date")


@dataclass(frozen=True)
class WhoisRecord:
    """One WHOIS answer; empty fields are None. `privacy`: the registrant is masked."""

    domain: str | None = None
    referral: str | None = None
    registrar: str | None = None
    registrant_name: str | None = None
    registrant_org: str | None = None
    registrant_email: str | None = None
    created: date | None = None
    updated: date | None = None
    expires: date | None = None
    name_servers: tuple[str, ...] = ()
    privacy: bool = False

    @property
    def has_registrant(self) -> bool:
        return bool(self.registrant_name or self.registrant_org or self.registrant_email)


def is_not_found(text: str) -> bool:
    """True when the server says it holds no such domain."""
    return bool(_NOT_FOUND.search(text))


def is_rate_limited(text: str) -> bool:
    """True when the answer is a refusal for asking too fast (not a record)."""
    return not _fields(text) and bool(_RATE_LIMITED.search(text))


def _fields(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.lstrip().startswith((">>>", "%", "#")):
            continue
        match = _LINE.match(line)
        if match:
            key = re.sub(r"\s+", " ", match.group(1)).strip().lower()
            out.setdefault(key, []).append(match.group(2).strip())
    return out


def _first(fields: dict[str, list[str]], keys: Iterable[str]) -> str | None:
    for key in keys:
        for value in fields.get(key, []):
            if value:
                return value
    return None


def _date(value: str | None) -> date | None:
    if not value:
        return None
    text = value.strip().split()[0]
    try:
        return datetime.fromisoformat(text[:10]).date()
    except ValueError:
        pass
    for fmt in ("%d-%b-%Y", "%d.%m.%Y", "%Y.%m.%d", "%Y/%m/%d", "%Y%m%d"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _host(value: str | None) -> str | None:
    """A referral's host name (``whois://host:43``, ``http://host/`` and bare hosts alike)."""
    if not value:
        return None
    host = re.sub(r"^[a-z]+://", "", value.strip(), flags=re.IGNORECASE).split("/")[0].lower().rstrip(".")
    return host if re.fullmatch(r"[a-z0-9.-]+\.[a-z0-9-]+(?::\d+)?", host) else None


def _masked(value: str | None) -> bool:
    return bool(value) and (is_privacy_value(value) or bool(_MASK.search(value or "")))


def _email(value: str | None) -> str | None:
    """The registrant's address, or None for a web form, a privacy relay or a placeholder."""
    if not value or not _EMAIL.match(value) or _masked(value):
        return None
    return value.lower()


def parse_whois(text: str) -> WhoisRecord:
    """The fields of one WHOIS answer (a thin registry record or a thick registrar record)."""
    fields = _fields(text)
    name, org = _first(fields, ("registrant name",)), _first(fields, ("registrant organization",
                                                                      "registrant organisation", "registrant"))
    raw_email = _first(fields, ("registrant email", "registrant e-mail"))
    privacy = any(_masked(v) for v in (name, org, raw_email))
    servers = tuple(sorted({v.lower().rstrip(".") for k in ("name server", "nserver") for v in fields.get(k, []) if v}))
    domain = _first(fields, ("domain name", "domain"))
    return WhoisRecord(
        domain=domain.lower() if domain else None,
        referral=next((h for k in _REFERRAL_KEYS for h in map(_host, fields.get(k, [])) if h), None),
        registrar=_first(fields, ("registrar", "sponsoring registrar", "registrar name")),
        registrant_name=None if _masked(name) else name,
        registrant_org=None if _masked(org) else org,
        registrant_email=_email(raw_email),
        created=_date(_first(fields, _CREATED_KEYS)), updated=_date(_first(fields, _UPDATED_KEYS)),
        expires=_date(_first(fields, _EXPIRES_KEYS)), name_servers=servers, privacy=privacy,
    )


def merge_records(records: Sequence[WhoisRecord]) -> WhoisRecord:
    """The registry's record completed by the registrar's (the last answer's values win)."""
    merged = WhoisRecord()
    for record in records:
        changes = {k: v for k, v in record.__dict__.items() if v not in (None, (), False)}
        merged = replace(merged, **changes)
    registrant = records[-1] if records else merged
    # Registrant fields are the final answer's alone: a registry's thin record names nobody.
    return replace(merged, registrant_name=registrant.registrant_name, registrant_org=registrant.registrant_org,
                   registrant_email=registrant.registrant_email, privacy=registrant.privacy)


# --- the Wayback Machine ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Capture:
    """One row of the CDX API: when (``YYYYMMDDhhmmss``), what URL, what HTTP status."""

    timestamp: str
    original: str
    statuscode: str

    @property
    def day(self) -> date:
        return datetime.strptime(self.timestamp[:8], "%Y%m%d").date()


def parse_cdx(body: str | bytes | list[Any]) -> list[Capture]:
    """Captures of a CDX ``output=json`` answer: a JSON array whose first row names the fields
    (``[]`` when nothing is archived). Rows without a timestamp or URL are dropped."""
    rows = json.loads(body) if isinstance(body, str | bytes) else body
    if not isinstance(rows, list) or not rows:
        return []
    header = [str(h) for h in rows[0]]
    out = []
    for row in rows[1:]:
        item = dict(zip(header, row))
        if re.fullmatch(r"\d{8,14}", str(item.get("timestamp", ""))) and item.get("original"):
            out.append(Capture(str(item["timestamp"]), str(item["original"]), str(item.get("statuscode", ""))))
    return out


class _PreText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth, self.blocks, self.current = 0, [], []  # type: ignore[var-annotated]

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "pre":
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre" and self.depth:
            self.depth -= 1
            if not self.depth:
                self.blocks.append("".join(self.current))
                self.current = []

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.current.append(data)


def whois_text_from_html(page: str) -> str:
    """The WHOIS text of an archived lookup page: its ``<pre>`` block that reads most like a WHOIS
    record (the whole page's text when it has none)."""
    parser = _PreText()
    parser.feed(page)
    parser.close()
    if not parser.blocks:
        return html_lib.unescape(re.sub(r"<[^>]+>", "\n", page))
    return max(parser.blocks, key=lambda block: len(_fields(block)))


def newest_unmasked(snapshots: Iterable[tuple[date, WhoisRecord]]) -> tuple[date, WhoisRecord] | None:
    """The newest archived record whose registrant is shown (not masked, someone named)."""
    shown = [(day, r) for day, r in snapshots if not r.privacy and (r.registrant_name or r.registrant_email)]
    return max(shown, key=lambda pair: pair[0], default=None)


# --- whose registrant ------------------------------------------------------------------------------

def _compact(text: str | None) -> str:
    return re.sub(r"[^a-z0-9]+", "", _LEGAL.sub(" ", (text or "").lower()))


def registrant_belongs(email: str | None, org: str | None, hotel_domain: str | None,
                       hotel_name: str | None = None) -> bool:
    """False when the registrant's address is at a domain that is neither the hotel's, a free-mail
    provider's, nor one named like the registrant organisation or the hotel (e.g. a web agency's
    ``kevin@pixelharbor.test`` on the hotel's record): such a person is not the hotel's."""
    if not email or "@" not in email:
        return True
    email_domain = email.rsplit("@", 1)[1].lower().rstrip(".")
    if hotel_domain and (email_domain == hotel_domain or email_domain.endswith(f".{hotel_domain}")):
        return True
    if email_domain in FREE_MAIL_DOMAINS:
        return True
    # the domain's telling label: "pixelharbor" of mail.pixelharbor.co.uk
    label = _compact(max(email_domain.split(".")[:-1] or [email_domain], key=len))
    for name in (org, hotel_name):
        owner = _compact(name)
        if len(label) >= 5 and len(owner) >= 5 and (label in owner or owner in label):
            return True
    return False

"""E-mail and phone finding in page text: generic mailboxes, plain / obfuscated / Cloudflare
addresses, and phone numbers as E.164 with faxes flagged."""

from __future__ import annotations

import re

from sadie_pipeline.core.normalize import PhoneError, normalize_email, phone_to_e164

__all__ = [
    "GENERIC_MAILBOXES",
    "decode_cfemail",
    "find_emails",
    "find_phones",
    "is_generic_mailbox",
]

# --- generic mailboxes ----------------------------------------------------------------------------

GENERIC_MAILBOXES = frozenset("""
info information infos hello hi contact contacts contactus contact-us enquiries enquiry inquiries inquiry
reservations reservation reservaciones reservas res resv rez booking bookings book reserve stay stays
frontdesk front-desk front.desk front_desk desk reception recepcion guestservices guest-services
guest.services guestservice guests concierge welcome office admin administration mail email webmaster
web website support help service services sales salesoffice events event groups group weddings wedding
catering banquets meetings marketing media press pr news newsletter careers jobs hr recruiting
accounting accounts accountspayable ap billing invoices finance payments privacy legal noreply no-reply
donotreply do-not-reply postmaster abuse hostmaster spa restaurant dining bar team staff management
manager gm hotel inn resort motel lodge front general feedback questions orders shop gifts giftcards
""".split())


def is_generic_mailbox(email: str | None) -> bool:
    """True for role mailboxes (``info@``, ``reservations.miami@``, ``frontdesk2@`` ...)."""
    if not email or "@" not in email:
        return False
    local = email.rsplit("@", 1)[0].lower().strip()
    if local in GENERIC_MAILBOXES:
        return True
    base = re.sub(r"\d+$", "", local)
    if base in GENERIC_MAILBOXES:
        return True
    first = re.split(r"[._+\-]", local, maxsplit=1)[0]
    return re.sub(r"\d+$", "", first) in GENERIC_MAILBOXES


# --- e-mails ----------------------------------------------------------------------------------------

_EMAIL_RE = re.compile(r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                       r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}\b")
_AT = r"(?P<at>\s*\[\s*at\s*\]\s*|\s*\(\s*at\s*\)\s*|\s*\{\s*at\s*\}\s*|\s*<\s*at\s*>\s*|\s+at\s+|\s+@\s*|\s*@\s+)"
_DOT = r"(?:\s*\[\s*dot\s*\]\s*|\s*\(\s*dot\s*\)\s*|\s*\{\s*dot\s*\}\s*|\s*<\s*dot\s*>\s*|\s+dot\s+|\s*\.\s*)"
_OBFUSCATED = re.compile(rf"(?<![\w.+-])(?P<user>[A-Za-z0-9][A-Za-z0-9._%+-]*){_AT}"
                         rf"(?P<domain>[A-Za-z0-9-]+(?:{_DOT}[A-Za-z0-9-]+)*{_DOT}[A-Za-z]{{2,24}})\b", re.IGNORECASE)
_DOT_WORD = re.compile(r"\[\s*dot\s*\]|\(\s*dot\s*\)|\{\s*dot\s*\}|<\s*dot\s*>|\s+dot\s+", re.IGNORECASE)
_JUNK_TLDS = frozenset("png jpg jpeg gif webp svg bmp ico css js json xml pdf doc docx zip mp4 mov".split())
_PLACEHOLDER_DOMAINS = frozenset("""
example.com example.org example.net domain.com yourdomain.com your-domain.com email.com test.com sentry.io
wixpress.com sentry.wixpress.com sentry-next.wixpress.com mysite.com website.com company.com hotel.com
yourhotel.com placeholder.com
""".split())


def decode_cfemail(hex_string: str) -> str | None:
    """The address behind Cloudflare's e-mail obfuscation (``data-cfemail`` / ``#hex`` in
    ``/cdn-cgi/l/email-protection``): every byte XOR the first."""
    try:
        data = bytes.fromhex(hex_string.strip())
    except ValueError:
        return None
    if len(data) < 2:
        return None
    key = data[0]
    try:
        return bytes(b ^ key for b in data[1:]).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _valid_email(raw: str) -> str | None:
    try:
        email = normalize_email(raw.strip().strip(".,;:()[]<>\"'"))
    except ValueError:
        return None
    if not email:
        return None
    domain = email.rsplit("@", 1)[1]
    if domain.rsplit(".", 1)[-1] in _JUNK_TLDS or domain in _PLACEHOLDER_DOMAINS:
        return None
    if any(domain.endswith("." + d) for d in ("sentry.io", "wixpress.com")):
        return None
    return email


def _email_spans(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for m in _EMAIL_RE.finditer(text):
        email = _valid_email(m.group(0))
        if email:
            out.append((m.start(), m.end(), email))
            taken.append((m.start(), m.end()))
    for m in _OBFUSCATED.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        at = m.group("at")
        plain_word_at = at.strip().lower() == "at"
        if plain_word_at and not _DOT_WORD.search(m.group("domain")):
            continue  # "rooms at Booking.com" is not an address
        if "@" not in at and not re.search(r"at", at, re.IGNORECASE):
            continue
        domain = re.sub(_DOT, ".", m.group("domain"), flags=re.IGNORECASE)
        email = _valid_email(f"{m.group('user')}@{domain}")
        if email:
            out.append((m.start(), m.end(), email))
    out.sort()
    return out


def find_emails(text: str | None) -> list[str]:
    """Every address in `text`, plain or obfuscated, normalised, in order of appearance, once."""
    seen: dict[str, None] = {}
    for _, _, email in _email_spans(text or ""):
        seen.setdefault(email, None)
    return list(seen)


# --- phones -------------------------------------------------------------------------------------

_PHONE_RE = re.compile(
    r"(?<![\w+/.,$-])(?:\+\s?\d{1,3}[\s.\-]?)?(?:\(\d{1,4}\)[\s.\-]?)?\d{1,4}(?:[ \t.\-]\d{2,4}){1,4}"
    r"(?:\s*(?:x|ext\.?|extension)\s*\d{1,5})?(?![\w/-]|[.,]\d)", re.IGNORECASE)
_DATE_LIKE = re.compile(r"^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$")
_FAX_BEFORE = re.compile(r"\bfax\b[^\d]{0,12}$", re.IGNORECASE)


def _phone_spans(text: str, region: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, E.164, is_fax) of every phone number in `text`."""
    out = []
    nanp = region.upper() in ("US", "CA")
    for m in _PHONE_RE.finditer(text):
        raw = m.group(0).strip()
        digits = re.sub(r"\D", "", re.split(r"(?i)x|ext", raw)[0])
        if _DATE_LIKE.match(raw) or len(digits) < 7 or len(digits) > 15:
            continue
        if nanp and not raw.startswith("+") and len(digits) < 10:
            continue
        try:
            e164 = phone_to_e164(raw, region)
        except PhoneError:
            continue
        if not e164:
            continue
        fax = bool(_FAX_BEFORE.search(text[max(0, m.start() - 20):m.start()]))
        out.append((m.start(), m.end(), e164, fax))
    return out


def find_phones(text: str | None, region: str = "US") -> list[str]:
    """Every phone number in `text` (faxes excluded) in E.164, in order of appearance, once."""
    seen: dict[str, None] = {}
    for _, _, e164, fax in _phone_spans(text or "", region):
        if not fax:
            seen.setdefault(e164, None)
    return list(seen)

"""Field normalisation: whitespace, case, phone numbers to E.164, URLs, e-mails, match keys."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from urllib.parse import urlsplit, urlunsplit

import phonenumbers

_WS = re.compile(r"\s+")
_NON_WORD = re.compile(r"[^\w\s]")
_NON_DIGIT = re.compile(r"\D")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def clean_whitespace(value: str | None) -> str | None:
    """Trim and collapse runs of whitespace; empty becomes None."""
    if value is None:
        return None
    stripped = value.strip()
    # Fast path: every whitespace character but the plain space is non-printable, so a printable
    # value without a double space has nothing to collapse (most values, and far cheaper than split).
    if stripped.isprintable() and "  " not in stripped:
        return stripped or None
    return " ".join(value.split()) or None


def apply_case(value: str | None, mode: str | None) -> str | None:
    if value is None or not mode:
        return value
    if mode == "lower":
        return value.lower()
    if mode == "upper":
        return value.upper()
    if mode == "title":
        return title_case(value)
    raise ValueError(f"unknown case mode {mode!r}")


def title_case(value: str) -> str:
    """Each word capitalised; unlike str.title(), letters after an apostrophe or a digit stay
    lower case ("ANNE'S 2ND CAFE" -> "Anne's 2nd Cafe")."""
    return _WORD.sub(lambda m: m[0].capitalize(), value)


def match_key(value: str | None) -> str:
    """The seeds' normalize(): lower case, no punctuation, single spaces."""
    if not value:
        return ""
    if value.isascii():  # the same key through one bytes.translate (see ascii_match_translation)
        return b" ".join(value.encode().translate(*MATCH_KEY_ASCII).split()).decode()
    return " ".join(_NON_WORD.sub("", value.lower()).split())


def ascii_match_translation() -> tuple[bytes, bytes]:
    """The (table, delete) arguments of bytes.translate that do match_key's work on ASCII text:
    each character lower-cased, dropped when _NON_WORD matches it, and made a plain space when
    str.split() splits on it, so that bytes.split() then splits exactly where str.split() would.
    Derived from the very expressions match_key uses, character by character (on ASCII text,
    lower() and the pattern work one character at a time)."""
    table, delete = bytearray(range(256)), bytearray()
    for code in range(128):
        char = chr(code).lower()
        if _NON_WORD.sub("", char) == "":
            delete.append(code)
        elif char.isspace():
            table[code] = ord(" ")
        else:
            table[code] = ord(char)
    return bytes(table), bytes(delete)


MATCH_KEY_ASCII = ascii_match_translation()


# ISO 3166 alpha-2 codes for the names and alpha-3 codes sources write instead of the code.
_COUNTRY_NAMES: dict[str, tuple[str, ...]] = {
    "CA": ("CAN", "CANADA"),
    "US": ("USA", "UNITED STATES", "UNITED STATES OF AMERICA", "ETATS-UNIS", "ÉTATS-UNIS"),
    "GB": ("UK", "GBR", "UNITED KINGDOM", "GREAT BRITAIN", "ENGLAND", "SCOTLAND", "WALES", "NORTHERN IRELAND",
           "ROYAUME-UNI"),
    "IE": ("IRL", "IRELAND", "REPUBLIC OF IRELAND", "IRLANDE"),
    "FR": ("FRA", "FRANCE"),
    "PM": ("SPM", "SAINT PIERRE AND MIQUELON", "SAINT-PIERRE-ET-MIQUELON"),
    "DE": ("DEU", "GERMANY", "DEUTSCHLAND", "ALLEMAGNE"),
    "MX": ("MEX", "MEXICO", "MÉXICO", "MEXIQUE"),
    "NL": ("NLD", "NETHERLANDS", "THE NETHERLANDS"),
    "BE": ("BEL", "BELGIUM", "BELGIQUE"),
    "CH": ("CHE", "SWITZERLAND", "SUISSE"),
    "IT": ("ITA", "ITALY", "ITALIE"),
    "ES": ("ESP", "SPAIN", "ESPAGNE"),
    "PT": ("PRT", "PORTUGAL"),
    "AU": ("AUS", "AUSTRALIA"),
    "NZ": ("NZL", "NEW ZEALAND"),
    "JP": ("JPN", "JAPAN"),
    "CN": ("CHN", "CHINA"),
}
_COUNTRY_CODES = {name: code for code, names in _COUNTRY_NAMES.items() for name in names}


def country_code(value: str) -> str:
    """A 2-letter code as given (upper-cased), or the code of a known name or 3-letter code;
    raises ValueError otherwise (cutting "United States" to "UN" would be wrong)."""
    key = " ".join(value.upper().replace(".", "").split())
    code = _COUNTRY_CODES.get(key)
    if code:
        return code
    if len(key) == 2 and key.isascii() and key.isalpha():
        return key
    raise ValueError(f"not a country code: {value!r}")


class PhoneError(ValueError):
    pass


def phone_to_e164(value: str | None, default_region: str = "CA") -> str | None:
    """A phone number in E.164 (+19025550142); raises PhoneError when it is not a number."""
    value = value.strip() if value else None
    if not value:
        return None
    return _phone_to_e164(value, default_region.upper())


@lru_cache(maxsize=65536)
def _phone_to_e164(value: str, region: str) -> str:
    digits = _NON_DIGIT.sub("", value)
    # Fast path for the common North American shape; everything else (an explicit foreign
    # country code, an extension) goes through phonenumbers.
    if region in ("US", "CA") and "x" not in value.lower() and (value[0] != "+" or value.startswith("+1")):
        if len(digits) == 11 and digits[0] == "1":
            digits = digits[1:]
        if len(digits) == 10 and digits[0] in "23456789" and digits[3] in "23456789":
            return "+1" + digits
    try:
        parsed = phonenumbers.parse(value, region)
    except phonenumbers.NumberParseException as exc:
        raise PhoneError(f"not a phone number: {value!r}") from exc
    # Not is_possible_number(): it also accepts IS_POSSIBLE_LOCAL_ONLY, a number without its area code.
    # Not is_valid_number() either: it rejects real numbers in ranges newer than the library's metadata.
    if phonenumbers.is_possible_number_with_reason(parsed) != phonenumbers.ValidationResult.IS_POSSIBLE:
        raise PhoneError(f"not a possible phone number: {value!r}")
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


# A plain URL (http(s) or no scheme, simple host, simple path, no query or fragment): urlsplit
# would take it apart exactly as this pattern does, at a fraction of the cost.
_PLAIN_URL = re.compile(r"(?:(https?)://)?([A-Za-z0-9.-]+)(/[A-Za-z0-9._~/%-]*)?", re.IGNORECASE)
_HAS_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")


def normalize_url(value: str | None) -> str | None:
    """Scheme added when missing, host lower-cased, fragment dropped."""
    value = clean_whitespace(value)
    if not value:
        return None
    plain = _PLAIN_URL.fullmatch(value)
    if plain is None:
        return _normalize_url_split(value)
    scheme, host, path = plain.groups()
    return f"{(scheme or 'https').lower()}://{host.lower()}{path if path and path != '/' else ''}"


def _normalize_url_split(value: str) -> str:
    """normalize_url for any URL, through urlsplit."""
    if not _HAS_SCHEME.match(value):
        value = "https://" + value.lstrip("/")
    parts = urlsplit(value)
    if not parts.netloc or " " in parts.netloc:
        raise ValueError(f"not a URL: {value!r}")
    path = parts.path if parts.path not in ("", "/") else ""
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def normalize_email(value: str | None) -> str | None:
    value = clean_whitespace(value)
    if not value:
        return None
    value = value.lower().removeprefix("mailto:")
    if not _EMAIL.match(value):
        raise ValueError(f"not an e-mail address: {value!r}")
    return value


_LIST_SEPARATOR = re.compile(r"[|\n;,]")


def split_list(value: str | None) -> list[str]:
    """A cell holding several values separated by | , ; or newlines."""
    if not value:
        return []
    return [item for item in map(clean_whitespace, _LIST_SEPARATOR.split(value)) if item]


@cache
def suffix_extractor():
    """tldextract's extractor over the suffix list bundled with it: never a download. Imported on
    first use, not whenever normalize is."""
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


@lru_cache(maxsize=65_536)
def registrable_domain(host: str | None) -> str | None:
    """`hotel.qc.ca` for `www.hotel.qc.ca` (the public suffix list); an IP or a name under no
    public suffix (`x.test`, `localhost`) gives its last two labels, so that sites still compare."""
    if not host:
        return None
    host = host.strip().lower().rstrip(".")
    parts = suffix_extractor()(host)
    if parts.suffix and parts.domain:
        return f"{parts.domain}.{parts.suffix}"
    if host.replace(".", "").isdigit():
        return host
    return ".".join(host.split(".")[-2:])

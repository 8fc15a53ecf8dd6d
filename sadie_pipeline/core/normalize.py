"""Field normalisation: whitespace, case, phone numbers to E.164, URLs, e-mails, match keys."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

import phonenumbers

_WS = re.compile(r"\s+")
_NON_WORD = re.compile(r"[^\w\s]")
_NON_DIGIT = re.compile(r"\D")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")


def clean_whitespace(value: str | None) -> str | None:
    """Trim and collapse runs of whitespace; empty becomes None."""
    if value is None:
        return None
    return " ".join(value.split()) or None


def apply_case(value: str | None, mode: str | None) -> str | None:
    if value is None or not mode:
        return value
    if mode == "lower":
        return value.lower()
    if mode == "upper":
        return value.upper()
    if mode == "title":
        return value.title()
    raise ValueError(f"unknown case mode {mode!r}")


def match_key(value: str | None) -> str:
    """The seeds' normalize(): lower case, no punctuation, single spaces."""
    if not value:
        return ""
    return " ".join(_NON_WORD.sub("", value.lower()).split())


class PhoneError(ValueError):
    pass


def phone_to_e164(value: str | None, default_region: str = "CA") -> str | None:
    """A phone number in E.164 (+19025550142); raises PhoneError when it is not a number."""
    if not value:
        return None
    return _phone_to_e164(value.strip(), default_region.upper())


@lru_cache(maxsize=65536)
def _phone_to_e164(value: str, region: str) -> str:
    digits = _NON_DIGIT.sub("", value)
    # Fast path for the common North American shape; everything else goes through phonenumbers.
    if region in ("US", "CA") and "x" not in value.lower():
        if len(digits) == 11 and digits[0] == "1":
            digits = digits[1:]
        if len(digits) == 10 and digits[0] in "23456789" and digits[3] in "23456789":
            return "+1" + digits
    try:
        parsed = phonenumbers.parse(value, region)
    except phonenumbers.NumberParseException as exc:
        raise PhoneError(f"not a phone number: {value!r}") from exc
    if not phonenumbers.is_possible_number(parsed):
        raise PhoneError(f"not a possible phone number: {value!r}")
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


def normalize_url(value: str | None) -> str | None:
    """Scheme added when missing, host lower-cased, fragment dropped."""
    value = clean_whitespace(value)
    if not value:
        return None
    if not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", value):
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


def split_list(value: str | None) -> list[str]:
    """A cell holding several values separated by | , ; or newlines."""
    if not value:
        return []
    return [item for item in (clean_whitespace(p) for p in re.split(r"[|\n;,]", value)) if item]

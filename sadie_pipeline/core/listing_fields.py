"""The field rules of a listing, the same for every way it changes: a person's edit (the web form
and the admin API) and an import (core/transform.py). A rule takes the text as given and returns the
value to store, or raises FieldError with one line for a person. check_edit turns an edit (values
given, fields to clear) into the changes to make; served_* keep to what the rules accept on output."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import phonenumbers
from email_validator import SPECIAL_USE_DOMAIN_NAMES, EmailNotValidError, validate_email
from rapidfuzz import fuzz, process

from sadie_pipeline.core.categories import VOCABULARY, CategoryMapper
from sadie_pipeline.core.fields import URL_FIELDS
from sadie_pipeline.core.normalize import PhoneError, clean_whitespace, normalize_url, phone_to_e164


class Problem(StrEnum):
    INVALID = "invalid"            # not a value of the field's kind
    OUT_OF_RANGE = "out_of_range"  # a number outside the field's range


class FieldError(ValueError):
    """A value a rule refuses; `message` is the line shown beside the field."""

    def __init__(self, field: str, message: str, problem: Problem = Problem.INVALID):
        super().__init__(f"{field}: {message}")
        self.field, self.message, self.problem = field, message, problem


class ListingField(StrEnum):
    """What a person may edit of the listing itself (shared by every DMO's record of it)."""
    NAME = "name"
    CATEGORY = "category"
    ADDRESS1 = "address1"
    CITY = "city"
    STATE = "state"
    ZIP = "zip"
    LAT = "lat"
    LNG = "lng"


class RecordField(StrEnum):
    """What a person may edit of one DMO's record of the listing."""
    DESCRIPTION = "description"
    EMAIL = "email"
    LOCAL_PHONE = "local_phone"
    WEBSITE_URL = "website_url"


NOT_CLEARABLE = frozenset({ListingField.NAME.value})
COORDINATE_LIMITS = {"lat": (Decimal(-90), Decimal(90)), "lng": (Decimal(-180), Decimal(180))}
_PLACES = Decimal("1e-8")  # the scale of locations.lat and locations.lng (numeric(10, 8), numeric(11, 8))
# C0 controls but tab, newline and carriage return, DEL, and lone surrogates: PostgreSQL refuses NUL
# and surrogates, and none belongs in a listing.
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_CONTROL = CONTROL_CHARS  # its name in the field rules' tests
MAX_TEXT = {"description": 10_000, "website_url": 2_000}
DEFAULT_MAX_TEXT = 500


def text(value: Any, field: str = "text") -> str | None:
    """Whitespace collapsed (empty is None); refused with control characters or past its length."""
    if value is None:
        return None
    value = str(value)
    if CONTROL_CHARS.search(value):
        raise FieldError(field, "has control characters")
    cleaned = clean_whitespace(value)
    limit = MAX_TEXT.get(field, DEFAULT_MAX_TEXT)
    if cleaned and len(cleaned) > limit:
        raise FieldError(field, f"is longer than {limit} characters")
    return cleaned


def name(value: Any) -> str:
    """A listing's name: something a person can read and click, so at least one letter or digit."""
    cleaned = text(value, "name")
    if not cleaned:
        raise FieldError("name", "a listing needs a name")
    if not any(c.isalnum() for c in cleaned):
        raise FieldError("name", "a name needs at least one letter or digit")
    return cleaned


def coordinate(value: Any, axis: str, bounds: tuple[Any, Any] | None = None) -> Decimal | None:
    """A latitude or longitude (axis "lat" or "lng") within the globe's range and `bounds`, if given."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    shown = str(value).strip()
    try:
        number = Decimal(shown)
    except (InvalidOperation, ValueError):
        raise FieldError(axis, f"must be a number, not {shown[:20]!r}") from None
    if not number.is_finite():
        raise FieldError(axis, f"must be a number, not {shown[:20]!r}")
    low, high = COORDINATE_LIMITS[axis]
    if bounds is not None:
        low, high = max(low, Decimal(str(bounds[0]))), min(high, Decimal(str(bounds[1])))
    if not low <= number <= high:
        raise FieldError(axis, f"must be between {low} and {high}", Problem.OUT_OF_RANGE)
    return number


def _stored_coordinate(value: Any, axis: str) -> Decimal | None:
    """A coordinate at the scale it is stored at, so that an edit's change is what the row holds."""
    number = coordinate(value, axis)
    return number.quantize(_PLACES) if number is not None and number.as_tuple().exponent < -8 else number


# The common shape of an address, in ASCII: checked by this pattern alone, since email-validator takes
# ~80 us an address (an import checks every record's). It accepts only addresses email-validator
# accepts, with the same result (a test holds them to it); anything else goes to email-validator.
_SIMPLE_EMAIL = re.compile(r"[a-z0-9_+-]+(?:\.[a-z0-9_+-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}")
_SPECIAL_SUFFIXES = tuple("." + d for d in SPECIAL_USE_DOMAIN_NAMES if d != "test")


def email(value: Any) -> str | None:
    """An e-mail address by email-validator's syntax rules (no DNS look-up), lower-cased as stored."""
    cleaned = text(value, "email")
    if not cleaned:
        return None
    return _email(cleaned.lower().removeprefix("mailto:"))


@lru_cache(maxsize=65_536)
def _email(value: str) -> str:
    if len(value) <= 120 and "--" not in value and _SIMPLE_EMAIL.fullmatch(value) \
            and len(value.partition("@")[0]) <= 64 and not value.endswith(_SPECIAL_SUFFIXES):
        return value
    try:
        # test_environment: the sandbox's DMOs write addresses at .test domains (reserved for tests)
        checked = validate_email(value, check_deliverability=False, test_environment=True)
    except EmailNotValidError as exc:
        raise FieldError("email", str(exc)) from None
    return checked.normalized.lower()


@dataclass(frozen=True)
class Phone:
    local: str          # (902) 555-0177 for a North American number, else as given
    international: str  # E.164: +19025550177


def phone(value: Any, region: str = "CA") -> Phone | None:
    """A phone number parsed by phonenumbers (region: the listing's country), with its E.164 form."""
    cleaned = text(value, "local_phone")
    if not cleaned:
        return None
    try:
        e164 = phone_to_e164(cleaned, region or "CA")
    except PhoneError:
        raise FieldError("local_phone", f"not a phone number: {cleaned[:30]!r}") from None
    if e164 is None:
        return None
    return Phone(national_form(e164) if e164.startswith("+1") else cleaned, e164)


def national_form(e164: str) -> str:
    """A North American number as people write it: (902) 555-0177."""
    d = e164[2:]
    return f"({d[:3]}) {d[3:6]}-{d[6:]}"


# A scheme as javascript:, data: or mailto: write it (one with a dot is a host: "example.com:8080")
_SCHEME = re.compile(r"\s*([a-z][a-z0-9+-]*):", re.IGNORECASE)
_HOST_LABEL = re.compile(r"(?!-)[\w-]{1,63}(?<!-)")
# What normalize_url makes of most URLs (an import checks every record's five): a subset of what the
# checks below accept, matched without urlsplit.
_PLAIN_URL = re.compile(r"https?://(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]"
                        r"(?:/[A-Za-z0-9._~/%-]*)?")


def web_url(value: Any, field: str = "website_url") -> str | None:
    """An http(s) address of a named host (scheme added when missing): never javascript:, data:,
    an IP address or a user name and password."""
    cleaned = text(value, field)
    if not cleaned:
        return None
    scheme = _SCHEME.match(cleaned)
    if scheme and scheme[1].lower() not in ("http", "https"):
        raise FieldError(field, "only http:// and https:// addresses are allowed")
    try:
        url = normalize_url(cleaned)
        if _PLAIN_URL.fullmatch(url):
            return url
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        raise FieldError(field, f"not a web address: {cleaned[:40]!r}") from None
    if parts.scheme not in ("http", "https"):
        raise FieldError(field, "only http:// and https:// addresses are allowed")
    if "@" in parts.netloc:
        raise FieldError(field, "an address with a user name or password is not allowed")
    labels = (parts.hostname or "").split(".")
    if len(labels) < 2 or not all(_HOST_LABEL.fullmatch(label) for label in labels) or labels[-1].isdigit():
        raise FieldError(field, f"not a web address: {cleaned[:40]!r}")
    return url


def category(value: Any) -> str | None:
    """A value of the category vocabulary (core/categories.py); refused with the nearest suggested."""
    cleaned = text(value, "category")
    if not cleaned:
        return None
    if cleaned.lower() in VOCABULARY:
        return cleaned.lower()
    nearest = suggest_category(cleaned)
    hint = f"; did you mean {nearest}?" if nearest else ""
    raise FieldError("category", f"{cleaned[:40]!r} is not a category{hint}")


_VOCABULARY = sorted(VOCABULARY)


def suggest_category(value: str) -> str | None:
    """The vocabulary value a source's synonyms map it to, else the nearest by spelling (rapidfuzz)."""
    mapped = CategoryMapper()(value)
    if mapped in VOCABULARY:
        return mapped
    found = process.extractOne(value.lower(), _VOCABULARY, scorer=fuzz.WRatio, score_cutoff=70)
    return found[0] if found else None


RULES: dict[str, Callable[[Any, str], Any]] = {
    "name": lambda v, _: name(v),
    "category": lambda v, _: category(v),
    "address1": lambda v, _: text(v, "address1"),
    "city": lambda v, _: text(v, "city"),
    "state": lambda v, _: text(v, "state"),
    "zip": lambda v, _: text(v, "zip"),
    "lat": lambda v, _: _stored_coordinate(v, "lat"),
    "lng": lambda v, _: _stored_coordinate(v, "lng"),
    "description": lambda v, _: text(v, "description"),
    "email": lambda v, _: email(v),
    "local_phone": phone,
    "website_url": lambda v, _: web_url(v),
}


@dataclass(frozen=True)
class CheckedEdit:
    """What an edit changes: {field: new value} (None: cleared), and {field: message} for refused values."""
    changes: dict[str, Any]
    errors: dict[str, str]


def _shown(value: Any) -> str:
    return "" if value is None else str(value).strip()


def check_edit(fields: Collection[str], given: Mapping[str, Any], clear: Collection[str],
               current: Mapping[str, Any], region: str = "CA") -> CheckedEdit:
    """An edit of `fields`: an empty value (None or "") leaves its field alone, a cleared field is
    emptied, a value of spaces is refused (neither), and a value as it is now is not checked again (an
    old value no rule would take today does not block an edit of another field)."""
    changes: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for f in clear:
        if f not in fields or f in NOT_CLEARABLE:
            errors[f] = "cannot be cleared"
        elif current.get(f) is not None:
            changes[f] = None
    for f in fields:
        raw = given.get(f)
        if f in clear or raw is None or raw == "" or _shown(raw) == _shown(current.get(f)) != "":
            continue
        try:
            new = RULES[f](raw, region)
        except FieldError as exc:
            errors[f] = exc.message
            continue
        if new is None:
            errors[f] = "only spaces: leave it empty to keep the value, or tick clear to empty it"
            continue
        if isinstance(new, Phone):
            if new.international != current.get("international_phone"):
                changes["international_phone"] = new.international
            new = new.local
        if new != current.get(f):
            changes[f] = new
    if changes.get("local_phone", "") is None and current.get("international_phone") is not None:
        changes["international_phone"] = None  # the number goes with its international form
    _pair_coordinates(changes, errors, current)
    return CheckedEdit(changes, errors)


def _pair_coordinates(changes: dict[str, Any], errors: dict[str, str], current: Mapping[str, Any]) -> None:
    if not {"lat", "lng"} & changes.keys() or {"lat", "lng"} & errors.keys():
        return
    lat, lng = changes.get("lat", current.get("lat")), changes.get("lng", current.get("lng"))
    if (lat is None) != (lng is None):
        for f in ("lat", "lng"):
            errors[f] = "latitude and longitude go together: give both or clear both"


def served_url(value: Any) -> str | None:
    """A stored URL as an API serves it: only an http(s) address the rule accepts, else None."""
    try:
        return web_url(value) if isinstance(value, str) else None
    except FieldError:
        return None


def served_email(value: Any) -> str | None:
    try:
        return email(value) if isinstance(value, str) else None
    except FieldError:
        return None


def served_phone(value: Any, region: str = "CA") -> str | None:
    """A stored phone (local or E.164) as served: as stored when phonenumbers reads it, else None."""
    try:
        return value if isinstance(value, str) and phone(value, region) else None
    except FieldError:
        return None


def _region_of(e164: str | None) -> str | None:
    """The region of an E.164 number (a local form is read there too: a US number of a Canadian listing)."""
    try:
        return phonenumbers.region_code_for_number(phonenumbers.parse(e164)) if e164 else None
    except phonenumbers.NumberParseException:
        return None


def served_contact(contact: Mapping[str, Any], region: str = "CA") -> dict[str, Any]:
    """A record's contacts with every e-mail, phone and URL the rules refuse served as None."""
    out = dict(contact)
    out["email"] = served_email(contact.get("email"))
    international = contact.get("international_phone")
    out["international_phone"] = served_phone(international, region) \
        if isinstance(international, str) and international.startswith("+") else None
    local = contact.get("local_phone")
    out["local_phone"] = served_phone(local, region) or served_phone(local, _region_of(out["international_phone"]) or region)
    for f in URL_FIELDS:
        if f in contact:
            out[f] = served_url(contact[f])
    return out

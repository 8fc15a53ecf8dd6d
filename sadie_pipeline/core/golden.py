"""Field-level golden record of a hotel (seed 001, "Source Priority and Conflict Resolution",
"Confidence Scoring Model", "Audit Trail / Data Provenance").

Each source proposes values for a hotel's fields (``FieldCandidate``); ``choose_field`` keeps one
value per field (``FieldChoice``) with every usable candidate ranked behind it, so "why does this
record have this e-mail?" has an answer (``provenance_rows``). ``golden_record`` does every field.

Winner of a field: the highest ``(priority, effective confidence, extracted_at, source)``
(most recent ``extracted_at`` first, undated last; then the alphabetically first source; then
the normalised value), so the result never depends on the order of the candidates.

Priority (``SOURCE_PRIORITY``, higher preferred; a source not listed for a field gets 0). The
e-mail, contact name (the seed's ``full_name``) and phone columns are the seed's; the rest is
ours. ``research`` (the Claude research layer) ranks as ``llm_extract``.

======================  =====  =====  =====  =====  =====  =====  =====  =====  =====
field                   web    rdap   gmaps  dmo    csv    llm    regex  guess  gov
======================  =====  =====  =====  =====  =====  =====  =====  =====  =====
email (seed)            70     60     -      65     55     35     -      20     80
contact_name/title      80     70     -      65     55     45     -      -      90
phone (seed)            80     40     75     70     60     45     -      -      90
name                    75     -      85     90     60     40     -      -      80
address/city/state/zip  70     20     90     85     60     40     -      -      80
website                 90     -      80     85     60     40     -      -      -
room_count              60     -      -      85     75     70     60     -      90
property_type           50     -      60     80     65     70     -      -      85
chain_or_independent    50     -      40     60     70     80     -      -      -
management_company      55     60     -      50     70     75     -      -      85
rating/review_count     30     -      90     60     50     20     -      -      -
======================  =====  =====  =====  =====  =====  =====  =====  =====  =====

(web = website_scrape, gmaps = google_maps (Serper places), dmo = dmo_listing, csv = csv_import,
llm = llm_extract (Groq/Claude), regex = the room-count regex fallback, guess =
email_pattern_guess, gov = gov_registry; the seed's other sources keep their seed values, e.g.
email_verify_o365 100, whois_history, review_response, cc_harvest, asic_director.)
Why: a DMO listing is what the hotel gave its destination organisation, so it leads for the name
(and, after the site we fetched ourselves, for the website); Google's place record is geocoded
and owner-maintained, so it leads for the address and alone has ratings; RDAP's registrant
address is often the owner's or a privacy proxy's, not the property's; for room counts the LLM
reads context the regex cannot.

Effective confidence: the candidate's own ``confidence``, else the source's base
(``SOURCE_BASE_CONFIDENCE``: the seed's ``BASE_CONFIDENCE`` plus dmo_listing 0.80, google_maps
0.70, csv_import 0.60, regex 0.60), plus the seed's modifiers, clamped to [0, 1], 2 decimals:

=====================  ======  ===============================================================
modifier               value   when
=====================  ======  ===============================================================
email_verified_o365    +0.20   an e-mail with ``email_verified`` by Microsoft's account check
                               (``verified_o365``); it also lifts it to ``email_verify_o365``'s priority
email_verified_smtp    +0.15   an e-mail with ``email_verified`` by an SMTP RCPT answer
                               (``verified_smtp``): ``email_verify_smtp``'s priority
multiple_sources       +0.10   2+ distinct sources give the same value (``normalise_for_compare``)
stale_data             -0.15   ``extracted_at`` more than ``stale_after_days`` before `now`
first_name_only        -0.30   a contact field of a person without surname ("Maria")
generic_title          -0.10   a contact field of a person whose title is generic ("Manager");
                               an absent title is unknown, not generic
=====================  ======  ===============================================================

Contact fields are email, contact_name, contact_title (the person is the value itself, or
``person_name`` / ``person_title``) and phone when ``person_name`` is given (a hotel's main line is
nobody's). ``email_status`` ``valid_domain`` or ``catch_all`` is not a verification (no bonus); ``invalid_syntax``,
``no_mx`` and ``rejected`` (the domain's mail server refused the mailbox) make an e-mail unusable: it is dropped (effective confidence 0), since an address
that bounces is worse than none for outreach. A candidate whose value is None or blank is ignored.

Pass the source's raw confidence: a ``contacts.Person.confidence`` already holds the
first-name-only and generic-title modifiers and would count them twice.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from .enrichment.confidence import BASE_CONFIDENCE, CONFIDENCE_MODIFIERS, DEFAULT_BASE
from .enrichment.merge import is_empty
from .enrichment.names import is_first_name_only, is_generic_title, name_key

__all__ = [
    "CONTACT_FIELDS",
    "GOLDEN_FIELDS",
    "SOURCE_BASE_CONFIDENCE",
    "SOURCE_PRIORITY",
    "UNUSABLE_EMAIL_STATUSES",
    "FieldCandidate",
    "FieldChoice",
    "base_confidence",
    "candidate_priority",
    "choose_field",
    "effective_confidence",
    "golden_record",
    "golden_values",
    "is_stale",
    "is_usable",
    "normalise_for_compare",
    "provenance_rows",
]

GOLDEN_FIELDS: tuple[str, ...] = (
    "name", "address", "city", "state", "zip", "phone", "website", "email", "contact_name", "contact_title",
    "room_count", "management_company", "property_type", "chain_or_independent", "rating", "review_count",
)
CONTACT_FIELDS = frozenset({"email", "contact_name", "contact_title", "phone"})
# an address the domain's mail server refused (550/551/553) bounces too
UNUSABLE_EMAIL_STATUSES = frozenset({"invalid_syntax", "no_mx", "rejected"})

_EMAIL_PRIORITY = {
    "email_verify_o365": 100, "email_verify_smtp": 90, "gov_registry": 80, "website_scrape": 70,
    "dmo_listing": 65, "rdap": 60, "whois": 60, "csv_import": 55, "whois_history": 50, "review_response": 40,
    "llm_extract": 35, "cc_harvest": 30, "email_pattern_guess": 20,
}
# port-43 WHOIS is the registry's record as RDAP is; ABN Lookup's individual name ranks as ASIC's
_PERSON_PRIORITY = {
    "gov_registry": 90, "asic_director": 85, "abn_lookup": 85, "website_scrape": 80, "rdap": 70, "whois": 70,
    "dmo_listing": 65, "whois_history": 60, "csv_import": 55, "review_response": 50, "llm_extract": 45,
    "cc_harvest": 40,
}
_PHONE_PRIORITY = {
    "gov_registry": 90, "website_scrape": 80, "google_maps": 75, "dmo_listing": 70, "csv_import": 60,
    "cc_harvest": 50, "llm_extract": 45, "rdap": 40,
}
_LOCATION_PRIORITY = {
    "google_maps": 90, "dmo_listing": 85, "gov_registry": 80, "website_scrape": 70, "csv_import": 60,
    "llm_extract": 40, "rdap": 20,
}
_REVIEWS_PRIORITY = {"google_maps": 90, "dmo_listing": 60, "csv_import": 50, "website_scrape": 30, "llm_extract": 20}

_PRIORITY_TABLES: dict[str, dict[str, int]] = {
    "email": _EMAIL_PRIORITY,
    "full_name": _PERSON_PRIORITY,  # the seed's name for contact_name
    "contact_name": _PERSON_PRIORITY,
    "contact_title": _PERSON_PRIORITY,  # a title travels with its person
    "phone": _PHONE_PRIORITY,
    "name": {"dmo_listing": 90, "google_maps": 85, "gov_registry": 80, "website_scrape": 75, "csv_import": 60,
             "llm_extract": 40},
    "address": _LOCATION_PRIORITY,
    "city": _LOCATION_PRIORITY,
    "state": _LOCATION_PRIORITY,
    "zip": _LOCATION_PRIORITY,
    "website": {"website_scrape": 90, "dmo_listing": 85, "google_maps": 80, "csv_import": 60, "llm_extract": 40},
    "room_count": {"gov_registry": 90, "dmo_listing": 85, "csv_import": 75, "llm_extract": 70, "regex": 60,
                   "website_scrape": 60},
    "property_type": {"gov_registry": 85, "dmo_listing": 80, "llm_extract": 70, "csv_import": 65, "google_maps": 60,
                      "website_scrape": 50},
    "chain_or_independent": {"llm_extract": 80, "csv_import": 70, "dmo_listing": 60, "website_scrape": 50,
                             "google_maps": 40},
    "management_company": {"gov_registry": 85, "abn_lookup": 80, "llm_extract": 75, "csv_import": 70, "rdap": 60,
                           "whois": 60, "website_scrape": 55, "dmo_listing": 50, "whois_history": 50, "ct_certs": 45},
    "rating": _REVIEWS_PRIORITY,
    "review_count": _REVIEWS_PRIORITY,
}
SOURCE_PRIORITY: Mapping[str, Mapping[str, int]] = {
    field: {**table, "research": table["llm_extract"]} if "llm_extract" in table else table
    for field, table in _PRIORITY_TABLES.items()
}

SOURCE_BASE_CONFIDENCE: Mapping[str, float] = {
    **BASE_CONFIDENCE,
    "dmo_listing": 0.80,
    "google_maps": 0.70,
    "csv_import": 0.60,
    "regex": 0.60,
}


@dataclass(frozen=True)
class FieldCandidate:
    """One source's value for one field (see the module docstring for how it is weighed)."""

    field: str                          # "email", "phone", "room_count" ...
    value: Any                          # normalised by the caller; None / blank: ignored
    source: str                         # "website_scrape", "google_maps", "dmo_listing" ...
    confidence: float | None = None     # the source's own, before modifiers; None: its base
    source_url: str | None = None
    extracted_at: datetime | None = None
    email_status: str | None = None     # email_verify.STATUSES
    email_verified: bool = False        # a mailbox check (O365) said the address exists
    person_name: str | None = None      # whose contact value it is (first-name-only)
    person_title: str | None = None     # their title (generic-title)


@dataclass(frozen=True)
class FieldChoice:
    """The winning value of a field, its provenance, and every usable candidate ranked."""

    field: str
    value: Any
    source: str
    confidence: float                   # the winner's effective confidence
    source_url: str | None
    extracted_at: datetime | None
    sources: tuple[str, ...]            # every source giving the same value, sorted
    ranked: tuple[tuple[FieldCandidate, float], ...]  # usable candidates, effective confidence, best first


# --- comparing values ---------------------------------------------------------------------------------

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://")
_NON_DIGIT = re.compile(r"\D")
_NAME_FIELDS = frozenset({"contact_name", "full_name"})


def _missing(value: Any) -> bool:
    return is_empty(value) or (isinstance(value, float) and math.isnan(value))


def _url_key(text: str) -> str:
    u = _SCHEME.sub("", text.lower())
    u = re.split(r"[?#]", u, maxsplit=1)[0]
    u = u.removeprefix("www.")
    return u.rstrip("/")


def normalise_for_compare(field: str, value: Any) -> str:
    """The form two values of `field` are compared in (corroboration): case-insensitive text with
    whitespace collapsed; phones by their digits (a leading North American ``1`` dropped); the
    website by host and path (no scheme, ``www.``, query or trailing slash); e-mails without
    ``mailto:``; contact names by ``names.name_key``; integral numbers without ``.0``. "" for an
    empty value."""
    if _missing(value):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return str(value)
    text = " ".join(str(value).split())
    if field == "phone":
        digits = _NON_DIGIT.sub("", text)
        if len(digits) == 11 and digits[0] == "1":
            digits = digits[1:]
        return digits or text.casefold()
    if field == "website":
        return _url_key(text)
    if field == "email":
        return text.lower().removeprefix("mailto:")
    if field in _NAME_FIELDS:
        return name_key(text) or text.casefold()
    return text.casefold()


# --- one candidate ----------------------------------------------------------------------------------

def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)  # naive timestamps are UTC


def is_usable(c: FieldCandidate) -> bool:
    """False for an empty value and for an e-mail that bounces (``UNUSABLE_EMAIL_STATUSES``)."""
    if _missing(c.value):
        return False
    return not (c.field == "email" and c.email_status in UNUSABLE_EMAIL_STATUSES)


def candidate_priority(c: FieldCandidate) -> int:
    """``SOURCE_PRIORITY[field][source]`` (0 when unknown); a verified e-mail ranks as the seed's
    ``email_verify_o365`` whatever source found it."""
    table = SOURCE_PRIORITY.get(c.field, {})
    priority = table.get(c.source, 0)
    if c.field == "email" and c.email_verified:
        priority = max(priority, _EMAIL_PRIORITY[_verified_by(c)])
    return priority


def _verified_by(c: FieldCandidate) -> str:
    """The seed's source name of a verified address: SMTP's RCPT answer, else Microsoft's check."""
    return "email_verify_smtp" if c.email_status == "verified_smtp" else "email_verify_o365"


def base_confidence(c: FieldCandidate) -> float:
    """The candidate's own confidence, else its source's (``SOURCE_BASE_CONFIDENCE``, else the
    seed's ``DEFAULT_BASE``)."""
    if c.confidence is not None:
        return float(c.confidence)
    return SOURCE_BASE_CONFIDENCE.get(c.source, DEFAULT_BASE)


def is_stale(c: FieldCandidate, now: datetime, stale_after_days: int = 365) -> bool:
    """True when the value was extracted more than `stale_after_days` before `now` (undated: no)."""
    if c.extracted_at is None:
        return False
    return _aware(now) - _aware(c.extracted_at) > timedelta(days=stale_after_days)


def _person(c: FieldCandidate) -> tuple[str | None, str | None]:
    """(name, title) of the person a contact-field value belongs to, (None, None) otherwise."""
    if c.field not in CONTACT_FIELDS or (c.field == "phone" and not c.person_name):
        return None, None
    name = c.person_name or (str(c.value) if c.field == "contact_name" else None)
    title = c.person_title or (str(c.value) if c.field == "contact_title" else None)
    return name, title


def effective_confidence(c: FieldCandidate, *, corroborated: bool, now: datetime,
                         stale_after_days: int = 365) -> float:
    """``base_confidence(c)`` with the seed's modifiers, clamped to [0, 1], 2 decimals; 0.0 for an
    unusable candidate."""
    if not is_usable(c):
        return 0.0
    value = base_confidence(c)
    if c.field == "email" and c.email_verified:
        value += CONFIDENCE_MODIFIERS["email_verified_smtp" if _verified_by(c) == "email_verify_smtp"
                                      else "email_verified_o365"]
    if corroborated:
        value += CONFIDENCE_MODIFIERS["multiple_sources"]
    if is_stale(c, now, stale_after_days):
        value += CONFIDENCE_MODIFIERS["stale_data"]
    name, title = _person(c)
    if name and is_first_name_only(name):
        value += CONFIDENCE_MODIFIERS["first_name_only"]
    if title and is_generic_title(title):
        value += CONFIDENCE_MODIFIERS["generic_title"]
    return round(min(1.0, max(0.0, value)), 2)


# --- one field, one hotel -------------------------------------------------------------------------------

def _rank_key(c: FieldCandidate, eff: float, norm: str) -> tuple:
    stamp = _aware(c.extracted_at).timestamp() if c.extracted_at is not None else -math.inf
    # repr(c) last: candidates equal in every other key still sort the same whatever their input order
    return (-candidate_priority(c), -eff, -stamp, c.source, norm, repr(c))


def choose_field(field: str, candidates: Iterable[FieldCandidate], *, now: datetime,
                 stale_after_days: int = 365) -> FieldChoice | None:
    """The golden value of `field` among `candidates` (those of other fields are ignored), or None
    when no candidate is usable."""
    usable = [c for c in candidates if c.field == field and is_usable(c)]
    if not usable:
        return None
    norms = [normalise_for_compare(field, c.value) for c in usable]
    sources_by_value: dict[str, set[str]] = {}
    for c, norm in zip(usable, norms):
        sources_by_value.setdefault(norm, set()).add(c.source)
    scored = []
    for c, norm in zip(usable, norms):
        eff = effective_confidence(c, corroborated=len(sources_by_value[norm]) >= 2, now=now,
                                   stale_after_days=stale_after_days)
        scored.append((_rank_key(c, eff, norm), c, eff, norm))
    scored.sort(key=lambda t: t[0])
    _, best, best_eff, best_norm = scored[0]
    return FieldChoice(
        field=field,
        value=best.value,
        source=best.source,
        confidence=best_eff,
        source_url=best.source_url,
        extracted_at=best.extracted_at,
        sources=tuple(sorted(sources_by_value[best_norm])),
        ranked=tuple((c, eff) for _, c, eff, _ in scored),
    )


def golden_record(candidates: Iterable[FieldCandidate], *, now: datetime,
                  stale_after_days: int = 365) -> dict[str, FieldChoice]:
    """``choose_field`` for every field the candidates cover, in ``GOLDEN_FIELDS`` order, then any
    other field alphabetically; fields without a usable candidate are absent."""
    by_field: dict[str, list[FieldCandidate]] = {}
    for c in candidates:
        by_field.setdefault(c.field, []).append(c)
    order = [f for f in GOLDEN_FIELDS if f in by_field] + sorted(f for f in by_field if f not in GOLDEN_FIELDS)
    record: dict[str, FieldChoice] = {}
    for field in order:
        choice = choose_field(field, by_field[field], now=now, stale_after_days=stale_after_days)
        if choice is not None:
            record[field] = choice
    return record


def golden_values(record: Mapping[str, FieldChoice]) -> dict[str, Any]:
    """field -> chosen value, every ``GOLDEN_FIELDS`` key present (None when nothing was chosen)."""
    values: dict[str, Any] = dict.fromkeys(GOLDEN_FIELDS)
    for field, choice in record.items():
        values[field] = choice.value
    return values


def provenance_rows(choice: FieldChoice) -> list[dict[str, Any]]:
    """The seed's ``field_provenance`` rows of one field (best first): ``field_name``,
    ``field_value`` (as text), ``source``, ``confidence`` (effective), ``source_url``,
    ``extracted_at`` and ``status``: "chosen" (the winner), "corroborates" (the same value from
    another candidate) or "superseded" (a different value that lost)."""
    winner = normalise_for_compare(choice.field, choice.value)
    rows = []
    for i, (c, eff) in enumerate(choice.ranked):
        if i == 0:
            status = "chosen"
        elif normalise_for_compare(choice.field, c.value) == winner:
            status = "corroborates"
        else:
            status = "superseded"
        rows.append({
            "field_name": choice.field,
            "field_value": str(c.value),
            "source": c.source,
            "confidence": eff,
            "source_url": c.source_url,
            "extracted_at": c.extracted_at,
            "status": status,
        })
    return rows

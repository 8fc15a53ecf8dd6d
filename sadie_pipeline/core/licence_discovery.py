"""Licence registers as a discovery source: a register's lodging licence as a `hotel_sources` row
(source ``licence``). Pure logic: no Dagster, no I/O.

* Lodging only: a register's records are lodging by its config's filters (`core.licences`), so
  every loaded record is a candidate.
* Closed or inactive licences are skipped (`is_active`): a closed establishment is no lead, and a
  row for it would make entity resolution create a hotel nobody can sell to. "Delinquent" (a fee
  unpaid) is still an operating business and is kept.
* Registers shout: names, streets and cities written all in capitals get a person's casing, so
  that a hotel only the register knows does not reach the leads as "SEA BREEZE MOTEL".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sadie_pipeline.core.licences import word_case

SOURCE = "licence"
#: Statuses of a licence no longer in force, as registers write them (case and spacing ignored).
INACTIVE_STATUSES = frozenset({
    "closed", "inactive", "revoked", "suspended", "expired", "void", "null and void", "cancelled", "canceled",
    "surrendered", "out of business", "retired", "deceased",
})
#: Words kept in capitals when a shouted text is recased.
_UPPER = frozenset({"NE", "NW", "SE", "SW", "N", "S", "E", "W", "LLC", "LP", "LLP", "PO", "US", "USA", "B&B",
                    "II", "III", "IV", "RV", "FL", "TX", "CR", "SR"})
_SMALL = frozenset({"and", "of", "the", "at", "by", "on", "in", "a"})
_DIGITS_FIRST = re.compile(r"^\d+[A-Z]+$")  # 1ST, 22ND, 38A


def is_active(status: str | None) -> bool:
    """False for a licence a register marks closed, inactive, revoked ... ; unknown or empty
    statuses count as active (registers that carry no status list current licences only)."""
    return re.sub(r"\s+", " ", (status or "").strip().casefold()) not in INACTIVE_STATUSES


def _word(word: str, first: bool) -> str:
    if word in _UPPER:
        return word
    if _DIGITS_FIRST.match(word):
        return word.lower()
    if not first and word.lower() in _SMALL:
        return word.lower()
    return word_case(word)


def display_case(text: str | None) -> str | None:
    """A text written all in capitals in a person's casing ("SEA BREEZE MOTEL OF KEY WEST" ->
    "Sea Breeze Motel of Key West", "1200 NE 1ST AVE" -> "1200 NE 1st Ave"); other texts as they are."""
    if not text or not text.isupper():
        return text
    return " ".join(_word(w, k == 0) for k, w in enumerate(text.split()))


SourceRow = tuple[str, dict[str, Any], str | None]


def source_row(registry: str, licence_number: str, licence_type: str | None, business_name: str | None,
               licensee_name: str | None, address: str | None, city: str | None, state: str | None,
               zip_code: str | None, phone: str | None, source_url: str | None) -> SourceRow:
    """(external_id, record, raw key) of a licence: the establishment's (DBA) name, else the
    licensee's; the register file's URL as the raw key."""
    record = {
        "name": display_case(business_name or licensee_name), "address": display_case(address),
        "city": display_case(city), "state": state, "zip": zip_code, "phone": phone or None,
        "licence_number": licence_number, "licence_type": licence_type, "registry": registry,
    }
    return f"{registry}:{licence_number}", record, source_url


@dataclass
class LicenceDiscoveryStats:
    """What one region's discovery wrote and left aside."""

    by_type: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    preview: list[Sequence[Any]] = field(default_factory=list)
    preview_rows: int = 10

    def written(self, row: SourceRow) -> None:
        external_id, record, _ = row
        self.by_type[record["licence_type"] or "(none)"] += 1
        if len(self.preview) < self.preview_rows:
            self.preview.append((external_id, record["name"], record["address"], record["city"],
                                 record["licence_type"]))

"""One hotel's golden record from its candidate values and its people (seed 001, "Golden
Record Merge"), as pure functions; `hotels/golden.py` reads the candidates and writes the rows.

* People first: `plan_decision_maker_merge` collapses one hotel's decision makers found twice
  (another title, a first name only, the same address) by the seed's ON CONFLICT rules, keeps
  the address the golden rules prefer, and recomputes each person's confidence by the seed's
  model (base by source + modifiers).
* Then the record: `golden_row` takes each field's winner (`core.golden`); the contact is the
  owner of the chosen e-mail (or the best-named person when nobody has one), with that person's
  title. `provenance_rows` lists every usable candidate, the winners marked.
* A person's value is credited to `dm_source`: the person's source that ranks highest for the
  field (a merged person carries every source that saw them); a pattern-guessed address to
  ``email_pattern_guess``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sadie_pipeline.core.enrichment.confidence import BASE_CONFIDENCE, contact_confidence
from sadie_pipeline.core.enrichment.merge import find_match, merge_decision_maker
from sadie_pipeline.core.enrichment.names import is_first_name_only, is_generic_title
from sadie_pipeline.core.golden import GOLDEN_FIELDS, SOURCE_PRIORITY, FieldCandidate, FieldChoice, choose_field

STALE_AFTER_DAYS = 365
_INT_FIELDS = {"room_count", "review_count"}


@dataclass(frozen=True)
class DmCandidate(FieldCandidate):
    """A candidate that belongs to one decision maker (so the contact's title follows its name)."""
    dm_id: int | None = None


def dm_source(sources: Sequence[str] | None, email_status: str | None, field_name: str = "email") -> str:
    """The source a person's value is credited to: a pattern guess is one; otherwise the person's
    source that ranks highest for the field (a merged person carries every source that saw them)."""
    if email_status == "pattern_guess" and field_name == "email":
        return "email_pattern_guess"
    priority = SOURCE_PRIORITY.get(field_name, {})
    known = [s for s in sources or [] if s]
    return max(known, key=lambda s: (priority.get(s, 0), BASE_CONFIDENCE.get(s, 0.0), s), default="website_scrape")


def _dm_confidence(dm: dict[str, Any], now: datetime) -> float:
    sources = [s for s in dm.get("sources") or [] if s]
    best = max(sources, key=lambda s: BASE_CONFIDENCE.get(s, 0.0), default="")
    updated = dm.get("updated_at")
    return contact_confidence(
        best,
        email_verified_o365=bool(dm.get("email_verified")) and dm.get("email_status") != "verified_smtp",
        email_verified_smtp=bool(dm.get("email_verified")) and dm.get("email_status") == "verified_smtp",
        multiple_sources=len(set(sources)) >= 2,
        stale_data=bool(updated and now - updated > timedelta(days=STALE_AFTER_DAYS)),
        first_name_only=is_first_name_only(dm.get("full_name")),
        generic_title=is_generic_title(dm.get("title")),
    )


def plan_decision_maker_merge(people: Sequence[dict[str, Any]], now: datetime
                              ) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """One hotel's active decision makers (ordered by id) collapsed person by person: the rows to
    keep, with merged values and model confidence, and absorbed id -> surviving id."""
    groups: list[list[dict[str, Any]]] = []
    merged: list[dict[str, Any]] = []
    for dm in people:
        i = find_match(merged, dm)
        if i is None:
            groups.append([dm])
            merged.append(dict(dm))
        else:
            groups[i].append(dm)
            merged[i] = merge_decision_maker(merged[i], dm, now=now)
    keep, absorbed = [], {}
    for group, row in zip(groups, merged):
        # the survivor is the row already holding the merged (name, title): the unique key stays free
        survivor = next((g for g in group if (g["full_name"], g["title"]) == (row["full_name"], row["title"])),
                        group[0])
        row["id"] = survivor["id"]
        _pick_email(row, group, now)
        row["confidence"] = _dm_confidence(row, now)
        keep.append(row)
        for g in group:
            if g["id"] != survivor["id"]:
                absorbed[g["id"]] = survivor["id"]
    return keep, absorbed


def _pick_email(row: dict[str, Any], group: Sequence[dict[str, Any]], now: datetime) -> None:
    """A person found with several addresses keeps the one the golden rules prefer (source
    priority, then confidence), not merely the one found with the higher confidence."""
    found = [g for g in group if g.get("email")]
    if len({g["email"].strip().lower() for g in found}) < 2:
        return
    choice = choose_field("email", [_email_candidate(g) for g in found], now=now, stale_after_days=STALE_AFTER_DAYS)
    if choice is not None:
        owner = next(g for g in found if g["email"] == choice.value)
        row["email"], row["email_status"] = owner["email"], owner.get("email_status")
        row["email_verified"] = bool(owner.get("email_verified"))


def _email_candidate(dm: dict[str, Any]) -> FieldCandidate:
    return FieldCandidate("email", dm["email"], dm_source(dm.get("sources"), dm.get("email_status")),
                          email_status=dm.get("email_status"), email_verified=bool(dm.get("email_verified")),
                          person_name=dm.get("full_name"), person_title=dm.get("title"),
                          extracted_at=dm.get("updated_at"))


def _dm_of(choice: FieldChoice | None) -> int | None:
    if choice is None:
        return None
    for candidate, _ in choice.ranked:
        if candidate.value == choice.value and candidate.source == choice.source:
            return getattr(candidate, "dm_id", None)
    return None


def golden_row(hotel_id: int, region: str, choices: dict[str, FieldChoice],
               titles: dict[int, str]) -> dict[str, Any]:
    """The golden_hotels row: each field's winner; the contact is the owner of the chosen e-mail
    (or the best-named person when nobody has one), with that person's title."""
    row: dict[str, Any] = {"hotel_id": hotel_id, "region": region}
    for name in GOLDEN_FIELDS:
        choice = choices.get(name)
        value = choice.value if choice is not None else None
        if value is not None and name in _INT_FIELDS:
            value = int(float(value))
        row[name] = value
    contact_dm = _dm_of(choices.get("email")) or _dm_of(choices.get("contact_name"))
    if contact_dm is not None:
        email_choice, name_choice = choices.get("email"), choices.get("contact_name")
        owner_name = next((c.person_name for c, _ in (email_choice.ranked if email_choice else ())
                           if getattr(c, "dm_id", None) == contact_dm), None)
        row["contact_name"] = owner_name or (name_choice.value if name_choice else None)
        row["contact_title"] = titles.get(contact_dm) or None
    else:
        row["contact_title"] = None
    row["contact_dm_id"] = contact_dm
    row["field_sources"] = {name: {"source": c.source, "confidence": c.confidence, "sources": list(c.sources)}
                            for name, c in sorted(choices.items())}
    row["filled_fields"] = sum(1 for name in GOLDEN_FIELDS if row.get(name) not in (None, ""))
    row["total_fields"] = len(GOLDEN_FIELDS)
    payload = json.dumps({k: row[k] for k in sorted(row)}, default=str, sort_keys=True)
    row["record_hash"] = hashlib.sha256(payload.encode()).hexdigest()
    return row


def provenance_rows(hotel_id: int, choices: dict[str, FieldChoice]) -> Iterable[tuple[Any, ...]]:
    """(hotel_id, dm_id, field, value, source, confidence, source_url, extracted_at, is_winner) for
    every usable candidate; one candidate per (field, source, value), the best-ranked."""
    for name, choice in choices.items():
        seen: set[tuple[str, str]] = set()
        for candidate, confidence in choice.ranked:
            key = (candidate.source, str(candidate.value))
            if key in seen:
                continue
            seen.add(key)
            winner = candidate.source == choice.source and candidate.value == choice.value
            yield (hotel_id, getattr(candidate, "dm_id", None), name, str(candidate.value), candidate.source,
                   confidence, candidate.source_url, candidate.extracted_at, winner)

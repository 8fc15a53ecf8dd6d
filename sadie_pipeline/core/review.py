"""What a reviewer reads of a staged row, in their words: what approving (or rejecting) it does, why
it waits for a person, its fields beside the live listing's (a blank staged field proposes
nothing), and where a change meets a hand edit, which fields the person chooses for."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any

from sadie_pipeline.core.listing_fields import ListingField, RecordField

#: The fields shown and chosen for: those a person can edit by hand.
LISTING_FIELDS = tuple(f.value for f in ListingField)
INFO_FIELDS = tuple(f.value for f in RecordField)
FIELDS = LISTING_FIELDS + INFO_FIELDS


class ReviewState(StrEnum):
    """Where a row sent to review is; every review figure counts rows by these."""
    WAITING = "waiting"        # pending: a person has to decide
    DECIDED = "decided"        # approved or rejected by a person
    SUPERSEDED = "superseded"  # a later import came before a decision was applied


class Choice(StrEnum):
    """Where a change meets a hand edit, per field: what promotion writes."""
    MINE = "mine"      # keep the live (hand-edited) value
    THEIRS = "theirs"  # take the DMO's value


@dataclass(frozen=True)
class Effect:
    kind: str   # a badge class: insert, update, delete, duplicate, unchanged
    words: str  # "attach to listing 31"


@dataclass(frozen=True)
class Side:
    field: str
    staged: Any
    other: Any
    differs: bool          # the staged value is another value than the one compared with
    blank: bool            # the staged row has no value here: it proposes nothing
    choice: Choice | None  # a person chooses here, and what is chosen unless they change it
    hand_edited: bool      # a person edited this field of the live listing


def is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _norm(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (Decimal, float)):
        return f"{float(value):.6f}"
    return " ".join(str(value).split()).casefold()


def approving_does(row: Mapping[str, Any]) -> Effect:
    """What approving the row does to the live listings (promotion applies it)."""
    target, action = row.get("target_listing_id"), row.get("action")
    if action == "delete":
        if row.get("l_action") == "delete":
            return Effect("delete", f"delete listing {target}")
        return Effect("delete", f"drop {row.get('dmo') or 'this DMO'} from listing {target}")
    if action == "duplicate":
        return Effect("duplicate", f"same place as row #{row.get('duplicate_of')}")
    if target is None or row.get("l_action") == "insert":
        return Effect("insert", "new listing")
    if row.get("li_action") == "insert":
        return Effect("update", f"attach to listing {target}")
    if action == "update":
        return Effect("update", f"update listing {target}")
    return Effect("unchanged", f"no change to listing {target}")


def _fuzzy_pairing(row: Mapping[str, Any]) -> bool:
    # as review.sql's reject_as_new: an unsure match or a near duplicate
    return row.get("match_method") == "fuzzy" and (
        row.get("action") == "duplicate" or (row.get("review_reason") or "").startswith("fuzzy match"))


def rejecting_does(row: Mapping[str, Any]) -> Effect:
    if _fuzzy_pairing(row):
        return Effect("insert", "new listing instead")
    if row.get("action") == "delete":
        return Effect("unchanged", f"keep listing {row.get('target_listing_id')}")
    return Effect("unchanged", "nothing changes")


def decision_words(decision: str, row: Mapping[str, Any]) -> str:
    """What a decision does, read from the row as the decision left it."""
    if decision == "rejected":
        return "new listing" if row.get("ok_to_promote") else rejecting_does(row).words
    return approving_does(row).words


def _pct(certainty: str | None) -> str:
    return f"{round(float(certainty) * 100)} % sure" if certainty else "unsure"


def _listing(number: str, row: Mapping[str, Any]) -> str:
    name = row.get("live_name")
    return f"listing {number} “{name}”" if name and str(row.get("target_listing_id")) == number else f"listing {number}"


_FUZZY = re.compile(r"fuzzy match to listing (\d+) with certainty ([0-9.]+)(.*)")
_DUPLICATE = re.compile(r"duplicate of staged row (\d+)(?: \(certainty ([0-9.]+)\))?")
_EDITED = re.compile(r"(listing|listing_info) (\d+) was edited by hand")
_HAND_MATCH = re.compile(r"matched by hand to listing (\d+)")
_LATE = " (created by another import while this one was staged)"


def _part_words(part: str, row: Mapping[str, Any]) -> str:
    dmo = row.get("dmo") or "the DMO"
    if m := _FUZZY.fullmatch(part):
        tail, late = m.group(3), _LATE in m.group(3)
        extra = tail.replace(_LATE, "").strip().removeprefix("(").removesuffix(")")
        words = f"Maybe the same place as {_listing(m.group(1), row)} ({_pct(m.group(2))}{'; ' + extra if extra else ''})"
        return words + (", a listing another import added while this one was being staged" if late else "")
    if m := _DUPLICATE.fullmatch(part):
        return f"{dmo} sent this place twice: it looks like row #{m.group(1)} ({_pct(m.group(2))})"
    if m := _EDITED.fullmatch(part):
        target = str(row.get("target_listing_id") or m.group(2))
        what = "L" + _listing(target, row)[1:] if m.group(1) == "listing" \
            else f"{dmo}'s description and contact details of {_listing(target, row)}"
        verb, them = ("was", "it") if m.group(1) == "listing" else ("were", "them")
        return f"{what} {verb} edited by hand, and this import would change {them}: choose per field what to keep"
    if part == "absent from a full import":
        return f"{dmo}'s latest full import no longer has it"
    if m := _HAND_MATCH.fullmatch(part):
        return f"matched by hand to {_listing(m.group(1), row)}"
    return part


def reason_words(row: Mapping[str, Any]) -> str:
    """Why the row waits for a person, for the person (review_reason is written for the logs)."""
    reason = row.get("review_reason") or ""
    return "; ".join(_part_words(p.strip(), row) for p in reason.split("; ") if p.strip())


def _compared(row: Mapping[str, Any]) -> tuple[str | None, str | None]:
    if row.get("target_listing_id") is not None:
        return "live_", f"live listing {row['target_listing_id']}"
    if row.get("duplicate_of") is not None:
        return "dup_", f"staged row {row['duplicate_of']}"
    return None, None


def _would_change(row: Mapping[str, Any], field: str) -> bool:
    """Whether approving writes this field to a hand-edited live listing (or its DMO record)."""
    if field in LISTING_FIELDS:
        return row.get("l_action") == "update" and bool(row.get("live_manual"))
    return row.get("li_action") == "update" and bool(row.get("live_info_manual"))


def sides(row: Mapping[str, Any], hand_edited: Collection[str] = ()) -> tuple[str | None, list[Side]]:
    """What the row is compared with ("live listing N", "staged row N" or None) and its fields; a
    field the change would write over a hand edit is a choice (keep mine for a field edited by hand)."""
    prefix, against = _compared(row)
    out = []
    for f in FIELDS:
        staged = row.get(f)
        other = row.get(prefix + f) if prefix else None
        blank = is_blank(staged)
        differs = prefix is not None and row.get("row_kind") != "deletion" and not blank and _norm(staged) != _norm(other)
        choice = None
        if differs and prefix == "live_" and _would_change(row, f):
            choice = Choice.MINE if f in hand_edited else Choice.THEIRS
        out.append(Side(f, staged, other, differs, blank, choice, f in hand_edited))
    return against, out


def kept_fields(chosen: Mapping[str, str]) -> list[str]:
    """The fields a person chose to keep ("mine"), from {field: choice}; other names are ignored."""
    return [f for f in FIELDS if chosen.get(f) == Choice.MINE]

"""Launch criteria: which scored hotels go live (seed 000, "Stage 5: Launch": "checks if each
hotel meets quality criteria (score threshold, required fields, tier 1, etc.) ... logs which
hotels were launched vs. rejected").

``launch_decision(hotel, criteria)`` lists why a hotel is rejected; an empty list launches it.
`hotel` is a mapping with ``score``, ``tier`` and the golden field names (``golden.GOLDEN_FIELDS``).
A value is missing when it is None, NaN or blank (an empty string, list ...). Reasons, in this order:

======================  ================  ==========================================================
reason                  kind              when
======================  ================  ==========================================================
``missing score``       missing score     no score
``score 42 < 60``       score             score below ``min_score``
``missing tier``        missing tier      no tier while ``tiers`` restricts them
``tier 2 not in (1,)``  tier              tier not in ``tiers`` (an empty ``tiers`` allows any tier)
``missing website``     missing website   each of ``required_fields`` without a value, in order
``no contact email``    no contact email  ``require_contact_email`` and no ``email`` nor
                                          ``contact_email`` value, nor ``contacts_with_email`` > 0
======================  ================  ==========================================================

``launch_summary`` counts launched and rejected hotels and the rejections by reason kind (the
reason up to its first number: ``reason_kind``); a hotel rejected for two reasons counts under both.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from .enrichment.merge import is_empty

__all__ = ["LaunchCriteria", "launch_decision", "launch_summary", "reason_kind"]


@dataclass(frozen=True)
class LaunchCriteria:
    min_score: int = 60
    required_fields: tuple[str, ...] = ("name", "city", "website")
    tiers: tuple[int, ...] = (1,)
    require_contact_email: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.min_score <= 100:
            raise ValueError(f"min_score must be within 0..100, not {self.min_score}")
        # lists from YAML/JSON config become tuples, so the criteria stay hashable and printable
        object.__setattr__(self, "required_fields", tuple(self.required_fields))
        object.__setattr__(self, "tiers", tuple(self.tiers))

    @classmethod
    def from_mapping(cls, m: Mapping[str, Any]) -> LaunchCriteria:
        """Criteria from config; keys not given keep their default, unknown keys are a ValueError."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(m) - known)
        if unknown:
            raise ValueError(f"unknown launch criteria: {unknown} (known: {sorted(known)})")
        return cls(**m)


def _missing(value: Any) -> bool:
    return is_empty(value) or (isinstance(value, float) and math.isnan(value))


def _num(value: Any) -> Any:
    """4.0 -> 4 in reasons (DataFrames turn integer columns with gaps into floats)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _has_contact_email(hotel: Mapping[str, Any]) -> bool:
    if not _missing(hotel.get("email")) or not _missing(hotel.get("contact_email")):
        return True
    with_email = hotel.get("contacts_with_email")
    return not _missing(with_email) and with_email > 0


def launch_decision(hotel: Mapping[str, Any], criteria: LaunchCriteria) -> list[str]:
    """Why `hotel` must not launch under `criteria` (empty: launch it)."""
    reasons: list[str] = []
    score = hotel.get("score")
    if _missing(score):
        reasons.append("missing score")
    elif score < criteria.min_score:
        reasons.append(f"score {_num(score)} < {criteria.min_score}")
    if criteria.tiers:
        tier = hotel.get("tier")
        if _missing(tier):
            reasons.append("missing tier")
        elif tier not in criteria.tiers:
            reasons.append(f"tier {_num(tier)} not in {criteria.tiers}")
    for field in criteria.required_fields:
        if _missing(hotel.get(field)):
            reasons.append(f"missing {field}")
    if criteria.require_contact_email and not _has_contact_email(hotel):
        reasons.append("no contact email")
    return reasons


def reason_kind(reason: str) -> str:
    """The reason up to its first number: "score 42 < 60" -> "score", "tier 2 not in (1,)" ->
    "tier", "missing website" -> "missing website" (a field such as ``address1`` is no number)."""
    words = []
    for word in reason.split():
        if word.lstrip("-+(")[:1].isdigit():
            break
        words.append(word)
    return " ".join(words) or reason


def launch_summary(decisions: Iterable[tuple[int, list[str]]]) -> dict[str, Any]:
    """``{"total", "launched", "rejected", "reasons": {kind: hotels}}`` of ``(hotel_id, reasons)``
    pairs; reasons sorted by count (most frequent first), then by kind."""
    launched = rejected = 0
    kinds: Counter[str] = Counter()
    for _hotel_id, reasons in decisions:
        if reasons:
            rejected += 1
            kinds.update({reason_kind(r) for r in reasons})
        else:
            launched += 1
    return {
        "total": launched + rejected,
        "launched": launched,
        "rejected": rejected,
        "reasons": dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
    }

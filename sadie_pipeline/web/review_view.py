"""What the review page shows of a staged row: its fields beside the live ones (or, for a duplicate,
the staged row it duplicates), each difference marked, and the match explanation in words."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sadie_pipeline.core.places.score import describe

FIELDS = ("name", "category", "address1", "city", "state", "zip", "lat", "lng",
          "description", "email", "local_phone", "website_url")

#: The reason filter: a label for each kind of review_reason, and the LIKE pattern that finds it.
REASONS = {
    "fuzzy": ("unsure match", "fuzzy match%"),
    "duplicate": ("duplicate", "duplicate of%"),
    "edited": ("edited by hand", "%edited by hand%"),
    "absent": ("absent from a full import", "absent from%"),
}


@dataclass(frozen=True)
class Side:
    field: str
    staged: Any
    other: Any
    differs: bool


def _norm(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (Decimal, float)):
        return f"{float(value):.6f}"
    return " ".join(str(value).split()).casefold()


def sides(row: dict[str, Any]) -> tuple[str | None, list[Side]]:
    """What the row is compared with ("live listing N", "staged row N" or None) and its fields."""
    if row["target_listing_id"] is not None:
        prefix, against = "live_", f"live listing {row['target_listing_id']}"
    elif row["duplicate_of"] is not None:
        prefix, against = "dup_", f"staged row {row['duplicate_of']}"
    else:
        prefix, against = None, None
    out = []
    for f in FIELDS:
        staged = row.get(f)
        other = row.get(prefix + f) if prefix else None
        differs = prefix is not None and row["row_kind"] != "deletion" and _norm(staged) != _norm(other)
        out.append(Side(f, staged, other, differs))
    return against, out


def explanation(row: dict[str, Any]) -> list[tuple[str, str, float]]:
    """Each compared field: its level and weight (positive: agreed), from match_explanation."""
    why = row.get("match_explanation") or {}
    return [(f, v["level"], float(v["weight"])) for f, v in why.items() if isinstance(v, dict)]


def explanation_line(row: dict[str, Any]) -> str:
    return describe(row.get("match_explanation"))


def reason_pattern(reason: str | None) -> str | None:
    return REASONS[reason][1] if reason in REASONS else None

"""What the review page shows of a staged row (core/review.py says it in the reviewer's words): its
fields beside the live ones (or, for a duplicate, the staged row it duplicates), what approving and
rejecting do, why it waits, the match explanation, and the choices where a change meets a hand edit."""

from __future__ import annotations

from typing import Any

from sadie_pipeline.core.places.score import describe
from sadie_pipeline.core.review import (
    ReviewState,
    approving_does,
    decision_words,
    reason_words,
    rejecting_does,
    sides,
)

#: The reason filter: a label for each kind of review_reason, and the LIKE pattern that finds it.
REASONS = {
    "fuzzy": ("unsure match", "fuzzy match%"),
    "duplicate": ("duplicate", "duplicate of%"),
    "edited": ("edited by hand", "%edited by hand%"),
    "absent": ("absent from a full import", "absent from%"),
}


def explanation(row: dict[str, Any]) -> list[tuple[str, str, float]]:
    """Each compared field: its level and weight (positive: agreed), from match_explanation."""
    why = row.get("match_explanation") or {}
    return [(f, v["level"], float(v["weight"])) for f, v in why.items() if isinstance(v, dict)]


def explanation_line(row: dict[str, Any]) -> str:
    return describe(row.get("match_explanation"))


def reason_pattern(reason: str | None) -> str | None:
    return REASONS[reason][1] if reason in REASONS else None


def item(row: dict[str, Any]) -> dict[str, Any]:
    """A queue item: the row and what the page says of it."""
    against, fields = sides(row, row.get("hand_edited") or ())
    return {"row": row, "against": against, "fields": fields, "why": explanation(row),
            "why_line": explanation_line(row), "approving": approving_does(row), "rejecting": rejecting_does(row),
            "reason": reason_words(row), "choosing": any(s.choice for s in fields)}


def job_item(row: dict[str, Any]) -> dict[str, Any]:
    """A job's row sent to review: where it is (core/review.py ReviewState) and what deciding did or does."""
    status = row["review_status"]
    if status == "pending":
        state, does = ReviewState.WAITING, "approving: " + approving_does(row).words
    elif status == "superseded":
        state, does = ReviewState.SUPERSEDED, "a later import came before a decision was applied"
    else:
        state, does = ReviewState.DECIDED, f"{status}: {decision_words(status, row)}"
    return {**row, "state": state, "does": does, "reason": reason_words(row)}


def decision(row: dict[str, Any]) -> dict[str, Any]:
    """A decision with what it does in words ("approved: attach to listing 31")."""
    return {**row, "words": decision_words(row["decision"], row)}

"""A salesperson's decision on a lead before the daily launch (issue 33), and how the launch treats it.

Decisions are rows (sadie_gtm.lead_decisions); the newest of a hotel stands. ``approved`` launches
the hotel even when a criterion would reject it (the launch records the reasons it overrode);
``rejected`` keeps it out with the person's reason recorded like the criteria's; ``held`` keeps it
out of the launch of its ``held_for`` date only, after which the hotel is undecided again;
``cleared`` takes the decision back. Undecided hotels follow the criteria (``core.launch``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from zoneinfo import ZoneInfo

__all__ = ["LAUNCH_HOUR", "DecisionError", "LeadDecision", "Standing", "Verdict", "check_decision",
           "launch_day", "next_launch_day", "standing", "verdict"]

LAUNCH_HOUR = 6  # hotels/schedules.py daily_launch_schedule: 06:00 in the schedules' time zone
MAX_REASON = 500


class LeadDecision(StrEnum):
    APPROVED = "approved"
    HELD = "held"
    REJECTED = "rejected"
    CLEARED = "cleared"  # undo: the hotel is undecided again

    @property
    def needs_reason(self) -> bool:
        return self in (LeadDecision.HELD, LeadDecision.REJECTED)


class Verdict(StrEnum):
    """What the launch does with a scored hotel."""
    LAUNCH = "launch"
    REJECT = "reject"
    HOLD = "hold"


class DecisionError(ValueError):
    """A person's mistake in a decision (unknown decision, missing reason): one line."""


@dataclass(frozen=True)
class Standing:
    """A hotel's newest decision."""
    decision: LeadDecision
    reason: str | None
    decided_by: str
    held_for: dt.date | None = None


def check_decision(decision: str, reason: str | None) -> tuple[LeadDecision, str | None]:
    """The decision and its reason, cleaned (control characters out, blank -> None), or DecisionError."""
    try:
        chosen = LeadDecision((decision or "").strip().lower())
    except ValueError:
        raise DecisionError(f"unknown decision {decision[:20]!r}: approved, held, rejected or cleared") from None
    text = " ".join("".join(c if c.isprintable() else " " for c in reason or "").split()) or None
    if chosen.needs_reason and not text:
        raise DecisionError(f"a lead {chosen} needs a reason")
    if text and len(text) > MAX_REASON:
        raise DecisionError(f"the reason is longer than {MAX_REASON} characters")
    return chosen, text


def standing(decision: str | None, reason: str | None, decided_by: str | None, held_for: dt.date | None,
             day: dt.date) -> Standing | None:
    """The newest decision as it stands for the launch of `day`: None when there is none, when it
    was cleared, or when it is a hold for an earlier launch (the hold is over)."""
    if decision is None or decision == LeadDecision.CLEARED:
        return None
    chosen = LeadDecision(decision)
    if chosen is LeadDecision.HELD and (held_for is None or held_for < day):
        return None
    return Standing(chosen, reason, decided_by or "?", held_for)


def verdict(criteria_reasons: list[str], decision: Standing | None) -> tuple[Verdict, list[str]]:
    """(what the launch does, the reasons it records on the hotel); an approval launches whatever
    the criteria say (their reasons are what it overrode, recorded on the decision)."""
    if decision is None:
        return (Verdict.REJECT, criteria_reasons) if criteria_reasons else (Verdict.LAUNCH, [])
    if decision.decision is LeadDecision.APPROVED:
        return Verdict.LAUNCH, []
    if decision.decision is LeadDecision.REJECTED:
        return Verdict.REJECT, [f"rejected by {decision.decided_by}: {decision.reason}"]
    return Verdict.HOLD, [f"held by {decision.decided_by} for the launch of {decision.held_for}: {decision.reason}"]


def launch_day(moment: dt.datetime, timezone: str) -> dt.date:
    """The date of a launch running at `moment`, in the schedules' time zone."""
    return moment.astimezone(ZoneInfo(timezone)).date()


def next_launch_day(moment: dt.datetime, timezone: str) -> dt.date:
    """The date of the first 06:00 launch after `moment`: a hold made then skips that launch."""
    local = moment.astimezone(ZoneInfo(timezone))
    return local.date() if local.hour < LAUNCH_HOUR else local.date() + dt.timedelta(days=1)

"""A salesperson's decision as the launch reads it: which launch a hold skips, when it is over, what
each decision does with the criteria's reasons, and a person's mistakes in one line."""

from __future__ import annotations

import datetime as dt

import pytest

from sadie_pipeline.core.lead_decisions import (
    DecisionError,
    LeadDecision,
    Verdict,
    check_decision,
    next_launch_day,
    standing,
    verdict,
)

NY = "America/New_York"
DAY = dt.date(2026, 11, 30)


def test_a_hold_names_the_first_launch_after_it():
    assert next_launch_day(dt.datetime(2026, 11, 30, 10, 59, tzinfo=dt.UTC), NY) == DAY  # 05:59 in New York
    assert next_launch_day(dt.datetime(2026, 11, 30, 11, 0, tzinfo=dt.UTC), NY) == DAY + dt.timedelta(days=1)


def test_a_hold_is_over_after_its_launch_and_a_cleared_decision_is_none():
    assert standing("held", "call back", "sam", DAY, DAY).decision is LeadDecision.HELD
    assert standing("held", "call back", "sam", DAY, DAY + dt.timedelta(days=1)) is None
    assert standing("cleared", None, "sam", None, DAY) is None and standing(None, None, None, None, DAY) is None
    assert standing("rejected", "no", "sam", None, DAY + dt.timedelta(days=9)).decision is LeadDecision.REJECTED


def test_each_decision_over_the_criteria():
    reasons = ["score 42 < 60"]
    assert verdict(reasons, None) == (Verdict.REJECT, reasons)
    assert verdict([], None) == (Verdict.LAUNCH, [])
    assert verdict(reasons, standing("approved", None, "sam", None, DAY)) == (Verdict.LAUNCH, [])
    assert verdict([], standing("rejected", "owner said no", "sam", None, DAY)) == (
        Verdict.REJECT, ["rejected by sam: owner said no"])
    assert verdict([], standing("held", "later", "sam", DAY, DAY)) == (
        Verdict.HOLD, ["held by sam for the launch of 2026-11-30: later"])


def test_mistakes_are_one_line():
    assert check_decision(" Approved ", "  fine \x00 by me ") == (LeadDecision.APPROVED, "fine by me")
    for decision, reason, message in (("maybe", "", "unknown decision 'maybe'"), ("rejected", " ", "needs a reason"),
                                      ("held", "x" * 501, "longer than 500")):
        with pytest.raises(DecisionError, match=message):
            check_decision(decision, reason)

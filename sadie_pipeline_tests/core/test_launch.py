"""Unit tests for sadie_pipeline.core.launch: rejection reasons of the daily launch and their
summary by kind."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.launch import LaunchCriteria, launch_decision, launch_summary, reason_kind

GOOD = {
    "score": 72, "tier": 1, "name": "Harbour Inn", "city": "Halifax", "website": "https://harbourinn.ca",
    "email": None, "room_count": 24,
}
DEFAULT = LaunchCriteria()


def test_a_hotel_meeting_every_criterion_launches():
    assert launch_decision(GOOD, DEFAULT) == []
    assert launch_decision({**GOOD, "score": 60}, DEFAULT) == []  # the threshold itself passes


def test_score_below_threshold():
    assert launch_decision({**GOOD, "score": 42}, DEFAULT) == ["score 42 < 60"]
    assert launch_decision({**GOOD, "score": 42.0}, DEFAULT) == ["score 42 < 60"]
    assert launch_decision({**GOOD, "score": 72}, LaunchCriteria(min_score=80)) == ["score 72 < 80"]
    assert launch_decision({**GOOD, "score": None}, DEFAULT) == ["missing score"]
    assert launch_decision({k: v for k, v in GOOD.items() if k != "score"}, DEFAULT) == ["missing score"]


def test_tier_must_be_allowed():
    assert launch_decision({**GOOD, "tier": 2}, DEFAULT) == ["tier 2 not in (1,)"]
    assert launch_decision({**GOOD, "tier": 2.0}, DEFAULT) == ["tier 2 not in (1,)"]
    assert launch_decision({**GOOD, "tier": None}, DEFAULT) == ["missing tier"]
    assert launch_decision({**GOOD, "tier": 2}, LaunchCriteria(tiers=(1, 2))) == []
    assert launch_decision({**GOOD, "tier": None}, LaunchCriteria(tiers=())) == []  # no tier restriction


@pytest.mark.parametrize("blank", [None, "", "   ", float("nan")])
def test_required_fields_must_have_a_value(blank):
    assert launch_decision({**GOOD, "website": blank}, DEFAULT) == ["missing website"]


def test_required_fields_are_configurable():
    criteria = LaunchCriteria(required_fields=("name", "room_count", "address"))
    assert launch_decision({**GOOD, "room_count": 0}, criteria) == ["missing address"]  # 0 is a value
    assert launch_decision({**GOOD, "website": None}, criteria) == ["missing address"]


def test_contact_email_when_required():
    criteria = LaunchCriteria(require_contact_email=True)
    assert launch_decision(GOOD, criteria) == ["no contact email"]
    assert launch_decision(GOOD, DEFAULT) == []
    assert launch_decision({**GOOD, "email": "maria@harbourinn.ca"}, criteria) == []
    assert launch_decision({**GOOD, "contact_email": "maria@harbourinn.ca"}, criteria) == []
    assert launch_decision({**GOOD, "contacts_with_email": 1}, criteria) == []
    assert launch_decision({**GOOD, "contacts_with_email": 0}, criteria) == ["no contact email"]


def test_every_reason_is_listed_in_order():
    hotel = {"score": 10, "tier": 2, "name": "Harbour Inn", "city": "", "website": None}
    assert launch_decision(hotel, LaunchCriteria(require_contact_email=True)) == [
        "score 10 < 60", "tier 2 not in (1,)", "missing city", "missing website", "no contact email",
    ]


def test_criteria_from_mapping_and_validation():
    c = LaunchCriteria.from_mapping({"min_score": 50, "tiers": [1, 2], "required_fields": ["name"]})
    assert c == LaunchCriteria(min_score=50, tiers=(1, 2), required_fields=("name",))
    assert launch_decision({**GOOD, "score": 49, "tier": 2}, c) == ["score 49 < 50"]
    with pytest.raises(ValueError, match="'min_scroe'"):
        LaunchCriteria.from_mapping({"min_scroe": 50})
    with pytest.raises(ValueError, match="0..100"):
        LaunchCriteria(min_score=150)


def test_reason_kind():
    assert reason_kind("score 42 < 60") == "score"
    assert reason_kind("score 42.5 < 60") == "score"
    assert reason_kind("tier 2 not in (1,)") == "tier"
    assert reason_kind("missing website") == "missing website"
    assert reason_kind("missing address1") == "missing address1"
    assert reason_kind("no contact email") == "no contact email"


def test_launch_summary_counts_hotels_and_reasons():
    decisions = [
        (1, []),
        (2, ["score 42 < 60"]),
        (3, ["score 12 < 60", "missing website", "tier 2 not in (1,)"]),
        (4, ["missing website"]),
        (5, []),
    ]
    summary = launch_summary(decisions)
    assert summary == {
        "total": 5, "launched": 2, "rejected": 3,
        "reasons": {"missing website": 2, "score": 2, "tier": 1},
    }
    assert list(summary["reasons"]) == ["missing website", "score", "tier"]
    assert launch_summary([]) == {"total": 0, "launched": 0, "rejected": 0, "reasons": {}}


def test_decisions_feed_the_summary():
    hotels = {1: GOOD, 2: {**GOOD, "score": 20}, 3: {**GOOD, "website": ""}}
    summary = launch_summary((hid, launch_decision(h, DEFAULT)) for hid, h in hotels.items())
    assert (summary["launched"], summary["rejected"]) == (1, 2)
    assert summary["reasons"] == {"missing website": 1, "score": 1}

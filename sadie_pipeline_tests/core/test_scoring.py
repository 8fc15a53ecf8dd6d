"""Unit tests for sadie_pipeline.core.scoring: weights validation, each component's curve at its
edges, missing inputs, rounding and clamping of the 0-100 lead score."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from sadie_pipeline.core.scoring import (
    COMPONENTS,
    LeadInput,
    ScoreWeights,
    completeness_fraction,
    contacts_fraction,
    location_fraction,
    rating_fraction,
    room_count_fraction,
    score_lead,
    score_leads,
    tier_fraction,
)

PERFECT = LeadInput(
    hotel_id=1, tier=1, room_count=60, rating=5.0, review_count=400, nearest_attraction_km=0.5,
    attractions_within_5km=12, filled_fields=16, total_fields=16, contacts=2, contacts_with_email=2,
    contacts_deliverable=2, contacts_verified=1,
)
EMPTY = LeadInput(
    hotel_id=2, tier=None, room_count=None, rating=None, review_count=None, nearest_attraction_km=None,
    attractions_within_5km=None, filled_fields=0, total_fields=16, contacts=0, contacts_with_email=0,
    contacts_deliverable=0, contacts_verified=0,
)
ONLY_COMPLETENESS = ScoreWeights(booking_engine_tier=0, room_count=0, rating_reviews=0, location=0,
                                 completeness=100, verified_contacts=0)


# --- weights ----------------------------------------------------------------------------------------

def test_default_weights_sum_to_100():
    w = ScoreWeights()
    assert sum(w.as_dict().values()) == 100
    assert tuple(w.as_dict()) == COMPONENTS


def test_weights_must_sum_to_100():
    with pytest.raises(ValueError, match="sum to 100"):
        ScoreWeights(booking_engine_tier=30)
    with pytest.raises(ValueError, match=">= 0"):
        ScoreWeights(booking_engine_tier=45, room_count=-20, rating_reviews=15, location=15, completeness=35)
    with pytest.raises(ValueError, match="finite"):
        ScoreWeights(booking_engine_tier=math.nan)


def test_weights_from_mapping():
    w = ScoreWeights.from_mapping({"booking_engine_tier": 35, "verified_contacts": 0})
    assert (w.booking_engine_tier, w.verified_contacts, w.room_count) == (35, 0, 20)
    with pytest.raises(ValueError, match="'colour'.*'vibes'"):
        ScoreWeights.from_mapping({"vibes": 10, "colour": 5})
    with pytest.raises(ValueError, match="sum to 100"):
        ScoreWeights.from_mapping({"room_count": 50})


# --- component curves -------------------------------------------------------------------------------

def test_tier_curve():
    assert tier_fraction(1) == 1.0
    assert tier_fraction(2) == 0.4
    assert tier_fraction(3) == 0.0
    assert tier_fraction(1.0) == 1.0  # DataFrame floats


def test_room_count_curve_edges():
    assert room_count_fraction(0) == 0.0
    assert room_count_fraction(1) == pytest.approx(0.4)
    assert 0.4 < room_count_fraction(5) < 1.0
    assert room_count_fraction(10) == 1.0
    assert room_count_fraction(150) == 1.0
    assert room_count_fraction(325) == pytest.approx(0.65)
    assert room_count_fraction(500) == pytest.approx(0.3)
    assert room_count_fraction(3000) == pytest.approx(0.3)
    values = [room_count_fraction(n) for n in range(1, 11)]
    assert values == sorted(values)
    values = [room_count_fraction(n) for n in range(150, 600, 10)]
    assert values == sorted(values, reverse=True)


def test_rating_reviews_curve():
    assert rating_fraction(4.5, 0) == 0.0
    assert rating_fraction(0, 100) == 0.0
    assert rating_fraction(4.0, 200) == pytest.approx(0.8)
    assert rating_fraction(4.0, 5000) == pytest.approx(0.8)  # reviews saturate at 200
    assert rating_fraction(6.0, 5000) == 1.0  # a rating out of scale is capped
    assert rating_fraction(4.8, 3) < rating_fraction(4.0, 50) < rating_fraction(4.0, 150)


def test_location_curve():
    assert location_fraction(0.2, 10) == pytest.approx(1.0)
    assert location_fraction(1.0, 0) == pytest.approx(0.75)
    assert location_fraction(13.0, 0) == pytest.approx(0.375)
    assert location_fraction(25.0, 0) == 0.0
    assert location_fraction(80.0, 5) == pytest.approx(0.125)
    assert location_fraction(0.5, None) == pytest.approx(0.75)
    assert location_fraction(0.5, 40) == pytest.approx(1.0)


def test_completeness_curve():
    assert completeness_fraction(8, 16) == 0.5
    assert completeness_fraction(20, 16) == 1.0
    assert completeness_fraction(0, 16) == 0.0


def test_contacts_order_verified_deliverable_email_any_none():
    verified = contacts_fraction(1, 1, 1, 1)
    deliverable = contacts_fraction(1, 1, 1, 0)
    with_email = contacts_fraction(1, 1, 0, 0)
    name_only = contacts_fraction(1, 0, 0, 0)
    nobody = contacts_fraction(0, 0, 0, 0)
    assert verified == 1.0 and nobody == 0.0
    assert verified > deliverable > with_email > name_only > nobody


# --- the score --------------------------------------------------------------------------------------

def test_perfect_and_empty_leads():
    score, details = score_lead(PERFECT)
    assert score == 100 and details["total"] == 100
    assert all(details[c]["fraction"] == 1.0 and details[c]["points"] == details[c]["max"] for c in COMPONENTS)
    score, details = score_lead(EMPTY)
    assert score == 0
    for c in ("booking_engine_tier", "room_count", "rating_reviews", "location"):
        assert details[c]["missing"] is True and details[c]["points"] == 0
    assert details["booking_engine_tier"]["input"] == "missing"
    assert details["rating_reviews"]["input"] == {"rating": "missing", "review_count": "missing"}
    assert details["completeness"]["missing"] is False


def test_details_hold_every_component_weights_and_total():
    lead = replace(PERFECT, tier=2, room_count=400, rating=4.2, review_count=30, nearest_attraction_km=6.0,
                   attractions_within_5km=2, filled_fields=12, contacts_verified=0)
    score, details = score_lead(lead)
    assert set(details) == {*COMPONENTS, "weights", "total"}
    assert details["weights"] == ScoreWeights().as_dict()
    for c in COMPONENTS:
        assert set(details[c]) == {"points", "max", "fraction", "input", "missing"}
        assert details[c]["max"] == details["weights"][c]
    assert details["booking_engine_tier"] == {"points": 10.0, "max": 25, "fraction": 0.4, "input": 2,
                                              "missing": False}
    assert details["room_count"]["input"] == 400
    assert score == round(sum(details[c]["points"] for c in COMPONENTS))


def test_one_missing_input_zeroes_only_its_component():
    full, _ = score_lead(PERFECT)
    no_reviews, details = score_lead(replace(PERFECT, review_count=None))
    assert full - no_reviews == 15
    assert details["rating_reviews"]["input"] == {"rating": 5.0, "review_count": "missing"}
    nan_rooms, details = score_lead(replace(PERFECT, room_count=float("nan")))
    assert full - nan_rooms == 20 and details["room_count"]["missing"] is True
    no_total, details = score_lead(replace(PERFECT, total_fields=0))
    assert full - no_total == 15 and details["completeness"]["input"] == "missing"


def test_score_is_rounded_half_up_and_clamped():
    score, _ = score_lead(replace(EMPTY, filled_fields=5, total_fields=8), ONLY_COMPLETENESS)
    assert score == 63  # 62.5
    score, _ = score_lead(replace(PERFECT, filled_fields=40, rating=9.0, attractions_within_5km=500))
    assert score == 100


def test_weights_change_the_score():
    lead = replace(PERFECT, tier=2)
    default, _ = score_lead(lead)
    heavy_tier, details = score_lead(lead, ScoreWeights.from_mapping({"booking_engine_tier": 45, "room_count": 0}))
    assert default == 85 and heavy_tier == 73
    assert details["booking_engine_tier"]["max"] == 45


def test_score_leads_keeps_order_and_ids():
    results = score_leads([EMPTY, PERFECT, replace(PERFECT, hotel_id=7, tier=2)])
    assert [(hotel_id, score) for hotel_id, score, _ in results] == [(2, 0), (1, 100), (7, 85)]
    assert results[1][2]["total"] == 100
    assert score_leads([]) == []

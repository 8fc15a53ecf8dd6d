"""Lead score of a hotel, 0-100 (seed 000, "Stage 4: Score": booking engine tier, room count,
rating/reviews, location quality, enrichment completeness; plus decision makers we can reach).

Each component gives a fraction in [0, 1]; its points are ``fraction x weight`` (``ScoreWeights``,
summing to 100); the score is the sum rounded half up, clamped to 0..100. A missing input (None
or NaN) gives 0 for its component and ``"missing"`` in its details.

===================  ======  ===================================================================
component            weight  fraction
===================  ======  ===================================================================
booking_engine_tier  25      tier 1: 1.0, tier 2: 0.4, any other tier: 0
room_count           20      1 room 0.4, rising linearly to 1.0 at 10; 10-150 rooms (the
                             independent-hotel sweet spot) 1.0; falling linearly to 0.3 at 500
                             (chains and big managed hotels buy centrally); 0.3 above; < 1: 0
rating_reviews       15      ``rating / 5 x min(1, ln(1 + reviews) / ln(1 + 200))``: a rating
                             counts in full from 200 reviews, a 4.8 from 3 reviews a quarter
location             15      ``0.75 x distance + 0.25 x min(1, attractions within 5 km / 10)``;
                             distance 1.0 up to 1 km from the nearest attraction, linearly to 0
                             at 25 km (an unknown count counts as no attraction)
completeness         15      golden fields with a value / all golden fields (total 0: missing)
verified_contacts    10      a verified e-mail 1.0, a deliverable one 0.7, any e-mail 0.4, a
                             decision maker without e-mail 0.15, nobody 0
===================  ======  ===================================================================

``score_lead`` returns ``(score, details)``; ``details[component]`` is ``{"points", "max",
"fraction", "input", "missing"}``, plus ``details["weights"]`` and ``details["total"]`` (the
score). It is plain arithmetic (the score asset scores whole regions at once): a few function
calls and the details dict per lead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

__all__ = [
    "COMPONENTS",
    "DEFAULT_WEIGHTS",
    "LeadInput",
    "ScoreWeights",
    "completeness_fraction",
    "contacts_fraction",
    "location_fraction",
    "rating_fraction",
    "room_count_fraction",
    "score_lead",
    "score_leads",
    "tier_fraction",
]

COMPONENTS = ("booking_engine_tier", "room_count", "rating_reviews", "location", "completeness",
              "verified_contacts")
MISSING = "missing"

_TIER_FRACTION = {1: 1.0, 2: 0.4}
_SWEET_MIN, _SWEET_MAX, _LARGE, _LARGE_FRACTION, _TINY_FRACTION = 10, 150, 500, 0.3, 0.4
_FULL_REVIEWS_LOG = math.log1p(200)
_NEAR_KM, _FAR_KM, _FULL_NEARBY = 1.0, 25.0, 10
_DISTANCE_SHARE = 0.75


@dataclass(frozen=True)
class ScoreWeights:
    """Points per component; they must sum to 100."""

    booking_engine_tier: float = 25
    room_count: float = 20
    rating_reviews: float = 15
    location: float = 15
    completeness: float = 15
    verified_contacts: float = 10

    def __post_init__(self) -> None:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        bad = {k: v for k, v in values.items()
               if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0}
        if bad:
            raise ValueError(f"score weights must be finite numbers >= 0: {bad}")
        total = sum(values.values())
        if abs(total - 100) > 1e-6:
            raise ValueError(f"score weights must sum to 100, not {total:g}: {values}")

    @classmethod
    def from_mapping(cls, m: Mapping[str, float]) -> ScoreWeights:
        """Weights from config; components not given keep their default (the sum is still checked)."""
        unknown = sorted(set(m) - set(COMPONENTS))
        if unknown:
            raise ValueError(f"unknown score weights: {unknown} (known: {list(COMPONENTS)})")
        return cls(**m)

    def as_dict(self) -> dict[str, float]:
        return {
            "booking_engine_tier": self.booking_engine_tier,
            "room_count": self.room_count,
            "rating_reviews": self.rating_reviews,
            "location": self.location,
            "completeness": self.completeness,
            "verified_contacts": self.verified_contacts,
        }


DEFAULT_WEIGHTS = ScoreWeights()


@dataclass(frozen=True)
class LeadInput:
    hotel_id: int
    tier: int | None
    room_count: int | None
    rating: float | None
    review_count: int | None
    nearest_attraction_km: float | None
    attractions_within_5km: int | None
    filled_fields: int
    total_fields: int
    contacts: int
    contacts_with_email: int
    contacts_deliverable: int
    contacts_verified: int


def _missing(x: Any) -> bool:
    return x is None or x != x  # x != x: NaN, as DataFrames hold missing numbers


# --- component curves (fraction in [0, 1]; inputs already known to be present) -------------------------

def tier_fraction(tier: int) -> float:
    return _TIER_FRACTION.get(tier, 0.0)


def room_count_fraction(rooms: float) -> float:
    if rooms < 1:
        return 0.0
    if rooms < _SWEET_MIN:
        return _TINY_FRACTION + (1.0 - _TINY_FRACTION) * (rooms - 1) / (_SWEET_MIN - 1)
    if rooms <= _SWEET_MAX:
        return 1.0
    if rooms >= _LARGE:
        return _LARGE_FRACTION
    return 1.0 - (1.0 - _LARGE_FRACTION) * (rooms - _SWEET_MAX) / (_LARGE - _SWEET_MAX)


def rating_fraction(rating: float, reviews: float) -> float:
    if rating <= 0 or reviews <= 0:
        return 0.0
    return min(rating / 5.0, 1.0) * min(math.log1p(reviews) / _FULL_REVIEWS_LOG, 1.0)


def location_fraction(nearest_km: float, within_5km: float | None) -> float:
    if nearest_km <= _NEAR_KM:
        distance = 1.0
    elif nearest_km >= _FAR_KM:
        distance = 0.0
    else:
        distance = (_FAR_KM - nearest_km) / (_FAR_KM - _NEAR_KM)
    nearby = 0.0 if _missing(within_5km) or within_5km <= 0 else min(within_5km / _FULL_NEARBY, 1.0)
    return _DISTANCE_SHARE * distance + (1.0 - _DISTANCE_SHARE) * nearby


def completeness_fraction(filled: float, total: float) -> float:
    return min(max(filled / total, 0.0), 1.0)


def contacts_fraction(contacts: int, with_email: int, deliverable: int, verified: int) -> float:
    if verified > 0:
        return 1.0
    if deliverable > 0:
        return 0.7
    if with_email > 0:
        return 0.4
    if contacts > 0:
        return 0.15
    return 0.0


# --- the score ------------------------------------------------------------------------------------------

def _component(weight: float, fraction: float, value: Any, missing: bool) -> dict[str, Any]:
    return {"points": round(weight * fraction, 2), "max": weight, "fraction": round(fraction, 4),
            "input": value, "missing": missing}


def score_lead(lead: LeadInput, weights: ScoreWeights = DEFAULT_WEIGHTS) -> tuple[int, dict[str, Any]]:
    """``(score 0..100, details)`` of one lead (see the module docstring)."""
    tier = lead.tier
    if _missing(tier):
        f_tier, tier, m_tier = 0.0, MISSING, True
    else:
        f_tier, m_tier = tier_fraction(tier), False

    rooms = lead.room_count
    if _missing(rooms):
        f_rooms, rooms, m_rooms = 0.0, MISSING, True
    else:
        f_rooms, m_rooms = room_count_fraction(rooms), False

    rating, reviews = lead.rating, lead.review_count
    m_rating = _missing(rating) or _missing(reviews)
    f_rating = 0.0 if m_rating else rating_fraction(rating, reviews)
    rating_in = {"rating": MISSING if _missing(rating) else rating,
                 "review_count": MISSING if _missing(reviews) else reviews}

    km, nearby = lead.nearest_attraction_km, lead.attractions_within_5km
    m_location = _missing(km)
    f_location = 0.0 if m_location else location_fraction(km, nearby)
    location_in = {"nearest_attraction_km": MISSING if m_location else km,
                   "attractions_within_5km": MISSING if _missing(nearby) else nearby}

    filled, total_fields = lead.filled_fields, lead.total_fields
    m_complete = _missing(filled) or _missing(total_fields) or total_fields <= 0
    f_complete = 0.0 if m_complete else completeness_fraction(filled, total_fields)
    complete_in = MISSING if m_complete else {"filled": filled, "total": total_fields}

    f_contacts = contacts_fraction(lead.contacts or 0, lead.contacts_with_email or 0,
                                   lead.contacts_deliverable or 0, lead.contacts_verified or 0)
    contacts_in = {"contacts": lead.contacts, "with_email": lead.contacts_with_email,
                   "deliverable": lead.contacts_deliverable, "verified": lead.contacts_verified}

    w = weights
    raw = (w.booking_engine_tier * f_tier + w.room_count * f_rooms + w.rating_reviews * f_rating
           + w.location * f_location + w.completeness * f_complete + w.verified_contacts * f_contacts)
    score = min(100, max(0, int(raw + 0.5)))  # half up; Python's round() would send 62.5 to 62
    details = {
        "booking_engine_tier": _component(w.booking_engine_tier, f_tier, tier, m_tier),
        "room_count": _component(w.room_count, f_rooms, rooms, m_rooms),
        "rating_reviews": _component(w.rating_reviews, f_rating, rating_in, m_rating),
        "location": _component(w.location, f_location, location_in, m_location),
        "completeness": _component(w.completeness, f_complete, complete_in, m_complete),
        "verified_contacts": _component(w.verified_contacts, f_contacts, contacts_in, False),
        "weights": w.as_dict(),
        "total": score,
    }
    return score, details


def score_leads(leads: Iterable[LeadInput], weights: ScoreWeights = DEFAULT_WEIGHTS
                ) -> list[tuple[int, int, dict[str, Any]]]:
    """``(hotel_id, score, details)`` of every lead, in input order."""
    out = []
    for lead in leads:
        score, details = score_lead(lead, weights)
        out.append((lead.hotel_id, score, details))
    return out

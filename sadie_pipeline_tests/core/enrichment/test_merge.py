"""Unit tests for sadie_pipeline.core.enrichment.merge: the seed's COALESCE / OR / DISTINCT /
GREATEST rules on an enrichment row, value groups, force_refresh, idempotency, and the
decision-maker upsert."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from sadie_pipeline.core.enrichment.layers import LAYER_DNS, LAYER_RDAP, LAYER_ROOM_COUNT, LAYER_WEBSITE
from sadie_pipeline.core.enrichment.merge import (
    changed_fields,
    is_empty,
    merge_decision_maker,
    merge_enrichment,
    same_decision_maker,
    upsert_decision_makers,
)

T0 = datetime(2025, 1, 1, tzinfo=UTC)
T1 = datetime(2025, 2, 1, tzinfo=UTC)
T2 = datetime(2025, 3, 1, tzinfo=UTC)

EXISTING = {
    "hotel_id": 42,
    "layers_completed": LAYER_RDAP | LAYER_DNS,
    "sources": ["dns", "rdap"],  # as array_agg(DISTINCT) stores them: sorted
    "confidence": 0.75,
    "email_provider": "google_workspace",
    "registrant_org": "",
    "privacy_protected": False,
    "room_count": 120,
    "room_count_evidence": "Our 120 guest rooms",
    "room_count_source": "regex",
    "room_count_confidence": 0.6,
    "created_at": T0,
    "updated_at": T0,
}


def test_first_insert_sets_timestamps_and_normalises_sources():
    row = merge_enrichment(None, {"hotel_id": 7, "layers_completed": LAYER_DNS, "sources": ["dns", "dns", ""]}, now=T1)
    assert row == {"hotel_id": 7, "layers_completed": LAYER_DNS, "sources": ["dns"], "updated_at": T1,
                   "created_at": T1}


def test_seed_rules_coalesce_or_distinct_greatest_and_timestamps():
    new = {
        "hotel_id": 42,
        "layers_completed": LAYER_WEBSITE,
        "sources": ["website_scrape", "dns"],
        "confidence": 0.7,
        "email_provider": "microsoft_365",  # COALESCE: does not clobber
        "registrant_org": "Seaside Hospitality LLC",  # fills an empty string
        "privacy_protected": True,  # False is a value, not empty
        "contact_page": "https://seasideinn.com/contact",  # new column
        "created_at": T1,
    }
    row = merge_enrichment(EXISTING, new, now=T1)
    assert row["layers_completed"] == LAYER_RDAP | LAYER_DNS | LAYER_WEBSITE
    assert row["sources"] == ["dns", "rdap", "website_scrape"]
    assert row["confidence"] == 0.75
    assert row["email_provider"] == "google_workspace"
    assert row["registrant_org"] == "Seaside Hospitality LLC"
    assert row["privacy_protected"] is False
    assert row["contact_page"] == "https://seasideinn.com/contact"
    assert (row["created_at"], row["updated_at"]) == (T0, T1)
    assert row["hotel_id"] == 42


def test_greatest_ignores_nulls_and_takes_higher_confidence():
    assert merge_enrichment({"confidence": None}, {"confidence": 0.4}, now=T1)["confidence"] == 0.4
    assert merge_enrichment({"confidence": 0.4}, {"confidence": None}, now=T1)["confidence"] == 0.4
    assert merge_enrichment({"confidence": 0.4}, {"confidence": 0.9}, now=T1)["confidence"] == 0.9


def test_value_groups_move_together_only_on_higher_confidence():
    llm = {"room_count": 118, "room_count_evidence": "118 rooms and suites", "room_count_source": "groq",
           "room_count_confidence": 0.8, "layers_completed": LAYER_ROOM_COUNT}
    row = merge_enrichment(EXISTING, llm, now=T1)
    assert (row["room_count"], row["room_count_evidence"], row["room_count_source"], row["room_count_confidence"]) == (
        118, "118 rooms and suites", "groq", 0.8)
    weaker = {"room_count": 90, "room_count_evidence": "90 rooms", "room_count_source": "regex",
              "room_count_confidence": 0.5}
    row2 = merge_enrichment(row, weaker, now=T2)
    assert (row2["room_count"], row2["room_count_evidence"], row2["room_count_confidence"]) == (
        118, "118 rooms and suites", 0.8)
    # an empty result (layer ran, found nothing) never erases a count
    row3 = merge_enrichment(row2, {"room_count": None, "room_count_confidence": None,
                                   "layers_completed": LAYER_ROOM_COUNT}, now=T2)
    assert row3["room_count"] == 118


def test_force_refresh_overwrites_with_newer_values_but_never_erases_or_resets_bits():
    refresh = {"layers_completed": LAYER_DNS, "email_provider": "microsoft_365", "confidence": 0.5,
               "registrant_org": None, "sources": ["dns"],
               "room_count": 95, "room_count_evidence": "95 rooms", "room_count_source": "regex",
               "room_count_confidence": 0.55}
    row = merge_enrichment(EXISTING, refresh, force_refresh=True, now=T1)
    assert row["email_provider"] == "microsoft_365"
    assert row["confidence"] == 0.5  # the refreshed value replaces, even when lower
    assert row["registrant_org"] == ""  # empty new values never erase
    assert row["layers_completed"] == LAYER_RDAP | LAYER_DNS  # bits only accumulate
    assert row["sources"] == ["dns", "rdap"]
    assert (row["room_count"], row["room_count_confidence"]) == (95, 0.55)


def test_merging_is_idempotent():
    new = {"layers_completed": LAYER_WEBSITE, "sources": ["website_scrape"], "confidence": 0.9,
           "email_provider": "zoho", "registrant_org": "Seaside LLC", "room_count": 118,
           "room_count_confidence": 0.8, "room_count_evidence": "118 rooms", "room_count_source": "groq"}
    for force in (False, True):
        once = merge_enrichment(EXISTING, new, force_refresh=force, now=T1)
        twice = merge_enrichment(once, new, force_refresh=force, now=T2)
        assert changed_fields(once, twice) == []
        assert twice["updated_at"] == T2


def test_changed_fields_and_is_empty():
    after = merge_enrichment(EXISTING, {"registrant_org": "Seaside LLC", "layers_completed": LAYER_WEBSITE}, now=T1)
    assert changed_fields(EXISTING, after) == ["layers_completed", "registrant_org"]
    assert all(is_empty(v) for v in (None, "", "  ", [], {}, ()))
    assert not any(is_empty(v) for v in (0, False, "x", [None]))


def test_unknown_rules_are_rejected():
    with pytest.raises(ValueError):
        merge_enrichment({}, {"a": 1}, rules={"a": "sum"})


# --- decision makers -------------------------------------------------------------------------------

def dm(**kw):
    base = {"hotel_id": 42, "full_name": None, "title": None, "email": None, "email_verified": False,
            "phone": None, "sources": [], "confidence": 0.5}
    return {**base, **kw}


def test_same_decision_maker_by_normalised_name_or_email_within_a_hotel():
    a = dm(full_name="Maria Lopez", email="mlopez@seasideinn.com")
    assert same_decision_maker(a, dm(full_name="  maria LOPEZ "))
    assert same_decision_maker(a, dm(full_name="Mrs. María López"))
    assert same_decision_maker(a, dm(full_name="M. Lopez", email="MLopez@SeasideInn.com"))
    assert not same_decision_maker(a, dm(full_name="Maria Lopez", hotel_id=43))
    assert not same_decision_maker(a, dm(full_name="David Lopez"))


def test_merge_decision_maker_follows_the_seed_on_conflict_rule():
    existing = dm(full_name="Maria Lopez", title="Manager", email="", email_verified=True,
                  sources=["website_scrape"], confidence=0.6, phone="+13055550142", raw_source_url="https://a")
    incoming = dm(full_name="Maria Lopez", title="General Manager", email="maria.lopez@seasideinn.com",
                  email_verified=False, sources=["rdap"], confidence=0.75, phone="+13055550000")
    out = merge_decision_maker(existing, incoming, now=T1)
    assert out["email"] == "maria.lopez@seasideinn.com"  # COALESCE(NULLIF(existing, ''), new)
    assert out["email_verified"] is True  # OR
    assert out["sources"] == ["rdap", "website_scrape"]  # DISTINCT
    assert out["confidence"] == 0.75  # GREATEST
    assert out["title"] == "General Manager"  # the more specific title
    assert out["phone"] == "+13055550142"  # COALESCE
    assert out["raw_source_url"] == "https://a"
    assert out["updated_at"] == T1


def test_email_is_replaced_only_by_a_more_confident_source():
    existing = dm(full_name="Maria Lopez", email="maria@seasideinn.com", confidence=0.75)
    lower = merge_decision_maker(existing, dm(full_name="Maria Lopez", email="ml@seasideinn.com", confidence=0.5))
    assert lower["email"] == "maria@seasideinn.com"
    higher = merge_decision_maker(existing, dm(full_name="Maria Lopez", email="mlopez@seasideinn.com", confidence=0.9))
    assert higher["email"] == "mlopez@seasideinn.com"
    forced = merge_decision_maker(existing, dm(full_name="Maria Lopez", email="m2@seasideinn.com", confidence=0.1),
                                  force_refresh=True)
    assert forced["email"] == "m2@seasideinn.com"


def test_upsert_merges_by_name_email_and_unique_first_name():
    existing = [
        dm(id=1, full_name="Maria Lopez", title="General Manager", email="mlopez@seasideinn.com",
           sources=["website_scrape"], confidence=0.7, first_name_only=False),
        dm(id=2, full_name="Tom", title="Manager", sources=["review_response"], confidence=0.15, first_name_only=True),
        dm(id=3, hotel_id=99, full_name="Maria Lopez", sources=["website_scrape"]),
    ]
    incoming = [
        dm(full_name="MARIA LOPEZ", email="maria.lopez@seasideinn.com", sources=["rdap"], confidence=0.75),
        dm(full_name="M. Lopez", email="Maria.Lopez@seasideinn.com", sources=["cc_harvest"], confidence=0.45),
        dm(full_name="Tom Becker", title="Front Office Manager", sources=["website_scrape"], confidence=0.7,
           first_name_only=False),
        dm(full_name="Priya Patel", title="Owner", sources=["gov_registry"], confidence=0.95),
        dm(full_name="Priya Patel", email="priya@seasideinn.com", sources=["website_scrape"], confidence=0.7),
    ]
    rows = upsert_decision_makers(existing, incoming, now=T1)
    assert [r.get("id") for r in rows] == [1, 2, 3, None]
    maria = rows[0]
    assert maria["full_name"] == "Maria Lopez"
    assert maria["email"] == "maria.lopez@seasideinn.com"  # rdap's 0.75 beats 0.7
    assert maria["sources"] == ["cc_harvest", "rdap", "website_scrape"]
    assert maria["confidence"] == 0.75
    tom = rows[1]
    assert (tom["full_name"], tom["title"], tom["first_name_only"]) == ("Tom Becker", "Front Office Manager", False)
    assert tom["sources"] == ["review_response", "website_scrape"]
    assert rows[2]["sources"] == ["website_scrape"]  # the other hotel's Maria is untouched
    priya = rows[3]
    assert (priya["title"], priya["email"], priya["confidence"]) == ("Owner", "priya@seasideinn.com", 0.95)
    assert priya["sources"] == ["gov_registry", "website_scrape"]


def test_first_name_is_not_merged_when_ambiguous():
    existing = [dm(full_name="Tom Becker"), dm(full_name="Tom Hanks")]
    rows = upsert_decision_makers(existing, [dm(full_name="Tom", sources=["review_response"])], now=T1)
    assert [r["full_name"] for r in rows] == ["Tom Becker", "Tom Hanks", "Tom"]


def test_upsert_is_idempotent():
    incoming = [dm(full_name="Maria Lopez", email="maria@seasideinn.com", sources=["rdap"], confidence=0.75),
                dm(full_name="Bob Smith", title="Owner", sources=["website_scrape"], confidence=0.7)]
    once = upsert_decision_makers([], incoming, now=T1)
    twice = upsert_decision_makers(once, incoming, now=T2)
    assert len(twice) == 2
    for a, b in zip(once, twice):
        assert changed_fields(a, b) == []

"""Unit tests for sadie_pipeline.core.golden: source priority, the seed's confidence modifiers,
corroboration, unusable e-mails, determinism and provenance of the field-level golden record."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from sadie_pipeline.core.enrichment.confidence import DEFAULT_BASE
from sadie_pipeline.core.golden import (
    GOLDEN_FIELDS,
    SOURCE_PRIORITY,
    FieldCandidate,
    candidate_priority,
    choose_field,
    effective_confidence,
    golden_record,
    golden_values,
    normalise_for_compare,
    provenance_rows,
)

NOW = datetime(2025, 6, 1, tzinfo=UTC)
RECENT = NOW - timedelta(days=30)
OLD = NOW - timedelta(days=400)


def eff(c: FieldCandidate, corroborated: bool = False, **kw) -> float:
    return effective_confidence(c, corroborated=corroborated, now=NOW, **kw)


# --- priority tables --------------------------------------------------------------------------------

def test_seed_priorities_are_kept_and_extended():
    assert SOURCE_PRIORITY["email"]["email_verify_o365"] == 100
    assert SOURCE_PRIORITY["email"]["website_scrape"] == 70
    assert SOURCE_PRIORITY["email"]["email_pattern_guess"] == 20
    assert SOURCE_PRIORITY["full_name"]["website_scrape"] == 80
    assert SOURCE_PRIORITY["contact_name"] == SOURCE_PRIORITY["full_name"]
    assert SOURCE_PRIORITY["phone"]["google_maps"] == 75
    assert SOURCE_PRIORITY["room_count"]["llm_extract"] > SOURCE_PRIORITY["room_count"]["regex"]
    assert SOURCE_PRIORITY["room_count"]["research"] == SOURCE_PRIORITY["room_count"]["llm_extract"]
    # every golden field has a table
    assert set(GOLDEN_FIELDS) <= set(SOURCE_PRIORITY)


def test_unknown_source_gets_priority_zero_and_default_confidence():
    c = FieldCandidate("phone", "+19025550142", "carrier_pigeon")
    assert candidate_priority(c) == 0
    assert eff(c) == DEFAULT_BASE
    choice = choose_field("phone", [c, FieldCandidate("phone", "+19025550199", "cc_harvest", confidence=0.1)],
                          now=NOW)
    assert choice.source == "cc_harvest"


# --- winner ---------------------------------------------------------------------------------------

def test_priority_beats_confidence():
    choice = choose_field("phone", [
        FieldCandidate("phone", "+19025550100", "google_maps", confidence=0.95),
        FieldCandidate("phone", "+19025550142", "website_scrape", confidence=0.40),
    ], now=NOW)
    assert (choice.value, choice.source, choice.confidence) == ("+19025550142", "website_scrape", 0.4)
    assert [(c.source, e) for c, e in choice.ranked] == [("website_scrape", 0.4), ("google_maps", 0.95)]


def test_confidence_breaks_ties_within_a_priority():
    choice = choose_field("room_count", [
        FieldCandidate("room_count", 40, "regex", confidence=0.55),
        FieldCandidate("room_count", 42, "website_scrape", confidence=0.70),  # same priority as regex
    ], now=NOW)
    assert (choice.value, choice.confidence) == (42, 0.7)


def test_recency_then_source_name_break_remaining_ties():
    newer = FieldCandidate("room_count", 42, "website_scrape", confidence=0.6, extracted_at=RECENT)
    older = FieldCandidate("room_count", 40, "regex", confidence=0.6, extracted_at=RECENT - timedelta(days=1))
    undated = FieldCandidate("room_count", 44, "regex", confidence=0.6)
    assert choose_field("room_count", [older, undated, newer], now=NOW).value == 42
    assert [c.value for c, _ in choose_field("room_count", [undated, older, newer], now=NOW).ranked] == [42, 40, 44]
    a = FieldCandidate("room_count", 40, "website_scrape", confidence=0.6)
    b = FieldCandidate("room_count", 41, "regex", confidence=0.6)
    assert choose_field("room_count", [a, b], now=NOW).source == "regex"


def test_empty_values_and_other_fields_are_ignored():
    cands = [
        FieldCandidate("website", None, "dmo_listing"),
        FieldCandidate("website", "  ", "website_scrape"),
        FieldCandidate("website", float("nan"), "google_maps"),
        FieldCandidate("name", "Harbour Inn", "dmo_listing"),
    ]
    assert choose_field("website", cands, now=NOW) is None
    choice = choose_field("name", cands, now=NOW)
    assert choice.value == "Harbour Inn" and len(choice.ranked) == 1


# --- modifiers --------------------------------------------------------------------------------------

def test_base_confidence_by_source_when_the_candidate_has_none():
    assert eff(FieldCandidate("email", "jane@harbourinn.ca", "website_scrape")) == 0.7
    assert eff(FieldCandidate("email", "jane@harbourinn.ca", "email_pattern_guess")) == 0.3
    assert eff(FieldCandidate("name", "Harbour Inn", "dmo_listing")) == 0.8
    assert eff(FieldCandidate("name", "Harbour Inn", "dmo_listing", confidence=0.55)) == 0.55


def test_corroboration_bonus_needs_two_distinct_sources_with_the_same_value():
    c = FieldCandidate("phone", "+19025550142", "google_maps")
    assert eff(c, corroborated=True) == pytest.approx(eff(c) + 0.10)
    choice = choose_field("phone", [
        FieldCandidate("phone", "(902) 555-0142", "website_scrape"),
        FieldCandidate("phone", "+1 902 555 0142", "google_maps"),
        FieldCandidate("phone", "+19025550199", "dmo_listing"),
    ], now=NOW)
    assert choice.confidence == 0.8  # 0.70 + 0.10
    assert choice.sources == ("google_maps", "website_scrape")
    assert dict((c.source, e) for c, e in choice.ranked)["dmo_listing"] == 0.8  # uncorroborated: base only
    same_source = choose_field("phone", [
        FieldCandidate("phone", "+19025550142", "website_scrape", source_url="https://a.example/contact"),
        FieldCandidate("phone", "+19025550142", "website_scrape", source_url="https://a.example/about"),
    ], now=NOW)
    assert same_source.confidence == 0.7 and same_source.sources == ("website_scrape",)


def test_stale_penalty_after_stale_after_days():
    fresh = FieldCandidate("phone", "+19025550142", "google_maps", extracted_at=RECENT)
    stale = FieldCandidate("phone", "+19025550142", "google_maps", extracted_at=OLD)
    boundary = FieldCandidate("phone", "+19025550142", "google_maps", extracted_at=NOW - timedelta(days=365))
    assert eff(fresh) == 0.7
    assert eff(stale) == 0.55
    assert eff(boundary) == 0.7
    assert eff(fresh, stale_after_days=7) == 0.55
    naive = FieldCandidate("phone", "+19025550142", "google_maps", extracted_at=OLD.replace(tzinfo=None))
    assert eff(naive) == 0.55  # naive timestamps are UTC


def test_stale_value_loses_a_confidence_tie_to_a_fresh_one():
    choice = choose_field("email", [
        FieldCandidate("email", "old@harbourinn.ca", "website_scrape", confidence=0.7, extracted_at=OLD),
        FieldCandidate("email", "new@harbourinn.ca", "website_scrape", confidence=0.7, extracted_at=RECENT),
    ], now=NOW)
    assert choice.value == "new@harbourinn.ca"


def test_first_name_only_penalty_on_contact_fields():
    assert eff(FieldCandidate("contact_name", "Maria", "website_scrape")) == 0.4
    assert eff(FieldCandidate("contact_name", "Maria Lopez", "website_scrape")) == 0.7
    assert eff(FieldCandidate("email", "maria@harbourinn.ca", "website_scrape", person_name="Maria")) == 0.4
    assert eff(FieldCandidate("contact_title", "Owner", "website_scrape", person_name="Maria")) == 0.4
    # a phone is a person's only when person_name is given
    assert eff(FieldCandidate("phone", "+19025550142", "website_scrape")) == 0.7
    assert eff(FieldCandidate("phone", "+19025550142", "website_scrape", person_name="Maria")) == 0.4
    # not a contact field
    assert eff(FieldCandidate("name", "Maria", "dmo_listing", person_name="Maria")) == 0.8


def test_generic_title_penalty_on_contact_fields():
    assert eff(FieldCandidate("contact_title", "Manager", "website_scrape")) == 0.6
    assert eff(FieldCandidate("contact_title", "General Manager", "website_scrape")) == 0.7
    assert eff(FieldCandidate("contact_name", "Maria Lopez", "website_scrape", person_title="Manager")) == 0.6
    assert eff(FieldCandidate("email", "maria@harbourinn.ca", "website_scrape", person_name="Maria Lopez",
                              person_title="Front Desk")) == 0.6
    # an absent title is unknown, not generic
    assert eff(FieldCandidate("email", "maria@harbourinn.ca", "website_scrape", person_name="Maria Lopez")) == 0.7
    both = FieldCandidate("contact_name", "Maria", "website_scrape", person_title="Manager")
    assert eff(both) == 0.3


def test_full_name_beats_first_name_only_from_the_same_source():
    choice = choose_field("contact_name", [
        FieldCandidate("contact_name", "Maria", "website_scrape"),
        FieldCandidate("contact_name", "Maria Lopez", "website_scrape"),
    ], now=NOW)
    assert choice.value == "Maria Lopez"


def test_verified_email_bonus_and_priority():
    verified = FieldCandidate("email", "maria@harbourinn.ca", "llm_extract", email_verified=True)
    assert eff(verified) == 0.7  # 0.50 + 0.20
    assert candidate_priority(verified) == 100
    choice = choose_field("email", [
        FieldCandidate("email", "info@harbourinn.ca", "gov_registry"),
        verified,
    ], now=NOW)
    assert choice.value == "maria@harbourinn.ca"


def test_smtp_verification_counts_as_the_seeds_email_verify_smtp():
    smtp = FieldCandidate("email", "maria@harbourinn.ca", "llm_extract", email_verified=True,
                          email_status="verified_smtp")
    assert eff(smtp) == 0.65  # 0.50 + 0.15: an SMTP answer is worth less than Microsoft's check
    assert candidate_priority(smtp) == 90
    o365 = FieldCandidate("email", "dan@harbourinn.ca", "llm_extract", email_verified=True, email_status="verified_o365")
    assert choose_field("email", [smtp, o365], now=NOW).value == "dan@harbourinn.ca"


@pytest.mark.parametrize("status", ["valid_domain", "catch_all", "unknown"])
def test_an_address_not_verified_gets_no_bonus(status):
    c = FieldCandidate("email", "maria@harbourinn.ca", "website_scrape", email_status=status)
    assert eff(c) == 0.7
    assert candidate_priority(c) == SOURCE_PRIORITY["email"]["website_scrape"]


@pytest.mark.parametrize("status", ["no_mx", "invalid_syntax", "rejected"])
def test_bouncing_emails_are_unusable(status):
    bad = FieldCandidate("email", "maria@harbourinn.ca", "gov_registry", email_status=status)
    good = FieldCandidate("email", "info@harbourinn.ca", "email_pattern_guess")
    assert eff(bad) == 0.0
    choice = choose_field("email", [bad, good], now=NOW)
    assert choice.value == "info@harbourinn.ca"
    assert [c for c, _ in choice.ranked] == [good]
    assert choose_field("email", [bad], now=NOW) is None


def test_confidence_is_clamped_to_0_1():
    top = FieldCandidate("email", "maria@harbourinn.ca", "gov_registry", email_verified=True)
    assert eff(top, corroborated=True) == 1.0
    low = FieldCandidate("contact_name", "Maria", "email_pattern_guess", person_title="Manager", extracted_at=OLD)
    assert eff(low) == 0.0


# --- normalisation ------------------------------------------------------------------------------------

def test_normalise_for_compare():
    n = normalise_for_compare
    assert n("phone", "+1 (902) 555-0142") == n("phone", "902.555.0142") == "9025550142"
    assert n("website", "https://www.HarbourInn.ca/") == n("website", "http://harbourinn.ca") == "harbourinn.ca"
    assert n("website", "harbourinn.ca/en/?utm_source=x") == "harbourinn.ca/en"
    assert n("email", "mailto:Maria@HarbourInn.ca ") == "maria@harbourinn.ca"
    assert n("contact_name", "Mr. José  Pérez") == n("contact_name", "jose perez")
    assert n("city", "  Saint  John ") == n("city", "SAINT JOHN")
    assert n("room_count", 120) == n("room_count", 120.0) == n("room_count", "120")
    assert n("rating", 4.5) == "4.5"
    assert n("name", None) == ""


# --- determinism, golden record, provenance --------------------------------------------------------------

CANDIDATES = [
    FieldCandidate("name", "Harbour Inn", "dmo_listing", extracted_at=RECENT),
    FieldCandidate("name", "HARBOUR INN", "google_maps"),
    FieldCandidate("name", "The Harbour Inn & Suites", "website_scrape"),
    FieldCandidate("phone", "+19025550142", "google_maps", extracted_at=OLD),
    FieldCandidate("phone", "+19025550142", "website_scrape", source_url="https://harbourinn.ca/contact"),
    FieldCandidate("phone", "+19025550199", "website_scrape", person_name="Maria Lopez"),
    FieldCandidate("email", "maria@harbourinn.ca", "website_scrape", person_name="Maria Lopez",
                   person_title="General Manager", email_status="valid_domain"),
    FieldCandidate("email", "info@harbourinn.ca", "rdap"),
    FieldCandidate("email", "mlopez@harbourinn.ca", "email_pattern_guess", email_status="no_mx"),
    FieldCandidate("room_count", 24, "regex", confidence=0.8),
    FieldCandidate("room_count", 24, "llm_extract", confidence=0.6),
    FieldCandidate("room_count", 26, "llm_extract", confidence=0.6),
    FieldCandidate("rating", 4.6, "google_maps"),
    FieldCandidate("website", "https://harbourinn.ca", "website_scrape"),
    FieldCandidate("website", "http://www.harbourinn.ca/", "dmo_listing"),
    FieldCandidate("custom_field", "x", "csv_import"),
]


def test_golden_record_is_order_independent():
    expected = golden_record(CANDIDATES, now=NOW)
    rng = random.Random(20250601)
    for _ in range(25):
        shuffled = CANDIDATES[:]
        rng.shuffle(shuffled)
        assert golden_record(shuffled, now=NOW) == expected
        assert list(golden_record(shuffled, now=NOW)) == list(expected)


def test_complete_ties_are_broken_by_value_then_by_the_whole_candidate():
    # equal priority, confidence, date and source: only the value, then the URL, differ
    tied = [
        FieldCandidate("state", "Nova Scotia", "google_maps"),
        FieldCandidate("state", "NS", "google_maps"),
        FieldCandidate("state", "NS", "google_maps", source_url="https://maps.example/b"),
        FieldCandidate("state", "NS", "google_maps", source_url="https://maps.example/a"),
    ]
    results = {choose_field("state", order, now=NOW) for order in (tied, tied[::-1], tied[1:] + tied[:1])}
    assert len(results) == 1
    choice = results.pop()
    assert [(c.value, c.source_url) for c, _ in choice.ranked] == [
        ("Nova Scotia", None), ("NS", "https://maps.example/a"), ("NS", "https://maps.example/b"), ("NS", None),
    ]


def test_golden_record_values_and_order():
    record = golden_record(CANDIDATES, now=NOW)
    assert list(record) == ["name", "phone", "website", "email", "room_count", "rating", "custom_field"]
    assert record["name"].value == "Harbour Inn" and record["name"].sources == ("dmo_listing", "google_maps")
    assert record["name"].confidence == 0.9
    assert record["phone"].value == "+19025550142" and record["phone"].source_url == "https://harbourinn.ca/contact"
    assert record["website"].value == "https://harbourinn.ca"
    assert record["email"].value == "maria@harbourinn.ca"
    # llm_extract outranks the regex; of its two answers the corroborated one has the higher confidence
    assert (record["room_count"].value, record["room_count"].source, record["room_count"].confidence) == (
        24, "llm_extract", 0.7)
    values = golden_values(record)
    assert set(GOLDEN_FIELDS) <= set(values)
    assert values["contact_name"] is None and values["rating"] == 4.6


def test_provenance_rows_mark_chosen_corroborating_and_superseded_values():
    rows = provenance_rows(golden_record(CANDIDATES, now=NOW)["room_count"])
    assert [(r["source"], r["field_value"], r["status"]) for r in rows] == [
        ("llm_extract", "24", "chosen"),
        ("llm_extract", "26", "superseded"),
        ("regex", "24", "corroborates"),
    ]
    assert rows[0]["field_name"] == "room_count" and rows[0]["confidence"] == 0.7

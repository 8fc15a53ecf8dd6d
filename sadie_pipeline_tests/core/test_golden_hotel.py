"""One hotel's golden record from its candidates and its people, without a database."""

from __future__ import annotations

from datetime import UTC, datetime

from sadie_pipeline.core.golden import FieldCandidate, golden_record
from sadie_pipeline.core.golden_hotel import (
    DmCandidate,
    dm_source,
    golden_row,
    plan_decision_maker_merge,
    provenance_rows,
)

NOW = datetime(2026, 11, 26, tzinfo=UTC)


def _dm(dm_id, name, title, email=None, sources=("website_scrape",), status="valid_domain"):
    return {"id": dm_id, "hotel_id": 1, "full_name": name, "title": title, "email": email, "email_status": status,
            "email_verified": False, "phone": None, "sources": list(sources), "confidence": 0.7, "updated_at": NOW}


def test_the_same_person_twice_becomes_one_row_keeping_the_preferred_address():
    people = [_dm(1, "Maria", "Manager", "maria@gmail.com", sources=("rdap",)),
              _dm(2, "Maria Lopez", "General Manager", "mlopez@seabreeze.com"),
              _dm(3, "Bob Ray", "Owner")]
    keep, absorbed = plan_decision_maker_merge(people, NOW)
    assert absorbed == {1: 2}                       # the survivor already holds the merged name and title
    maria = next(p for p in keep if p["id"] == 2)
    assert maria["full_name"] == "Maria Lopez" and maria["email"] == "mlopez@seabreeze.com"
    assert sorted(maria["sources"]) == ["rdap", "website_scrape"]
    # two sources corroborate her: base 0.75 (rdap, the best base) + 0.10
    assert maria["confidence"] == 0.85
    assert [p["id"] for p in keep] == [2, 3]


def test_a_persons_value_is_credited_to_the_source_that_ranks_highest_for_the_field():
    assert dm_source(["rdap", "website_scrape"], "valid_domain") == "website_scrape"   # e-mail: 70 > 60
    assert dm_source(["website_scrape"], "pattern_guess") == "email_pattern_guess"
    assert dm_source([], None) == "website_scrape"


def test_the_contact_is_the_owner_of_the_chosen_email_with_that_persons_title():
    candidates = [
        FieldCandidate("name", "Seabreeze Inn", "google_maps"),
        DmCandidate("contact_name", "Ann Lee", "website_scrape", person_name="Ann Lee", dm_id=7),
        DmCandidate("contact_name", "Bob Ray", "website_scrape", person_name="Bob Ray", dm_id=8),
        DmCandidate("email", "bob@seabreeze.com", "website_scrape", person_name="Bob Ray", email_status="valid_domain",
                    dm_id=8),
        DmCandidate("email", "bob@gmail.com", "rdap", person_name="Bob Ray", email_status="valid_domain", dm_id=8),
    ]
    choices = golden_record(candidates, now=NOW)
    row = golden_row(1, "US-FL", choices, titles={7: "General Manager", 8: "Owner"})
    assert (row["email"], row["contact_name"], row["contact_title"], row["contact_dm_id"]) == (
        "bob@seabreeze.com", "Bob Ray", "Owner", 8)
    assert row["filled_fields"] == 4 and row["field_sources"]["email"]["source"] == "website_scrape"
    again = golden_row(1, "US-FL", golden_record(list(reversed(candidates)), now=NOW), {7: "General Manager", 8: "Owner"})
    assert again["record_hash"] == row["record_hash"]

    emails = [p for p in provenance_rows(1, choices) if p[2] == "email"]
    assert [(p[3], p[4], p[8]) for p in emails] == [("bob@seabreeze.com", "website_scrape", True),
                                                   ("bob@gmail.com", "rdap", False)]

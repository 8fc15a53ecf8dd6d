"""Unit tests for sadie_pipeline.core.enrichment.room_count: the regex fallback on realistic page
text, and the Groq prompt / answer contract."""

from __future__ import annotations

import json

import pytest

from sadie_pipeline.core.enrichment.room_count import (
    ROOM_COUNT_RESPONSE_FORMAT,
    build_room_count_prompt,
    parse_room_count_answer,
    regex_room_count,
)

HOME = (
    "Seaside Inn Miami Beach | Home Rooms Dining Spa Meetings Offers Gallery Contact Book Now "
    "Check-in Check-out Rooms 1 Adults 2 Children 0 Check Availability "
    "Welcome to the Seaside Inn, a boutique hotel on Collins Avenue since 1948. "
    "Our 120 guest rooms and suites blend mid-century charm with modern comfort. "
    "Enjoy 24-hour room service, a rooftop pool and 3 meeting rooms for up to 150 guests. "
    "The Two-Bedroom Family Suite has 2 rooms, 2 bathrooms and sleeps 6. "
    "Call (305) 555-0142 or +1 305 555 0199 for reservations. © 2024 Seaside Inn. All rights reserved."
)


@pytest.mark.parametrize("text, count", [
    ("Our 120 guest rooms offer ocean views.", 120),
    ("The hotel offers 112 rooms and suites, a rooftop pool and a spa.", 112),
    ("Featuring 45 well-appointed rooms, the inn is steps from the beach.", 45),
    ("The property has 3 suites and 27 rooms, all with free WiFi.", 30),
    ("The resort features 85 guest rooms, 12 suites and 3 villas.", 100),
    ("A 60-room boutique hotel in downtown Charlottetown.", 60),
    ("Number of rooms: 80", 80),
    ("Our intimate inn with just twelve rooms sits on the harbour.", 12),
    ("The Grand offers 1,200 rooms across two towers.", 1200),
    ("Our 4 guest rooms each have a private bath.", 4),
    ("There are 44 spacious, beautifully appointed rooms and suites.", 44),
    ("The hotel's 312 rooms include 40 suites.", 312),
])
def test_regex_finds_the_stated_room_count(text, count):
    result = regex_room_count(text)
    assert result is not None
    assert result.count == count
    assert result.evidence in text and str(result.evidence)
    assert 0.5 <= result.confidence <= 0.95


@pytest.mark.parametrize("text", [
    "Two Bedroom Suite: 2 rooms, 2 bathrooms, sleeps 6.",
    "Family Suite with 2 connecting rooms. Book 2 rooms now.",
    "Renovated in 2019 rooms feature new beds. 24-hour front desk. Room sleeps 4.",
    "Enjoy 24-hour room service.",
    "We have 12 meeting rooms and a ballroom for 500 guests.",
    "Rooms 1 Adults 2 Children 0 Check availability",
    "Guests 2 Rooms 1",
    "Call +1 305 555 0142 Rooms & suites available.",
    "Reservations: 305-555-0142 rooms@seasideinn.com",
    "Since 1925, rooms here have welcomed guests.",
    "© 2024 Hotel rooms and suites",
    "Only 2 rooms left at this price!",
    "The Inn at 75 Main Street offers rooms with a view.",
    "Located at 1200 Collins Avenue, rooms start at $199.",
    "Sleeps 4 | 2 Queen Beds | 350 sq ft",
    "Over 50 restaurants nearby. Top 10 hotels in Miami. 5 minutes from the airport.",
    "Rated 4.5 out of 5 by 1,234 guests who stayed in our rooms",
    "Choose from 5 room types and 3 suite categories.",
    "",
])
def test_regex_ignores_what_is_not_a_hotel_room_count(text):
    assert regex_room_count(text) is None


def test_a_whole_homepage_picks_the_hotel_statement_with_its_sentence():
    result = regex_room_count(HOME)
    assert result.count == 120
    assert result.evidence == "Our 120 guest rooms and suites blend mid-century charm with modern comfort."
    assert result.confidence == 0.85


def test_repeated_statements_raise_confidence_and_conflicts_lower_it():
    base = regex_room_count("The hotel has 250 rooms.").confidence
    again = regex_room_count("The hotel has 250 rooms. Each of our 250 rooms includes a minibar.")
    assert again.count == 250 and again.confidence > base
    conflict = regex_room_count("The hotel has 250 rooms. The hotel has 248 rooms.")
    assert conflict.confidence < base


def test_approximate_and_subset_statements_are_less_sure():
    assert regex_room_count("with over 300 rooms").confidence < regex_room_count("with 300 rooms").confidence
    subset = regex_room_count("We offer 8 accessible rooms.")
    assert subset.count == 8 and subset.confidence < 0.6
    mixed = regex_room_count("The hotel has 150 rooms, including 8 accessible rooms.")
    assert mixed.count == 150


def test_regex_reads_a_50kb_page():
    text = (HOME + " ") * 60  # ~50 KB
    assert regex_room_count(text).count == 120


def test_prompt_asks_for_the_json_contract_and_keeps_room_passages_of_long_pages():
    filler = "Lorem ipsum dolor sit amet, beach and sunshine. " * 800
    text = filler + " Our 87 guest rooms face the bay. " + filler
    messages = build_room_count_prompt(text, hotel_name="Bayview  Inn", max_chars=4000)
    assert [m["role"] for m in messages] == ["system", "user"]
    user = messages[1]["content"]
    assert '"room_count"' in user and '"evidence"' in user and "null" in user
    assert "Hotel: Bayview Inn" in user
    assert "Our 87 guest rooms face the bay." in user
    assert len(user) < 4000 + 1500
    assert ROOM_COUNT_RESPONSE_FORMAT == {"type": "json_object"}


@pytest.mark.parametrize("answer, expected", [
    ('{"room_count": 120, "evidence": "Our 120 guest rooms"}', (120, "Our 120 guest rooms")),
    ('```json\n{"room_count": "85", "evidence": "85 rooms"}\n```', (85, "85 rooms")),
    ('Sure! Here is the answer: {"room_count": 45.0, "evidence": "45 rooms"} Hope it helps.', (45, "45 rooms")),
    ('{"room_count": "1,200 rooms", "evidence": null}', (1200, "")),
    ({"room_count": 30, "evidence": "3 suites and 27 rooms"}, (30, "3 suites and 27 rooms")),
    ('{"room_count": 64, "evidence": "64 rooms", ', (64, "64 rooms")),  # truncated reply
    ("64", (64, "")),
])
def test_parse_answer_reads_the_count_robustly(answer, expected):
    assert tuple(parse_room_count_answer(answer)) == expected


@pytest.mark.parametrize("answer", [
    '{"room_count": null, "evidence": ""}',
    '{"room_count": 0, "evidence": "no rooms"}',
    '{"room_count": 12000, "evidence": "12000 rooms"}',
    '{"room_count": -5}',
    '{"room_count": 12.5}',
    '{"room_count": true}',
    '{"room_count": "several"}',
    '{"answer": 12}',
    "I could not find the number of rooms.",
    "",
    None,
])
def test_parse_answer_rejects_missing_or_implausible_counts(answer):
    assert parse_room_count_answer(answer) is None


def test_parse_answer_round_trips_what_the_prompt_asks_for():
    reply = json.dumps({"room_count": 27, "evidence": "  27 rooms\n and suites "})
    assert parse_room_count_answer(reply) == (27, "27 rooms and suites")

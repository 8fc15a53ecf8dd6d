"""What the review page says of a staged row (core/review.py): badges say what approving does,
reasons are in the reviewer's words, a blank staged field is no value (not a difference), and a
change meeting a hand edit is a choice per field, kept for a field edited by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest

from sadie_pipeline.core.review import Choice, approving_does, kept_fields, reason_words, rejecting_does, sides


@pytest.mark.parametrize("row, words", [
    ({"action": "insert", "l_action": "unchanged", "li_action": "insert", "target_listing_id": 31},
     "attach to listing 31"),  # an unsure match: the record joins listing 31
    ({"action": "insert", "l_action": "insert", "li_action": "insert", "target_listing_id": None}, "new listing"),
    ({"action": "delete", "l_action": "delete", "target_listing_id": 12}, "delete listing 12"),
    ({"action": "delete", "l_action": "unchanged", "target_listing_id": 12, "dmo": "visit-pei"},
     "drop visit-pei from listing 12"),
    ({"action": "duplicate", "duplicate_of": 812}, "same place as row #812"),
    ({"action": "update", "l_action": "update", "li_action": "update", "target_listing_id": 31}, "update listing 31"),
])
def test_the_badge_says_what_approving_does(row, words):
    assert approving_does(row).words == words


def test_rejecting_an_unsure_match_makes_a_new_listing_and_a_deletion_keeps_the_listing():
    unsure = {"match_method": "fuzzy", "action": "insert", "review_reason": "fuzzy match to listing 31 with certainty 0.62"}
    assert rejecting_does(unsure).words == "new listing instead"
    assert rejecting_does({"action": "delete", "target_listing_id": 12}).words == "keep listing 12"


@pytest.mark.parametrize("reason, words", [
    ("fuzzy match to listing 31 with certainty 0.6200 (shares its phone)",
     "Maybe the same place as listing 31 “Holman's” (62 % sure; shares its phone)"),
    ("listing_info 58 was edited by hand",
     "visit-pei's description and contact details of listing 31 “Holman's” were edited by hand, and this import "
     "would change them: choose per field what to keep"),
    ("listing 31 was edited by hand; matched by hand to listing 31",
     "Listing 31 “Holman's” was edited by hand, and this import would change it: choose per field what to keep; "
     "matched by hand to listing 31 “Holman's”"),
    ("duplicate of staged row 812 (certainty 0.9000)", "visit-pei sent this place twice: it looks like row #812 (90 % sure)"),
    ("absent from a full import", "visit-pei's latest full import no longer has it"),
])
def test_reasons_are_in_the_reviewers_words(reason, words):
    row = {"review_reason": reason, "dmo": "visit-pei", "target_listing_id": 31, "live_name": "Holman's"}
    assert reason_words(row) == words


def test_a_blank_is_no_value_and_a_hand_edit_is_a_choice_per_field():
    row = {"target_listing_id": 31, "l_action": "update", "li_action": "update", "live_manual": True,
           "live_info_manual": False, "name": "Holman's Café", "live_name": "Holman's (ours)", "lat": None,
           "live_lat": Decimal("46.396"), "city": "Summerside", "live_city": "Summerside",
           "description": "New text", "live_description": "Old text"}
    against, fields = sides(row, hand_edited={"name"})
    by = {s.field: s for s in fields}
    assert against == "live listing 31"
    assert (by["lat"].blank, by["lat"].differs, by["lat"].choice) == (True, False, None)
    assert (by["name"].differs, by["name"].choice, by["name"].hand_edited) == (True, Choice.MINE, True)
    assert by["city"].differs is False
    assert by["description"].differs and by["description"].choice is None  # this DMO's record was not edited
    assert kept_fields({"name": "mine", "description": "theirs", "colour": "mine"}) == ["name"]

"""Signers of review replies: rules on many signature styles, the LLM prompt/answer contract,
and one hotel's replies folded into people."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.enrichment.review_signers import (
    SignerReading,
    build_signer_prompt,
    hotel_signers,
    parse_signer_answer,
    read_signature,
)

BODY = "Thank you for staying with us and for your kind words!\n"


@pytest.mark.parametrize(("reply", "name", "title"), [
    (BODY + "Maria, General Manager", "Maria", "General Manager"),
    (BODY + "Maria Lopez, General Manager", "Maria Lopez", "General Manager"),
    (BODY + "- Maria (General Manager)", "Maria", "General Manager"),
    (BODY + "\u2014 Maria Lopez (Owner)", "Maria Lopez", "Owner"),
    (BODY + "~ Raj Patel - Owner/Operator", "Raj Patel", "Owner/Operator"),
    (BODY + "Sophie Laurent | Innkeeper", "Sophie Laurent", "Innkeeper"),
    (BODY + "Daniel Reyes, Director of Sales", "Daniel Reyes", "Director of Sales"),
    (BODY + "Olivia Grant, General Manager at Brickell Harbor Hotel", "Olivia Grant", "General Manager"),
    (BODY + "Best regards,\nMaria Lopez\nGeneral Manager", "Maria Lopez", "General Manager"),
    (BODY + "Kind regards,\nTom Becker", "Tom Becker", ""),
    ("Thanks for the review! - Maria, GM", "Maria", "General Manager"),
    ("Cheers, Raj", "Raj", ""),
    (BODY + "Maria L.", "Maria", ""),
    (BODY + "Maria Lopez, Biscayne Bay Inn", "Maria Lopez", ""),
    (BODY + "Jean-Luc Moreau, Hotel Manager", "Jean-Luc Moreau", "Hotel Manager"),
])
def test_rules_read_signed_replies(reply: str, name: str, title: str) -> None:
    assert read_signature(reply) == SignerReading("signed", name, title)


@pytest.mark.parametrize("reply", [
    BODY + "The Front Desk Team", BODY + "Management", BODY + "Sincerely,\nThe Staff at Ocean Inn",
    BODY + "Hotel Management Team", BODY + "General Manager", BODY + "- The Reservations Team",
])
def test_team_signatures_name_nobody(reply: str) -> None:
    assert read_signature(reply).status == "team"


@pytest.mark.parametrize("reply", [
    "Thank you for your review.", "Thanks for visiting Key West!", "Thanksgiving was great here",
    "We hope to see you again at Ocean Inn - come back soon!", "", None,
])
def test_unsigned_replies_need_no_llm(reply: str | None) -> None:
    assert read_signature(reply).status == "unsigned"


@pytest.mark.parametrize("reply", [
    BODY + "Warm regards from all of us - Maria, who runs the place for the family",
    "Thanks, love from Maria and the whole crew",
])
def test_prose_signatures_are_left_to_the_llm(reply: str) -> None:
    assert read_signature(reply) == SignerReading("unreadable")


def test_prompt_quotes_the_reply_and_answers_are_checked_against_it() -> None:
    reply = BODY + "Warm regards from all of us - Maria, who runs the place for the family"
    messages = build_signer_prompt(reply, "Ocean  Inn")
    assert "<<<\n" + reply + "\n>>>" in messages[-1]["content"] and "Hotel: Ocean Inn" in messages[-1]["content"]
    assert "JSON" in messages[0]["content"]
    assert parse_signer_answer({"name": "Maria", "title": "manager", "team": False}, reply) == \
        SignerReading("signed", "Maria", "Manager", "llm")
    assert parse_signer_answer('{"name": "Maria", "title": null}', reply).name == "Maria"
    # a name the reply does not contain is invented: dropped
    assert parse_signer_answer({"name": "Helen Whitaker", "title": "Owner"}, reply).status == "unsigned"
    assert parse_signer_answer({"name": None, "team": True}, reply).status == "team"
    assert parse_signer_answer("not json", reply).status == "unreadable"


def test_hotel_signers_merge_first_names_and_count_replies() -> None:
    readings = [SignerReading("signed", "Maria", "General Manager"), SignerReading("signed", "Maria Lopez", ""),
                SignerReading("signed", "Maria Lopez", "General Manager"), SignerReading("team"),
                SignerReading("signed", "Raj", "", "llm"), SignerReading("unsigned")]
    signers = hotel_signers(readings)
    assert [(s.name, s.title, s.replies, s.first_name_only, s.generic_title) for s in signers] == [
        ("Maria Lopez", "General Manager", 3, False, False), ("Raj", "", 1, True, True)]
    assert signers[1].methods == ("llm",)
    assert hotel_signers([SignerReading("team"), SignerReading("unsigned")]) == []

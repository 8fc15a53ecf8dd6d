"""Unit tests for sadie_pipeline.core.enrichment.email_verify: statuses without SMTP, flags,
pattern learning and guesses."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.enrichment.email_verify import (
    STATUSES,
    detect_pattern,
    email_for_pattern,
    guess_email,
    patterns_of,
    verify_email,
)

GOOGLE_MX = ["1 aspmx.l.google.com.", "5 alt1.aspmx.l.google.com."]
KNOWN = [
    ("maria.lopez@seasideinn.com", "Maria Lopez"),
    ("david.obrien@seasideinn.com", "David O'Brien"),
    ("info@seasideinn.com", None),
    ("jsmith@otherhotel.com", "John Smith"),
]


@pytest.mark.parametrize("email", [
    "not-an-email", "maria@", "@seasideinn.com", "maria..lopez@seasideinn.com", ".maria@seasideinn.com",
    "maria@seaside_inn.com", "maria@-seasideinn.com", "maria@seasideinn", "maria@seasideinn.c0m",
    "a" * 65 + "@seasideinn.com", "maria lopez@seasideinn.com", "", None,
])
def test_invalid_syntax(email):
    v = verify_email(email, GOOGLE_MX)
    assert v.status == "invalid_syntax" and v.confidence == 0.0 and not v.verified


def test_valid_personal_address_at_a_google_domain():
    v = verify_email("Maria.Lopez@SeasideInn.com", GOOGLE_MX)
    assert v.email == "maria.lopez@seasideinn.com"
    assert (v.status, v.confidence, v.has_mx, v.provider) == ("valid_domain", 0.6, True, "google_workspace")
    assert not v.is_role and not v.is_free and not v.verified
    assert v.as_row()["email_verified"] is False


def test_no_mx_and_null_mx():
    assert verify_email("maria@parked-domain.com", []).status == "no_mx"
    null = verify_email("maria@parked-domain.com", ["0 ."])
    assert (null.status, null.confidence, null.has_mx) == ("no_mx", 0.05, False)


def test_role_accounts():
    v = verify_email("reservations@seasideinn.com", GOOGLE_MX)
    assert (v.status, v.confidence, v.is_role) == ("role_account", 0.5, True)
    assert verify_email("frontdesk@seasideinn.com", GOOGLE_MX).status == "role_account"


def test_free_and_disposable_flags_and_typos():
    gmail = verify_email("seasideowner@gmail.com", None)  # free-mail domains need no MX lookup
    assert gmail.status == "valid_domain" and gmail.is_free and gmail.has_mx
    burner = verify_email("x7@mailinator.com", ["10 mail.mailinator.com."])
    assert burner.is_disposable and burner.confidence == 0.1
    typo = verify_email("owner@gmial.com", [])
    assert typo.status == "no_mx" and "possible_typo_of:gmail.com" in typo.reasons
    with pytest.raises(ValueError, match="DNS layer"):
        verify_email("maria@seasideinn.com", None)


def test_pattern_consistency_raises_confidence():
    follows = verify_email("linda.smith@seasideinn.com", GOOGLE_MX, full_name="Linda Smith", known=KNOWN)
    assert follows.pattern == "first.last" and follows.confidence == 0.7
    assert "matches_domain_pattern" in follows.reasons
    spells = verify_email("lsmith@seasideinn.com", GOOGLE_MX, full_name="Linda Smith", known=KNOWN)
    assert spells.pattern == "flast" and spells.confidence == 0.65
    other = verify_email("sales.team@seasideinn.com", GOOGLE_MX, full_name="Linda Smith", known=KNOWN)
    assert other.status == "role_account"


def test_patterns_and_builders():
    assert patterns_of("jsmith", "John Smith") == ["flast"]
    assert patterns_of("john", "John Smith") == ["first"]
    assert patterns_of("smith.john", "Dr. John A. Smith") == ["last.first"]
    assert patterns_of("obrien.d", "David O'Brien") == []
    assert email_for_pattern("Mary-Jane O'Brien", "Inn.ca", "f.last") == "m.obrien@inn.ca"
    assert email_for_pattern("Maria", "inn.ca", "first.last") is None
    assert email_for_pattern("Maria", "inn.ca", "first") == "maria@inn.ca"


def test_detect_pattern_from_named_and_bare_addresses():
    p = detect_pattern(KNOWN, "seasideinn.com")
    assert (p.pattern, p.support, p.total, p.rivals) == ("first.last", 2, 2, 0)
    assert detect_pattern(KNOWN, "otherhotel.com").pattern == "flast"
    assert detect_pattern(["anna.berg@inn.ca", "info@inn.ca"], "inn.ca").pattern == "first.last"
    assert detect_pattern(["info@inn.ca", "x1@inn.ca"], "inn.ca") is None
    mixed = detect_pattern([("jdoe@inn.ca", "Jane Doe"), ("bsmith@inn.ca", "Bob Smith"), ("paul@inn.ca", "Paul Roy")],
                           "inn.ca")
    assert (mixed.pattern, mixed.support, mixed.rivals) == ("flast", 2, 1)


def test_guess_email_from_the_learned_pattern():
    g = guess_email("Linda Smith", "seasideinn.com", GOOGLE_MX, KNOWN)
    assert (g.email, g.status, g.pattern, g.confidence) == ("linda.smith@seasideinn.com", "pattern_guess",
                                                            "first.last", 0.4)
    assert g.status in STATUSES and not g.verified
    assert "learned_pattern" in g.reasons


def test_guess_email_edge_cases():
    assert guess_email("Linda Smith", "unknownhotel.com", GOOGLE_MX, KNOWN) is None  # nothing learned
    default = guess_email("Linda Smith", "unknownhotel.com", GOOGLE_MX, KNOWN, default_pattern="first")
    assert (default.email, default.confidence) == ("linda@unknownhotel.com", 0.15)
    assert guess_email("Linda", "seasideinn.com", GOOGLE_MX, KNOWN) is None  # first.last needs a surname
    assert guess_email("Linda Smith", "gmail.com", None, [("a.b@gmail.com", "A B")]) is None
    no_mx = guess_email("Linda Smith", "seasideinn.com", [], KNOWN)
    assert no_mx.status == "no_mx"
    on_record = guess_email("Maria Lopez", "seasideinn.com", GOOGLE_MX, KNOWN)
    assert on_record.status == "valid_domain"  # the address is known, so it is verified, not guessed
    with pytest.raises(ValueError):
        guess_email("Linda Smith", "x.com", GOOGLE_MX, default_pattern="firstname")

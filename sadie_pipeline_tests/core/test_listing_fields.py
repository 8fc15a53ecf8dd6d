"""The field rules of core/listing_fields.py: each rule, an edit's changes (blank, clear, the phone's
international form, coordinates in pairs), what is served, and imports held to the same rules."""

from __future__ import annotations

from decimal import Decimal

import pytest
from email_validator import EmailNotValidError, validate_email
from hypothesis import given, settings
from hypothesis import strategies as st

from sadie_pipeline.core import listing_fields as rules
from sadie_pipeline.core.listing_fields import FieldError, Phone, Problem, check_edit
from sadie_pipeline_tests.core.test_transform import error_types, make_transformer, ok, raw_record

HOSTILE_URLS = ["javascript:alert(4)", "JavaScript:alert(document.cookie)", "javascript://%0aalert(1)",
                "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "ftp://files.example.com/a",
                "https://user:secret@example.com/", "mailto:x@example.com", "http://127.0.0.1/admin",
                "https://example.com:abc/", "N/A", "https://", "//", "http://exa mple.com"]


@pytest.mark.parametrize("value", ["   ", "", "!!!", "—", "\u200b\u200b", "Bad\x00name"])
def test_a_name_needs_a_letter_or_digit(value):
    with pytest.raises(FieldError) as refused:
        rules.name(value)
    assert refused.value.field == "name"


def test_a_name_is_kept_with_its_whitespace_collapsed():
    assert rules.name("  Café   1867 ") == "Café 1867"
    assert rules.name("7") == "7"


@pytest.mark.parametrize("axis, value, problem", [
    ("lat", "95", Problem.OUT_OF_RANGE), ("lat", "999", Problem.OUT_OF_RANGE), ("lng", "-200", Problem.OUT_OF_RANGE),
    ("lat", "abc", Problem.INVALID), ("lat", "NaN", Problem.INVALID), ("lng", "Infinity", Problem.INVALID),
    ("lat", "46,2", Problem.INVALID)])
def test_coordinates_out_of_range_or_not_numbers_are_refused(axis, value, problem):
    with pytest.raises(FieldError) as refused:
        rules.coordinate(value, axis)
    assert refused.value.problem is problem and refused.value.field == axis


def test_coordinates_in_range_with_their_bounds():
    assert rules.coordinate("90", "lat") == Decimal(90) and rules.coordinate(-180, "lng") == Decimal(-180)
    assert rules.coordinate(" ", "lat") is None
    with pytest.raises(FieldError):
        rules.coordinate("39.9", "lat", (40, 50))
    with pytest.raises(FieldError):  # a config's bounds never widen the globe's
        rules.coordinate("95", "lat", (-100, 100))


def test_an_edit_stores_coordinates_at_the_columns_scale():
    edit = check_edit(["lat", "lng"], {"lat": "46.1234567891", "lng": "-63.1"}, [], {})
    assert edit.changes == {"lat": Decimal("46.12345679"), "lng": Decimal("-63.1")}


@pytest.mark.parametrize("value", ["not-an-email", "a@b", "x@localhost", "john..doe@example.com", "a b@c.com",
                                   "someone@host.local", "a@-example.com", "a@example.com\x00"])
def test_bad_emails_are_refused(value):
    with pytest.raises(FieldError):
        rules.email(value)


def test_emails_are_lower_cased_as_stored():
    assert rules.email(" Info@HarbourView.CA ") == "info@harbourview.ca"
    assert rules.email("MAILTO:hi@example.com") == "hi@example.com"
    assert rules.email("info@harbour.test") == "info@harbour.test"  # the sandbox's DMOs
    assert rules.email(None) is None and rules.email("  ") is None


_EMAILISH = st.from_regex(r"[a-zA-Z0-9._+\-]{1,12}@([a-zA-Z0-9\-]{1,10}\.){1,3}[a-zA-Z]{1,6}", fullmatch=True)


@settings(max_examples=300, deadline=None, database=None)
@given(st.one_of(_EMAILISH, st.text(max_size=40)))
def test_the_quick_email_check_agrees_with_email_validator(value):
    try:
        expected = validate_email(value.lower(), check_deliverability=False, test_environment=True).normalized.lower()
    except EmailNotValidError:
        expected = None
    try:
        got = rules._email(value.lower())
    except FieldError:
        got = None
    assert got == expected


def test_phones_are_parsed_with_their_international_form():
    assert rules.phone("(902) 555-0177") == Phone("(902) 555-0177", "+19025550177")
    assert rules.phone("902.555.0177") == Phone("(902) 555-0177", "+19025550177")
    assert rules.phone("020 7946 0018", "GB") == Phone("020 7946 0018", "+442079460018")
    with pytest.raises(FieldError):
        rules.phone("call us maybe")


@pytest.mark.parametrize("value", HOSTILE_URLS)
def test_only_http_addresses_of_named_hosts_are_web_addresses(value):
    with pytest.raises(FieldError):
        rules.web_url(value)
    assert rules.served_url(value) is None


def test_web_addresses_are_normalised():
    assert rules.web_url("HarbourView.ca/") == "https://harbourview.ca"
    assert rules.web_url("http://www.example.com/menu?day=1#top") == "http://www.example.com/menu?day=1"
    assert rules.web_url("https://my_site.example.com/a b") == "https://my_site.example.com/a b"


@given(st.text(max_size=60))
@settings(max_examples=300, deadline=None, database=None)
def test_a_web_address_is_http_or_refused_whatever_the_text(value):
    try:
        url = rules.web_url(value)
    except FieldError:
        return
    assert url is None or (url.startswith(("http://", "https://")) and not rules._CONTROL.search(url))


def test_categories_come_from_the_vocabulary_with_the_nearest_suggested():
    assert rules.category(" Lodging.Hotel ") == "lodging.hotel"
    with pytest.raises(FieldError) as refused:
        rules.category("resturant.bistro")
    assert "did you mean restaurant?" in refused.value.message
    assert rules.suggest_category("B&B") == "lodging.bed_and_breakfast"
    assert rules.suggest_category("zzqx") is None


CURRENT = {"name": "Harbour Grill", "category": "restaurant", "lat": Decimal("46.23"), "lng": Decimal("-63.13"),
           "email": "hi@example.com", "local_phone": "(902) 555-0102", "international_phone": "+19025550102",
           "website_url": "https://example.com", "description": "A place."}
LISTING = [f.value for f in rules.ListingField]
RECORD = [f.value for f in rules.RecordField]


def test_an_empty_value_leaves_its_field_alone_and_a_clear_empties_it():
    edit = check_edit(RECORD, {"email": "", "website_url": None, "description": "A place."}, ["email"], CURRENT)
    assert edit.changes == {"email": None} and edit.errors == {}


def test_a_value_of_spaces_neither_keeps_nor_clears():
    edit = check_edit(LISTING + RECORD, {"name": "   ", "email": " \t "}, [], CURRENT)
    assert edit.changes == {} and set(edit.errors) == {"name", "email"}


def test_the_name_cannot_be_cleared_and_refused_values_are_field_errors():
    edit = check_edit(LISTING, {"lat": "95", "category": "resturant.bistro"}, ["name"], CURRENT)
    assert set(edit.errors) == {"name", "lat", "category"} and edit.changes == {}


def test_a_new_phone_brings_its_international_form_and_a_cleared_one_takes_it_away():
    edit = check_edit(RECORD, {"local_phone": "(902) 555-0177"}, [], CURRENT)
    assert edit.changes == {"local_phone": "(902) 555-0177", "international_phone": "+19025550177"}
    assert check_edit(RECORD, {}, ["local_phone"], CURRENT).changes == {"local_phone": None,
                                                                        "international_phone": None}


def test_a_value_as_it_is_now_is_not_checked_again():
    current = {**CURRENT, "email": "not-an-email"}  # stored before the rules
    edit = check_edit(RECORD, {"email": "not-an-email", "description": "New text."}, [], current)
    assert edit.changes == {"description": "New text."} and edit.errors == {}


def test_latitude_and_longitude_go_together():
    edit = check_edit(LISTING, {}, ["lat"], CURRENT)
    assert set(edit.errors) == {"lat", "lng"}
    both = check_edit(LISTING, {}, ["lat", "lng"], CURRENT)
    assert both.changes == {"lat": None, "lng": None} and both.errors == {}
    assert check_edit(LISTING, {"lat": "46.230"}, [], CURRENT).changes == {}  # the same number


def test_what_is_served_keeps_to_the_rules():
    served = rules.served_contact({"email": "not-an-email", "local_phone": "call us maybe",
                                   "international_phone": "12345", "website_url": "javascript:alert(4)",
                                   "facebook_url": "https://facebook.com/x", "name": "Jane"})
    assert served == {"email": None, "local_phone": None, "international_phone": None, "website_url": None,
                      "facebook_url": "https://facebook.com/x", "name": "Jane"}
    abroad = rules.served_contact({"local_phone": "(305) 555-0100", "international_phone": "+13055550100"}, "GB")
    assert abroad == {"local_phone": "(305) 555-0100", "international_phone": "+13055550100", "email": None}


# --- imports use the same rules (core/transform.py) ---------------------------------------------------

@pytest.mark.parametrize("url", ["javascript://%0aalert(1)", "javascript:alert(4)", "https://u:p@example.com"])
def test_an_import_refuses_what_an_edit_refuses(url):
    assert error_types(make_transformer()(raw_record(Web=url))) == ["invalid_type"]


def test_an_import_refuses_a_name_without_letters_and_coordinates_off_the_globe():
    assert error_types(make_transformer()(raw_record(**{"Business Name": "!!!"}))) == ["invalid_type"]
    assert error_types(make_transformer()(raw_record(Latitude="95"))) == ["out_of_bounds"]


def test_an_import_stores_contacts_as_an_edit_would():
    rec = ok(make_transformer()(raw_record(**{"E-mail": "Hi@Example.COM", "Tel": "902 555 0177"})))
    phone = rules.phone("902 555 0177")
    assert (rec["email"], rec["local_phone"], rec["international_phone"]) == \
        (rules.email("Hi@Example.COM"), phone.local, phone.international)

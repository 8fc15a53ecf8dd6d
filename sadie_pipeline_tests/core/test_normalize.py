"""Unit tests for sadie_pipeline.core.normalize (pure functions, no I/O)."""

from __future__ import annotations

import random
import re

import pytest

from sadie_pipeline.core.normalize import (
    MATCH_KEY_ASCII,
    PhoneError,
    apply_case,
    ascii_match_translation,
    clean_whitespace,
    country_code,
    match_key,
    normalize_email,
    normalize_url,
    phone_to_e164,
    split_list,
    title_case,
)

# --- clean_whitespace -------------------------------------------------------------------------

@pytest.mark.parametrize(
    "value, expected",
    [
        ("  Great   George\tHotel \n", "Great George Hotel"),
        ("a\u00a0\u00a0b", "a b"),            # non-breaking spaces are whitespace too
        ("already clean", "already clean"),
        ("x", "x"),
    ],
)
def test_clean_whitespace_trims_and_collapses(value, expected):
    assert clean_whitespace(value) == expected


@pytest.mark.parametrize("value", [None, "", "   ", "\t\n "])
def test_clean_whitespace_empty_becomes_none(value):
    assert clean_whitespace(value) is None


_WHITESPACE = [chr(c) for c in range(0x110000) if chr(c).isspace()]


@pytest.mark.parametrize("space", _WHITESPACE)
@pytest.mark.parametrize("template", ["a{}b", "{}a b", "a b{}", "a {}b", "{}", "a{}{}b"])
def test_clean_whitespace_collapses_every_unicode_space(template, space):
    # The fast path trusts that every whitespace character but " " is non-printable.
    value = template.format(space, space)
    assert clean_whitespace(value) == (" ".join(value.split()) or None)


# --- apply_case -------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "mode, expected",
    [("lower", "bed and breakfast"), ("upper", "BED AND BREAKFAST"), ("title", "Bed And Breakfast")],
)
def test_apply_case_modes(mode, expected):
    assert apply_case("bEd aNd BreakFAST", mode) == expected


@pytest.mark.parametrize("mode", [None, ""])
def test_apply_case_without_mode_leaves_value_untouched(mode):
    assert apply_case("MiXeD", mode) == "MiXeD"


@pytest.mark.parametrize("mode", ["lower", "upper", "title", None])
def test_apply_case_none_value_stays_none(mode):
    assert apply_case(None, mode) is None


def test_apply_case_unknown_mode_raises():
    with pytest.raises(ValueError, match="unknown case mode"):
        apply_case("x", "sentence")


@pytest.mark.parametrize(
    "value, expected",
    [
        ("ANNE'S KITCHEN", "Anne's Kitchen"),          # str.title() gives "Anne'S"
        ("ANNE\u2019S KITCHEN", "Anne\u2019s Kitchen"),
        ("4TH STREET DINER", "4th Street Diner"),       # str.title() gives "4Th"
        ("SAINT-JEAN B&B", "Saint-Jean B&B"),
        ("(THE) DINER", "(The) Diner"),
        ("CAFÉ ÉTÉ", "Café Été"),
    ],
)
def test_title_case_word_by_word(value, expected):
    assert title_case(value) == expected
    assert apply_case(value, "title") == expected


# --- country_code -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "value, expected",
    [
        ("CA", "CA"), ("ca", "CA"), ("CAN", "CA"), ("Canada", "CA"),
        ("US", "US"), ("USA", "US"), ("U.S.A.", "US"), ("United States", "US"), ("united  states of america", "US"),
        ("GB", "GB"), ("UK", "GB"), ("U.K.", "GB"), ("United Kingdom", "GB"),
        ("IE", "IE"), ("IRL", "IE"), ("Ireland", "IE"),
        ("FR", "FR"), ("France", "FR"), ("DEU", "DE"), ("Germany", "DE"), ("MEX", "MX"), ("México", "MX"),
        ("NO", "NO"),                                    # any 2-letter code is taken as given
    ],
)
def test_country_code(value, expected):
    assert country_code(value) == expected


@pytest.mark.parametrize("value", ["Atlantis", "XYZ", "C1", "Prince Edward Island", "U"])
def test_country_code_unknown_raises(value):
    with pytest.raises(ValueError, match="country"):
        country_code(value)


# --- match_key (seed rule: lower, strip punctuation, collapse spaces) ------------------------

@pytest.mark.parametrize(
    "value, expected",
    [
        ("The Great George", "the great george"),
        ("  St. John's   Pub!! ", "st johns pub"),
        ("Gahan House - Charlottetown", "gahan house charlottetown"),   # lone dash disappears, spaces collapse
        ("Fish & Chips", "fish chips"),
        ("Café Dolce", "café dolce"),                                     # letters outside ASCII are kept
        ("58 Great George St.", "58 great george st"),
    ],
)
def test_match_key(value, expected):
    assert match_key(value) == expected


@pytest.mark.parametrize("value", [None, "", "!!!", " .,; "])
def test_match_key_of_nothing_is_empty_string(value):
    assert match_key(value) == ""


def test_match_key_equal_for_cosmetic_variants():
    variants = ["The Great George", "THE GREAT GEORGE", "  the  great george. ", "The, Great George!"]
    assert len({match_key(v) for v in variants}) == 1


def _match_key_by_regex(value: str | None) -> str:
    """match_key as it was written before its ASCII fast path (hashes depend on it)."""
    if not value:
        return ""
    return " ".join(re.sub(r"[^\w\s]", "", value.lower()).split())


def test_match_key_ascii_path_equals_the_regex_on_every_ascii_character():
    for code in range(128):
        c = chr(code)
        for value in (c, c * 3, f"a{c}B", f"{c} x {c}", f"X{c}{c}y z{c}", f"\t{c}\x1c{c}\x1f"):
            assert match_key(value) == _match_key_by_regex(value), repr(value)


def test_match_key_ascii_path_equals_the_regex_on_random_text():
    rnd = random.Random(11)
    alphabet = [chr(c) for c in range(128)] + list("aeiou AEIOU 0123 '&-.,")
    for _ in range(20000):
        value = "".join(rnd.choices(alphabet, k=rnd.randint(0, 24)))
        assert match_key(value) == _match_key_by_regex(value), repr(value)


@pytest.mark.parametrize("value", ["Café Dolce", "ÉTÉ  d'Or", "Straße", "ΣΊΣΥΦΟΣ", "a\u00a0b", "x\u2028y", "١٢٣ Main"])
def test_match_key_non_ascii_unchanged(value):
    assert match_key(value) == _match_key_by_regex(value)


def test_ascii_match_translation():
    table, delete = ascii_match_translation()
    assert (table, delete) == MATCH_KEY_ASCII
    assert b"Ab_9".translate(table, delete) == b"ab_9"
    assert b"St. John's!".translate(table, delete) == b"st johns"
    # every character str.split() splits on becomes a plain space (bytes.split() knows no \x1c-\x1f)
    assert b"a\tb\x0bc\x1cd\x1fe".translate(table, delete) == b"a b c d e"
    assert set(delete) == {c for c in range(128) if not re.match(r"[\w\s]", chr(c))}


# --- phone_to_e164 ----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "value",
    ["(902) 555-0142", "902.555.0142", "+1 902 555 0142", "1-902-555-0142", "9025550142", " 902 555 0142 "],
)
def test_phone_nanp_shapes(value):
    assert phone_to_e164(value) == "+19025550142"


def test_phone_us_region_uses_fast_path_too():
    assert phone_to_e164("(212) 555-0100", "us") == "+12125550100"


@pytest.mark.parametrize("value", ["(902) 555-0142 x12", "902-555-0142 ext. 7", "902 555 0142 X 3"])
def test_phone_with_extension_goes_through_phonenumbers(value):
    # the extension is not part of E.164; the number itself is kept
    assert phone_to_e164(value) == "+19025550142"


def test_phone_extension_digits_never_join_the_number():
    # 7 digits + a 3-digit extension add up to 10 digits: the fast path must not read them as one number
    try:
        result = phone_to_e164("555-3142 x123")
    except PhoneError:
        result = None
    assert result != "+15553142123"


@pytest.mark.parametrize("region", ["GB", "gb"])
def test_phone_uk_national_number_with_region_gb(region):
    assert phone_to_e164("020 7946 0018", region) == "+442079460018"


def test_phone_international_number_with_plus_from_canadian_dmo():
    assert phone_to_e164("+44 20 7946 0018") == "+442079460018"
    assert phone_to_e164("+33 1 23 45 67 89") == "+33123456789"


def test_phone_uk_national_number_is_not_canadian():
    with pytest.raises(PhoneError):
        phone_to_e164("020 7946 0018", "CA")


@pytest.mark.parametrize("value", ["hello", "call us!", "123", "n/a"])
def test_phone_garbage_raises(value):
    with pytest.raises(PhoneError):
        phone_to_e164(value)


def test_phone_error_is_a_value_error():
    assert issubclass(PhoneError, ValueError)


@pytest.mark.parametrize("value", [None, "", "   ", "\t\n"])
def test_phone_empty_is_none(value):
    assert phone_to_e164(value) is None


def test_phone_explicit_foreign_country_code_is_not_turned_into_nanp():
    assert phone_to_e164("+45 33 12 34 56") == "+4533123456"


def test_phone_without_area_code_is_rejected():
    with pytest.raises(PhoneError):
        phone_to_e164("555-0142")


@pytest.mark.parametrize("value, region", [("555 0142", "US"), ("+1 555 0142", "CA"), ("7946 0018", "GB")])
def test_phone_local_only_numbers_are_rejected_in_every_region(value, region):
    with pytest.raises(PhoneError):
        phone_to_e164(value, region)


@pytest.mark.parametrize(
    "value, region, expected",
    [
        ("+45 33 12 34 56", "US", "+4533123456"),
        ("+1 (902) 555-0142", "CA", "+19025550142"),   # +1 still takes the fast path
        ("+1 902 555 0142", "GB", "+19025550142"),
    ],
)
def test_phone_explicit_country_code_wins_over_region(value, region, expected):
    assert phone_to_e164(value, region) == expected


# --- normalize_url ----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "value, expected",
    [
        ("greatgeorge.com", "https://greatgeorge.com"),                       # scheme added
        ("GreatGeorge.COM/", "https://greatgeorge.com"),                      # host lower-cased, root slash dropped
        ("http://Example.com/", "http://example.com"),                        # existing scheme kept
        ("HTTP://Example.com/a#frag", "http://example.com/a"),                # scheme lowered, fragment dropped
        ("//example.com/menu", "https://example.com/menu"),
        ("example.com/?a=1#top", "https://example.com?a=1"),                  # query kept, fragment dropped
        ("https://Ex.com:8080/Path/To?Q=1", "https://ex.com:8080/Path/To?Q=1"),  # path and query case kept
        ("  www.example.com/rooms  ", "https://www.example.com/rooms"),
    ],
)
def test_normalize_url(value, expected):
    assert normalize_url(value) == expected


@pytest.mark.parametrize("value", ["http://", "https:///path", "not a url", "https://exa mple.com"])
def test_normalize_url_invalid_raises(value):
    with pytest.raises(ValueError, match="not a URL"):
        normalize_url(value)


@pytest.mark.parametrize("value", [None, "", "   "])
def test_normalize_url_empty_is_none(value):
    assert normalize_url(value) is None


@pytest.mark.parametrize("value", [
    "example.com", "Example.COM/", "https://Example.com/a/b", "HTTP://x.org/Path_1/~me/%20", "http://a.b//c",
    "www.example.com/rooms/", "a", "https", "https://x", "x.com/a.b-c/", "..", "http://-",
])
def test_normalize_url_plain_urls_match_urlsplit(value):
    from sadie_pipeline.core.normalize import _normalize_url_split

    assert normalize_url(value) == _normalize_url_split(value)


def test_normalize_url_is_idempotent():
    once = normalize_url("Example.com/About#x")
    assert normalize_url(once) == once


# --- normalize_email --------------------------------------------------------------------------

@pytest.mark.parametrize(
    "value, expected",
    [
        (" Info@GreatGeorge.COM ", "info@greatgeorge.com"),
        ("mailto:Bookings@Example.ca", "bookings@example.ca"),
        ("MAILTO:a.b+c@sub.example.co.uk", "a.b+c@sub.example.co.uk"),
    ],
)
def test_normalize_email(value, expected):
    assert normalize_email(value) == expected


@pytest.mark.parametrize("value", ["info", "info@example", "a@@example.com", "a b@example.com", "@example.com", "info@example.c"])
def test_normalize_email_invalid_raises(value):
    with pytest.raises(ValueError, match="e-mail"):
        normalize_email(value)


@pytest.mark.parametrize("value", [None, "", "  "])
def test_normalize_email_empty_is_none(value):
    assert normalize_email(value) is None


# --- split_list -------------------------------------------------------------------------------

def test_split_list_all_separators():
    assert split_list("a.jpg | b.jpg, c.jpg;d.jpg\n e.jpg") == ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg"]


def test_split_list_drops_empty_items_and_keeps_order():
    assert split_list(" z.jpg ||  ;, a.jpg |") == ["z.jpg", "a.jpg"]


def test_split_list_single_value_and_inner_spaces():
    assert split_list("  my   photo.jpg ") == ["my photo.jpg"]


@pytest.mark.parametrize("value", [None, "", " | ; , "])
def test_split_list_empty(value):
    assert split_list(value) == []

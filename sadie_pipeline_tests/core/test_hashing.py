"""Unit tests for sadie_pipeline.core.hashing: source_id, listing match hash, change hashes."""

from __future__ import annotations

import hashlib

import pytest

from sadie_pipeline.core.hashing import change_hash, listing_match_hash, source_id_for

# --- source_id_for ----------------------------------------------------------------------------

def test_source_id_is_sha1_of_dmo_and_match_keys():
    expected = hashlib.sha1(b"7|the great george|charlottetown").hexdigest()
    assert source_id_for(7, "The Great George", "Charlottetown") == expected


def test_explicit_id_wins():
    assert source_id_for(7, "The Great George", "Charlottetown", explicit_id="GG-001") == "GG-001"


@pytest.mark.parametrize("explicit", [None, ""])
def test_empty_explicit_id_falls_back_to_hash(explicit):
    assert source_id_for(7, "A", "B", explicit) == source_id_for(7, "A", "B")


@pytest.mark.parametrize(
    "name, city",
    [
        ("THE GREAT GEORGE", "CHARLOTTETOWN"),
        ("  The   Great George ", " Charlottetown  "),
        ("The Great George.", "Charlottetown!"),
        ("the, great george", "charlottetown"),
    ],
)
def test_source_id_ignores_case_punctuation_and_spacing(name, city):
    assert source_id_for(7, name, city) == source_id_for(7, "The Great George", "Charlottetown")


def test_source_id_differs_across_dmos():
    assert source_id_for(7, "The Great George", "Charlottetown") != source_id_for(8, "The Great George", "Charlottetown")


def test_source_id_differs_for_other_name_or_city():
    base = source_id_for(7, "Gahan House", "Charlottetown")
    assert source_id_for(7, "Gahan House", "Summerside") != base
    assert source_id_for(7, "Gahan Hall", "Charlottetown") != base


def test_source_id_name_and_city_are_not_interchangeable():
    # the separator keeps "a|bc" apart from "ab|c"
    assert source_id_for(1, "a", "bc") != source_id_for(1, "ab", "c")


def test_source_id_handles_missing_values():
    assert source_id_for(3, None, None) == hashlib.sha1(b"3||").hexdigest()


def test_source_id_is_the_same_with_cities_seen_before():
    import random

    from sadie_pipeline.core.normalize import match_key

    rng = random.Random(3)
    cities = [f"  Saint-{rng.choice(['Jean', 'JEAN', 'Jean!'])} {i % 5000}  " for i in range(12_000)] + [None, "", "É"]
    for i, city in enumerate(cities):  # more cities than the cache keeps, each seen several times
        expected = hashlib.sha1(f"{i % 7}|{match_key(f'Inn {i}')}|{match_key(city)}".encode()).hexdigest()
        assert source_id_for(i % 7, f"Inn {i}", city) == expected


# --- listing_match_hash -----------------------------------------------------------------------

def test_listing_match_hash_is_sha256_of_match_keys():
    expected = hashlib.sha256(b"gahan house|126 sydney st|charlottetown").hexdigest()
    assert listing_match_hash(["Gahan House", "126 Sydney St.", "Charlottetown"]) == expected


def test_listing_match_hash_ignores_cosmetic_differences():
    assert listing_match_hash(["GAHAN HOUSE", " 126  Sydney St ", "charlottetown"]) == listing_match_hash(
        ["Gahan House", "126 Sydney St.", "Charlottetown"]
    )


def test_listing_match_hash_none_is_empty_and_position_matters():
    assert listing_match_hash(["a", None, "c"]) == listing_match_hash(["a", "", "c"])
    assert listing_match_hash(["a", "b", "c"]) != listing_match_hash(["c", "b", "a"])


def test_listing_match_hash_accepts_a_generator():
    assert listing_match_hash(v for v in ["x", "y"]) == listing_match_hash(["x", "y"])


# --- change_hash ------------------------------------------------------------------------------

def test_change_hash_is_stable_for_unchanged_data():
    values = ["Gahan House", "restaurant", None, 46.23457]
    assert change_hash(values) == change_hash(list(values))
    assert len(change_hash(values)) == 32  # blake2b, 16 bytes, hex
    int(change_hash(values), 16)


def test_change_hash_detects_any_changed_value():
    base = change_hash(["a", "b", "c"])
    assert change_hash(["a", "b", "d"]) != base
    assert change_hash(["a", "b"]) != base
    assert change_hash(["a", "b", "c", None]) != base


def test_change_hash_is_order_sensitive():
    # groups are positional (address1, address2, ...): moving a value to another field is a change
    assert change_hash(["12 Water St", None]) != change_hash([None, "12 Water St"])


def test_change_hash_treats_none_and_empty_string_alike():
    # by design: a source that sends "" where another (or last week's file) had no value at all must not
    # flag the record as changed, or every re-import would rewrite unchanged rows
    assert change_hash(["a", None, "c"]) == change_hash(["a", "", "c"])


def test_change_hash_compares_by_string_form():
    # 46.2 read from a CSV string and 46.2 read as a float from an API hash alike
    assert change_hash([46.2, 1]) == change_hash(["46.2", "1"])
    assert change_hash([46.2]) != change_hash([46.21])


def test_change_hash_of_rows_of_tuples():
    hours = ((1, "09:00", "17:00"), (2, "09:00", "17:00"))
    assert change_hash(hours) == change_hash(tuple(hours))
    assert change_hash(hours) != change_hash(((1, "09:00", "17:00"), (2, "09:00", "18:00")))

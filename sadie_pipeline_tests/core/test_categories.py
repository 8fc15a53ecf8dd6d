"""The controlled category vocabulary: default synonyms, a DMO's own map, the config's check, and
the transform applying it."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.categories import VOCABULARY, CategoryMapper, group_of
from sadie_pipeline.core.config import ConfigError, merge_config
from sadie_pipeline_tests.core.test_transform import make_transformer, ok, raw_record


@pytest.mark.parametrize(("source", "expected"), [
    ("Hotel", "lodging.hotel"), ("Boutique hotel", "lodging.hotel"), ("Hotels & Motels", "lodging.hotel"),
    ("Bed & Breakfast", "lodging.bed_and_breakfast"), ("B&B", "lodging.bed_and_breakfast"),
    ("Guest house", "lodging.inn"), ("Cottages", "lodging.vacation_rental"), ("Campground", "lodging.campground"),
    ("Science museum", "attraction.museum"), ("Art Galleries", "attraction.gallery"),
    ("Amusement park", "attraction.amusement_park"), ("Tourist attraction", "attraction"),
    ("Café", "restaurant.cafe"), ("Wine bar", "restaurant.bar"), ("Fine dining", "restaurant"),
    ("Kayak Tours", "activity.tour"), ("activities", "activity"), ("Shopping mall", "shop.mall"),
    ("Shopping", "shop"), ("Music Festival", "event.festival"),
    # an agency that rents homes is not a place to stay
    ("Vacation home rental agency", "service"),
    # the vocabulary's own spellings
    ("lodging.hotel", "lodging.hotel"), ("vacation_rental", "lodging.vacation_rental"), ("LODGING", "lodging"),
])
def test_common_source_values_map_to_the_vocabulary(source, expected):
    assert CategoryMapper()(source) == expected
    assert expected in VOCABULARY


def test_whole_words_only_and_unmapped_values_kept_lowercased():
    mapper = CategoryMapper()
    assert mapper("Dinner Theater") == "attraction.theater"   # "inn" is not in "dinner"
    assert mapper("Innovation Hub") == "innovation hub"       # nor in "innovation": unmapped
    assert group_of(mapper("Innovation Hub")) is None
    assert mapper("") is None and mapper(None) is None


def test_a_dmos_own_map_comes_first():
    mapper = CategoryMapper({"Hotel": "lodging.motel", "Trading Post": "shop", "Sugar shack": "restaurant"})
    assert mapper("HOTEL") == "lodging.motel"
    assert mapper("Trading  Post") == "shop"
    assert mapper("Sugar Shack") == "restaurant"
    assert mapper("Museum") == "attraction.museum"


def test_the_config_names_a_category_outside_the_vocabulary():
    with pytest.raises(ConfigError, match=r"transform.category_map.Diner: not a category .*'restaurant'"):
        merge_config({"transform": {"category_map": {"Diner": "restaurnt"}}})
    assert merge_config({"transform": {"category_map": {"Diner": "restaurant"}}})["transform"]["category_map"] == {
        "Diner": "restaurant"}


def test_the_transform_maps_the_category():
    rec = ok(make_transformer({"transform": {"category_map": {"Sugar Shack": "restaurant"}}})(
        raw_record(Type="Sugar Shack")))
    assert rec["category"] == "restaurant"
    assert ok(make_transformer()(raw_record(Type="Boutique Hotel")))["category"] == "lodging.hotel"

"""Unit tests for sadie_pipeline.core.config: merge_config, validate_config, merge_policy_for."""

from __future__ import annotations

import copy

import pytest

from sadie_pipeline.core.config import (
    DEFAULT_CONFIG,
    MERGE_POLICIES,
    ConfigError,
    merge_config,
    merge_policy_for,
)

PRISTINE_DEFAULTS = copy.deepcopy(DEFAULT_CONFIG)


@pytest.fixture(autouse=True)
def defaults_untouched():
    yield
    assert DEFAULT_CONFIG == PRISTINE_DEFAULTS, "a test (or the code) mutated DEFAULT_CONFIG"


@pytest.mark.parametrize("overrides", [None, {}])
def test_no_overrides_gives_a_copy_of_the_defaults(overrides):
    merged = merge_config(overrides)
    assert merged == DEFAULT_CONFIG
    assert merged is not DEFAULT_CONFIG
    assert merged["transform"] is not DEFAULT_CONFIG["transform"]
    assert merged["transform"]["normalize_fields"] is not DEFAULT_CONFIG["transform"]["normalize_fields"]


def test_nested_dicts_merge_key_by_key():
    merged = merge_config({"transform": {"default_country": "US", "case": {"locations.city": "upper"}}})
    assert merged["transform"]["default_country"] == "US"
    # siblings in the same section keep their defaults
    assert merged["transform"]["round_lat_lng"] == 5
    # nested dict merged, not replaced
    assert merged["transform"]["case"] == {
        "listings.category": "lower", "locations.state": "upper", "locations.country": "upper", "locations.city": "upper",
    }
    # other sections untouched
    assert merged["validate"] == DEFAULT_CONFIG["validate"]


def test_lists_and_scalars_replace():
    merged = merge_config({"transform": {"normalize_fields": ["listings.name"]}, "import": {"delimiter": ";"}})
    assert merged["transform"]["normalize_fields"] == ["listings.name"]
    assert merged["import"]["delimiter"] == ";"


def test_new_keys_are_added():
    box = {"min_lat": 45.9, "max_lat": 47.1, "min_lng": -64.5, "max_lng": -61.9}
    merged = merge_config({"validate": {"business_rules": {"dmo_geographic_bounds": box}}})
    assert merged["validate"]["business_rules"] == {"lat_bounds": [-90, 90], "lng_bounds": [-180, 180], "dmo_geographic_bounds": box}


def test_merging_does_not_mutate_defaults():
    merged = merge_config({"transform": {"case": {"locations.city": "upper"}, "map_fields": {"listings.name": "Name"}}})
    merged["transform"]["normalize_fields"].append("locations.zip")
    merged["validate"]["business_rules"]["lat_bounds"][0] = 0
    merged["stage"]["auto_match_threshold"] = 0.1
    assert DEFAULT_CONFIG == PRISTINE_DEFAULTS
    assert "locations.city" not in DEFAULT_CONFIG["transform"]["case"]
    assert DEFAULT_CONFIG["transform"]["map_fields"] == {}


def test_two_merges_are_independent():
    a = merge_config({"transform": {"map_fields": {"listings.name": "Name"}}})
    b = merge_config({"transform": {"map_fields": {"listings.name": "Title"}}})
    assert a["transform"]["map_fields"] == {"listings.name": "Name"}
    assert b["transform"]["map_fields"] == {"listings.name": "Title"}


def test_result_does_not_share_objects_with_overrides():
    overrides = {"transform": {"normalize_fields": ["listings.name"], "map_fields": {"listings.name": "Name"}}}
    merged = merge_config(overrides)
    overrides["transform"]["normalize_fields"].append("locations.city")
    overrides["transform"]["map_fields"]["locations.city"] = "City"
    assert merged["transform"]["normalize_fields"] == ["listings.name"]
    assert merged["transform"]["map_fields"] == {"listings.name": "Name"}


def test_overrides_are_not_mutated():
    overrides = {"transform": {"map_fields": {"listings.name": "Name"}}}
    snapshot = copy.deepcopy(overrides)
    merge_config(overrides)
    assert overrides == snapshot


# --- validation -------------------------------------------------------------------------------

def test_unknown_map_fields_rejected_and_named():
    with pytest.raises(ConfigError, match="listings.nam, locations.town"):
        merge_config({"transform": {"map_fields": {"locations.town": "Town", "listings.name": "Name", "listings.nam": "X"}}})


def test_known_map_fields_accepted():
    merged = merge_config({"transform": {"map_fields": {"listings.name": "Name", "opening_hours.hours": "Hours"}}})
    assert merged["transform"]["map_fields"]["opening_hours.hours"] == "Hours"


@pytest.mark.parametrize("policy", MERGE_POLICIES)
def test_every_known_merge_policy_accepted(policy):
    merged = merge_config({"promote": {"merge_policy": policy, "conflict_resolution": {"contact_info": policy}}})
    assert merged["promote"]["merge_policy"] == policy


def test_unknown_merge_policy_rejected():
    with pytest.raises(ConfigError, match="unknown merge policy 'newest'"):
        merge_config({"promote": {"merge_policy": "newest"}})


def test_unknown_per_table_policy_rejected():
    with pytest.raises(ConfigError, match="unknown merge policy 'keep'"):
        merge_config({"promote": {"conflict_resolution": {"locations": "keep"}}})


@pytest.mark.parametrize(
    "stage",
    [
        {"review_threshold": 0.9},                                   # review above auto-match (0.8)
        {"auto_match_threshold": 1.01},
        {"review_threshold": -0.01},
        {"auto_match_threshold": 0.3},                               # below the default review (0.5)
        {"auto_match_threshold": 0.6, "review_threshold": 0.61},
    ],
)
def test_bad_thresholds_rejected(stage):
    with pytest.raises(ConfigError, match="thresholds"):
        merge_config({"stage": stage})


@pytest.mark.parametrize(
    "stage",
    [
        {"auto_match_threshold": 1, "review_threshold": 0},
        {"auto_match_threshold": 0.7, "review_threshold": 0.7},
        {"auto_match_threshold": 0, "review_threshold": 0},
    ],
)
def test_boundary_thresholds_accepted(stage):
    merged = merge_config({"stage": stage})
    assert merged["stage"]["auto_match_threshold"] == stage["auto_match_threshold"]


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


# --- merge_policy_for -------------------------------------------------------------------------

def test_merge_policy_for_defaults_to_global_policy():
    config = merge_config(None)
    assert merge_policy_for(config, "listings") == "latest_wins"


def test_merge_policy_for_per_table_override():
    config = merge_config({
        "promote": {"merge_policy": "field_level_merge", "conflict_resolution": {"contact_info": "skip_if_exists"}},
    })
    assert merge_policy_for(config, "contact_info") == "skip_if_exists"
    assert merge_policy_for(config, "listings") == "field_level_merge"
    assert merge_policy_for(config, "locations") == "field_level_merge"


def test_merge_policy_for_without_conflict_resolution_section():
    config = merge_config(None)
    del config["promote"]["conflict_resolution"]
    assert merge_policy_for(config, "listings") == "latest_wins"

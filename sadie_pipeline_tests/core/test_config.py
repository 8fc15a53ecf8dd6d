"""Unit tests for sadie_pipeline.core.config: merge_config and the DmoConfig model behind it,
load_config_file, maps_by_position, merge_policy_for."""

from __future__ import annotations

import copy
import json

import pytest

from sadie_pipeline.core.config import (
    DEFAULT_CONFIG,
    MERGE_POLICIES,
    ConfigError,
    DmoConfig,
    load_config_file,
    maps_by_position,
    merge_config,
    merge_policy_for,
)
from sadie_pipeline.settings import SAMPLE_DIR

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
    with pytest.raises(ConfigError) as caught:
        merge_config({"transform": {"map_fields": {"locations.town": "Town", "listings.name": "Name", "listings.nam": "X"}}})
    lines = str(caught.value).splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("transform.map_fields.locations.town: not a canonical field")
    assert lines[1].startswith("transform.map_fields.listings.nam: not a canonical field (did you mean 'listings.name'?)")


def test_known_map_fields_accepted():
    merged = merge_config({"transform": {"map_fields": {"listings.name": "Name", "opening_hours.hours": "Hours"}}})
    assert merged["transform"]["map_fields"]["opening_hours.hours"] == "Hours"


@pytest.mark.parametrize("policy", MERGE_POLICIES)
def test_every_known_merge_policy_accepted(policy):
    merged = merge_config({"promote": {"merge_policy": policy, "conflict_resolution": {"contact_info": policy}}})
    assert merged["promote"]["merge_policy"] == policy


def test_unknown_merge_policy_rejected():
    with pytest.raises(ConfigError, match=r"^promote.merge_policy: Input should be 'latest_wins', .*\(got 'newest'\)$"):
        merge_config({"promote": {"merge_policy": "newest"}})


def test_unknown_per_table_policy_rejected():
    with pytest.raises(ConfigError, match=r"^promote.conflict_resolution.locations: .*\(got 'keep'\)$"):
        merge_config({"promote": {"conflict_resolution": {"locations": "keep"}}})


def test_unknown_promote_table_rejected():
    with pytest.raises(ConfigError, match=r"^promote.conflict_resolution.location: Input should be 'listings'"):
        merge_config({"promote": {"conflict_resolution": {"location": "latest_wins"}}})


@pytest.mark.parametrize(
    ("stage", "message"),
    [
        ({"review_threshold": 0.9}, "stage.review_threshold: Input should be at most auto_match_threshold (0.8) (got 0.9)"),
        ({"auto_match_threshold": 1.01}, "stage.auto_match_threshold: Input should be less than or equal to 1 (got 1.01)"),
        ({"review_threshold": -0.01}, "stage.review_threshold: Input should be greater than or equal to 0 (got -0.01)"),
        # below the default review threshold (0.5): the review threshold is the one reported
        ({"auto_match_threshold": 0.3}, "stage.review_threshold: Input should be at most auto_match_threshold (0.3) (got 0.5)"),
        ({"auto_match_threshold": 0.6, "review_threshold": 0.61},
         "stage.review_threshold: Input should be at most auto_match_threshold (0.6) (got 0.61)"),
    ],
)
def test_bad_thresholds_rejected(stage, message):
    with pytest.raises(ConfigError) as caught:
        merge_config({"stage": stage})
    assert str(caught.value) == message


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



# --- the model: keys, types and ranges --------------------------------------------------------

REPO = SAMPLE_DIR.parents[2]
CONFIG_FILES = sorted([*SAMPLE_DIR.glob("*.config.json"), *(REPO / "benchmarks").glob("*.config.json")])


def test_defaults_are_the_model_defaults():
    assert DEFAULT_CONFIG == DmoConfig().model_dump(by_alias=True)
    assert set(DEFAULT_CONFIG) == {"import", "transform", "validate", "stage", "promote", "schedule"}
    assert DEFAULT_CONFIG["schedule"] == "manual"
    assert DEFAULT_CONFIG["validate"]["max_error_rate"] == 0.2


@pytest.mark.parametrize("path", CONFIG_FILES, ids=lambda p: p.name)
def test_every_shipped_config_file_validates(path):
    assert len(CONFIG_FILES) >= 3
    assert load_config_file(path) == json.loads(path.read_text())


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"stage": {"auto_match_treshold": 0.9}}, "stage.auto_match_treshold: unknown key (did you mean 'auto_match_threshold'?)"),
        ({"import": {"skip_header": True}}, "import.skip_header: unknown key"),
        ({"transfrom": {}}, "transfrom: unknown key (did you mean 'transform'?)"),
        ({"validate": {"business_rules": {"dmo_bounds": {}}}}, "validate.business_rules.dmo_bounds: unknown key"),
    ],
)
def test_unknown_keys_rejected_with_their_path(overrides, message):
    with pytest.raises(ConfigError) as caught:
        merge_config(overrides)
    assert str(caught.value) == message


def test_max_error_rate_is_a_rate():
    with pytest.raises(ConfigError) as caught:
        merge_config({"validate": {"max_error_rate": 5}})
    assert str(caught.value) == "validate.max_error_rate: Input should be less than or equal to 1 (got 5)"
    assert merge_config({"validate": {"max_error_rate": 1}})["validate"]["max_error_rate"] == 1


@pytest.mark.parametrize(
    ("section", "key", "value"),
    [
        ("import", "max_records_per_file", -1),
        ("import", "max_records_per_file", 0),
        ("import", "max_bytes_per_file", -20),
        ("transform", "round_lat_lng", -1),
    ],
)
def test_negative_sizes_rejected(section, key, value):
    with pytest.raises(ConfigError, match=rf"^{section}\.{key}: Input should be greater than (or equal to )?0 \(got {value}\)$"):
        merge_config({section: {key: value}})


def test_every_problem_reported_at_once_one_line_each():
    with pytest.raises(ConfigError) as caught:
        merge_config({"import": {"max_bytes_per_file": 0}, "validate": {"max_error_rate": 2}, "stage": {"x": 1}})
    assert [p.path for p in caught.value.problems] == [
        ("import", "max_bytes_per_file"), ("validate", "max_error_rate"), ("stage", "x")]
    assert len(str(caught.value).splitlines()) == 3


@pytest.mark.parametrize(
    "overrides",
    [
        {"validate": {"max_error_rate": "0.2"}},            # strings are not numbers
        {"import": {"full_import": "yes"}},
        {"import": {"max_records_per_file": 10.5}},
        {"transform": {"case": {"locations.city": "camel"}}},
        {"transform": {"normalize_fields": ["listings.name", "lat"]}},
        {"transform": {"default_country": "Canada"}},
        {"validate": {"data_types": {"contact_info.email": "emial"}}},
        {"validate": {"required_fields": ["locations.town"]}},
        {"validate": {"business_rules": {"lat_bounds": [90, -90]}}},
        {"validate": {"business_rules": {"lng_bounds": [-180]}}},
        {"import": {"delimiter": ";;"}},
        {"import": {"encoding": "utf-9"}},
        {"schedule": ""},
        {"transform": ["listings.name"]},
    ],
)
def test_wrong_types_and_values_rejected(overrides):
    with pytest.raises(ConfigError) as caught:
        merge_config(overrides)
    assert len(caught.value.problems) == 1


def test_threshold_order_error_names_both():
    with pytest.raises(ConfigError, match=r"review_threshold: .* auto_match_threshold \(0\.6\)"):
        merge_config({"stage": {"auto_match_threshold": 0.6, "review_threshold": 0.7}})


def test_optional_values_may_be_null():
    merged = merge_config({"transform": {"round_lat_lng": None, "default_country": None, "case": {"listings.category": None}},
                           "import": {"delimiter": "\t", "encoding": "cp1252"}})
    assert merged["transform"]["round_lat_lng"] is None
    assert merged["transform"]["case"]["listings.category"] is None


def test_geographic_box_needs_all_four_numbers():
    with pytest.raises(ConfigError) as caught:
        merge_config({"validate": {"business_rules": {"dmo_geographic_bounds": {"min_lat": 45, "max_lat": 47}}}})
    assert str(caught.value).splitlines() == [
        "validate.business_rules.dmo_geographic_bounds.min_lng: required key missing",
        "validate.business_rules.dmo_geographic_bounds.max_lng: required key missing",
    ]


def test_map_fields_by_position_accepted():
    overrides = {"transform": {"map_fields": {"listings.name": 1, "locations.city": "City", "locations.address1": 3}}}
    merged = merge_config(overrides)
    assert merged["transform"]["map_fields"] == {"listings.name": 1, "locations.city": "City", "locations.address1": 3}
    assert maps_by_position(merged) and maps_by_position(overrides)
    assert not maps_by_position(merge_config({"transform": {"map_fields": {"listings.name": "Name"}}}))
    assert not maps_by_position(DEFAULT_CONFIG) and not maps_by_position({})


@pytest.mark.parametrize("column", [0, -2, "", "   ", True, 1.0, None, ["Name"]])
def test_map_fields_values_must_be_a_name_or_a_position(column):
    with pytest.raises(ConfigError, match=r"^transform.map_fields.listings.name: Input should be a column name or a 1-based"):
        merge_config({"transform": {"map_fields": {"listings.name": column}}})


def test_merge_config_wants_an_object():
    with pytest.raises(ConfigError, match="should be a JSON object"):
        merge_config(["transform"])


# --- load_config_file -------------------------------------------------------------------------

def _file(tmp_path, text: str | bytes):
    path = tmp_path / "dmo.config.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_load_config_file_returns_the_file_as_written(tmp_path):
    path = _file(tmp_path, '{"transform": {"map_fields": {"listings.name": "Name"}}}')
    assert load_config_file(path) == {"transform": {"map_fields": {"listings.name": "Name"}}}
    assert load_config_file(str(path)) == {"transform": {"map_fields": {"listings.name": "Name"}}}


def test_load_config_file_reports_where_json_is_malformed(tmp_path):
    path = _file(tmp_path, '{\n  "stage": {\n    "review_threshold": 0.5\n    "auto_match_threshold": 0.8\n  }\n}\n')
    with pytest.raises(ConfigError) as caught:
        load_config_file(path)
    assert str(caught.value) == f"{path}:4:5: Expecting ',' delimiter"


def test_load_config_file_reports_the_line_and_column_of_a_bad_value(tmp_path):
    path = _file(tmp_path, json.dumps({
        "import": {"full_import": True},
        "validate": {"required_fields": ["listings.name"], "max_error_rate": 5},
        "stage": {"auto_match_treshold": 0.9},
    }, indent=2))
    with pytest.raises(ConfigError) as caught:
        load_config_file(path)
    assert str(caught.value).splitlines() == [
        f"{path}:9:5: validate.max_error_rate: Input should be less than or equal to 1 (got 5)",
        f"{path}:12:5: stage.auto_match_treshold: unknown key (did you mean 'auto_match_threshold'?)",
    ]


def test_load_config_file_points_at_list_items_and_nearest_parents(tmp_path):
    path = _file(tmp_path, '{"validate": {\n "required_fields": ["listings.name", "lat"],\n'
                           ' "business_rules": {"dmo_geographic_bounds": {"min_lat": 1, "max_lat": 2, "min_lng": 3}}},\n'
                           ' "stage": {"auto_match_threshold": 0.3}}')
    with pytest.raises(ConfigError) as caught:
        load_config_file(path)
    assert [line.split(": ")[0:2] for line in str(caught.value).splitlines()] == [
        [f"{path}:2:39", "validate.required_fields[1]"],
        [f"{path}:3:21", "validate.business_rules.dmo_geographic_bounds.max_lng"],  # at the box's key
        [f"{path}:4:2", "stage.review_threshold"],                                  # only "stage" is in the file
    ]


@pytest.mark.parametrize(("text", "where"), [("[1, 2]", "1:1"), ('\n  "x"', "2:3"), ("null", "1:1")])
def test_load_config_file_wants_an_object(tmp_path, text, where):
    path = _file(tmp_path, text)
    with pytest.raises(ConfigError, match=rf"^{path}:{where}: the config should be a JSON object"):
        load_config_file(path)


def test_load_config_file_with_a_bom_and_bad_utf8(tmp_path):
    assert load_config_file(_file(tmp_path, "\ufeff" + '{"schedule": "manual"}')) == {"schedule": "manual"}
    path = _file(tmp_path, b'{"transform": {\n  "default_country": "\xe9"}}')
    with pytest.raises(ConfigError, match=rf"^{path}:2:23: not UTF-8 text$"):
        load_config_file(path)


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

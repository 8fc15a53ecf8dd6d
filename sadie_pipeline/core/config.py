"""Import configs: the seed 004 sections with their defaults, and a deep merge."""

from __future__ import annotations

import copy
from typing import Any

DEFAULT_CONFIG: dict[str, Any] = {
    "import": {
        "source_type": "csv",
        "file_format": "csv",
        "delimiter": None,            # sniffed when None
        "encoding": None,             # UTF-8 (with or without BOM), falling back to Windows-1252
        "full_import": True,          # absent listings are deletions
        "max_records_per_file": 5000,
        "max_bytes_per_file": 20_000_000,
    },
    "transform": {
        "map_fields": {},
        "normalize_fields": ["listings.name", "locations.address1", "locations.city", "listings.category"],
        "case": {"listings.category": "lower", "locations.state": "upper", "locations.country": "upper"},
        "round_lat_lng": 5,
        "default_country": "CA",
        "hash_fields": ["listings.name", "locations.address1", "locations.city"],
    },
    "validate": {
        "required_fields": ["listings.name", "locations.address1", "locations.city"],
        "data_types": {
            "locations.lat": "numeric",
            "locations.lng": "numeric",
            "contact_info.email": "email",
            "contact_info.local_phone": "phone",
        },
        "business_rules": {"lat_bounds": [-90, 90], "lng_bounds": [-180, 180]},
        "max_error_rate": 0.2,
    },
    "stage": {
        "auto_match_threshold": 0.8,
        "review_threshold": 0.5,
        "conflict_resolution": "update_if_changed",
    },
    "promote": {
        "merge_policy": "latest_wins",
        "update_bridge_table": True,
        "conflict_resolution": {},
    },
}

MERGE_POLICIES = ("latest_wins", "skip_if_exists", "field_level_merge")


class ConfigError(ValueError):
    pass


def merge_config(overrides: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with a DMO's config; dicts merge, everything else replaces."""
    merged = copy.deepcopy(DEFAULT_CONFIG)
    _merge_into(merged, overrides or {})
    validate_config(merged)
    return merged


def _merge_into(base: dict[str, Any], overrides: dict[str, Any]) -> None:
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge_into(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def validate_config(config: dict[str, Any]) -> None:
    from sadie_pipeline.core.fields import CANONICAL_FIELDS

    unknown = [f for f in config["transform"]["map_fields"] if f not in CANONICAL_FIELDS]
    if unknown:
        raise ConfigError(f"map_fields names unknown fields: {', '.join(sorted(unknown))}")
    promote = config["promote"]
    policies = [promote["merge_policy"], *promote.get("conflict_resolution", {}).values()]
    bad = [p for p in policies if p not in MERGE_POLICIES]
    if bad:
        raise ConfigError(f"unknown merge policy {bad[0]!r}; use one of {', '.join(MERGE_POLICIES)}")
    stage = config["stage"]
    if not 0 <= stage["review_threshold"] <= stage["auto_match_threshold"] <= 1:
        raise ConfigError("stage thresholds must satisfy 0 <= review_threshold <= auto_match_threshold <= 1")


def merge_policy_for(config: dict[str, Any], table: str) -> str:
    promote = config["promote"]
    return promote.get("conflict_resolution", {}).get(table, promote["merge_policy"])

"""Geocodes and images follow each promotion of a DMO with no person involved (eager automation
and its sensor), stay out of the import job, and their statuses match the migration's checks."""

from __future__ import annotations

import re

from dagster import AssetKey, AssetMaterialization, DefaultSensorStatus, evaluate_automation_conditions

from sadie_pipeline.core.geocode import GeocodeStatus, Precision
from sadie_pipeline.core.images import ImageStatus
from sadie_pipeline.definitions import defs
from sadie_pipeline.listings.geocoder import GeocoderResource
from sadie_pipeline.partitions import DMO_PARTITIONS_NAME
from sadie_pipeline.resource_defs import configured
from sadie_pipeline.settings import SQL_DIR

ENRICHMENT = {"listing_geocodes", "listing_images"}


def _requested(result) -> dict[str, set]:
    return {k.to_user_string(): result.get_requested_partitions(k)
            for k in defs.resolve_asset_graph().get_all_asset_keys() if result.get_num_requested(k)}


def test_a_promotion_starts_the_dmos_geocodes_and_images(instance):
    instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, ["visit-pei", "other-dmo"])
    first = evaluate_automation_conditions(defs, instance)
    assert not set(_requested(first)) & ENRICHMENT  # nothing promoted yet: nothing to follow

    instance.report_runless_asset_event(AssetMaterialization("listing_promotion", partition="visit-pei"))
    tick = evaluate_automation_conditions(defs, instance, cursor=first.cursor)
    requested = {k: v for k, v in _requested(tick).items() if k in ENRICHMENT}
    assert requested == {"listing_geocodes": {"visit-pei"}, "listing_images": {"visit-pei"}}

    for name in ENRICHMENT:
        instance.report_runless_asset_event(AssetMaterialization(name, partition="visit-pei"))
    settled = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
    assert not set(_requested(settled)) & ENRICHMENT


def test_wiring():
    sensor = defs.get_sensor_def("listing_enrichment_sensor")
    assert sensor.default_status == DefaultSensorStatus.RUNNING
    job = defs.resolve_job_def("listing_enrichment_job")
    assert {k.to_user_string() for k in job.asset_layer.selected_asset_keys} == ENRICHMENT
    imports = defs.resolve_job_def("listing_import_job").asset_layer.selected_asset_keys
    assert not {AssetKey(n) for n in ENRICHMENT} & set(imports)  # `sadie import` stays off the network
    assert isinstance(defs.resources["geocoder"], GeocoderResource)


def test_the_geocoder_is_configured_by_name_from_the_environment(monkeypatch):
    monkeypatch.setenv("SADIE_GEOCODER", "nominatim")
    monkeypatch.setenv("SADIE_GEOCODER_BASE_URL", "http://geo.example.test")
    monkeypatch.delenv("GOOGLE_MAPS_API_KEY", raising=False)
    resource = configured("geocoder")
    assert resource.api_key is None and resource.base_url.env_var_name == "SADIE_GEOCODER_BASE_URL"
    assert GeocoderResource(api_key="k").resolved_provider() == "google"
    assert GeocoderResource().resolved_provider() == "nominatim"
    assert not GeocoderResource(provider="google").configured() and not GeocoderResource(provider="off").configured()


def test_the_migration_checks_the_enums_values():
    text = (SQL_DIR / "0032_geocodes_images.sql").read_text()

    def checked(column: str) -> set[str]:
        [values] = re.findall(rf"\b{column}\s+text[^\n]*?CHECK \({column} IN \(([^)]*)\)\)", text)
        return set(re.findall(r"'([a-z_]+)'", values))

    assert checked("image_status") == {s.value for s in ImageStatus}
    assert checked("precision") == {p.value for p in Precision}
    [location_statuses] = re.findall(r"status\s+text NOT NULL CHECK \(status IN \(([^)]*)\)\),\n    reason", text)
    assert set(re.findall(r"'([a-z_]+)'", location_statuses)) == {s.value for s in GeocodeStatus}

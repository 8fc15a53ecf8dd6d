"""Declarative automation of the hotel chain: once discovery has run for a region (started by the
inbox sensor, the weekly schedule or a DMO promotion), entities, websites, detection, the
enrichment layers, golden records and scores follow for that region with no person involved.

The conditions are applied here rather than in the asset modules so the graph's shape and its
automation policy can change independently. The launch and the export stay out: the daily launch
schedule decides when hotels go live."""

from __future__ import annotations

from collections.abc import Sequence

from dagster import (
    AssetKey,
    AssetsDefinition,
    AssetSelection,
    AssetSpec,
    AutomationCondition,
    AutomationConditionSensorDefinition,
    DefaultSensorStatus,
    map_asset_specs,
)

from sadie_pipeline.hotels.jobs import ENRICHMENT_LAYER_ASSETS

# Everything between discovery and the score. Discovery itself is started by sensors and the
# schedule, never by automation: it spends Serper queries.
AUTOMATED_ASSETS: tuple[str, ...] = ("hotel_entities", "hotel_websites", "booking_engine_detection",
                                     "client_id_matches", *ENRICHMENT_LAYER_ASSETS, "golden_hotels", "lead_scores")


def downstream_condition() -> AutomationCondition:
    """eager(): a region's partition runs when one of its upstream partitions updated (or will in
    the same tick), never while an upstream is missing or in progress. Partitions that already
    exist are not 'newly missing', so turning this on does not run all 65 regions at once."""
    return AutomationCondition.eager()


def resolution_condition() -> AutomationCondition:
    """eager() without "no dependency missing": hotel_entities resolves after any discovery source
    (Serper and lists, licence registers, the crawl), none of which a region must have run (the
    licence and crawl schedules start stopped)."""
    return AutomationCondition.eager().without(~AutomationCondition.any_deps_missing())


def _automate(spec: AssetSpec) -> AssetSpec:
    name = spec.key.to_user_string()
    if name not in AUTOMATED_ASSETS:
        return spec
    condition = resolution_condition() if name == "hotel_entities" else downstream_condition()
    return spec.replace_attributes(automation_condition=condition)


def with_automation(assets: Sequence[AssetsDefinition]) -> list[AssetsDefinition]:
    """The same assets, those of AUTOMATED_ASSETS carrying downstream_condition()."""
    return list(map_asset_specs(_automate, assets))


# Our own sensor rather than Dagster's implicit default_automation_condition_sensor, which starts
# stopped: this one is running as soon as the code location loads (make dev included).
hotel_automation_sensor = AutomationConditionSensorDefinition(
    "hotel_automation_sensor",
    target=AssetSelection.assets(*(AssetKey(name) for name in AUTOMATED_ASSETS)),
    default_status=DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=30,
    description="Runs the hotel chain after discovery, region by region: entities, websites, detection, "
                "enrichment layers, golden records and scores (the assets' eager automation conditions).",
)

"""What the Dagster UI shows of the catalogue (sadie_pipeline/catalog.py): the hotel chain reads
promoted listings, data enters from inboxes and external services drawn as external assets,
pipeline_health reads the chain, every asset has a code version, an owner and a domain, freshness
follows the schedules that promise it, IO-managed tables describe their columns, and none of the
lineage starts or holds back an automated run."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

from dagster import (
    AllPartitionMapping,
    AssetMaterialization,
    DagsterInstance,
    TableSchema,
    evaluate_automation_conditions,
)
from dagster._core.definitions.data_version import DATA_VERSION_TAG
from dagster._core.definitions.freshness import CronFreshnessPolicy
from dagster._utils.schedules import get_latest_completed_cron_tick, get_next_cron_tick

from sadie_pipeline import catalog
from sadie_pipeline.code_versions import data_files, module_version
from sadie_pipeline.definitions import defs
from sadie_pipeline.hotels.automation import AUTOMATED_ASSETS
from sadie_pipeline.hotels.entities import RESOLVER_VERSION
from sadie_pipeline.hotels.jobs import ENRICHMENT_LAYER_ASSETS
from sadie_pipeline.partitions import DMO_PARTITIONS_NAME
from sadie_pipeline.settings import PROJECT_ROOT

GRAPH = defs.resolve_asset_graph()
KEYS = {k.to_user_string(): k for k in GRAPH.get_all_asset_keys()}
OURS = {name for name, key in KEYS.items() if GRAPH.get(key).is_materializable}
# Resources that call a service outside the platform; the database and the object store are ours.
SERVICE_RESOURCES = {"serper", "website_fetcher", "groq", "anthropic", "rdap", "dns", "onedrive", "slack", "geocoder",
                     "image_fetcher", "whois", "wayback", "crtsh", "licence_registers", "abn_lookup", "common_crawl",
                     "mail_verifier"}


def _node(name: str):
    return GRAPH.get(KEYS[name])


def _parents(name: str) -> set[str]:
    return {k.to_user_string() for k in _node(name).parent_keys}


def test_every_asset_has_a_code_version_an_owner_and_a_domain():
    for name in sorted(KEYS):
        node = _node(name)
        domain = node.tags.get(catalog.DOMAIN_TAG)
        assert domain in catalog.OWNERS, name
        assert catalog.OWNERS[domain] in node.owners, name
        assert node.description, name
        if name in OURS:
            assert node.code_version, name


def test_a_code_version_is_the_assets_module_closure_unless_declared():
    # declared versions are kept: hotel_entities' is the one resolver_release_sensor compares
    assert _node("hotel_entities").code_version == RESOLVER_VERSION
    assert _node("attraction_proximity").code_version == module_version("sadie_pipeline.hotels.enrichment.proximity")
    assert _node("pipeline_health").code_version == module_version("sadie_pipeline.hotels.lead_assets")
    # the SQL a module runs by name and the engine catalogue are part of the code that decides the data
    files = {str(p.relative_to(PROJECT_ROOT / "sadie_pipeline")) for p in data_files("sadie_pipeline.hotels.assets")}
    assert {"hotels/sql/entities.sql", "data/booking_engines.json"} <= files


def test_hotel_discovery_and_proximity_read_the_promoted_listings_of_every_dmo():
    for name in ("hotel_discovery", "attraction_proximity"):
        assert "listing_promotion" in _parents(name), name
        mapping = GRAPH.get_partition_mapping(KEYS[name], KEYS["listing_promotion"])
        assert isinstance(mapping, AllPartitionMapping), name


def test_pipeline_health_reads_the_hotel_chain():
    assert set(catalog.HEALTH_READS) <= _parents("pipeline_health")
    assert set(ENRICHMENT_LAYER_ASSETS) <= _parents("pipeline_health")


def test_external_assets_are_where_data_enters_and_leaves():
    for external in catalog.EXTERNALS:
        node = _node(external.key)
        assert not node.is_materializable and node.group_name in {"sources", "external"}, external.key
        assert node.kinds, external.key
        for reader in external.feeds:
            assert external.key in _parents(reader), (external.key, reader)
        for writer in external.receives:
            assert writer in _parents(external.key), (external.key, writer)
        assert external.feeds or external.receives, external.key


def test_every_asset_calling_a_service_shows_it_in_the_graph():
    """An asset given a service's resource has that service's external asset up- or downstream, so
    a new call without its lineage fails here."""
    by_resource: dict[str, set[str]] = {}
    for external in catalog.EXTERNALS:
        by_resource.setdefault(external.resource or "", set()).add(external.key)
    for assets_def in defs.assets:
        if not hasattr(assets_def, "required_resource_keys"):
            continue
        for key in assets_def.keys:
            name = key.to_user_string()
            around = _parents(name) | {k.to_user_string() for k in _node(name).child_keys}
            for resource in assets_def.required_resource_keys & SERVICE_RESOURCES:
                assert by_resource.get(resource, set()) & around, (name, resource)


def _window(policy: CronFreshnessPolicy, at: dt.datetime) -> dt.datetime:
    deadline = get_latest_completed_cron_tick(policy.deadline_cron, at, policy.timezone)
    return deadline - policy.lower_bound_delta


def test_freshness_is_promised_where_a_schedule_refreshes_the_asset():
    schedules = {s.name: s for s in defs.schedules}
    for name, promise in catalog.PROMISES.items():
        policy, schedule = _node(name).freshness_policy, schedules[promise.schedule]
        assert isinstance(policy, CronFreshnessPolicy), name
        assert policy.timezone == schedule.execution_timezone
        # the window a materialisation must fall in opens at the schedule's tick
        for at in (dt.datetime(2026, 3, 4, 12, tzinfo=dt.UTC), dt.datetime(2026, 6, 15, 23, tzinfo=dt.UTC)):
            opens = _window(policy, at)
            before = opens - dt.timedelta(seconds=1)
            assert get_next_cron_tick(schedule.cron_schedule, before, schedule.execution_timezone) == opens, name
    assert {n for n in KEYS if _node(n).freshness_policy} == set(catalog.PROMISES)


def test_every_io_managed_table_column_is_described():
    tables = {name: _node(name).metadata["dagster/column_schema"] for name in OURS
              if "dagster/column_schema" in _node(name).metadata}
    assert {"lead_scores", "launched_leads", *ENRICHMENT_LAYER_ASSETS} <= set(tables)
    for name, schema in tables.items():
        schema = getattr(schema, "schema", schema)
        assert isinstance(schema, TableSchema) and schema.columns, name
        assert all(column.description for column in schema.columns), name


def _materialized(instance: DagsterInstance, names, partition: str, version: str | None = None) -> None:
    tags = {DATA_VERSION_TAG: version} if version else None
    for name in names:
        instance.report_runless_asset_event(AssetMaterialization(asset_key=name, partition=partition, tags=tags))


def _requested(result) -> dict[str, set]:
    return {name: result.get_requested_partitions(key) for name, key in KEYS.items() if result.get_num_requested(key)}


def test_lineage_neither_starts_nor_holds_back_automation():
    with DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, ["visit-pei"])
        first = evaluate_automation_conditions(defs, instance)
        assert first.total_requested == 0

        # detection done in US-FL: every layer follows, though none of the services they call is
        # ever materialised
        _materialized(instance, ["booking_engine_detection"], "US-FL")
        tick = evaluate_automation_conditions(defs, instance, cursor=first.cursor)
        assert set(ENRICHMENT_LAYER_ASSETS) <= set(_requested(tick))
        _materialized(instance, _requested(tick), "US-FL")
        settled = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
        assert _requested(settled) == {}

        # a promotion that changed the DMO's listings (its data version, as promotions report it):
        # the DMO's geocodes and images follow, no hotel asset of any region does
        _materialized(instance, ["listing_promotion"], "visit-pei", version="listings-v1")
        after = evaluate_automation_conditions(defs, instance, cursor=settled.cursor)
        assert _requested(after) == {"listing_geocodes": {"visit-pei"}, "listing_images": {"visit-pei"}}


def test_the_automated_assets_are_those_the_job_description_names_the_sensor_for():
    job = defs.resolve_job_def("hotel_leads_job")
    sensor = defs.get_sensor_def("hotel_automation_sensor")
    assert "hotel_automation_sensor" in job.description
    automated = {k.to_user_string() for k in sensor.asset_selection.resolve(GRAPH)}
    assert automated == set(AUTOMATED_ASSETS)
    assert automated <= {k.to_user_string() for k in job.asset_layer.selected_asset_keys}


def test_dagster_validates_the_code_location_without_a_warning(tmp_path: Path):
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path)}
    done = subprocess.run([str(Path(sys.executable).with_name("dagster")), "definitions", "validate",
                           "-w", str(PROJECT_ROOT / "workspace.yaml")],
                          capture_output=True, text=True, timeout=300, cwd=PROJECT_ROOT, env=env)
    assert done.returncode == 0, done.stderr
    # the command's own notice that `dg check defs` supersedes it is Dagster's, not the project's
    warnings = [line for line in done.stderr.splitlines()
                if "Warning" in line and "definitions_validate_command" not in line]
    assert warnings == [], done.stderr
    assert "Validation successful" in done.stdout + done.stderr

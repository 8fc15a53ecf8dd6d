"""The action tier of the hotel-lead graph, partitioned by region: golden records -> scores ->
the daily launch -> exports; and `pipeline_health`, the seed's health figures over time.

Values go through IO managers: the scores and the launched hotels as DataFrames replaced per
region in PostgreSQL (sadie_leads.*; lead_exports loads the launch's), the exports' manifest and
the health figures as JSON in the object store."""

from collections import Counter
from typing import Any

import pandas as pd
from dagster import AssetExecutionContext, AssetIn, Config, MaterializeResult, MetadataValue, asset

from sadie_pipeline.core.hotel_status import LAUNCHED
from sadie_pipeline.core.launch import LaunchCriteria
from sadie_pipeline.core.scoring import ScoreWeights
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.enrichment.layer_assets import enrichment_assets
from sadie_pipeline.hotels.exports.delivery import ExportResult, export_region
from sadie_pipeline.hotels.frames import LAUNCHED_LEADS, LEAD_SCORES, launched_frame, region_table, scores_frame
from sadie_pipeline.hotels.golden import GoldenResult, build_golden, golden_hotel_ids
from sadie_pipeline.hotels.health import pipeline_health as health_figures
from sadie_pipeline.hotels.launch import LaunchResult, launch_region
from sadie_pipeline.hotels.queries import run
from sadie_pipeline.hotels.scoring import ScoreResult, score_regions
from sadie_pipeline.io_managers import OBJECT_STORE_IO_MANAGER
from sadie_pipeline.metadata import path_list, report_partitions, table_preview, table_schema
from sadie_pipeline.regions import REGIONS
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.onedrive import OneDriveResource
from sadie_pipeline.resources.slack import SlackResource


class CitiesOnly(Config):
    cities: list[str] = []
    """Only these cities of the region (default: all)."""


def run_actor(run_id: str) -> str:
    """The actor a run's status changes carry in the audit trail (the launch check finds them by it)."""
    return f"run:{run_id}"


def _actor(context: AssetExecutionContext) -> str:
    return run_actor(context.run_id)


def _row_count(database: Database, query: str, regions: list[str]) -> int:
    """`dagster/row_count`: the asset's rows in the run's regions (sql/checks.sql)."""
    with database.connect() as conn:
        return run(conn, "checks", query, {"regions": regions, "launched": list(LAUNCHED)}).fetchone()[0]


GOLDEN_PREVIEW = table_schema(("hotel", "int"), ("name", "string"), ("city", "string"), ("email", "string"),
                              ("contact", "string"), ("rooms", "int"), ("fields", "string"))
SCORE_PREVIEW = table_schema(("hotel", "int"), ("score", "int"), ("components", "string"))
LAUNCHED_PREVIEW = table_schema(("hotel", "int"), ("name", "string"), ("city", "string"), ("score", "int"))
REJECTED_PREVIEW = table_schema(("hotel", "int"), ("name", "string"), ("city", "string"), ("score", "int"),
                                ("reasons", "string"))
FILES_PREVIEW = table_schema(("scope", "string"), ("city", "string"), ("hotels", "int"), ("decision makers", "int"),
                             ("KB", "float"), ("file", "string"))


def score_histogram(histogram: dict[int, int]) -> dict[str, int]:
    """One int entry per band of 10 (`score_0_9` ... `score_90_100`), empty bands included, so
    the UI plots each band over time."""
    return {f"score_{band}_{band + 9 if band < 90 else 100}": histogram.get(band, 0) for band in range(0, 100, 10)}


@asset(**REGION_ASSET, kinds={"postgres"},
       deps=[booking_engine_detection, *enrichment_assets])
def golden_hotels(context: AssetExecutionContext, config: CitiesOnly, database: Database) -> MaterializeResult:
    """One golden record per hotel: each field's value chosen by source priority and confidence
    (seed 001), every candidate kept in field_provenance; duplicate decision makers merged.
    Changed in place with set-based SQL rather than returned to an IO manager: only the hotels
    whose inputs changed are rewritten, with their provenance, in the tables the rest reads."""
    figures = {}
    for region in context.partition_keys:
        result = GoldenResult()
        with database.connect(actor=_actor(context)) as conn:
            build_golden(conn, region, golden_hotel_ids(conn, region, config.cities), result)
        figures[region] = {
            "hotels": result.hotels,
            "inserted": result.inserted,
            "updated": result.updated,
            "unchanged": result.unchanged,
            "provenance_rows_written": result.provenance_rows,
            "decision_makers_merged": result.people_merged,
            "winning_source_by_field": MetadataValue.json(result.winners_by_source),
            "preview": table_preview(GOLDEN_PREVIEW, result.preview),
            "dagster/row_count": _row_count(database, "golden_row_count", [region]),
        }
    report_partitions(context, figures, {r: bool(f["inserted"] or f["updated"]) for r, f in figures.items()})
    return MaterializeResult()


class ScoreConfig(CitiesOnly):
    weights: dict[str, float] = {}
    """Points per component (booking_engine_tier, room_count, rating_reviews, location,
    completeness, verified_contacts), summing to 100; empty: the defaults."""


@asset(**REGION_ASSET, **region_table(LEAD_SCORES), deps=[golden_hotels], kinds={"postgres"})
def lead_scores(context: AssetExecutionContext, config: ScoreConfig,
                database: Database) -> MaterializeResult[pd.DataFrame]:
    """A 0-100 score per enriched hotel (tier 2 hotels straight from detection), every component
    in score_details; status 4 (SCORED). Value: the regions' scores as they now stand, one row
    per scored hotel with each component's points (sadie_leads.lead_scores, per region)."""
    weights = ScoreWeights.from_mapping(config.weights) if config.weights else ScoreWeights()
    figures = {}
    for region in context.partition_keys:
        result = ScoreResult()
        score_regions(database, [region], weights, result, config.cities, actor=_actor(context))
        figures[region] = {"run_hotels_scored": result.scored, "run_scores_changed": result.changed,
                           "run_preview": table_preview(SCORE_PREVIEW, result.preview)}
    with database.connect() as conn:
        scores = scores_frame(conn, context.partition_keys)
    for region, frame in ((r, scores[scores.region == r]) for r in context.partition_keys):
        figures[region] |= score_figures(frame.score)
    report_partitions(context, figures, {r: bool(f["run_scores_changed"]) for r, f in figures.items()})
    return MaterializeResult(value=scores, metadata={"weights": MetadataValue.json(weights.as_dict())})


def score_figures(scores: pd.Series) -> dict[str, Any]:
    """The region's scores as they stand (its rows of the table): count, mean and bands, the same
    after a run that changed no score."""
    return {"dagster/row_count": len(scores), "mean_score": round(float(scores.mean()), 1) if len(scores) else 0.0,
            **score_histogram(Counter(min(int(v) // 10 * 10, 90) for v in scores))}


class LaunchConfig(CitiesOnly):
    min_score: int = 60
    required_fields: list[str] = ["name", "city", "website"]
    tiers: list[int] = [1]
    require_contact_email: bool = False
    dry_run: bool = False
    """Decide and report, change nothing."""


@asset(**REGION_ASSET, **region_table(LAUNCHED_LEADS), deps=[lead_scores], kinds={"postgres"})
def launched_leads(context: AssetExecutionContext, config: LaunchConfig,
                   database: Database) -> MaterializeResult[pd.DataFrame]:
    """The daily launch: scored hotels meeting the criteria (score threshold, required fields,
    tier) go live (status 5, LIVE); the rejected keep status 4 (SCORED) with their reasons.
    Value: the regions' launched hotels after the launch (LIVE or EXPORTED; a dry run's are the
    ones before it), which lead_exports exports (sadie_leads.launched_leads, per region)."""
    criteria = LaunchCriteria(min_score=config.min_score, required_fields=tuple(config.required_fields),
                              tiers=tuple(config.tiers), require_contact_email=config.require_contact_email)
    database.analyze("sadie_gtm.hotels")  # scoring just moved every hotel's status
    figures = {}
    for region in context.partition_keys:
        result = LaunchResult()
        with database.connect(actor=_actor(context)) as conn:
            launch_region(conn, region, criteria, result, dry_run=config.dry_run, cities=config.cities)
        figures[region] = {
            "run_launched": result.launched,
            "run_rejected": result.rejected,
            "run_summary": MetadataValue.json(result.summary),
            "launched_hotels": table_preview(LAUNCHED_PREVIEW, result.launched_preview),
            "rejected_hotels": table_preview(REJECTED_PREVIEW, result.rejected_preview),
        }
    with database.connect() as conn:
        launched = launched_frame(conn, context.partition_keys)
    for region in context.partition_keys:
        figures[region]["dagster/row_count"] = int((launched.region == region).sum())
    report_partitions(context, figures, {r: bool(f["run_launched"]) for r, f in figures.items()})
    return MaterializeResult(value=launched, metadata={
        "dry_run": config.dry_run,
        "criteria": MetadataValue.json(criteria.__dict__ | {"tiers": list(criteria.tiers),
                                                            "required_fields": list(criteria.required_fields)}),
    })


@asset(**REGION_ASSET, ins={"launched_leads": AssetIn(metadata={"columns": ["hotel_id", "region"]})},
       io_manager_key=OBJECT_STORE_IO_MANAGER, kinds={"s3", "excel"}, pool="onedrive")
def lead_exports(context: AssetExecutionContext, config: CitiesOnly, launched_leads: pd.DataFrame,
                 database: Database, object_store: ObjectStore, onedrive: OneDriveResource,
                 slack: SlackResource) -> MaterializeResult[dict]:
    """One xlsx per city and one per state of the launched hotels (the launch's value, loaded per
    region), with their decision makers; written to exports/{state}/{city}.xlsx, uploaded to
    OneDrive when configured, announced in Slack; status 6 (EXPORTED). Files whose data did not
    change are left alone and not announced again. The workbooks keep the seed's key layout and
    are written, uploaded and recorded file by file in the step (a failed upload fails only its
    file); the value is each region's manifest of them, JSON in the object store."""
    database.analyze("sadie_gtm.hotels")  # the launch just moved every hotel's status
    upload = "onedrive" if onedrive.configured() else f"object store only ({onedrive.not_configured_message()})"
    launched = {region: set(ids.tolist()) for region, ids in launched_leads.groupby("region")["hotel_id"]}
    manifests, figures = {}, {}
    for region in context.partition_keys:
        result = ExportResult(upload=upload)
        export_region(database, object_store, onedrive, slack, region, result, config.cities, actor=_actor(context),
                      hotel_ids=launched.get(region, set()))
        manifests[region] = result.manifest(region)
        figures[region] = {
            "files_written": len(result.written),
            "files_unchanged": len(result.unchanged),
            "hotels_exported": result.hotels_exported,
            "slack": result.slack or "nothing new to announce",
            "files": table_preview(FILES_PREVIEW, (
                (f.scope, f.city, f.hotels, f.decision_makers, round(f.bytes / 1024, 1), f.web_url or f.object_uri)
                for f in result.written)),
            "paths": path_list([f.web_url or f.object_uri for f in result.written]),
        }
    report_partitions(context, figures, {r: bool(f["files_written"]) for r, f in figures.items()})
    return MaterializeResult(value=manifests, metadata={"upload": upload})


@asset(group_name="monitoring", kinds={"postgres", "s3"}, io_manager_key=OBJECT_STORE_IO_MANAGER)
def pipeline_health(context: AssetExecutionContext, database: Database) -> MaterializeResult[dict]:
    """Seed 001's pipeline health query over every region (enrichment progress, layer coverage,
    contact quality), hotels per pipeline stage and open dead letters: numbers the UI plots.
    Value: the same figures, JSON in the object store (the latest; the metadata keeps the history)."""
    with database.connect() as conn:
        figures = health_figures(conn, list(REGIONS))
    stages = {f"stage_{k}": v for k, v in figures["stages"].items()}
    dead = {f"dead_letters_{k}": v for k, v in figures["dead_letters"].items()}
    return MaterializeResult(value=figures, metadata={
        **figures["health"], **stages, **dead,
        "dead_letters_open": sum(figures["dead_letters"].values()),
        "hotels": sum(figures["stages"].values()),
    })


lead_assets = [golden_hotels, lead_scores, launched_leads, lead_exports]

"""The action tier of the hotel-lead graph, partitioned by region: golden records -> scores ->
the daily launch -> exports; and `pipeline_health`, the seed's health figures over time."""

from dagster import AssetExecutionContext, Config, MaterializeResult, MetadataValue, asset

from sadie_pipeline.core.launch import LaunchCriteria
from sadie_pipeline.core.scoring import ScoreWeights
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.enrichment.owner import owner_assets
from sadie_pipeline.hotels.enrichment.proximity import attraction_proximity
from sadie_pipeline.hotels.enrichment.research import hotel_research
from sadie_pipeline.hotels.enrichment.room_counts import room_counts
from sadie_pipeline.hotels.exports.delivery import ExportResult, export_region
from sadie_pipeline.hotels.golden import GoldenResult, build_golden, golden_hotel_ids
from sadie_pipeline.hotels.health import pipeline_health as health_figures
from sadie_pipeline.hotels.launch import LaunchResult, launch_region
from sadie_pipeline.hotels.scoring import ScoreResult, score_regions
from sadie_pipeline.metadata import markdown_table, path_list
from sadie_pipeline.regions import REGIONS
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.onedrive import OneDriveResource
from sadie_pipeline.resources.slack import SlackResource


class CitiesOnly(Config):
    cities: list[str] = []
    """Only these cities of the region (default: all)."""


def _actor(context: AssetExecutionContext) -> str:
    return f"run:{context.run_id}"


@asset(**REGION_ASSET, kinds={"postgres"},
       deps=[booking_engine_detection, room_counts, attraction_proximity, hotel_research, *owner_assets])
def golden_hotels(context: AssetExecutionContext, config: CitiesOnly, database: Database) -> MaterializeResult:
    """One golden record per hotel: each field's value chosen by source priority and confidence
    (seed 001), every candidate kept in field_provenance; duplicate decision makers merged."""
    result = GoldenResult()
    for region in context.partition_keys:
        with database.connect(actor=_actor(context)) as conn:
            build_golden(conn, region, golden_hotel_ids(conn, region, config.cities), result)
    return MaterializeResult(metadata={
        "hotels": result.hotels,
        "inserted": result.inserted,
        "updated": result.updated,
        "unchanged": result.unchanged,
        "provenance_rows_written": result.provenance_rows,
        "decision_makers_merged": result.people_merged,
        "winning_source_by_field": MetadataValue.json(result.winners_by_source),
        "preview": markdown_table(("hotel", "name", "city", "email", "contact", "rooms", "fields"), result.preview),
    })


class ScoreConfig(CitiesOnly):
    weights: dict[str, float] = {}
    """Points per component (booking_engine_tier, room_count, rating_reviews, location,
    completeness, verified_contacts), summing to 100; empty: the defaults."""


@asset(**REGION_ASSET, deps=[golden_hotels], kinds={"postgres"})
def lead_scores(context: AssetExecutionContext, config: ScoreConfig, database: Database) -> MaterializeResult:
    """A 0-100 score per enriched hotel (tier 2 hotels straight from detection), every component
    in score_details; status 4 (SCORED)."""
    weights = ScoreWeights.from_mapping(config.weights) if config.weights else ScoreWeights()
    result = ScoreResult()
    score_regions(database, context.partition_keys, weights, result, config.cities, actor=_actor(context))
    return MaterializeResult(metadata={
        "hotels_scored": result.scored,
        "scores_changed": result.changed,
        "mean_score": result.mean,
        "score_bands": MetadataValue.json({f"{band}-{band + 9}": n for band, n in sorted(result.histogram.items())}),
        "weights": MetadataValue.json(weights.as_dict()),
        "preview": markdown_table(("hotel", "score", "components"), result.preview, max_width=120),
    })


class LaunchConfig(CitiesOnly):
    min_score: int = 60
    required_fields: list[str] = ["name", "city", "website"]
    tiers: list[int] = [1]
    require_contact_email: bool = False
    dry_run: bool = False
    """Decide and report, change nothing."""


@asset(**REGION_ASSET, deps=[lead_scores], kinds={"postgres"})
def launched_leads(context: AssetExecutionContext, config: LaunchConfig, database: Database) -> MaterializeResult:
    """The daily launch: scored hotels meeting the criteria (score threshold, required fields,
    tier) go live (status 5, LIVE); the rejected keep status 4 (SCORED) with their reasons."""
    criteria = LaunchCriteria(min_score=config.min_score, required_fields=tuple(config.required_fields),
                              tiers=tuple(config.tiers), require_contact_email=config.require_contact_email)
    result = LaunchResult()
    database.analyze("sadie_gtm.hotels")  # scoring just moved every hotel's status
    for region in context.partition_keys:
        with database.connect(actor=_actor(context)) as conn:
            launch_region(conn, region, criteria, result, dry_run=config.dry_run, cities=config.cities)
    return MaterializeResult(metadata={
        "dry_run": config.dry_run,
        "launched": result.launched,
        "rejected": result.rejected,
        "summary": MetadataValue.json(result.summary),
        "criteria": MetadataValue.json(criteria.__dict__ | {"tiers": list(criteria.tiers),
                                                            "required_fields": list(criteria.required_fields)}),
        "launched_hotels": markdown_table(("hotel", "name", "city", "score"), result.launched_preview),
        "rejected_hotels": markdown_table(("hotel", "name", "city", "score", "reasons"), result.rejected_preview,
                                          max_width=80),
    })


@asset(**REGION_ASSET, deps=[launched_leads], kinds={"s3", "excel"}, pool="onedrive")
def lead_exports(context: AssetExecutionContext, config: CitiesOnly, database: Database, object_store: ObjectStore,
                 onedrive: OneDriveResource, slack: SlackResource) -> MaterializeResult:
    """One xlsx per city and one per state of the live hotels, with their decision makers; written
    to exports/{state}/{city}.xlsx, uploaded to OneDrive when configured, announced in Slack;
    status 6 (EXPORTED). Files whose data did not change are left alone and not announced again."""
    result = ExportResult()
    database.analyze("sadie_gtm.hotels")  # the launch just moved every hotel's status
    result.upload = "onedrive" if onedrive.configured() else f"object store only ({onedrive.not_configured_message()})"
    for region in context.partition_keys:
        export_region(database, object_store, onedrive, slack, region, result, config.cities, actor=_actor(context))
    return MaterializeResult(metadata={
        "files_written": len(result.written),
        "files_unchanged": len(result.unchanged),
        "hotels_exported": result.hotels_exported,
        "upload": result.upload,
        "slack": result.slack or "nothing new to announce",
        "files": markdown_table(("scope", "city", "hotels", "decision makers", "KB", "file"), (
            (f.scope, f.city, f.hotels, f.decision_makers, round(f.bytes / 1024, 1), f.web_url or f.object_uri)
            for f in result.written), max_width=100),
        "paths": path_list([f.web_url or f.object_uri for f in result.written]),
    })


@asset(group_name="monitoring", kinds={"postgres"})
def pipeline_health(context: AssetExecutionContext, database: Database) -> MaterializeResult:
    """Seed 001's pipeline health query over every region (enrichment progress, layer coverage,
    contact quality), hotels per pipeline stage and open dead letters: numbers the UI plots."""
    with database.connect() as conn:
        figures = health_figures(conn, list(REGIONS))
    stages = {f"stage_{k}": v for k, v in figures["stages"].items()}
    dead = {f"dead_letters_{k}": v for k, v in figures["dead_letters"].items()}
    return MaterializeResult(metadata={
        **figures["health"], **stages, **dead,
        "dead_letters_open": sum(figures["dead_letters"].values()),
        "hotels": sum(figures["stages"].values()),
    })


lead_assets = [golden_hotels, lead_scores, launched_leads, lead_exports]

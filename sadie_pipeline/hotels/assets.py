"""Hotel-lead assets, partitioned by region: discovery -> entities -> websites -> booking engines
(the enrichment layers follow). These change sadie_gtm's tables in place (upserts and set-based
SQL that merge into rows other regions' runs and people's review decisions also touch), so they
hand no value to an IO manager; their outcomes are in their metadata, each region's its own
(metadata.report_partitions), a region with nothing to do marked so."""

import asyncio
import datetime as dt

from dagster import AssetExecutionContext, AssetKey, BackfillPolicy, Config, MaterializeResult, MetadataValue, asset
from pydantic import Field, model_validator

from sadie_pipeline.core.entity_resolution import MERGE_THRESHOLD, REVIEW_THRESHOLD
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels import discovery, websites
from sadie_pipeline.hotels.entities import RESOLVER_VERSION, resolve_region
from sadie_pipeline.hotels.markets import market_cities
from sadie_pipeline.metadata import markdown_table, path_list, report_partitions
from sadie_pipeline.partitions import region_partitions
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.serper import SerperResource
from sadie_pipeline.resources.web import WebsiteFetcher

# A backfill of many regions runs as one run; the assets loop over context.partition_keys.
REGION_ASSET = {"partitions_def": region_partitions, "group_name": "hotel_leads",
                "backfill_policy": BackfillPolicy.single_run()}


class CitiesConfig(Config):
    cities: list[str] = []
    """Only these cities of the region (default: every active market city)."""


# Detection may run (again) on these; a hotel past detection keeps its status.
# ENGINE_REVIEW hotels are detected again: once the catalogue knows their host they move on
_DETECTABLE = (HotelStatus.SCRAPED, HotelStatus.DETECTED, HotelStatus.ENGINE_REVIEW, HotelStatus.NO_BOOKING_ENGINE)


def _cities(conn, region: str, config: CitiesConfig) -> list[str]:
    active = market_cities(conn, region)
    if not config.cities:
        return active
    wanted = {c.lower() for c in config.cities}
    return [c for c in active if c.lower() in wanted]


@asset(**REGION_ASSET, kinds={"postgres", "s3"}, pool="serper")
def hotel_discovery(context: AssetExecutionContext, config: CitiesConfig, database: Database,
                    object_store: ObjectStore, serper: SerperResource) -> MaterializeResult:
    """Hotels per city from Serper places search, DMO lodging listings and CSV hotel lists, kept as
    source records with their source and external ids; raw Serper pages under api-responses/serper/."""
    day = dt.date.today()
    figures, did_work = {}, {}
    for region in context.partition_keys:
        result = discovery.DiscoveryResult()
        with database.connect() as conn:
            cities = _cities(conn, region, config)
        if not cities:
            context.log.warning(f"{region}: no market cities (sadie market add {region} CITY ...)")
            figures[region] = {"source_records": 0, "skipped": "no market cities"}
            continue
        if serper.configured():
            found = asyncio.run(discovery.discover_serper(serper, object_store, region, cities, day, result))
        else:
            result.serper_skipped = serper.not_configured_message()
            found = []
        with database.connect() as conn:
            discovery.save_sources(conn, region, "serper", found, result)
            discovery.save_sources(conn, region, "dmo", discovery.dmo_lodging(conn, region, cities), result)
            discovery.save_sources(conn, region, "csv", discovery.csv_hotels(object_store, region, cities), result)
        figures[region] = _discovery_figures(result, object_store)
        did_work[region] = bool(figures[region]["source_records"])
    report_partitions(context, figures, did_work)
    return MaterializeResult()


def _discovery_figures(result: discovery.DiscoveryResult, object_store: ObjectStore) -> dict:
    return {
        "source_records": sum(result.by_source.values()),
        "by_source": MetadataValue.json(result.by_source),
        "by_city": markdown_table(("city", "serper", "dmo", "csv"), (
            (city, s.get("serper", 0), s.get("dmo", 0), s.get("csv", 0)) for city, s in sorted(result.by_city.items()))),
        "skipped_not_lodging": result.skipped_not_lodging,
        "skipped_invalid": result.skipped_invalid,
        "serper": result.serper_skipped or "queried",
        "failed_cities": MetadataValue.json(result.failures),
        "raw_responses": path_list([object_store.uri(k) for k in result.raw_keys]),
    }


class EntitiesConfig(Config):
    merge_threshold: float = Field(default=MERGE_THRESHOLD, ge=0, le=1)
    """A pair at least this likely one hotel is merged."""
    review_threshold: float = Field(default=REVIEW_THRESHOLD, ge=0, le=1)
    """A pair at least this likely (below merge_threshold) waits for a person."""

    @model_validator(mode="after")
    def _ordered(self) -> "EntitiesConfig":
        if self.review_threshold > self.merge_threshold:
            raise ValueError(f"review_threshold ({self.review_threshold}) is above merge_threshold "
                             f"({self.merge_threshold})")
        return self


# Discovery's other sources are their own assets with their own schedules (licence registers,
# Common Crawl); named by key here since their modules import REGION_ASSET from this one.
@asset(**REGION_ASSET, deps=[hotel_discovery, AssetKey("licence_discovery"), AssetKey("crawl_discovery")],
       kinds={"postgres"}, code_version=RESOLVER_VERSION)
def hotel_entities(context: AssetExecutionContext, config: EntitiesConfig, database: Database) -> MaterializeResult:
    """One hotel per real place: source records resolved across sources by the place engine
    (core/places: place id, website, phone, location, name), merged at >= merge_threshold (0.8),
    pairs between review_threshold (0.6) and it queued for review with their explanation. People's
    decisions on earlier pairs (`sadie hotel review approve|reject`) are applied first. Every run
    resolves all the region's records and stores the resolver version it did so with; a region of
    another version is resolved again by resolver_release_sensor."""
    figures = {}
    for region in context.partition_keys:
        with database.connect() as conn:
            res = resolve_region(conn, region, config.merge_threshold, config.review_threshold)
        figures[region] = {key: getattr(res, key) for key in _ENTITY_FIGURES} | {
            "merges_by_stage": MetadataValue.json(res.merges_by_stage),
            "new_merges_by_stage": MetadataValue.json(res.new_merges_by_stage),
            "by_city": markdown_table(("city", "hotels", "merged duplicates"), (
                (city, s["discovered"], s["merged_duplicates"]) for city, s in sorted(res.by_city.items())))}
    report_partitions(context, figures, {r: bool(f["records"]) for r, f in figures.items()})
    return MaterializeResult()


_ENTITY_FIGURES = ("records", "entities", "hotels_created", "hotels_merged", "hotels_split", "review_pairs",
                   "decisions_applied", "decisions_refused", "pending_reviews")


class WebsitesConfig(CitiesConfig):
    force_refresh: bool = False
    """Fetch again sites already fetched."""


@asset(**REGION_ASSET, deps=[hotel_entities], kinds={"s3", "postgres"}, pool="websites")
def hotel_websites(context: AssetExecutionContext, config: WebsitesConfig, database: Database,
                   object_store: ObjectStore, website_fetcher: WebsiteFetcher) -> MaterializeResult:
    """Each new hotel's website: httpx first, Chromium only for pages that need JavaScript; text
    (<= 50 KB) stored at website-content/{state}/{city}/{hotel_id}.txt and recorded on the hotel."""
    figures = {}
    for region in context.partition_keys:
        with database.connect() as conn:
            hotels = websites.hotels_to_fetch(conn, region, _cities(conn, region, config), config.force_refresh)
        result = asyncio.run(websites.fetch_sites(website_fetcher, object_store, hotels))
        with database.connect() as conn:
            websites.save_content_paths(conn, object_store, result.outcomes)
        dead = [(o.hotel_id, o.city, o.reason) for o in result.outcomes if o.status == "dead"]
        figures[region] = {
            "sites": len(result.outcomes),
            **{f"sites_{k}": v for k, v in sorted(result.counts().items())},
            "dead_sites": markdown_table(("hotel", "city", "reason"), dead[:20]),
            "content_files": path_list([object_store.uri(o.text_key) for o in result.outcomes if o.text_key]),
        }
    report_partitions(context, figures, {r: bool(f["sites"]) for r, f in figures.items()})
    return MaterializeResult()


@asset(**REGION_ASSET, deps=[hotel_websites], kinds={"postgres"})
def booking_engine_detection(context: AssetExecutionContext, config: CitiesConfig, database: Database,
                             object_store: ObjectStore) -> MaterializeResult:
    """The booking engine of each fetched hotel (from the seeded booking_engines catalogue), on its
    home page or the booking page the fetch followed: hotel_booking_engines + status 1 (DETECTED);
    98 (ENGINE_REVIEW) with the host when it books through an uncatalogued third-party host (listed
    in `unknown_engine_hosts`); or 99 (NO_BOOKING_ENGINE, a dead end). Hotels past detection are
    left alone."""
    with database.connect() as conn:
        engines = websites.seed_booking_engines(conn)
    figures = {}
    for region in context.partition_keys:
        with database.connect() as conn:
            hotels = conn.execute(
                """SELECT id, city, state, website FROM sadie_gtm.hotels
                    WHERE region = %s AND lower(city) = ANY(%s) AND status = ANY(%s) ORDER BY id""",
                (region, [c.lower() for c in _cities(conn, region, config)], list(_DETECTABLE))).fetchall()
        outcomes = [websites.detect_hotel(object_store, *h) for h in hotels]
        with database.connect() as conn:
            websites.save_detections(conn, engines, outcomes)
            unknown = websites.unknown_engine_hosts(conn, [region])
        figures[region] = _detection_figures(outcomes, unknown)
    report_partitions(context, figures, {r: bool(f["hotels"]) for r, f in figures.items()})
    return MaterializeResult(metadata={"catalogue_engines": len(engines)})


def _detection_figures(outcomes: list, unknown: list) -> dict:
    by_tier: dict[str, int] = {}
    dead_ends: dict[str, int] = {}
    for o in outcomes:
        if o.engine or o.unknown_host:
            by_tier[f"tier_{o.tier}"] = by_tier.get(f"tier_{o.tier}", 0) + 1
        else:
            reason = (o.dead_end or "").split(":")[0]
            dead_ends[reason] = dead_ends.get(reason, 0) + 1
    return {
        "hotels": len(outcomes),
        "engines_by_tier": MetadataValue.json(by_tier),
        "dead_ends": MetadataValue.json(dead_ends),
        "found_on_followed_page": sum(1 for o in outcomes if o.found_on_url),
        "engine_review": sum(1 for o in outcomes if o.unknown_host),
        "unknown_engine_hosts": markdown_table(("host", "hotels", "example booking url"), (
            (u["host"], u["hotels"], u["example"]) for u in unknown)),
        "preview": markdown_table(("hotel", "city", "engine", "tier", "method", "booking url", "found on"), (
            (o.hotel_id, o.city, o.engine or o.unknown_host, o.tier, o.method, o.booking_url, o.found_on_url)
            for o in outcomes if o.engine or o.unknown_host)),
    }


hotel_assets = [hotel_discovery, hotel_entities, hotel_websites, booking_engine_detection]

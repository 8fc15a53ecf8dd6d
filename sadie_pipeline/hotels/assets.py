"""Hotel-lead assets, partitioned by region: discovery -> entities (more stages follow)."""

import asyncio
import datetime as dt

from dagster import AssetExecutionContext, BackfillPolicy, Config, MaterializeResult, MetadataValue, asset

from sadie_pipeline.hotels import discovery
from sadie_pipeline.hotels.entities import resolve_region
from sadie_pipeline.hotels.markets import market_cities
from sadie_pipeline.metadata import markdown_table, path_list
from sadie_pipeline.partitions import region_partitions
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.serper import SerperResource

# A backfill of many regions runs as one run; the assets loop over context.partition_keys.
REGION_ASSET = {"partitions_def": region_partitions, "group_name": "hotel_leads",
                "backfill_policy": BackfillPolicy.single_run()}


class CitiesConfig(Config):
    cities: list[str] = []
    """Only these cities of the region (default: every active market city)."""


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
    result = discovery.DiscoveryResult()
    day = dt.date.today()
    for region in context.partition_keys:
        with database.connect() as conn:
            cities = _cities(conn, region, config)
        if not cities:
            context.log.warning(f"{region}: no market cities (sadie market add {region} CITY ...)")
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
    return MaterializeResult(metadata={
        "regions": MetadataValue.json(list(context.partition_keys)),
        "source_records": sum(result.by_source.values()),
        "by_source": MetadataValue.json(result.by_source),
        "by_city": markdown_table(("city", "serper", "dmo", "csv"), (
            (city, s.get("serper", 0), s.get("dmo", 0), s.get("csv", 0)) for city, s in sorted(result.by_city.items()))),
        "skipped_not_lodging": result.skipped_not_lodging,
        "serper": result.serper_skipped or "queried",
        "failed_cities": MetadataValue.json(result.failures),
        "raw_responses": path_list([object_store.uri(k) for k in result.raw_keys]),
    })


@asset(**REGION_ASSET, deps=[hotel_discovery], kinds={"postgres"})
def hotel_entities(context: AssetExecutionContext, database: Database) -> MaterializeResult:
    """One hotel per real place: source records resolved across sources (place id, website domain,
    phone, address, name), merged at >= 0.8, pairs between 0.5 and 0.8 queued for review."""
    totals = {"records": 0, "entities": 0, "hotels_created": 0, "hotels_merged": 0, "review_pairs": 0}
    rows = []
    for region in context.partition_keys:
        with database.connect() as conn:
            res = resolve_region(conn, region)
        for key in totals:
            totals[key] += getattr(res, key)
        rows += [(region, city, s["discovered"], s["merged_duplicates"]) for city, s in sorted(res.by_city.items())]
    return MaterializeResult(metadata={
        **totals,
        "by_city": markdown_table(("region", "city", "hotels", "merged duplicates"), rows),
    })


hotel_assets = [hotel_discovery, hotel_entities]

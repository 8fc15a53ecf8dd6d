"""What follows a DMO's promotion, partitioned by DMO: geocodes of its listings without coordinates
(`listing_geocodes`) and its listings' images (`listing_images`). Both change tables in place with
set-based SQL, as promotion does, rather than returning values to an IO manager: they touch only
the rows that need it.

Neither belongs to the import job, whose runs (`sadie import`, the inbox sensor) stay off the
network: each has an eager automation condition on the promotion's data version, so
`listing_enrichment_sensor` starts it for a DMO after each promotion of that DMO that changed its
public listings (none for one that changed nothing); `listing_enrichment_job` runs both by hand."""

import asyncio
from typing import Any

from dagster import (
    AssetExecutionContext,
    AssetSelection,
    AutomationCondition,
    AutomationConditionSensorDefinition,
    Config,
    DefaultSensorStatus,
    MaterializeResult,
    MetadataValue,
    asset,
    define_asset_job,
)
from pydantic import Field

from sadie_pipeline.core.images import ImageRules
from sadie_pipeline.listings import geocodes, images
from sadie_pipeline.listings.geocoder import GeocoderResource
from sadie_pipeline.listings.image_fetcher import ImageFetcher
from sadie_pipeline.listings.repository import get_dmo
from sadie_pipeline.metadata import path_list, table_preview, table_schema
from sadie_pipeline.partitions import dmo_partitions
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore

PROMOTION = "listing_promotion"
# Eager, but on a changed data version of the promotion, not on any materialisation of it: a promotion
# that changed no listing keeps its version (assets.py), so it starts no run that would only retry
# what failed (an image host that is gone) with nothing new to try.
_PROMOTION_CHANGED = AutomationCondition.any_deps_match(
    (AutomationCondition.data_version_changed() & ~AutomationCondition.executed_with_root_target())
    | AutomationCondition.will_be_requested()).with_label("promotion_changed_listings")
AFTER_A_CHANGE = AutomationCondition.eager().replace("any_deps_updated", _PROMOTION_CHANGED).with_label(
    "eager_on_changed_listings")
GEOCODE_PREVIEW = table_schema(("location", "int"), ("listing", "int"), ("name", "string"), ("address", "string"),
                               ("status", "string"), ("lat", "float"), ("lng", "float"), ("reason", "string"))
IMAGE_PREVIEW = table_schema(("image", "int"), ("url", "string"), ("status", "string"), ("width", "int"),
                             ("height", "int"), ("phash", "string"), ("reason", "string"))


class GeocodeConfig(Config):
    batch_size: int = Field(default=100, ge=1, description="addresses written per transaction")
    max_addresses: int | None = Field(default=None, ge=1, description="asked of the provider per run (None: all)")
    accept_approximate: bool = Field(default=False, description="write a town-level match as the position")
    max_attempts: int = Field(default=3, ge=1, description="runs that ask about an address whose calls fail")


class ImagesConfig(Config):
    max_bytes: int = Field(default=15 * 1024 * 1024, ge=1, description="larger downloads fail (too_large)")
    min_side: int = Field(default=100, ge=1, description="images with a shorter side fail (too_small)")
    max_pixels: int = Field(default=60_000_000, ge=1)
    variants: dict[str, int] = Field(default={"medium": 768, "thumb": 200}, min_length=1,
                                     description="name -> longest side in pixels (JPEG, never enlarged)")
    quality: int = Field(default=82, ge=1, le=95)
    max_distance: int = Field(default=8, ge=0, le=32, description="hash bits within which images are one")
    max_attempts: int = Field(default=3, ge=1, description="runs that try a failing URL")
    max_images: int | None = Field(default=None, ge=1, description="downloads per run (None: all)")
    cpu_workers: int | None = Field(default=None, ge=1, description="decoding threads (None: one per core)")
    io_workers: int = Field(default=8, ge=1, description="object-store writes at once")

    def settings(self) -> images.ImageSettings:
        rules = ImageRules(max_bytes=self.max_bytes, min_side=self.min_side, max_pixels=self.max_pixels,
                           variants=tuple(self.variants.items()), quality=self.quality)
        base = images.ImageSettings()
        return images.ImageSettings(rules=rules, max_distance=self.max_distance, max_attempts=self.max_attempts,
                                    max_images=self.max_images, cpu_workers=self.cpu_workers or base.cpu_workers,
                                    io_workers=self.io_workers)


def _endpoint(geocoder: GeocoderResource) -> MetadataValue:
    url = geocoder.resolved_base_url()
    return MetadataValue.url(url) if url else MetadataValue.text("(geocoding off)")


def _map_links(rows: list[tuple[Any, ...]]) -> MetadataValue:
    points = [r for r in rows if r[5] is not None]
    lines = [f"- [{r[2] or r[3]}](https://www.openstreetmap.org/?mlat={r[5]}&mlon={r[6]}#map=17/{r[5]}/{r[6]})"
             for r in points]
    return MetadataValue.md("\n".join(lines) if lines else "(no new coordinates)")


@asset(partitions_def=dmo_partitions, group_name="listings", deps=[PROMOTION], kinds={"postgres"},
       pool="geocoder", automation_condition=AFTER_A_CHANGE)
def listing_geocodes(context: AssetExecutionContext, config: GeocodeConfig, database: Database,
                     geocoder: GeocoderResource) -> MaterializeResult:
    """Coordinates for the DMO's listings that have none, from their address (Google Geocoding or
    Nominatim, cached by normalised address), written to public.locations; each location's outcome
    with its reason in pipeline.location_geocodes."""
    with database.connect() as conn:
        dmo = get_dmo(conn, context.partition_key)
    settings = geocodes.GeocodeSettings(config.batch_size, config.max_addresses, config.accept_approximate,
                                        config.max_attempts)

    async def run() -> tuple[geocodes.GeocodeResult, dict[str, Any]]:
        try:
            result = await geocodes.geocode_dmo(database, geocoder, dmo, settings, log=context.log.info)
            return result, geocoder.guard().metadata() if result.asked else {}
        finally:
            await geocoder.aclose()

    result, guard = asyncio.run(run())
    if result.skipped:
        context.log.warning(result.skipped)
    return MaterializeResult(metadata={
        "dmo": dmo.slug, "provider": result.provider, "endpoint": _endpoint(geocoder),
        "candidates": result.candidates, "not_asked_again": result.unchanged, "given_up": result.given_up,
        "from_cache": result.from_cache,
        "asked": result.asked, "left_for_next_run": result.left_for_next_run,
        **{f"located_{s}": n for s, n in sorted(result.outcomes.items())},
        "errors": result.outcomes.get("failed", 0), "errors_by_class": MetadataValue.json(dict(result.failures)),
        "note": result.skipped or "", "guard": MetadataValue.json(guard),
        "locations_by_status": MetadataValue.json(geocodes.status_counts(database, dmo)),
        "preview": table_preview(GEOCODE_PREVIEW, result.preview), "map_links": _map_links(result.preview),
    })


@asset(partitions_def=dmo_partitions, group_name="listings", deps=[PROMOTION], kinds={"postgres", "s3"},
       automation_condition=AFTER_A_CHANGE)
def listing_images(context: AssetExecutionContext, config: ImagesConfig, database: Database,
                   object_store: ObjectStore, image_fetcher: ImageFetcher) -> MaterializeResult:
    """The DMO's new image URLs downloaded, checked (type, size, a complete decode, dimensions),
    stored with resized variants under images/{dmo}/{listing_id}/, hashed, near duplicates of one
    listing dropped; public.listing_images carries each one's state, reason, stored URL, size and
    hash. Failed images are tried again by the next runs, max_attempts runs in all."""
    with database.connect() as conn:
        dmo = get_dmo(conn, context.partition_key)

    async def run() -> tuple[images.ImagesResult, dict[str, Any]]:
        try:
            result = await images.process_dmo_images(database, object_store, image_fetcher, dmo, config.settings(),
                                                     log=context.log.info)
            return result, image_fetcher.metadata()
        finally:
            await image_fetcher.aclose()

    result, hosts = asyncio.run(run())
    return MaterializeResult(metadata={
        "dmo": dmo.slug, "listings": result.units, "downloaded": result.downloaded,
        "download_failures": result.tried - result.downloaded, "reused": result.reused,
        "bytes_downloaded": result.bytes_downloaded,
        **{f"images_{s}": n for s, n in sorted(result.statuses.items())},
        "errors": result.statuses.get("failed", 0), "errors_by_type": MetadataValue.json(dict(result.failures)),
        "given_up": result.given_up, "left_for_next_run": result.left_for_next_run,
        "hosts": MetadataValue.json(hosts),
        "images_by_status": MetadataValue.json(images.status_counts(database, dmo)),
        "preview": table_preview(IMAGE_PREVIEW, result.preview), "stored": path_list(result.stored),
    })


enrichment_assets = [listing_geocodes, listing_images]
listing_enrichment_job = define_asset_job(
    "listing_enrichment_job", selection=AssetSelection.assets(*enrichment_assets),
    description="Geocode the DMO's listings without coordinates and process its new images (after promotion).")
listing_enrichment_sensor = AutomationConditionSensorDefinition(
    "listing_enrichment_sensor", target=AssetSelection.assets(*enrichment_assets),
    default_status=DefaultSensorStatus.RUNNING, minimum_interval_seconds=30,
    description="After each promotion of a DMO that changed its listings: its geocodes and images (the assets' "
                "conditions).")

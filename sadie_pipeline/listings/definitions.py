from dagster import Definitions

from sadie_pipeline.listings.assets import listing_assets
from sadie_pipeline.listings.enrichment_assets import (
    enrichment_assets,
    listing_enrichment_job,
    listing_enrichment_sensor,
)
from sadie_pipeline.listings.jobs import listing_import_job, listing_promote_job, listing_stage_job
from sadie_pipeline.listings.pull_schedule import dmo_pull_sensor
from sadie_pipeline.listings.sensors import dmo_inbox_sensor, dmo_partitions_sensor
from sadie_pipeline.resource_defs import listing_resources


def build_defs() -> Definitions:
    """The listings definitions; the geocoder's settings from the environment as it is now
    (SADIE_GEOCODER, SADIE_GEOCODER_BASE_URL, GOOGLE_MAPS_API_KEY; see resource_defs)."""
    return Definitions(
        assets=[*listing_assets, *enrichment_assets],
        jobs=[listing_import_job, listing_stage_job, listing_promote_job, listing_enrichment_job],
        sensors=[dmo_inbox_sensor, dmo_partitions_sensor, dmo_pull_sensor, listing_enrichment_sensor],
        resources=listing_resources(),
    )


defs = build_defs()

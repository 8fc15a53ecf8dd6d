from dagster import Definitions

from sadie_pipeline.listings.assets import listing_assets
from sadie_pipeline.listings.jobs import listing_import_job, listing_promote_job, listing_stage_job
from sadie_pipeline.listings.sensors import dmo_inbox_sensor, dmo_partitions_sensor

defs = Definitions(
    assets=listing_assets,
    jobs=[listing_import_job, listing_stage_job, listing_promote_job],
    sensors=[dmo_inbox_sensor, dmo_partitions_sensor],
)

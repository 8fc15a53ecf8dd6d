"""The hotel-lead job: every stage for the selected regions (a backfill of many regions is one run)."""

from dagster import AssetSelection, define_asset_job

from sadie_pipeline.partitions import region_partitions

hotel_leads_job = define_asset_job(
    "hotel_leads_job",
    selection=AssetSelection.groups("hotel_leads"),
    partitions_def=region_partitions,
    description="Discover, resolve, fetch, detect and enrich the hotels of a region.",
)

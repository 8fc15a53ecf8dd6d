"""Jobs over the listings assets, one partition (DMO) per run."""

from dagster import AssetSelection, define_asset_job

from sadie_pipeline.listings.assets import listing_promotion, listing_raw_files, listing_stage

listing_import_job = define_asset_job(
    "listing_import_job",
    selection=AssetSelection.assets(listing_raw_files, listing_stage, listing_promotion),
    description="Import a DMO's inbox file, stage it and promote what needs no review.",
)
listing_stage_job = define_asset_job(
    "listing_stage_job",
    selection=AssetSelection.assets(listing_raw_files, listing_stage),
    description="Import and stage only; promotion waits for a person.",
)
listing_promote_job = define_asset_job(
    "listing_promote_job",
    selection=AssetSelection.assets(listing_promotion),
    description="Promote what is approved (run it after review decisions).",
)

-- A staged listing_info row is reached through its staging.listings row (same id): by the primary
-- key, and with it when its job goes (ON DELETE CASCADE). No query looks staged listing_info rows
-- up by job, yet every staged record paid an entry in this index.
-- depends: 0015_merged_listings_index

DROP INDEX IF EXISTS staging.staging_listing_info_job_idx;

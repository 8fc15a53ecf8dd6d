-- Thin rows (records a DMO sent unchanged: reused_from set) are promoted with their job, without
-- being written: promotion reads their keys and marks only the listing and listing_info as seen.
-- Their promoted_at stays empty; that of every other row says when promotion applied it.
-- depends: 0016_staging_info_without_job_index

COMMENT ON COLUMN staging.listings.promoted_at IS
    'when promotion applied this row; empty on a thin row (reused_from set), promoted with its job (pipeline.jobs.stage = ''promoted'')';

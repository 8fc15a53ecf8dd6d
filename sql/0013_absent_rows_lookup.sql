-- The rows deletion detection adds to a job (no rec_num) are few: a partial index finds them, so
-- resolving a job, which first clears those an earlier attempt left, does not read every staged
-- row of the job to learn that there are none.
-- depends: 0012_match_hash_lookup

CREATE INDEX IF NOT EXISTS staging_listings_absent_idx ON staging.listings (job_id) WHERE rec_num IS NULL;

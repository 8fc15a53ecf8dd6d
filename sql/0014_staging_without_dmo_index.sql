-- Staged rows are found by job (staging_listings_job_idx) or, for the few a person decides on,
-- through staging_listings_decided_idx, which is also on dmo_id. The index on dmo_id alone served
-- no query the other two do not, yet cost an entry for every staged row, and the planner, on
-- statistics older than the job, took it for promotion's batch: one scan of every row the DMO
-- ever staged instead of the job's rows and the decided ones.
-- depends: 0013_absent_rows_lookup

DROP INDEX IF EXISTS staging.staging_listings_dmo_idx;

-- Promotion batch. Rows that may be promoted and are not yet are those of the DMO's staged jobs,
-- and rows of older jobs a person decided on since: approved, or rejected as a new listing. The
-- partial index on open reviews takes in rejected rows too, so promotion finds both kinds through
-- two small index scans instead of reading every staged row the DMO ever had.
-- depends: 0009_raw_keys

CREATE INDEX IF NOT EXISTS staging_listings_decided_idx ON staging.listings (dmo_id)
    WHERE review_status IN ('pending', 'approved', 'rejected');
DROP INDEX IF EXISTS staging.staging_listings_open_review_idx;

-- Unchanged records. A record identical to one the DMO sent in its last promoted import (same raw
-- hash, same config), whose listing nobody changed since, is staged as a thin row: its keys, its
-- targets and action 'unchanged', pointing at the earlier staged row that holds its data
-- (reused_from) instead of carrying a copy, and without a staging.listing_info row. A thin row
-- that turns out not to be unchanged (a duplicate in its batch) gets its data copied back in.
-- A listing_info remembers the raw hash of the record it was last written from, which tells that
-- nothing changed it since (promotion sets it on insert, update and unchanged).
-- Rows waiting for a person (pending) or for promotion after approval are found through one
-- partial index, also when staging older rows is superseded.
-- depends: 0006_listings_speed

ALTER TABLE staging.listings ADD COLUMN IF NOT EXISTS reused_from bigint;
COMMENT ON COLUMN staging.listings.reused_from IS
    'the earlier staged row holding this unchanged record''s data; NULL when the row carries its own';

ALTER TABLE public.listing_info ADD COLUMN IF NOT EXISTS raw_hash text;
COMMENT ON COLUMN public.listing_info.raw_hash IS
    'raw hash of the DMO record this listing_info was last promoted from (see staging.listings.raw_hash)';

CREATE INDEX IF NOT EXISTS staging_listings_open_review_idx ON staging.listings (dmo_id)
    WHERE review_status IN ('pending', 'approved');
DROP INDEX IF EXISTS staging.staging_listings_pending_idx;

-- Promotion speed: what the promotion asset reads after writing, kept to a few index pages.
-- The preview of a DMO's listings is its most recently updated listing_info rows: an index on
-- (dmo_id, updated_at DESC, listing_id) gives the first ten without reading, joining and sorting
-- every row of the DMO. It serves lookups by dmo_id as well, so it replaces listing_info_dmo_idx
-- (as many index entries per new row as before). last_seen_at / last_job_id, which every import
-- rewrites, are in no index: those updates stay HOT.
-- Hidden listings are few: a partial index on them lets the live-listing count check "the listing
-- is visible" by probing that small set instead of fetching every listing of the DMO.
-- depends: 0007_unchanged_records

CREATE INDEX IF NOT EXISTS listing_info_dmo_updated_idx ON public.listing_info (dmo_id, updated_at DESC, listing_id);
DROP INDEX IF EXISTS public.listing_info_dmo_idx;

CREATE INDEX IF NOT EXISTS listings_hidden_idx ON public.listings (id) WHERE NOT listing_visible;

-- Issue 34 (the ingest floors): an import touches every unchanged record's listing_info row
-- (promote.sql touch_unchanged_info: last_seen_at, last_job_id, raw_hash). With an index on
-- last_seen_at (0048) each touch was a new tuple plus an entry in every index of the table; without
-- one it is a HOT update in the page's free space (fillfactor 50, 0006). The stale query
-- (staleness.sql) filters coalesce(last_seen_at, created_at), which that index could not serve:
-- it reads the DMO's visible rows through listing_info_visible_dmo_idx as before.
DROP INDEX IF EXISTS public.listing_info_dmo_last_seen_idx;

-- When a listing was last seen is when one of its DMO records (listing_info, one per DMO, seed 002)
-- was: a view over those replaces the copies kept on listings (last_seen_at / last_job_id), which
-- every import rewrote on every listing it sent, a second full write per record besides the
-- listing_info's.
-- depends: 0018_source_bytes

ALTER TABLE public.listings DROP COLUMN IF EXISTS last_seen_at, DROP COLUMN IF EXISTS last_job_id;

CREATE OR REPLACE VIEW public.listing_last_seen AS
SELECT DISTINCT ON (li.listing_id) li.listing_id, li.last_seen_at, li.last_job_id, li.dmo_id
  FROM public.listing_info li
 ORDER BY li.listing_id, li.last_seen_at DESC NULLS LAST, li.id;
COMMENT ON VIEW public.listing_last_seen IS
    'each listing''s last sighting: the latest last_seen_at of its listing_info rows, with that import job and DMO';

-- The listing of a match hash is the lowest id among the listings with that hash. An index on
-- (listing_match_hash, id) finds it in one probe, whatever the statistics say; on the hash alone,
-- the planner, misled by statistics older than the job, may walk the primary key instead and read
-- every listing for each record it matches. It replaces the index on the hash alone.
-- depends: 0011_promotion_batch

CREATE INDEX IF NOT EXISTS listings_match_hash_id_idx ON public.listings (listing_match_hash, id);
DROP INDEX IF EXISTS public.listings_match_hash_idx;

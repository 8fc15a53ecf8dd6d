-- Merged listings are few, like hidden ones (listings_hidden_idx): a partial index holds them, so
-- staging checks "not merged" for a whole re-import by probing that small set instead of reading
-- every listing.
-- depends: 0014_staging_without_dmo_index

CREATE INDEX IF NOT EXISTS listings_merged_idx ON public.listings (id) WHERE listing_status = 'merged';

-- Issue 33 (data team: images page, listings filters and timeline): the indexes the app's pages read.
-- A listing's timeline finds the staged rows each import applied to its DMO records by source id (an
-- index on columns no update changes: staging's updates stay HOT); the category filter matches a
-- value or a group's subtypes ("lodging" -> "lodging.hotel") by prefix; the images page lists the
-- near duplicates dropped, a small part of the images.
-- depends: 0045_sales_role

CREATE INDEX IF NOT EXISTS staging_listings_source_idx ON staging.listings (source_id, dmo_id);
CREATE INDEX IF NOT EXISTS listings_category_idx ON public.listings (lower(category) text_pattern_ops);
CREATE INDEX IF NOT EXISTS listing_images_duplicate_idx ON public.listing_images (id)
    WHERE image_status = 'duplicate';

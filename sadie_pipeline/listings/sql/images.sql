-- Listing images (listings/images.py): downloads and their results.

-- name: pending_units
-- The DMO's listing_info rows with an image to process: never processed (a promotion inserted it,
-- NULL status), or failed with tries left. One unit per listing_info: its images are deduplicated
-- together.
SELECT DISTINCT im.listing_info_id
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id AND li.dmo_id = %(dmo)s AND li.info_visible
  LEFT JOIN pipeline.image_fetches f ON f.listing_info_id = im.listing_info_id AND f.source_url = im.image
 WHERE im.image_status IS NULL OR (im.image_status = 'failed' AND coalesce(f.attempts, 0) < %(max_attempts)s)
 ORDER BY im.listing_info_id;

-- name: given_up
-- Failed images whose tries are spent: left as they are until their URL changes.
SELECT count(*)
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id AND li.dmo_id = %(dmo)s AND li.info_visible
  JOIN pipeline.image_fetches f ON f.listing_info_id = im.listing_info_id AND f.source_url = im.image
 WHERE im.image_status = 'failed' AND f.attempts >= %(max_attempts)s;

-- name: unit_rows
-- Every image of the units, with the last download of its URL for that listing_info.
SELECT im.listing_info_id, li.listing_id, im.id, im.image, coalesce(im.rank, 0), f.status, coalesce(f.attempts, 0),
       f.failure, f.reason, f.canonical_url, f.variants, f.width, f.height, f.phash
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id
  LEFT JOIN pipeline.image_fetches f ON f.listing_info_id = im.listing_info_id AND f.source_url = im.image
 WHERE im.listing_info_id = ANY(%(units)s)
 ORDER BY im.listing_info_id, im.rank, im.id;

-- name: save_fetches
INSERT INTO pipeline.image_fetches AS f (listing_info_id, source_url, status, failure, reason, storage_key,
                                         canonical_url, variants, content_type, byte_size, width, height, phash)
SELECT u.li, u.url, u.status, u.failure, u.reason, u.storage_key, u.canonical_url, u.variants::jsonb,
       u.content_type, u.byte_size, u.width, u.height, u.phash
  FROM unnest(%(lis)s::int[], %(urls)s::text[], %(statuses)s::text[], %(failures)s::text[], %(reasons)s::text[],
              %(storage_keys)s::text[], %(canonical_urls)s::text[], %(variants)s::text[], %(content_types)s::text[],
              %(byte_sizes)s::bigint[], %(widths)s::int[], %(heights)s::int[], %(phashes)s::text[])
       AS u(li, url, status, failure, reason, storage_key, canonical_url, variants, content_type, byte_size, width,
            height, phash)
    ON CONFLICT (listing_info_id, source_url) DO UPDATE SET
       status = EXCLUDED.status, failure = EXCLUDED.failure, reason = EXCLUDED.reason,
       storage_key = EXCLUDED.storage_key, canonical_url = EXCLUDED.canonical_url, variants = EXCLUDED.variants,
       content_type = EXCLUDED.content_type, byte_size = EXCLUDED.byte_size, width = EXCLUDED.width,
       height = EXCLUDED.height, phash = EXCLUDED.phash, attempts = f.attempts + 1,
       fetched_at = now();

-- name: set_states
UPDATE public.listing_images im
   SET image_status = v.status, status_reason = v.reason, canonical_url = v.canonical_url,
       variants = v.variants::jsonb, width = v.width, height = v.height, phash = v.phash,
       duplicate_of = v.duplicate_of, processed_at = now(), updated_at = now()
  FROM unnest(%(ids)s::int[], %(statuses)s::text[], %(reasons)s::text[], %(canonical_urls)s::text[],
              %(variants)s::text[], %(widths)s::int[], %(heights)s::int[], %(phashes)s::text[],
              %(duplicates)s::int[])
       AS v(id, status, reason, canonical_url, variants, width, height, phash, duplicate_of)
 WHERE im.id = v.id;

-- name: status_counts
SELECT coalesce(im.image_status, 'pending'), count(*)
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id AND li.dmo_id = %(dmo)s AND li.info_visible
 GROUP BY 1 ORDER BY 1;

-- The images page (routes/images.py): listing images by state (core/image_queue.py ImageState, from
-- the status listings/images.py writes, the tries of the URL's download and whether the DMO record
-- is shown), the queue the next image run fetches, failures with their reasons, the near duplicates
-- dropped beside the image each duplicates, and the re-fetch that puts failed images back in the queue.
-- %(dmos)s: the user's DMOs (NULL: every DMO); %(max_attempts)s: the runs that try a failing URL.

-- name: state_counts
-- Per DMO, the images by status, spent tries and shown record (routes/images.py reads the states).
-- The tries are looked up for the failed images only (a CASE: an AND would ask for every image).
SELECT d.slug AS dmo, c.status, c.shown, c.spent, c.n
  FROM (SELECT li.dmo_id, im.image_status AS status, li.info_visible AS shown,
               CASE WHEN im.image_status = 'failed'
                    THEN coalesce((SELECT f.attempts FROM pipeline.image_fetches f
                                    WHERE f.listing_info_id = im.listing_info_id AND f.source_url = im.image), 0)
                         >= %(max_attempts)s
                    ELSE false END AS spent,
               count(*) AS n
          FROM public.listing_images im JOIN public.listing_info li ON li.id = im.listing_info_id
         GROUP BY 1, 2, 3, 4) c
  JOIN public.dmos d ON d.id = c.dmo_id
 WHERE %(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s)
 ORDER BY 1;

-- name: no_jit
-- The counts' plans cost enough to be compiled (JIT), which takes longer than the count, for this
-- transaction only.
SELECT set_config('jit', 'off', true);

-- name: queue
-- What the next image run of each DMO fetches (listings/sql/images.sql pending_units, per image):
-- never processed, or failed with tries left, on a shown record; oldest first, paged by id.
SELECT im.id, im.image AS url, d.slug AS dmo, li.listing_id, l.name, im.image_status AS status, im.status_reason,
       coalesce(f.attempts, 0) AS attempts, f.fetched_at, im.created_at
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id AND li.info_visible
  JOIN public.dmos d ON d.id = li.dmo_id
  JOIN public.listings l ON l.id = li.listing_id
  LEFT JOIN pipeline.image_fetches f ON f.listing_info_id = im.listing_info_id AND f.source_url = im.image
 WHERE (im.image_status IS NULL OR (im.image_status = 'failed' AND coalesce(f.attempts, 0) < %(max_attempts)s))
   AND im.id > %(after)s
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 ORDER BY im.id
 LIMIT %(limit)s;

-- name: failures
-- Failed images with their reason (its failure class: the part before the first ':'), of a DMO and
-- a failure class when given; paged by id. The partial index listing_images_to_process_idx serves it.
SELECT im.id, im.image AS url, d.slug AS dmo, li.listing_id, l.name, im.status_reason, li.info_visible AS shown,
       coalesce(f.attempts, 0) AS attempts, f.fetched_at,
       CASE WHEN split_part(im.status_reason, ':', 1) = ANY(%(failures)s) THEN split_part(im.status_reason, ':', 1)
            ELSE 'other' END AS failure
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id
  JOIN public.dmos d ON d.id = li.dmo_id
  JOIN public.listings l ON l.id = li.listing_id
  LEFT JOIN pipeline.image_fetches f ON f.listing_info_id = im.listing_info_id AND f.source_url = im.image
 WHERE im.image_status = 'failed'
   AND im.id > %(after)s
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(failure)s::text IS NULL
        OR CASE WHEN split_part(im.status_reason, ':', 1) = ANY(%(failures)s) THEN split_part(im.status_reason, ':', 1)
                ELSE 'other' END = %(failure)s)
 ORDER BY im.id
 LIMIT %(limit)s;

-- name: failure_counts
-- Failed images by DMO and failure class (the filters' choices, the bulk re-fetch's sizes).
SELECT d.slug AS dmo,
       CASE WHEN split_part(im.status_reason, ':', 1) = ANY(%(failures)s) THEN split_part(im.status_reason, ':', 1)
            ELSE 'other' END AS failure,
       count(*) AS n
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id
  JOIN public.dmos d ON d.id = li.dmo_id
 WHERE im.image_status = 'failed' AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 GROUP BY 1, 2
 ORDER BY 1, 3 DESC;

-- name: duplicates
-- Near duplicates dropped, each beside the image it duplicates (duplicate_of), with both stored
-- thumbnails; newest id first, paged.
SELECT im.id, im.image AS url, im.variants ->> 'thumb' AS thumb, im.status_reason, im.width, im.height,
       d.slug AS dmo, li.listing_id, l.name,
       k.id AS kept_id, k.image AS kept_url, k.variants ->> 'thumb' AS kept_thumb, k.width AS kept_width,
       k.height AS kept_height, k.image_status AS kept_status
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id
  JOIN public.dmos d ON d.id = li.dmo_id
  JOIN public.listings l ON l.id = li.listing_id
  LEFT JOIN public.listing_images k ON k.id = im.duplicate_of
 WHERE im.image_status = 'duplicate'
   AND im.id > %(after)s
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 ORDER BY im.id
 LIMIT %(limit)s;

-- name: image
SELECT im.id, im.image AS url, im.image_status AS status, d.slug AS dmo, li.listing_id
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id
  JOIN public.dmos d ON d.id = li.dmo_id
 WHERE im.id = %(image)s;

-- name: failed_ids
-- The failed images of a DMO (and a failure class when given): what a bulk re-fetch puts back.
SELECT im.id
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id
  JOIN public.dmos d ON d.id = li.dmo_id
 WHERE im.image_status = 'failed' AND d.slug = %(dmo)s
   AND (%(failure)s::text IS NULL
        OR CASE WHEN split_part(im.status_reason, ':', 1) = ANY(%(failures)s) THEN split_part(im.status_reason, ':', 1)
                ELSE 'other' END = %(failure)s)
 ORDER BY im.id;

-- name: refetch
-- Failed images back in the queue: no status (as a promotion leaves a new image), and their URL's
-- download with no try spent, so the next image run downloads it again (listings/images.py
-- _needs_download) with all its tries. The last failure stays in status_reason until that run.
WITH back AS (
    UPDATE public.listing_images im SET image_status = NULL, updated_at = now()
     WHERE im.id = ANY(%(ids)s) AND im.image_status = 'failed'
    RETURNING im.id, im.listing_info_id, im.image
), reset AS (
    UPDATE pipeline.image_fetches f SET attempts = 0
      FROM back b
     WHERE f.listing_info_id = b.listing_info_id AND f.source_url = b.image AND f.status = 'failed'
    RETURNING f.listing_info_id
)
SELECT (SELECT count(*) FROM back) AS images, (SELECT count(*) FROM reset) AS downloads;

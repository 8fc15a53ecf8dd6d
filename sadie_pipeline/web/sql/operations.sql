-- Operations pages (routes/operations.py, health.py): health figures (the review figures are review.sql's),
-- the hotels dead letters name, the bridge, duplicate groups.

-- name: imports_per_day
SELECT date_trunc('day', j.created_at)::date AS day, count(*) AS jobs, coalesce(sum(j.records_read), 0) AS records,
       count(*) FILTER (WHERE j.status = 'failed') AS failed
  FROM pipeline.jobs j JOIN public.dmos d ON d.id = j.dmo_id
 WHERE j.created_at > now() - interval '30 days' AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 GROUP BY 1 ORDER BY 1;

-- name: error_rates
-- Each DMO's error rate over its last five staged jobs.
SELECT d.slug AS dmo, coalesce(avg(e.error_rate), 0) AS error_rate
  FROM public.dmos d
  LEFT JOIN LATERAL (SELECT j.error_rate FROM pipeline.jobs j WHERE j.dmo_id = d.id AND j.error_rate IS NOT NULL
                      ORDER BY j.id DESC LIMIT 5) e ON true
 WHERE (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 GROUP BY d.slug ORDER BY d.slug;

-- name: hotel_regions
SELECT DISTINCT region FROM sadie_gtm.hotels ORDER BY region;

-- name: bridge
SELECT b.id, d.slug AS dmo, b.source_id, b.target_type, b.target_id, b.certainty_score, b.job_id, b.updated_at,
       l.name AS listing_name, l.listing_status
  FROM pipeline.bridge_source_target b JOIN public.dmos d ON d.id = b.dmo_id
  LEFT JOIN public.listings l ON b.target_type = 'listing' AND l.id = b.target_id
 WHERE b.id < %(before)s
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(source)s::text IS NULL OR b.source_id = %(source)s)
   AND (%(listing)s::integer IS NULL OR (b.target_type = 'listing' AND b.target_id = %(listing)s))
 ORDER BY b.id DESC
 LIMIT %(limit)s;

-- name: bridge_conflicts
-- Listings that two or more records of one DMO map to (seed 002: "two sources map to same listing").
SELECT d.slug AS dmo, b.target_id AS listing_id, l.name, count(*) AS sources, array_agg(b.source_id ORDER BY b.id) AS source_ids
  FROM pipeline.bridge_source_target b JOIN public.dmos d ON d.id = b.dmo_id
  LEFT JOIN public.listings l ON l.id = b.target_id
 WHERE b.target_type = 'listing' AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 GROUP BY d.slug, b.target_id, l.name HAVING count(*) > 1
 ORDER BY count(*) DESC, b.target_id LIMIT 100;

-- name: staged_duplicates
-- Pending duplicates, grouped by the staged row they duplicate.
SELECT p.id AS primary_id, p.name AS primary_name, p.city AS primary_city, d.slug AS dmo,
       json_agg(json_build_object('id', s.id, 'name', s.name, 'city', s.city, 'certainty', s.certainty_score)
                ORDER BY s.id) AS members
  FROM staging.listings s JOIN staging.listings p ON p.id = s.duplicate_of
  JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_status = 'pending' AND s.action = 'duplicate'
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 GROUP BY p.id, p.name, p.city, d.slug ORDER BY p.id LIMIT 200;

-- name: listing_duplicates
-- Canonical listings (not merged) sharing a match hash: candidates for a merge.
SELECT l.listing_match_hash AS hash,
       json_agg(json_build_object('id', l.id, 'name', l.name, 'city', loc.city, 'status', l.listing_status)
                ORDER BY l.id) AS listings
  FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
 WHERE l.listing_match_hash IN (SELECT listing_match_hash FROM public.listings
                                 WHERE listing_match_hash IS NOT NULL AND listing_status <> 'merged'
                                 GROUP BY listing_match_hash HAVING count(*) > 1 LIMIT 200)
   AND l.listing_status <> 'merged'
 GROUP BY l.listing_match_hash ORDER BY min(l.id);

-- name: letter_hotels
-- The hotels dead letters name (item 'hotel:<id>'): shown by name, and retried by region and city.
SELECT h.id, h.name, h.city, h.region, h.website FROM sadie_gtm.hotels h WHERE h.id = ANY(%(ids)s);

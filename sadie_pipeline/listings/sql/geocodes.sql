-- Geocoding of the DMO's listings that have no coordinates (listings/geocodes.py).

-- name: candidates
-- The locations without coordinates of the listings the DMO shows, with what the last geocode of
-- each said, of which address and after how many runs (a location shared with another DMO is one row).
SELECT DISTINCT ON (loc.id) loc.id, l.id, l.name, loc.address1, loc.address2, loc.city, loc.state, loc.zip,
       loc.country, g.address_key, g.status, coalesce(g.attempts, 0)
  FROM public.listing_info li
  JOIN public.listings l ON l.id = li.listing_id AND l.listing_status <> 'merged'
  JOIN public.locations loc ON loc.id = l.location_id
  LEFT JOIN pipeline.location_geocodes g ON g.location_id = loc.id
 WHERE li.dmo_id = %(dmo)s AND li.info_visible AND (loc.lat IS NULL OR loc.lng IS NULL)
 ORDER BY loc.id;

-- name: cached
SELECT address_key, status, lat::float8, lng::float8, precision, formatted_address, place_id
  FROM pipeline.geocode_cache WHERE address_key = ANY(%(keys)s);

-- name: save_cache
-- The provider's definitive answers (found or not), so no address is asked twice.
INSERT INTO pipeline.geocode_cache AS c (address_key, query, status, lat, lng, precision, formatted_address,
                                         place_id, provider)
SELECT * FROM unnest(%(keys)s::text[], %(queries)s::text[], %(statuses)s::text[], %(lats)s::numeric[],
                     %(lngs)s::numeric[], %(precisions)s::text[], %(formatted)s::text[], %(place_ids)s::text[],
                     %(providers)s::text[])
    ON CONFLICT (address_key) DO UPDATE SET
       query = EXCLUDED.query, status = EXCLUDED.status, lat = EXCLUDED.lat, lng = EXCLUDED.lng,
       precision = EXCLUDED.precision, formatted_address = EXCLUDED.formatted_address,
       place_id = EXCLUDED.place_id, provider = EXCLUDED.provider, updated_at = now();

-- name: write_coordinates
-- Only where the location still has none: a promotion may have brought the source's own since.
UPDATE public.locations loc SET lat = v.lat, lng = v.lng, updated_at = now()
  FROM unnest(%(ids)s::int[], %(lats)s::numeric[], %(lngs)s::numeric[]) AS v(id, lat, lng)
 WHERE loc.id = v.id AND (loc.lat IS NULL OR loc.lng IS NULL);

-- name: record_outcomes
-- Each location's outcome; attempts count the tries of the same address.
INSERT INTO pipeline.location_geocodes AS g (location_id, address_key, status, reason, provider, from_cache)
SELECT * FROM unnest(%(ids)s::int[], %(keys)s::text[], %(statuses)s::text[], %(reasons)s::text[],
                     %(providers)s::text[], %(from_cache)s::boolean[])
    ON CONFLICT (location_id) DO UPDATE SET
       attempts = CASE WHEN g.address_key = EXCLUDED.address_key THEN g.attempts + 1 ELSE 1 END,
       address_key = EXCLUDED.address_key, status = EXCLUDED.status, reason = EXCLUDED.reason,
       provider = EXCLUDED.provider, from_cache = EXCLUDED.from_cache, updated_at = now();

-- name: outcome_counts
-- Where the DMO's locations stand (for the asset's metadata).
SELECT g.status, count(DISTINCT g.location_id)
  FROM public.listing_info li
  JOIN public.listings l ON l.id = li.listing_id
  JOIN pipeline.location_geocodes g ON g.location_id = l.location_id
 WHERE li.dmo_id = %(dmo)s AND li.info_visible
 GROUP BY g.status ORDER BY g.status;

-- name: located_by_source
-- The DMO's live locations with coordinates that no geocode wrote: the source's own.
SELECT count(DISTINCT l.location_id)
  FROM public.listing_info li
  JOIN public.listings l ON l.id = li.listing_id
  JOIN public.locations loc ON loc.id = l.location_id
 WHERE li.dmo_id = %(dmo)s AND li.info_visible AND loc.lat IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM pipeline.location_geocodes g
                    WHERE g.location_id = loc.id AND g.status = 'geocoded');

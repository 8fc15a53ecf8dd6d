-- The listings API (routes/api.py): only visible canonical listings (not hidden, deleted, merged or
-- archived), with their visible DMO records' contacts, hours and stored images; paged by id (cursor).
-- A key of every DMO reads `listings`; a DMO's key `dmo_listings` (%(dmo_id)s): only the listings that
-- DMO shows (a visible record of it: a soft delete is not visible), and `records` only that DMO's
-- records (%(dmo_id)s NULL: every DMO's).

-- name: listings
SELECT l.id, l.name, l.category, greatest(l.updated_at, (SELECT max(li.updated_at) FROM public.listing_info li
                                                          WHERE li.listing_id = l.id)) AS updated_at,
       loc.address1, loc.address2, loc.city, loc.state, loc.zip, loc.country, loc.lat, loc.lng
  FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
 WHERE l.listing_visible AND l.listing_status = 'active' AND l.id > %(after)s
   AND (%(id)s::integer IS NULL OR l.id = %(id)s)
   AND (%(name_like)s::text IS NULL OR lower(l.name) LIKE %(name_like)s)
   AND (%(city)s::text IS NULL OR lower(loc.city) = lower(%(city)s))
   AND (%(category)s::text IS NULL OR lower(l.category) = lower(%(category)s))
   AND (%(min_lat)s::numeric IS NULL OR (loc.lat BETWEEN %(min_lat)s AND %(max_lat)s
                                         AND loc.lng BETWEEN %(min_lng)s AND %(max_lng)s))
   AND (%(since)s::timestamp IS NULL OR l.updated_at >= %(since)s
        OR EXISTS (SELECT 1 FROM public.listing_info li WHERE li.listing_id = l.id AND li.updated_at >= %(since)s))
 ORDER BY l.id
 LIMIT %(limit)s;

-- name: dmo_listings
-- A DMO's key: the listings query with the DMO's shown listings as a semi-join (its own query, not an
-- "IS NULL OR EXISTS" in the one above: a subquery under OR is never made a join, and the join on
-- listing_info_dmo_listing_visible_idx halves the time of a filter the DMO's listings rarely meet).
SELECT l.id, l.name, l.category, greatest(l.updated_at, (SELECT max(li.updated_at) FROM public.listing_info li
                                                          WHERE li.listing_id = l.id
                                                            AND li.dmo_id = %(dmo_id)s))
       AS updated_at,
       loc.address1, loc.address2, loc.city, loc.state, loc.zip, loc.country, loc.lat, loc.lng
  FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
 WHERE l.listing_visible AND l.listing_status = 'active' AND l.id > %(after)s
   AND EXISTS (SELECT 1 FROM public.listing_info s WHERE s.dmo_id = %(dmo_id)s AND s.listing_id = l.id AND s.info_visible)
   AND (%(id)s::integer IS NULL OR l.id = %(id)s)
   AND (%(name_like)s::text IS NULL OR lower(l.name) LIKE %(name_like)s)
   AND (%(city)s::text IS NULL OR lower(loc.city) = lower(%(city)s))
   AND (%(category)s::text IS NULL OR lower(l.category) = lower(%(category)s))
   AND (%(min_lat)s::numeric IS NULL OR (loc.lat BETWEEN %(min_lat)s AND %(max_lat)s
                                         AND loc.lng BETWEEN %(min_lng)s AND %(max_lng)s))
   AND (%(since)s::timestamp IS NULL OR l.updated_at >= %(since)s
        OR EXISTS (SELECT 1 FROM public.listing_info li WHERE li.listing_id = l.id AND li.updated_at >= %(since)s
                      AND li.dmo_id = %(dmo_id)s))
 ORDER BY l.id
 LIMIT %(limit)s;

-- name: records
SELECT li.listing_id, d.slug AS dmo, li.description,
       c.name AS contact_name, c.email, c.local_phone, c.international_phone, c.website_url, c.facebook_url,
       c.instagram_url, c.twitter_url, c.tripadvisor_url,
       -- the stored copies only (never a failed, duplicate or unprocessed image): id, size, variant names
       (SELECT coalesce(json_agg(json_build_object(
                   'id', im.id, 'width', im.width, 'height', im.height,
                   'variants', (SELECT coalesce(json_agg(v ORDER BY v), '[]')
                                  FROM jsonb_object_keys(coalesce(im.variants, '{}')) v)) ORDER BY im.rank, im.id), '[]')
          FROM public.listing_images im
         WHERE im.listing_info_id = li.id AND im.image_status = 'ok' AND im.canonical_url IS NOT NULL) AS images,
       (SELECT coalesce(json_agg(json_build_object('day', rd.name, 'open', h.open_time, 'close', h.close_time,
                                                   'from', od.start_date, 'to', od.end_date)
                                 ORDER BY od.id, h.day_id, h.open_time), '[]')
          FROM public.opening_dates od JOIN public.opening_hours h ON h.opening_date_id = od.id
          LEFT JOIN public.ref_days rd ON rd.id = h.day_id WHERE od.listing_info_id = li.id) AS hours
  FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
  LEFT JOIN public.contact_info c ON c.id = li.contact_info_id
 WHERE li.listing_id = ANY(%(ids)s) AND li.info_visible AND (%(dmo_id)s::integer IS NULL OR li.dmo_id = %(dmo_id)s)
 ORDER BY li.listing_id, d.slug;

-- name: image
-- A stored image the key may read: its record visible (of the key's DMO), its listing visible.
SELECT im.id, im.canonical_url, im.variants
  FROM public.listing_images im
  JOIN public.listing_info li ON li.id = im.listing_info_id AND li.info_visible
  JOIN public.listings l ON l.id = li.listing_id AND l.listing_visible AND l.listing_status = 'active'
 WHERE im.id = %(image)s AND im.image_status = 'ok' AND im.canonical_url IS NOT NULL
   AND (%(dmo_id)s::integer IS NULL OR li.dmo_id = %(dmo_id)s);

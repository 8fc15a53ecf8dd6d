-- Listings pages (routes/listings.py, listing_search.py): search by name (trigram or prefix index),
-- city (locations_city_idx) and DMO, paged by id; one listing with its DMO records; soft deletes.

-- name: search
SELECT l.id, l.name, l.category, l.listing_visible, l.listing_status, l.manually_modified, l.merged_into,
       loc.city, loc.state, l.updated_at,
       (SELECT string_agg(d.slug, ', ' ORDER BY d.slug) FROM public.listing_info li
          JOIN public.dmos d ON d.id = li.dmo_id WHERE li.listing_id = l.id) AS dmos
  FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
 WHERE l.id > %(after)s
   AND (%(name_like)s::text IS NULL OR lower(l.name) LIKE %(name_like)s)
   AND (%(city)s::text IS NULL OR lower(loc.city) = lower(%(city)s))
   AND (%(status)s::text IS NULL OR l.listing_status = %(status)s)
   AND (%(dmo)s::text IS NULL OR EXISTS (SELECT 1 FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                          WHERE li.listing_id = l.id AND d.slug = %(dmo)s))
   AND (%(dmos)s::text[] IS NULL OR EXISTS (SELECT 1 FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                             WHERE li.listing_id = l.id AND d.slug = ANY(%(dmos)s)))
 ORDER BY l.id
 LIMIT %(limit)s;

-- name: listing
SELECT l.*, loc.address1, loc.address2, loc.city, loc.state, loc.zip, loc.country, loc.lat, loc.lng,
       u.name AS modified_by_name
  FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
  LEFT JOIN pipeline.web_users u ON u.id = l.manually_modified_by
 WHERE l.id = %(listing)s;

-- name: records
-- The listing's DMO records with their contacts, images and hours (one row each, aggregated).
SELECT li.id, d.slug AS dmo, d.name AS dmo_name, li.external_source_id, li.description, li.info_visible,
       li.info_status, li.manually_modified, li.manually_modified_at, u.name AS modified_by_name,
       li.created_at, li.updated_at, li.last_seen_at, li.last_job_id,
       c.name AS contact_name, c.email, c.local_phone, c.international_phone, c.website_url, c.facebook_url,
       c.instagram_url, c.twitter_url, c.tripadvisor_url,
       (SELECT coalesce(json_agg(json_build_object('url', im.image, 'rank', im.rank) ORDER BY im.rank, im.id), '[]')
          FROM public.listing_images im WHERE im.listing_info_id = li.id) AS images,
       (SELECT coalesce(json_agg(json_build_object('day', rd.name, 'open', h.open_time, 'close', h.close_time,
                                                   'from', od.start_date, 'to', od.end_date)
                                 ORDER BY od.id, h.day_id, h.open_time), '[]')
          FROM public.opening_dates od JOIN public.opening_hours h ON h.opening_date_id = od.id
          LEFT JOIN public.ref_days rd ON rd.id = h.day_id
         WHERE od.listing_info_id = li.id) AS hours
  FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
  LEFT JOIN public.contact_info c ON c.id = li.contact_info_id
  LEFT JOIN pipeline.web_users u ON u.id = li.manually_modified_by
 WHERE li.listing_id = %(listing)s
 ORDER BY d.slug;

-- name: merged_here
SELECT id, name FROM public.listings WHERE merged_into = %(listing)s ORDER BY id;

-- name: soft_deleted
-- Soft-deleted DMO records, newest first (or the one %(info)s).
SELECT li.id AS info_id, li.listing_id, l.name, loc.city, d.slug AS dmo, li.info_status, li.updated_at,
       li.last_seen_at, l.listing_visible
  FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
  JOIN public.listings l ON l.id = li.listing_id
  LEFT JOIN public.locations loc ON loc.id = l.location_id
 WHERE NOT li.info_visible AND li.info_status = 'missing_from_import'
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(info)s::integer IS NULL OR li.id = %(info)s)
 ORDER BY li.updated_at DESC, li.id DESC
 LIMIT 500;

-- Listings pages (routes/listings.py; the search is search.sql's): one listing with its DMO records,
-- history and approved deletions; soft deletes; the clears of an edit (web/listing_edits.py).

-- name: listing
-- Named columns, not l.*: the search's folded name (name_search) is no field of a listing.
SELECT l.id, l.name, l.category, l.google_place_id, l.location_id, l.listing_match_hash, l.l_hash,
       l.location_hash, l.created_at, l.updated_at, l.manually_modified, l.manually_modified_at,
       l.manually_modified_by, l.listing_visible, l.listing_status, l.merged_into, loc.address1, loc.address2, loc.city, loc.state, loc.zip, loc.country, loc.lat, loc.lng,
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
       (SELECT coalesce(json_agg(json_build_object('id', im.id, 'url', im.image, 'rank', im.rank,
                                                   'thumb', im.variants ->> 'thumb') ORDER BY im.rank, im.id), '[]')
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

-- name: history
-- A listing's history: people's changes, each with the DMO of the record it changed (a record's
-- edit, visibility or restore; the staged row of a match by hand; none for the listing itself), and
-- each DMO record's first import and last sighting; only the DMOs of %(dmos)s (NULL: every DMO).
SELECT * FROM (
    SELECT c.changed_at AS at, c.change AS what, c.changed_by AS who, c.detail,
           coalesce(d.slug, c.detail ->> 'dmo', sd.slug) AS dmo
      FROM pipeline.listing_changes c
      LEFT JOIN public.listing_info li ON li.id = c.listing_info_id
      LEFT JOIN public.dmos d ON d.id = li.dmo_id
      LEFT JOIN staging.listings s ON s.id = CASE WHEN c.detail ->> 'staged_row' ~ '^[0-9]{1,18}$'
                                                  THEN (c.detail ->> 'staged_row')::bigint END
      LEFT JOIN public.dmos sd ON sd.id = s.dmo_id
     WHERE c.listing_id = %(listing)s
    UNION ALL
    SELECT li.created_at::timestamptz, 'imported', 'pipeline', NULL, d.slug
      FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id WHERE li.listing_id = %(listing)s
    UNION ALL
    SELECT li.last_seen_at::timestamptz, 'last seen in an import (job ' || li.last_job_id || ')', 'pipeline', NULL,
           d.slug
      FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
     WHERE li.listing_id = %(listing)s AND li.last_seen_at IS NOT NULL
) h
 WHERE %(dmos)s::text[] IS NULL OR h.dmo IS NULL OR h.dmo = ANY(%(dmos)s)
 ORDER BY h.at DESC NULLS LAST
 LIMIT 200;

-- name: approved_deletions
-- Deletions of the listing's DMO records approved (by a person, or needing no review) that wait
-- for the DMO's next promotion. Deletion rows have no rec_num (staging_listings_absent_idx).
SELECT s.id AS row_id, s.job_id, d.slug AS dmo, s.l_action, s.review_status, r.decided_by, r.decided_at
  FROM pipeline.jobs j
  JOIN staging.listings s ON s.job_id = j.id AND s.rec_num IS NULL
  JOIN public.dmos d ON d.id = s.dmo_id
  LEFT JOIN LATERAL (SELECT rd.decided_by, rd.decided_at FROM pipeline.review_decisions rd
                      WHERE rd.stage_row_id = s.id ORDER BY rd.id DESC LIMIT 1) r ON true
 WHERE j.dmo_id IN (SELECT dmo_id FROM public.listing_info WHERE listing_id = %(listing)s)
   AND j.stage NOT IN ('superseded', 'discarded')
   AND s.target_listing_id = %(listing)s AND s.action = 'delete' AND s.ok_to_promote AND s.promoted_at IS NULL
   AND (s.review_status IS NULL OR s.review_status = 'approved')
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 ORDER BY s.id;

-- name: image
-- One image of a DMO record, with its stored thumbnail (core/images.py variants) and the DMO.
SELECT im.id, im.variants ->> 'thumb' AS thumb, d.slug AS dmo
  FROM public.listing_images im JOIN public.listing_info li ON li.id = im.listing_info_id
  JOIN public.dmos d ON d.id = li.dmo_id
 WHERE im.id = %(image)s;

-- name: clear_listing
-- The fields of %(clear)s emptied (an edit's explicit clear; the name is never one of them).
UPDATE public.listings
   SET category = CASE WHEN 'category' = ANY(%(clear)s) THEN NULL ELSE category END,
       manually_modified = true, manually_modified_at = now(), manually_modified_by = %(user_id)s, updated_at = now()
 WHERE id = %(listing)s;
UPDATE public.locations loc
   SET address1 = CASE WHEN 'address1' = ANY(%(clear)s) THEN NULL ELSE loc.address1 END,
       city = CASE WHEN 'city' = ANY(%(clear)s) THEN NULL ELSE loc.city END,
       state = CASE WHEN 'state' = ANY(%(clear)s) THEN NULL ELSE loc.state END,
       zip = CASE WHEN 'zip' = ANY(%(clear)s) THEN NULL ELSE loc.zip END,
       lat = CASE WHEN 'lat' = ANY(%(clear)s) THEN NULL ELSE loc.lat END,
       lng = CASE WHEN 'lng' = ANY(%(clear)s) THEN NULL ELSE loc.lng END,
       updated_at = now()
  FROM public.listings l WHERE l.id = %(listing)s AND loc.id = l.location_id;

-- name: clear_record
UPDATE public.listing_info
   SET description = CASE WHEN 'description' = ANY(%(clear)s) THEN NULL ELSE description END,
       manually_modified = true, manually_modified_at = now(), manually_modified_by = %(user_id)s, updated_at = now()
 WHERE id = %(info)s;
UPDATE public.contact_info c
   SET email = CASE WHEN 'email' = ANY(%(clear)s) THEN NULL ELSE c.email END,
       local_phone = CASE WHEN 'local_phone' = ANY(%(clear)s) THEN NULL ELSE c.local_phone END,
       international_phone = CASE WHEN 'international_phone' = ANY(%(clear)s) THEN NULL ELSE c.international_phone END,
       website_url = CASE WHEN 'website_url' = ANY(%(clear)s) THEN NULL ELSE c.website_url END,
       updated_at = now()
  FROM public.listing_info li WHERE li.id = %(info)s AND c.id = li.contact_info_id;

-- name: set_international_phone
-- The E.164 form of a record's phone, computed with the number it was edited to.
UPDATE public.contact_info c SET international_phone = %(international_phone)s, updated_at = now()
  FROM public.listing_info li WHERE li.id = %(info)s AND c.id = li.contact_info_id;

-- name: log_clear
INSERT INTO pipeline.listing_changes (listing_id, listing_info_id, change, detail, changed_by)
VALUES (%(listing)s, %(info)s, 'edit', %(detail)s, %(by)s);

-- name: versions
-- Each version of the listing's DMO records that an import applied (a promoted staged row, with
-- its job), oldest first: the record's staged rows are found by its source ids (the one it was
-- created with, and those the bridge maps to it) through staging_listings_source_idx (sql/0055).
-- Thin rows (unchanged records) are never applied, so never a version (and not in that index).
-- Only the DMOs of %(dmos)s.
WITH records AS (
    SELECT li.id, li.dmo_id, d.slug, li.external_source_id
      FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
     WHERE li.listing_id = %(listing)s AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))),
sources AS (
    SELECT r.id AS info_id, r.dmo_id, r.slug, r.external_source_id AS source_id
      FROM records r WHERE r.external_source_id IS NOT NULL
    UNION
    SELECT r.id, r.dmo_id, r.slug, b.source_id
      FROM records r JOIN pipeline.bridge_source_target b
        ON b.target_type = 'listing_info' AND b.target_id = r.id AND b.dmo_id = r.dmo_id),
applied AS (
    SELECT s.*, src.slug AS dmo
      FROM sources src JOIN staging.listings s ON s.source_id = src.source_id AND s.dmo_id = src.dmo_id
     WHERE s.promoted_at IS NOT NULL AND s.row_kind <> 'thin' AND s.target_listing_info_id = src.info_id
     ORDER BY s.promoted_at DESC, s.id DESC
     LIMIT 500)
SELECT a.target_listing_info_id AS info_id, a.dmo, a.job_id, a.promoted_at::timestamptz AS at, a.action,
       j.source_name AS job_source, j.created_at::timestamptz AS job_created,
       jsonb_build_object('name', a.name, 'category', a.category, 'google_place_id', a.google_place_id,
                          'address1', a.address1, 'address2', a.address2, 'city', a.city, 'state', a.state,
                          'zip', a.zip, 'country', a.country, 'lat', a.lat, 'lng', a.lng)
       || jsonb_build_object('description', i.description, 'contact_name', i.contact_name, 'email', i.email,
                             'local_phone', i.local_phone, 'international_phone', i.international_phone,
                             'website_url', i.website_url, 'facebook_url', i.facebook_url,
                             'instagram_url', i.instagram_url, 'twitter_url', i.twitter_url,
                             'tripadvisor_url', i.tripadvisor_url, 'images', i.images, 'hours', i.hours,
                             'start_date', i.start_date, 'end_date', i.end_date) AS fields
  FROM applied a JOIN pipeline.jobs j ON j.id = a.job_id
  LEFT JOIN staging.listing_info i ON i.id = a.id
 ORDER BY a.promoted_at, a.id;

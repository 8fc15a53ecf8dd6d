-- The review queue (routes/review.py): pending staged rows beside what they would change, filtered
-- by DMO, action and reason, paged by id (staging_listings_pending_id_idx), limited to the user's DMOs.

-- name: queue
SELECT s.id, d.slug AS dmo, s.job_id, s.action, s.row_kind, s.review_reason, s.certainty_score, s.match_method,
       s.match_explanation, s.target_listing_id, s.target_listing_info_id, s.duplicate_of, s.created_at,
       s.name, s.category, s.address1, s.city, s.state, s.zip, s.lat, s.lng,
       i.description, i.email, i.local_phone, i.website_url,
       l.name AS live_name, l.category AS live_category, l.manually_modified AS live_manual,
       loc.address1 AS live_address1, loc.city AS live_city, loc.state AS live_state, loc.zip AS live_zip,
       loc.lat AS live_lat, loc.lng AS live_lng,
       li.description AS live_description, c.email AS live_email, c.local_phone AS live_local_phone,
       c.website_url AS live_website_url,
       p.name AS dup_name, p.category AS dup_category, p.address1 AS dup_address1, p.city AS dup_city,
       p.state AS dup_state, p.zip AS dup_zip, p.lat AS dup_lat, p.lng AS dup_lng,
       pi.description AS dup_description, pi.email AS dup_email, pi.local_phone AS dup_local_phone,
       pi.website_url AS dup_website_url
  FROM staging.listings s
  JOIN public.dmos d ON d.id = s.dmo_id
  LEFT JOIN staging.listing_info i ON i.id = s.id
  LEFT JOIN public.listings l ON l.id = s.target_listing_id
  LEFT JOIN public.locations loc ON loc.id = l.location_id
  LEFT JOIN public.listing_info li ON li.id = s.target_listing_info_id
  LEFT JOIN public.contact_info c ON c.id = li.contact_info_id
  -- the row duplicated may be thin (an unchanged record): its data is in the row it reuses
  LEFT JOIN staging.listings p0 ON p0.id = s.duplicate_of
  LEFT JOIN staging.listings p ON p.id = coalesce(p0.reused_from, p0.id)
  LEFT JOIN staging.listing_info pi ON pi.id = p.id
 WHERE s.review_status = 'pending' AND s.id > %(after)s
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(action)s::text IS NULL OR s.action = %(action)s)
   AND (%(reason)s::text IS NULL OR s.review_reason LIKE %(reason)s)
   AND (%(job)s::bigint IS NULL OR s.job_id = %(job)s)
 ORDER BY s.id
 LIMIT %(limit)s;

-- name: queue_ids
SELECT s.id FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_status = 'pending'
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(action)s::text IS NULL OR s.action = %(action)s)
   AND (%(reason)s::text IS NULL OR s.review_reason LIKE %(reason)s)
   AND (%(job)s::bigint IS NULL OR s.job_id = %(job)s)
 ORDER BY s.id;

-- name: facets
SELECT d.slug AS dmo, s.action, count(*) AS n
  FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_status = 'pending' AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 GROUP BY d.slug, s.action ORDER BY d.slug, s.action;

-- name: row_dmos
-- The DMO of each staged row among %(ids)s (to check the user may decide them).
SELECT s.id, d.slug FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id WHERE s.id = ANY(%(ids)s);

-- name: decided
SELECT r.stage_row_id AS id, r.decision, r.decided_by, r.decided_at, r.action, d.slug AS dmo, s.name
  FROM pipeline.review_decisions r JOIN public.dmos d ON d.id = r.dmo_id
  LEFT JOIN staging.listings s ON s.id = r.stage_row_id
 WHERE r.stage_row_id = ANY(%(ids)s)
 ORDER BY r.id DESC;

-- name: recent_decisions
SELECT r.stage_row_id AS id, r.decision, r.decided_by, r.decided_at, r.action, d.slug AS dmo, s.name
  FROM pipeline.review_decisions r JOIN public.dmos d ON d.id = r.dmo_id
  LEFT JOIN staging.listings s ON s.id = r.stage_row_id
 WHERE (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 ORDER BY r.id DESC LIMIT 20;

-- name: approved_waiting
-- Per DMO: decided rows promotion has not applied yet (what "Promote" would apply).
SELECT d.slug AS dmo, count(*) AS n
  FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_status IN ('approved', 'rejected') AND s.ok_to_promote AND s.promoted_at IS NULL
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 GROUP BY d.slug ORDER BY d.slug;

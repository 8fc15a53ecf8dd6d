-- The review queue (routes/review.py): pending staged rows beside what they would change, filtered
-- by DMO, action and reason, paged by id (staging_listings_pending_id_idx), limited to the user's DMOs.
-- And every review figure of the app (queue, header, jobs, health): review_counts and review_per_day.

-- name: queue
SELECT s.id, d.slug AS dmo, s.job_id, s.action, s.l_action, s.li_action, s.row_kind, s.review_reason,
       s.certainty_score, s.match_method, s.match_explanation, s.target_listing_id, s.target_listing_info_id,
       s.duplicate_of, s.created_at, s.ok_to_promote,
       s.name, s.category, s.address1, s.city, s.state, s.zip, s.lat, s.lng,
       i.description, i.email, i.local_phone, i.website_url,
       l.name AS live_name, l.category AS live_category, l.manually_modified AS live_manual,
       li.manually_modified AS live_info_manual,
       loc.address1 AS live_address1, loc.city AS live_city, loc.state AS live_state, loc.zip AS live_zip,
       loc.lat AS live_lat, loc.lng AS live_lng,
       li.description AS live_description, c.email AS live_email, c.local_phone AS live_local_phone,
       c.website_url AS live_website_url,
       p.name AS dup_name, p.category AS dup_category, p.address1 AS dup_address1, p.city AS dup_city,
       p.state AS dup_state, p.zip AS dup_zip, p.lat AS dup_lat, p.lng AS dup_lng,
       pi.description AS dup_description, pi.email AS dup_email, pi.local_phone AS dup_local_phone,
       pi.website_url AS dup_website_url,
       -- the fields people edited by hand on the live listing and this DMO's record of it
       CASE WHEN l.manually_modified OR li.manually_modified THEN
            (SELECT array_agg(DISTINCT k.key) FROM pipeline.listing_changes ch,
                    jsonb_object_keys(CASE WHEN jsonb_typeof(ch.detail) = 'object' THEN ch.detail ELSE '{}' END) k(key)
              WHERE ch.listing_id = s.target_listing_id AND ch.change = 'edit'
                AND (ch.listing_info_id IS NULL OR ch.listing_info_id = s.target_listing_info_id)) END AS hand_edited
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
   AND (%(only)s::bigint[] IS NULL OR s.id = ANY(%(only)s))
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(action)s::text IS NULL OR s.action = %(action)s)
   AND (%(reason)s::text IS NULL OR s.review_reason LIKE %(reason)s)
   AND (%(job)s::bigint IS NULL OR s.job_id = %(job)s)
 ORDER BY s.id
 LIMIT %(limit)s;

-- name: queue_ids
-- The pending rows the filters select, up to row %(upto)s (a bulk decision takes those it confirmed).
SELECT s.id FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_status = 'pending' AND s.id <= %(upto)s
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(action)s::text IS NULL OR s.action = %(action)s)
   AND (%(reason)s::text IS NULL OR s.review_reason LIKE %(reason)s)
   AND (%(job)s::bigint IS NULL OR s.job_id = %(job)s)
 ORDER BY s.id;

-- name: queue_count
-- How many pending rows the filters select (queue_ids without a bound).
SELECT count(*) AS n FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_status = 'pending'
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(action)s::text IS NULL OR s.action = %(action)s)
   AND (%(reason)s::text IS NULL OR s.review_reason LIKE %(reason)s)
   AND (%(job)s::bigint IS NULL OR s.job_id = %(job)s);

-- name: facets
SELECT d.slug AS dmo, s.action, count(*) AS n
  FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_status = 'pending' AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 GROUP BY d.slug, s.action ORDER BY d.slug, s.action;

-- name: row_dmos
-- The DMO of each staged row among %(ids)s (to check the user may decide them).
SELECT s.id, d.slug FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id WHERE s.id = ANY(%(ids)s);

-- name: decisions
-- Decisions, newest first (of rows %(ids)s, or the latest of the user's DMOs), with the row as the
-- decision left it and whether undo can still take the decision back.
SELECT r.id AS decision_id, r.stage_row_id AS id, r.decision, r.decided_by, r.decided_at, r.kept_fields,
       r.undone_by, r.undone_at, d.slug AS dmo, s.name, s.action, s.l_action, s.li_action, s.target_listing_id,
       s.duplicate_of, s.match_method, s.review_reason, s.ok_to_promote, s.review_status, s.promoted_at,
       r.undone_at IS NULL AND r.before IS NOT NULL AND s.promoted_at IS NULL
         AND s.review_status IN ('approved', 'rejected')
         AND r.id = (SELECT max(o.id) FROM pipeline.review_decisions o
                      WHERE o.stage_row_id = r.stage_row_id AND o.undone_at IS NULL) AS undoable
  FROM pipeline.review_decisions r JOIN public.dmos d ON d.id = r.dmo_id
  LEFT JOIN staging.listings s ON s.id = r.stage_row_id
 WHERE (%(ids)s::bigint[] IS NULL OR r.stage_row_id = ANY(%(ids)s))
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 ORDER BY r.id DESC LIMIT %(limit)s;

-- name: approved_waiting
-- Per DMO: decided rows promotion has not applied yet (what "Promote" would apply).
SELECT d.slug AS dmo, count(*) AS n
  FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_status IN ('approved', 'rejected') AND s.ok_to_promote AND s.promoted_at IS NULL
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 GROUP BY d.slug ORDER BY d.slug;

-- name: review_counts
-- The rows sent to review (a review reason), per DMO and job: waiting (pending), decided (approved or
-- rejected by a person) and superseded (a later import came before a decision was applied); sent is
-- their sum. staging_listings_reviewed_idx answers it without reading the table.
SELECT d.slug AS dmo, s.job_id,
       count(*) FILTER (WHERE s.review_status = 'pending') AS waiting,
       count(*) FILTER (WHERE s.review_status IN ('approved', 'rejected')) AS decided,
       count(*) FILTER (WHERE s.review_status = 'superseded') AS superseded
  FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_reason IS NOT NULL AND s.review_status IN ('pending', 'approved', 'rejected', 'superseded')
   AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(jobs)s::bigint[] IS NULL OR s.job_id = ANY(%(jobs)s))
 GROUP BY d.slug, s.job_id ORDER BY d.slug, s.job_id;

-- name: review_per_day
-- The same rows over the last 30 days: sent per day (the day they were staged) and decided per day
-- (the day of the decision that stands).
SELECT day, sum(sent)::int AS sent, sum(decided)::int AS decided FROM (
    SELECT date_trunc('day', s.created_at)::date AS day, count(*) AS sent, 0 AS decided
      FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
     WHERE s.review_reason IS NOT NULL AND s.review_status IN ('pending', 'approved', 'rejected', 'superseded')
       AND s.created_at > now() - interval '30 days' AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
     GROUP BY 1
    UNION ALL
    SELECT date_trunc('day', r.decided_at)::date, 0, count(*)
      FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
      JOIN LATERAL (SELECT r.decided_at FROM pipeline.review_decisions r
                     WHERE r.stage_row_id = s.id AND r.undone_at IS NULL ORDER BY r.id DESC LIMIT 1) r ON true
     WHERE s.review_reason IS NOT NULL AND s.review_status IN ('approved', 'rejected')
       AND r.decided_at > now() - interval '30 days' AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
     GROUP BY 1) t
 GROUP BY day ORDER BY day;

-- name: meeting_hand_edits
-- How many of the rows %(ids)s would change what a person edited by hand (a bulk approval takes the
-- DMO's values there; one by one, the person chooses per field).
SELECT count(*) AS n FROM staging.listings s
  LEFT JOIN public.listings l ON l.id = s.target_listing_id
  LEFT JOIN public.listing_info li ON li.id = s.target_listing_info_id
 WHERE s.id = ANY(%(ids)s)
   AND ((s.l_action = 'update' AND l.manually_modified) OR (s.li_action = 'update' AND li.manually_modified));

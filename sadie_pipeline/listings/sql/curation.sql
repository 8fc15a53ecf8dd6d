-- What people change by hand on canonical listings (curation.py): edits (manually_modified, who and
-- when), visibility, merges and unmerges, restores of soft deletes, and staged rows matched by hand.
-- Every change is logged in pipeline.listing_changes.

-- name: listing
SELECT l.id, l.name, l.category, l.listing_visible, l.listing_status, l.merged_into, l.location_id,
       loc.address1, loc.city, loc.state, loc.zip, loc.lat, loc.lng
  FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
 WHERE l.id = %(listing)s FOR UPDATE OF l;

-- name: edit_listing
UPDATE public.listings
   SET name = %(name)s, category = %(category)s, manually_modified = true, manually_modified_at = now(),
       manually_modified_by = %(user_id)s, updated_at = now()
 WHERE id = %(listing)s;

-- name: ensure_location
-- A listing without a location gets one before its address is edited.
WITH made AS (
    INSERT INTO public.locations (address1) SELECT NULL
     WHERE EXISTS (SELECT 1 FROM public.listings WHERE id = %(listing)s AND location_id IS NULL)
    RETURNING id)
UPDATE public.listings l SET location_id = made.id FROM made WHERE l.id = %(listing)s;

-- name: edit_location
UPDATE public.locations loc
   SET address1 = %(address1)s, city = %(city)s, state = %(state)s, zip = %(zip)s, lat = %(lat)s, lng = %(lng)s,
       updated_at = now()
  FROM public.listings l WHERE l.id = %(listing)s AND loc.id = l.location_id;

-- name: info
SELECT li.id, li.description, c.email, c.local_phone, c.website_url, d.slug AS dmo
  FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
  LEFT JOIN public.contact_info c ON c.id = li.contact_info_id
 WHERE li.id = %(info)s AND li.listing_id = %(listing)s FOR UPDATE OF li;

-- name: edit_info
UPDATE public.listing_info
   SET description = %(description)s, manually_modified = true, manually_modified_at = now(),
       manually_modified_by = %(user_id)s, updated_at = now()
 WHERE id = %(info)s;
WITH made AS (
    INSERT INTO public.contact_info (email) SELECT NULL
     WHERE EXISTS (SELECT 1 FROM public.listing_info WHERE id = %(info)s AND contact_info_id IS NULL)
    RETURNING id)
UPDATE public.listing_info li SET contact_info_id = made.id FROM made WHERE li.id = %(info)s;
UPDATE public.contact_info c
   SET email = %(email)s, local_phone = %(local_phone)s, website_url = %(website_url)s, updated_at = now()
  FROM public.listing_info li WHERE li.id = %(info)s AND c.id = li.contact_info_id;

-- name: set_listing_visibility
-- Hiding is a hand edit: a later import that would show the listing again waits for review.
UPDATE public.listings
   SET listing_visible = %(visible)s,
       listing_status = CASE WHEN %(visible)s THEN 'active' ELSE 'hidden' END,
       manually_modified = true, manually_modified_at = now(), manually_modified_by = %(user_id)s, updated_at = now()
 WHERE id = %(listing)s AND listing_status <> 'merged' AND listing_visible <> %(visible)s
RETURNING id;

-- name: set_info_visibility
UPDATE public.listing_info
   SET info_visible = %(visible)s, info_status = CASE WHEN %(visible)s THEN 'active' ELSE 'hidden' END,
       manually_modified = true, manually_modified_at = now(), manually_modified_by = %(user_id)s, updated_at = now()
 WHERE id = %(info)s AND listing_id = %(listing)s AND info_visible <> %(visible)s
RETURNING id;

-- name: restore
-- A soft-deleted DMO record shown again, and its listing with it.
UPDATE public.listing_info
   SET info_visible = true, info_status = 'active', updated_at = now()
 WHERE id = %(info)s AND NOT info_visible AND info_status = 'missing_from_import'
RETURNING listing_id;

-- name: restore_listing
UPDATE public.listings
   SET listing_visible = true, listing_status = 'active', updated_at = now()
 WHERE id = %(listing)s AND NOT listing_visible AND listing_status = 'missing_from_import';

-- name: merge
-- The merged listing's DMO records move to the surviving listing, except those of a DMO the
-- survivor already has (one listing_info per listing and DMO); its bridge rows point at the
-- survivor, so the next imports match there. What moved is kept for unmerge.
WITH moved AS (
    UPDATE public.listing_info li SET listing_id = %(into)s, updated_at = now()
     WHERE li.listing_id = %(listing)s
       AND NOT EXISTS (SELECT 1 FROM public.listing_info o WHERE o.listing_id = %(into)s AND o.dmo_id = li.dmo_id)
    RETURNING li.id),
bridged AS (
    UPDATE pipeline.bridge_source_target b SET target_id = %(into)s, updated_at = now()
     WHERE b.target_type = 'listing' AND b.target_id = %(listing)s
    RETURNING b.id)
INSERT INTO pipeline.listing_merges (listing_id, into_listing_id, status_before, visible_before, moved_info_ids,
                                     moved_bridge_ids, merged_by)
SELECT l.id, %(into)s, l.listing_status, l.listing_visible,
       coalesce((SELECT array_agg(id ORDER BY id) FROM moved), '{}'),
       coalesce((SELECT array_agg(id ORDER BY id) FROM bridged), '{}'), %(by)s
  FROM public.listings l WHERE l.id = %(listing)s
RETURNING id, moved_info_ids, moved_bridge_ids;

-- name: mark_merged
UPDATE public.listings
   SET listing_status = 'merged', listing_visible = false, merged_into = %(into)s, updated_at = now()
 WHERE id = %(listing)s;

-- name: open_merge
SELECT id, into_listing_id, status_before, visible_before, moved_info_ids, moved_bridge_ids
  FROM pipeline.listing_merges WHERE listing_id = %(listing)s AND undone_at IS NULL
 ORDER BY id DESC LIMIT 1 FOR UPDATE;

-- name: unmerge
UPDATE public.listing_info SET listing_id = %(listing)s, updated_at = now()
 WHERE id = ANY(%(infos)s) AND listing_id = %(into)s;
UPDATE pipeline.bridge_source_target SET target_id = %(listing)s, updated_at = now()
 WHERE id = ANY(%(bridges)s) AND target_type = 'listing' AND target_id = %(into)s;
UPDATE public.listings
   SET listing_status = %(status)s, listing_visible = %(visible)s, merged_into = NULL, updated_at = now()
 WHERE id = %(listing)s;
UPDATE pipeline.listing_merges SET undone_by = %(by)s, undone_at = now() WHERE id = %(merge)s;

-- name: force_match
-- A pending staged record matched by hand to a listing (not merged): it becomes this DMO's record
-- of that listing (updating the DMO's record there, or adding one) and is approved.
WITH t AS (
    SELECT s.id, l.id AS listing_id,
           (SELECT li.id FROM public.listing_info li WHERE li.listing_id = l.id AND li.dmo_id = s.dmo_id) AS info_id
      FROM staging.listings s JOIN public.listings l ON l.id = %(listing)s AND l.listing_status <> 'merged'
     WHERE s.id = %(row)s AND s.review_status = 'pending' AND s.row_kind <> 'deletion')
UPDATE staging.listings s
   SET target_listing_id = t.listing_id, target_listing_info_id = t.info_id, match_method = 'manual',
       certainty_score = 1, duplicate_of = NULL,
       l_action = CASE WHEN t.info_id IS NULL THEN 'unchanged' ELSE 'update' END,
       li_action = CASE WHEN t.info_id IS NULL THEN 'insert' ELSE 'update' END,
       action = CASE WHEN t.info_id IS NULL THEN 'insert' ELSE 'update' END,
       review_status = 'approved', ok_to_promote = true,
       review_reason = coalesce(s.review_reason || '; ', '') || 'matched by hand to listing ' || t.listing_id
  FROM t WHERE s.id = t.id
RETURNING s.id;

-- name: log_decision
INSERT INTO pipeline.review_decisions (stage_row_id, job_id, dmo_id, action, decision, decided_by)
SELECT id, job_id, dmo_id, coalesce(action, ''), %(decision)s, %(by)s FROM staging.listings WHERE id = %(row)s;

-- name: log
INSERT INTO pipeline.listing_changes (listing_id, listing_info_id, change, detail, changed_by)
VALUES (%(listing)s, %(info)s, %(change)s, %(detail)s, %(by)s);

-- name: history
-- A listing's history: people's changes, and each DMO record's first import, last change and last
-- sighting (staged rows are archived by retention, so the history keeps to these tables).
SELECT changed_at AS at, change AS what, changed_by AS who, detail, NULL::text AS dmo
  FROM pipeline.listing_changes WHERE listing_id = %(listing)s
UNION ALL
SELECT li.created_at::timestamptz, 'imported', 'pipeline', NULL, d.slug
  FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id WHERE li.listing_id = %(listing)s
UNION ALL
SELECT li.last_seen_at::timestamptz, 'last seen in an import (job ' || li.last_job_id || ')', 'pipeline', NULL, d.slug
  FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
 WHERE li.listing_id = %(listing)s AND li.last_seen_at IS NOT NULL
ORDER BY 1 DESC NULLS LAST
LIMIT 200;

-- name: archive
-- Archived: hidden for every DMO; migration 0048's trigger keeps it so against imports and restores.
UPDATE public.listings SET listing_status = 'archived', listing_visible = false, updated_at = now()
 WHERE id = %(listing)s AND listing_status NOT IN ('archived', 'merged')
RETURNING id;

-- name: archived_from
-- The status and visibility the listing had when it was last archived.
SELECT detail ->> 'status_before' AS status_before, (detail ->> 'visible_before')::boolean AS visible_before
  FROM pipeline.listing_changes
 WHERE listing_id = %(listing)s AND change = 'archive' AND detail ->> 'status_before' <> 'archived'
 ORDER BY id DESC LIMIT 1;

-- name: unarchive
-- The one write the trigger lets take a listing out of 'archived' (sadie.unarchive, this transaction only).
SELECT set_config('sadie.unarchive', 'on', true);
UPDATE public.listings SET listing_status = %(status)s, listing_visible = %(visible)s, updated_at = now()
 WHERE id = %(listing)s AND listing_status = 'archived';
SELECT set_config('sadie.unarchive', 'off', true);

-- Review decisions on staged rows (review.py). Only pending rows can be decided.

-- name: pending
SELECT s.id, d.slug AS dmo, s.job_id, s.action, s.name, s.city, s.target_listing_id, s.certainty_score,
       s.review_reason, s.match_explanation
  FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
 WHERE s.review_status = 'pending' AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
 ORDER BY s.id;

-- name: why_undecided
SELECT id, CASE WHEN promoted_at IS NOT NULL THEN 'already promoted'
                WHEN review_status = 'superseded' THEN 'superseded by a later import'
                WHEN review_status IN ('approved', 'rejected') THEN 'already ' || review_status
                WHEN review_status = 'pending' THEN NULL
                ELSE 'not waiting for review' END
  FROM staging.listings WHERE id = ANY(%(ids)s);

-- name: approve
UPDATE staging.listings SET review_status = 'approved', ok_to_promote = true
 WHERE id = ANY(%(ids)s) AND review_status = 'pending' RETURNING id;

-- name: pending_of_dmo
SELECT id FROM staging.listings WHERE dmo_id = %(dmo)s AND review_status = 'pending';

-- name: reject_as_new
-- Rejecting a fuzzy pairing (an unsure match or a near duplicate) makes the record a new listing.
UPDATE staging.listings
   SET review_status = 'rejected', ok_to_promote = true, target_listing_id = NULL, duplicate_of = NULL,
       target_listing_info_id = NULL, action = 'insert', l_action = 'insert', li_action = 'insert'
 WHERE id = ANY(%(ids)s) AND review_status = 'pending' AND match_method = 'fuzzy'
   AND (action = 'duplicate' OR review_reason LIKE 'fuzzy match%%') RETURNING id;

-- name: reject
-- Rejecting anything else drops the proposed change.
UPDATE staging.listings SET review_status = 'rejected', ok_to_promote = false
 WHERE id = ANY(%(ids)s) AND review_status = 'pending' RETURNING id;

-- name: log
INSERT INTO pipeline.review_decisions (stage_row_id, job_id, dmo_id, action, decision, decided_by)
SELECT id, job_id, dmo_id, coalesce(action, ''), %(decision)s, %(by)s FROM staging.listings WHERE id = ANY(%(ids)s);

-- Review decisions on staged rows (review.py). Only pending rows can be decided; each decision is
-- logged with the row as it was (staging.review_before), so that undo can put it back until
-- promotion applies it. Every statement finds its rows by id (%(ids)s): a bulk decision stays linear.

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
-- Approved rows may be promoted. %(keep)s ({"row id": [field, ...]}) names the fields whose live value
-- promotion keeps; keep_fields is never NULL once approved (a blank staged field keeps its live value).
-- `o` is the row as it was (the statement's snapshot), which the decision remembers for undo.
WITH done AS (
    UPDATE staging.listings s
       SET review_status = 'approved', ok_to_promote = true,
           keep_fields = ARRAY(SELECT jsonb_array_elements_text(coalesce(%(keep)s::jsonb -> s.id::text, '[]')))
      FROM staging.listings o
     WHERE o.id = s.id AND o.id = ANY(%(ids)s) AND s.id = ANY(%(ids)s) AND s.review_status = 'pending'
    RETURNING s.id, s.job_id, s.dmo_id, s.action, s.keep_fields, staging.review_before(o) AS before)
INSERT INTO pipeline.review_decisions (stage_row_id, job_id, dmo_id, action, decision, decided_by, before, kept_fields)
SELECT id, job_id, dmo_id, coalesce(action, ''), 'approved', %(by)s, before, keep_fields FROM done
RETURNING stage_row_id;

-- name: pending_of_dmo
SELECT id FROM staging.listings WHERE dmo_id = %(dmo)s AND review_status = 'pending';

-- name: reject_as_new
-- Rejecting a fuzzy pairing (an unsure match or a near duplicate) makes the record a new listing.
WITH done AS (
    UPDATE staging.listings s
       SET review_status = 'rejected', ok_to_promote = true, target_listing_id = NULL, duplicate_of = NULL,
           target_listing_info_id = NULL, action = 'insert', l_action = 'insert', li_action = 'insert'
      FROM staging.listings o
     WHERE o.id = s.id AND o.id = ANY(%(ids)s) AND s.id = ANY(%(ids)s) AND s.review_status = 'pending'
       AND s.match_method = 'fuzzy' AND (s.action = 'duplicate' OR s.review_reason LIKE 'fuzzy match%%')
    RETURNING s.id, s.job_id, s.dmo_id, s.action, staging.review_before(o) AS before)
INSERT INTO pipeline.review_decisions (stage_row_id, job_id, dmo_id, action, decision, decided_by, before)
SELECT id, job_id, dmo_id, coalesce(action, ''), 'rejected', %(by)s, before FROM done
RETURNING stage_row_id;

-- name: reject
-- Rejecting anything else drops the proposed change.
WITH done AS (
    UPDATE staging.listings s SET review_status = 'rejected', ok_to_promote = false
      FROM staging.listings o
     WHERE o.id = s.id AND o.id = ANY(%(ids)s) AND s.id = ANY(%(ids)s) AND s.review_status = 'pending'
    RETURNING s.id, s.job_id, s.dmo_id, s.action, staging.review_before(o) AS before)
INSERT INTO pipeline.review_decisions (stage_row_id, job_id, dmo_id, action, decision, decided_by, before)
SELECT id, job_id, dmo_id, coalesce(action, ''), 'rejected', %(by)s, before FROM done
RETURNING stage_row_id;

-- name: before
-- The pending row as it is, before a decision made elsewhere (a match by hand, curation.py).
SELECT staging.review_before(s) FROM staging.listings s WHERE s.id = %(row)s AND s.review_status = 'pending';

-- name: remember_before
-- The latest decision on the row learns what the row was before it; approved, the row keeps the
-- live value of the fields it leaves blank, as every approval does.
UPDATE pipeline.review_decisions SET before = %(before)s
 WHERE id = (SELECT max(id) FROM pipeline.review_decisions WHERE stage_row_id = %(row)s);
UPDATE staging.listings SET keep_fields = '{}' WHERE id = %(row)s AND review_status = 'approved';

-- name: undo
-- Each row's latest decision taken back, while promotion has not applied it: the row is pending again
-- with the match, actions and reason it had before, and the decision is marked undone.
WITH back AS (
    UPDATE staging.listings s
       SET review_status = 'pending', ok_to_promote = false, keep_fields = NULL,
           target_listing_id = b.target_listing_id, target_listing_info_id = b.target_listing_info_id,
           duplicate_of = b.duplicate_of, match_method = b.match_method, certainty_score = b.certainty_score,
           action = b.action, l_action = b.l_action, li_action = b.li_action, review_reason = b.review_reason
      FROM pipeline.review_decisions r CROSS JOIN LATERAL jsonb_populate_record(NULL::staging.listings, r.before) b
     WHERE s.id = ANY(%(ids)s) AND s.promoted_at IS NULL AND s.review_status IN ('approved', 'rejected')
       AND r.stage_row_id = ANY(%(ids)s) AND r.stage_row_id = s.id AND r.before IS NOT NULL
       AND r.id = (SELECT max(o.id) FROM pipeline.review_decisions o WHERE o.stage_row_id = s.id AND o.undone_at IS NULL)
    RETURNING s.id, r.id AS decision_id)
UPDATE pipeline.review_decisions r SET undone_at = now(), undone_by = %(by)s
  FROM back WHERE r.id = back.decision_id AND r.stage_row_id = ANY(%(ids)s)
RETURNING r.stage_row_id;

-- name: why_not_undone
SELECT s.id, CASE WHEN s.promoted_at IS NOT NULL
                       THEN 'already promoted on ' || to_char(s.promoted_at, 'YYYY-MM-DD HH24:MI') || ' UTC'
                  WHEN s.review_status = 'superseded' THEN 'superseded by a later import'
                  WHEN s.review_status = 'pending' THEN 'not decided: it is waiting for review'
                  WHEN r.id IS NULL THEN 'no decision to undo'
                  WHEN r.before IS NULL THEN 'decided before decisions could be undone'
                  ELSE 'not decided' END
  FROM staging.listings s
  LEFT JOIN LATERAL (SELECT r.id, r.before FROM pipeline.review_decisions r
                      WHERE r.stage_row_id = s.id AND r.undone_at IS NULL ORDER BY r.id DESC LIMIT 1) r ON true
 WHERE s.id = ANY(%(ids)s);

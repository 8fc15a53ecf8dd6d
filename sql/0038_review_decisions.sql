-- Review decisions a person can trust (issue 30): a decision remembers the staged row's match and
-- actions as they were, so that it can be undone until promotion applies it; a change that meets a
-- hand edit is approved field by field (keep_fields: the fields whose live value promotion keeps);
-- the review figures of every page are counted from one index.
-- depends: 0037_dmo_match_models

ALTER TABLE pipeline.review_decisions
    ADD COLUMN IF NOT EXISTS before      jsonb,    -- the row's match, actions and reason before the decision
    ADD COLUMN IF NOT EXISTS kept_fields text[],   -- approved keeping these live values (a hand edit's)
    ADD COLUMN IF NOT EXISTS undone_by   text,
    ADD COLUMN IF NOT EXISTS undone_at   timestamp;

-- NULL: never approved by a person (promotion follows the merge policy). Once approved: the fields
-- kept, and a field the staged row leaves blank keeps its live value too (a blank proposes nothing).
ALTER TABLE staging.listings ADD COLUMN IF NOT EXISTS keep_fields text[];

-- What undo puts back: the columns a decision (approve, reject, reject as new, match by hand) changes.
CREATE OR REPLACE FUNCTION staging.review_before(s staging.listings) RETURNS jsonb
LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
        'target_listing_id', s.target_listing_id, 'target_listing_info_id', s.target_listing_info_id,
        'duplicate_of', s.duplicate_of, 'match_method', s.match_method, 'certainty_score', s.certainty_score,
        'action', s.action, 'l_action', s.l_action, 'li_action', s.li_action, 'review_reason', s.review_reason)
$$;

-- Whether promotion keeps the live value of `field`: the person chose to, or the row was approved by
-- a person and leaves the field blank.
CREATE OR REPLACE FUNCTION staging.keeps_live(keep text[], field text, staged_blank boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
    SELECT keep IS NOT NULL AND (field = ANY(keep) OR staged_blank)
$$;

-- The rows sent to review (a reason given), by DMO and job: every review figure counts these.
CREATE INDEX IF NOT EXISTS staging_listings_reviewed_idx
    ON staging.listings (dmo_id, job_id, review_status) WHERE review_reason IS NOT NULL;
CREATE INDEX IF NOT EXISTS review_decisions_open_idx ON pipeline.review_decisions (stage_row_id, id DESC)
    WHERE undone_at IS NULL;

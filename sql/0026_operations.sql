-- Operations (issue 19): a dead letter a person requeued (`sadie deadletters requeue`) says when
-- and by whom. A requeued dead letter stays unresolved until its item succeeds; it counts as open
-- again (for the Slack alert and `deadletters list`) once it fails after the requeue, that is
-- when record_dead_letters moves last_failed_at past requeued_at.
-- depends: 0024_place_forms

ALTER TABLE pipeline.dead_letters
    ADD COLUMN IF NOT EXISTS requeued_at timestamptz,
    ADD COLUMN IF NOT EXISTS requeued_by text;

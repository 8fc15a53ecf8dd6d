-- The listings state model (sadie_pipeline/listings/README.md, listings/states.py): the values a job
-- and a staged row take, as CHECK constraints; what each job's run meant (promote or not), the code
-- versions it ran, its error-rate check and who accepted its errors; each staged row's kind; thin
-- rows promoted with their job now carry promoted_at like every other promoted row.
-- depends: 0019_listing_last_seen_view

ALTER TABLE pipeline.jobs
    ADD COLUMN IF NOT EXISTS auto_promote boolean NOT NULL DEFAULT true,
    ADD COLUMN IF NOT EXISTS raw_version text,
    ADD COLUMN IF NOT EXISTS transform_version text,
    ADD COLUMN IF NOT EXISTS listings_seen_upto integer,
    ADD COLUMN IF NOT EXISTS error_rate numeric(6, 5),
    ADD COLUMN IF NOT EXISTS max_error_rate numeric(6, 5),
    ADD COLUMN IF NOT EXISTS check_passed boolean,
    ADD COLUMN IF NOT EXISTS errors_accepted_by text,
    ADD COLUMN IF NOT EXISTS errors_accepted_at timestamp,
    ADD COLUMN IF NOT EXISTS superseded_by bigint REFERENCES pipeline.jobs (id);
COMMENT ON COLUMN pipeline.jobs.auto_promote IS 'the run that imported the job meant to promote it';
COMMENT ON COLUMN pipeline.jobs.listings_seen_upto IS
    'the newest listing when the stage began: promotion matches new records again against later ones';

-- Jobs an earlier release left 'in progress' or superseded while failed are failed.
UPDATE pipeline.jobs SET status = 'failed', error_summary = coalesce(error_summary, 'interrupted before release 0020')
 WHERE status NOT IN ('succeeded', 'failed') AND stage NOT IN ('promoted', 'superseded');
UPDATE pipeline.jobs SET status = 'succeeded' WHERE status NOT IN ('succeeded', 'failed');
ALTER TABLE pipeline.jobs
    ADD CONSTRAINT jobs_stage_check CHECK (stage IN ('import', 'imported', 'stage', 'staged', 'promoted', 'superseded')),
    ADD CONSTRAINT jobs_status_check CHECK (status IN ('in_progress', 'succeeded', 'failed'));

ALTER TABLE staging.listings ADD COLUMN IF NOT EXISTS row_kind text NOT NULL DEFAULT 'full';
UPDATE staging.listings SET row_kind = 'thin' WHERE reused_from IS NOT NULL;
UPDATE staging.listings SET row_kind = 'deletion' WHERE rec_num IS NULL;
UPDATE staging.listings s SET promoted_at = j.finished_at
  FROM pipeline.jobs j
 WHERE s.row_kind = 'thin' AND s.promoted_at IS NULL AND j.id = s.job_id AND j.stage = 'promoted';
ALTER TABLE staging.listings
    ADD CONSTRAINT listings_row_kind_check CHECK (row_kind IN ('full', 'copied', 'thin', 'deletion')),
    ADD CONSTRAINT listings_action_check CHECK (action IN ('insert', 'update', 'unchanged', 'duplicate', 'delete')),
    ADD CONSTRAINT listings_l_action_check CHECK (l_action IN ('insert', 'update', 'unchanged', 'duplicate', 'delete')),
    ADD CONSTRAINT listings_li_action_check CHECK (li_action IN ('insert', 'update', 'unchanged', 'duplicate', 'delete')),
    ADD CONSTRAINT listings_review_status_check
        CHECK (review_status IN ('pending', 'approved', 'rejected', 'superseded'));
COMMENT ON COLUMN staging.listings.promoted_at IS 'when promotion applied this row (thin rows included)';
COMMENT ON COLUMN staging.listings.row_kind IS
    'full: transformed from its raw line; copied: data copied from an earlier row; thin: keys only, data in reused_from; deletion: no record';

-- Jobs (routes/jobs.py): per DMO, newest first, with counts by action (job_results once promoted,
-- else counted from the job's staged rows); one job's files, errors and review items. The review
-- figures are not counted here: review.sql's review_counts counts them for every page.

-- name: jobs
SELECT j.id, d.slug AS dmo, j.stage, j.status, j.source_name, j.records_read, j.created_at, j.finished_at,
       j.error_rate, j.check_passed, j.error_summary, j.dagster_run_id, j.discarded_by,
       coalesce(r.records_new, c.inserted) AS inserted, coalesce(r.records_updated, c.updated) AS updated,
       coalesce(r.records_unchanged, c.unchanged) AS unchanged,
       coalesce(r.records_duplicates, c.duplicate) AS duplicate, coalesce(r.records_deleted, c.deleted) AS deleted,
       coalesce(r.records_error, c.errors) AS errors
  FROM pipeline.jobs j JOIN public.dmos d ON d.id = j.dmo_id
  LEFT JOIN pipeline.job_results r ON r.job_id = j.id
  LEFT JOIN LATERAL (
      SELECT count(*) FILTER (WHERE s.action = 'insert') AS inserted,
             count(*) FILTER (WHERE s.action = 'update') AS updated,
             count(*) FILTER (WHERE s.action = 'unchanged') AS unchanged,
             count(*) FILTER (WHERE s.action = 'duplicate') AS duplicate,
             count(*) FILTER (WHERE s.action = 'delete') AS deleted,
             (SELECT count(*) FROM pipeline.job_errors e WHERE e.job_id = j.id) AS errors
        FROM staging.listings s WHERE s.job_id = j.id AND r.job_id IS NULL) c ON true
 WHERE (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
   AND (%(stage)s::text IS NULL OR j.stage = %(stage)s)
   AND j.id < %(before)s
 ORDER BY j.id DESC
 LIMIT %(limit)s;

-- name: job
SELECT j.*, d.slug AS dmo, d.name AS dmo_name, c.config_version, r.records_new, r.records_updated,
       r.records_deleted, r.records_duplicates, r.records_unchanged, r.records_error, r.records_review
  FROM pipeline.jobs j JOIN public.dmos d ON d.id = j.dmo_id
  LEFT JOIN pipeline.job_configs c ON c.job_id = j.id
  LEFT JOIN pipeline.job_results r ON r.job_id = j.id
 WHERE j.id = %(job)s;

-- name: files
SELECT id, stage, s3_path, batch, file_size, record_count, created_at FROM pipeline.job_files
 WHERE job_id = %(job)s ORDER BY stage, batch;

-- name: file
SELECT id, s3_path, stage, batch FROM pipeline.job_files WHERE id = %(file)s AND job_id = %(job)s;

-- name: error_types
SELECT error_type, count(*) AS n FROM pipeline.job_errors WHERE job_id = %(job)s GROUP BY error_type ORDER BY n DESC;

-- name: errors
SELECT id, stage, rec_num, record_id, original_record, error_type, error_message
  FROM pipeline.job_errors
 WHERE job_id = %(job)s AND id > %(after)s
   AND (%(type)s::text IS NULL OR error_type = %(type)s)
   AND (%(text_like)s::text IS NULL OR lower(error_message) LIKE %(text_like)s
        OR lower(original_record::text) LIKE %(text_like)s)
 ORDER BY id
 LIMIT %(limit)s;

-- name: review_items
-- The job's rows sent to review (the rows review_counts counts), with what deciding them does.
SELECT s.id, d.slug AS dmo, s.action, s.l_action, s.li_action, s.name, s.city, s.review_status, s.review_reason,
       s.certainty_score, s.target_listing_id, s.duplicate_of, s.match_method, s.ok_to_promote, s.promoted_at,
       l.name AS live_name
  FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id
  LEFT JOIN public.listings l ON l.id = s.target_listing_id
 WHERE s.job_id = %(job)s AND s.review_reason IS NOT NULL
   AND s.review_status IN ('pending', 'approved', 'rejected', 'superseded')
 ORDER BY s.id
 LIMIT %(limit)s;

-- name: staged_preview
SELECT s.id, s.action, s.name, s.city, s.review_status, s.review_reason, s.target_listing_id
  FROM staging.listings s WHERE s.job_id = %(job)s AND s.action IN ('insert', 'update')
 ORDER BY s.id LIMIT 20;

-- name: deletions
SELECT s.id, s.name, s.city, s.target_listing_id, s.review_status
  FROM staging.listings s WHERE s.job_id = %(job)s AND s.action = 'delete'
 ORDER BY s.id LIMIT 200;

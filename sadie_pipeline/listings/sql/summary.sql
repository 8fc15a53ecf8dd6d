-- name: job
-- A job's figures (its staged rows by action) and where it is.
SELECT j.records_read,
       count(s.id) FILTER (WHERE s.action = 'insert'), count(s.id) FILTER (WHERE s.action = 'update'),
       count(s.id) FILTER (WHERE s.action = 'unchanged'), count(s.id) FILTER (WHERE s.action = 'duplicate'),
       count(s.id) FILTER (WHERE s.action = 'delete'), count(s.id) FILTER (WHERE s.review_status = 'pending'),
       (SELECT count(*) FROM pipeline.job_errors e WHERE e.job_id = j.id),
       count(s.id) FILTER (WHERE s.action = 'update' AND s.promoted_at IS NOT NULL),
       count(s.id) FILTER (WHERE s.action = 'delete' AND s.promoted_at IS NOT NULL),
       j.stage, j.status, j.superseded_by, j.error_summary
  FROM pipeline.jobs j LEFT JOIN staging.listings s ON s.job_id = j.id
 WHERE j.id = %(job)s
 GROUP BY j.id;

-- Retention (retention.py): rows older than the cutoff, a batch at a time in id order, each row as
-- its JSON (to_jsonb) for the archive, locked until the batch's delete commits so that no row
-- changes between its archive and its delete. SKIP LOCKED: a row a live transaction holds is left
-- for the next run rather than waited for.

-- name: audit_log_batch
SELECT a.id, to_jsonb(a)::text FROM sadie_gtm.audit_log a
 WHERE a.changed_at < %(cutoff)s AND a.id > %(after)s
 ORDER BY a.id LIMIT %(batch)s
   FOR UPDATE SKIP LOCKED;

-- name: audit_log_delete
DELETE FROM sadie_gtm.audit_log WHERE id = ANY(%(ids)s);

-- name: dead_letters_batch
-- Resolved ones only: an unresolved dead letter is work still to do, however old.
SELECT d.id, to_jsonb(d)::text FROM pipeline.dead_letters d
 WHERE d.resolved_at < %(cutoff)s AND d.id > %(after)s
 ORDER BY d.id LIMIT %(batch)s
   FOR UPDATE SKIP LOCKED;

-- name: dead_letters_delete
DELETE FROM pipeline.dead_letters WHERE id = ANY(%(ids)s);

-- name: job_errors_batch
-- Errors of jobs that are done (promoted or superseded): those of a job still to be promoted are
-- what its error-rate check and a person accepting its errors look at.
SELECT e.id, to_jsonb(e)::text FROM pipeline.job_errors e
  JOIN pipeline.jobs j ON j.id = e.job_id
 WHERE e.created_at < %(cutoff)s AND e.id > %(after)s AND j.stage = ANY(%(done_stages)s)
 ORDER BY e.id LIMIT %(batch)s
   FOR UPDATE OF e SKIP LOCKED;

-- name: job_errors_delete
DELETE FROM pipeline.job_errors WHERE id = ANY(%(ids)s);

-- name: staging_candidates
-- Staged rows that may go, computed once per run into a temporary table:
-- * rows of promoted jobs that finished before the cutoff,
-- * but not of a job that may still be the "previous import" of the DMO's next stage (stage.sql
--   find_previous: the latest promoted job per DMO, config and code versions): its rows are what
--   records sent unchanged are staged thin against;
-- * nor of a job with a row still under review or decided and waiting for promotion (pending,
--   approved, rejected, not promoted): promotion reads such rows later;
-- * nor a row a thin row of a kept job points at (reused_from): the thin row's data is there. A
--   row holding data has no reused_from itself, so one level is all there is.
DROP TABLE IF EXISTS pg_temp.retention_staging;
CREATE TEMP TABLE retention_staging AS
WITH kept_previous AS (
    SELECT max(j.id) AS id FROM pipeline.jobs j JOIN pipeline.job_configs c ON c.job_id = j.id
     WHERE j.stage = %(promoted)s
     GROUP BY j.dmo_id, c.config_params, j.raw_version, j.transform_version),
old_jobs AS (
    SELECT j.id FROM pipeline.jobs j
     WHERE j.stage = %(promoted)s AND j.status = %(succeeded)s AND j.finished_at < %(cutoff)s
       AND j.id NOT IN (SELECT id FROM kept_previous)
       AND NOT EXISTS (SELECT 1 FROM staging.listings s
                        WHERE s.job_id = j.id AND s.promoted_at IS NULL AND s.review_status = ANY(%(open_reviews)s)))
SELECT s.id FROM staging.listings s
 WHERE s.job_id IN (SELECT id FROM old_jobs)
   AND s.id NOT IN (SELECT k.reused_from FROM staging.listings k
                     WHERE k.reused_from IS NOT NULL AND k.job_id NOT IN (SELECT id FROM old_jobs));
CREATE UNIQUE INDEX ON retention_staging (id);
ANALYZE retention_staging;

-- name: staging_listings_batch
-- A staged row with its staging.listing_info row (same id, deleted with it by ON DELETE CASCADE).
SELECT s.id, (to_jsonb(s) || jsonb_build_object('listing_info', to_jsonb(i)))::text
  FROM staging.listings s
  JOIN retention_staging c ON c.id = s.id
  LEFT JOIN staging.listing_info i ON i.id = s.id
 WHERE s.id > %(after)s
 ORDER BY s.id LIMIT %(batch)s
   FOR UPDATE OF s SKIP LOCKED;

-- name: staging_listings_delete
DELETE FROM staging.listings WHERE id = ANY(%(ids)s);

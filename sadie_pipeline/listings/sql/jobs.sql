-- A DMO's jobs: created by the raw step, taken in arrival order (id) by the stage and promotion
-- steps, failed when the process working on them died. See README.md, "Jobs".

-- name: create
INSERT INTO pipeline.jobs (dmo_id, status, stage, source_key, source_name, dagster_run_id, auto_promote, started_at)
VALUES (%(dmo)s, 'in_progress', 'import', %(key)s, %(name)s, %(run)s, %(promote)s, now())
ON CONFLICT (dmo_id, source_key) DO NOTHING;

-- name: by_key
SELECT id, stage, status, records_read, created_at FROM pipeline.jobs WHERE dmo_id = %(dmo)s AND source_key = %(key)s;

-- name: start_import
-- The run (re)importing the file owns the job; a failed import starts again.
UPDATE pipeline.jobs
   SET status = 'in_progress', error_summary = NULL, finished_at = NULL, started_at = now(),
       dagster_run_id = %(run)s, auto_promote = %(promote)s, raw_version = %(raw_version)s
 WHERE id = %(job)s;

-- name: claim_failed
-- A run importing the file of a job whose staging failed owns it: its stage step stages it again.
UPDATE pipeline.jobs SET dagster_run_id = %(run)s, auto_promote = %(promote)s
 WHERE id = %(job)s AND status = 'failed';

-- name: in_progress
SELECT id FROM pipeline.jobs WHERE dmo_id = %(dmo)s AND status = 'in_progress' ORDER BY id;

-- name: fail_dead
-- A job whose process died (its lock was free): what that process staged goes (the staged rows'
-- listing_info rows with them: ON DELETE CASCADE); its raw files and keys stay when it got past
-- its import, which commits them at once.
DELETE FROM staging.listings WHERE job_id = %(job)s;
DELETE FROM pipeline.job_errors WHERE job_id = %(job)s AND stage = 'stage';
DELETE FROM pipeline.job_files WHERE job_id = %(job)s AND stage = 'transformed';
UPDATE pipeline.jobs
   SET status = 'failed', finished_at = now(),
       error_summary = 'the process ' || CASE stage WHEN 'import' THEN 'importing' ELSE 'staging' END
                       || ' it died (found ' || %(by)s || ')'
 WHERE id = %(job)s AND status = 'in_progress';

-- name: own
-- The jobs a Dagster run created or took over (a re-executed run keeps its root run's id).
SELECT id FROM pipeline.jobs WHERE dmo_id = %(dmo)s AND dagster_run_id = %(run)s ORDER BY id;

-- name: newest
SELECT max(id) FROM pipeline.jobs WHERE dmo_id = %(dmo)s;

-- name: importing_before
SELECT id FROM pipeline.jobs
 WHERE dmo_id = %(dmo)s AND id < %(upto)s AND stage = 'import' AND status = 'in_progress' ORDER BY id;

-- name: to_stage
-- What a stage takes, in arrival order, up to %(upto)s: imported jobs, and the run's own jobs whose
-- staging failed (%(own)s) while no newer job of the DMO got past its import.
SELECT j.id FROM pipeline.jobs j
 WHERE j.dmo_id = %(dmo)s AND j.id <= %(upto)s
   AND (j.stage = 'imported'
        OR (j.stage = 'stage' AND j.status = 'failed' AND j.id = ANY(%(own)s)
            AND NOT EXISTS (SELECT 1 FROM pipeline.jobs n
                             WHERE n.dmo_id = j.dmo_id AND n.id > j.id AND n.stage NOT IN ('import', 'imported'))))
 ORDER BY j.id;

-- name: staged_by
-- The transform version of the job's last stage (NULL: never staged).
SELECT transform_version FROM pipeline.jobs WHERE id = %(job)s;

-- name: start_stage
-- listings_seen_upto: the newest listing when the stage began, or lower, below the ids that promotions
-- under way may still commit (promote.sql, listings_seen_now: the same expression); promotion matches
-- the job's new records again against the listings above it (other DMOs' promotions). The versions are
-- the running code's: every row the job keeps was staged by it (stage.sql, clear_other_release).
UPDATE pipeline.jobs
   SET stage = 'stage', status = 'in_progress', error_summary = NULL, finished_at = NULL,
       transform_version = %(transform_version)s, key_version = %(key_version)s,
       listings_seen_upto = least((SELECT coalesce(max(id), 0) FROM public.listings),
                                  (SELECT min(l.objid::bigint) FROM pg_locks l
                                    WHERE l.locktype = 'advisory' AND l.classid = 5 AND l.objsubid = 2
                                      AND l.database = (SELECT oid FROM pg_database
                                                         WHERE datname = current_database())))
 WHERE id = %(job)s;

-- name: staged
UPDATE pipeline.jobs
   SET stage = 'staged', status = 'succeeded', finished_at = now(), error_rate = %(error_rate)s,
       max_error_rate = %(max_error_rate)s, check_passed = %(error_rate)s <= %(max_error_rate)s
 WHERE id = %(job)s;

-- name: to_promote
-- The DMO's staged jobs up to %(upto)s that a promotion takes: those whose run meant to promote them,
-- or every one (%(every)s: a person's promotion); `allowed` unless the stage failed its error-rate
-- check and nobody accepted its errors.
SELECT id, coalesce(check_passed, true) OR errors_accepted_at IS NOT NULL AS allowed, error_rate, max_error_rate
  FROM pipeline.jobs
 WHERE dmo_id = %(dmo)s AND stage = 'staged' AND (%(upto)s::bigint IS NULL OR id <= %(upto)s)
   AND (%(every)s OR auto_promote)
 ORDER BY id;

-- name: accept_errors
UPDATE pipeline.jobs SET errors_accepted_by = %(by)s, errors_accepted_at = now()
 WHERE id = ANY(%(jobs)s) AND stage = 'staged' AND NOT check_passed AND errors_accepted_at IS NULL
RETURNING id;

-- name: state
SELECT stage, status, superseded_by, error_summary, error_rate, max_error_rate, check_passed
  FROM pipeline.jobs WHERE id = %(job)s;

-- name: run_records
-- The records of a Dagster run's jobs in their raw and in their transformed files so far (what a
-- progress bar shows while the run imports and stages).
SELECT f.stage, sum(f.record_count)::bigint
  FROM pipeline.jobs j JOIN pipeline.job_files f ON f.job_id = j.id
 WHERE j.dagster_run_id = %(run)s
 GROUP BY f.stage;

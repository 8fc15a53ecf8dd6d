-- Discarding a job after phase one of an upload (discard.py): its staged rows go (their listing_info
-- rows with them: ON DELETE CASCADE), so no promotion, review decision or later job can apply them;
-- its raw files, errors and files stay for the record.

-- name: discardable
-- A job can be discarded once nothing works on it and before anything of it was promoted.
SELECT id, stage, status FROM pipeline.jobs
 WHERE id = %(job)s AND dmo_id = %(dmo)s FOR UPDATE;

-- name: discard
DELETE FROM staging.listings WHERE job_id = %(job)s AND promoted_at IS NULL;
UPDATE pipeline.jobs
   SET stage = 'discarded', status = 'succeeded', finished_at = now(),
       discarded_by = %(by)s, discarded_at = now()
 WHERE id = %(job)s;

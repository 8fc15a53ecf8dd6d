-- Staging a job's files: the records reused from earlier staged rows (thin rows, twins) and the
-- checkpoints of a retried stage. Resolution (matching, actions, review) is in resolve.sql.

-- name: clear_other_release
-- A stage retried under another transform version than the one that began it (a release came
-- between) starts again from raw: every row, error and checkpoint of the earlier code goes, those
-- of finished files too (their listing_info rows with them: ON DELETE CASCADE).
DELETE FROM staging.listings WHERE job_id = %(job)s;
DELETE FROM pipeline.job_errors WHERE job_id = %(job)s AND stage = 'stage';
DELETE FROM pipeline.job_files WHERE job_id = %(job)s AND stage = 'transformed';

-- name: clear_unfinished_files
-- A file's rows commit with its checkpoint (its transformed job_files row); the thin rows commit with
-- the job's resolution. Rows of a file without checkpoint (staged by an earlier release) go first.
DELETE FROM staging.listings s
 WHERE s.job_id = %(job)s
   AND NOT EXISTS (SELECT 1 FROM pipeline.job_files t
                    WHERE t.job_id = s.job_id AND t.stage = 'transformed' AND t.batch = s.file_seq);

-- name: raw_files
SELECT r.id, r.batch, r.file_date, r.record_count, t.id IS NOT NULL
  FROM pipeline.job_files r
  LEFT JOIN pipeline.job_files t ON t.job_id = r.job_id AND t.stage = 'transformed' AND t.batch = r.batch
 WHERE r.job_id = %(job)s AND r.stage = 'raw'
 ORDER BY r.batch;

-- name: previous_import
-- The DMO's last promoted import before this job, run with the same config and the same code
-- versions (raw lines and transform): only its staged data may stand for this job's records.
SELECT max(j.id) FROM pipeline.jobs j
  JOIN pipeline.job_configs c ON c.job_id = j.id
  JOIN pipeline.jobs me ON me.id = %(job)s
  JOIN pipeline.job_configs mc ON mc.job_id = me.id
 WHERE j.dmo_id = %(dmo)s AND j.id < %(job)s AND j.stage = 'promoted' AND c.config_params = mc.config_params
   AND j.raw_version = me.raw_version AND j.transform_version = %(transform_version)s;

-- name: find_thin
-- The job's records (raw keys) identical to one of that import (same raw hash) that was promoted
-- as new, updated or unchanged, whose listing and listing_info are visible and whose listing_info
-- was last written from this very record (its raw_hash): matching would find the same targets and
-- nothing to change, so the record is staged thin, pointing at the row holding its data. Each raw
-- key meets at most one such row: a record's source_id follows from its content, and the rows of a
-- job that are not duplicates have distinct source_ids. Records already staged (a retry) are left out.
-- The DMO and the job are compared with the parameters (planner.sql, hash_joins): joined on, right
-- after an import, a merge join on li.dmo_id compared every record with every other (20,000: 40 s).
CREATE TEMP TABLE thin ON COMMIT DROP AS
SELECT k.job_id, p.dmo_id, k.file_seq, k.rec_num, k.raw_hash, k.source_id, p.listing_match_hash,
       p.target_listing_id, p.target_listing_info_id, coalesce(p.reused_from, p.id) AS reused_from
  FROM staging.raw_keys k
  JOIN staging.listings p ON p.raw_hash = k.raw_hash
  JOIN public.listing_info li ON li.id = p.target_listing_info_id
 WHERE k.job_id = %(job)s
   AND p.job_id = %(previous)s AND p.action IN ('insert', 'update', 'unchanged') AND p.promoted_at IS NOT NULL
   AND li.raw_hash = p.raw_hash AND li.dmo_id = %(dmo)s AND li.info_visible
   AND li.listing_id = p.target_listing_id
   -- nor is the listing hidden or merged: the few such listings are in partial indexes
   AND NOT EXISTS (SELECT 1 FROM public.listings l WHERE l.id = p.target_listing_id AND NOT l.listing_visible)
   AND NOT EXISTS (SELECT 1 FROM public.listings l WHERE l.id = p.target_listing_id AND l.listing_status = 'merged')
   AND NOT EXISTS (SELECT 1 FROM staging.listings s WHERE s.job_id = %(job)s AND s.rec_num = k.rec_num)
   AND NOT EXISTS (SELECT 1 FROM pipeline.job_errors e
                    WHERE e.job_id = %(job)s AND e.stage = 'stage' AND e.rec_num = k.rec_num);

-- name: no_thin
-- The fast paths off (settings.listings_fast_paths): no record is staged thin; missing_records reads
-- `thin` all the same.
CREATE TEMP TABLE thin (file_seq integer, rec_num integer) ON COMMIT DROP;

-- name: thin_by_file
SELECT file_seq, array_agg(rec_num) FROM thin GROUP BY file_seq;

-- name: twins_by_file
-- Records still under review in that import (a possible duplicate or an unsure match: staged, not
-- promoted) that the DMO sent again as they were: transformed the same way, so each file's worker
-- copies their staged data (copy_twins) instead of reading and transforming them again. They are full
-- rows, matched and resolved like any other. Under review is what the partial index on decided rows
-- holds: a handful. By file: rec_nums and the rows to copy, in the same order.
SELECT file_seq, array_agg(rec_num ORDER BY rec_num), array_agg(data_id ORDER BY rec_num) FROM (
    SELECT DISTINCT ON (k.rec_num) k.file_seq, k.rec_num, p.id AS data_id
      FROM staging.listings p
      JOIN staging.raw_keys k ON k.raw_hash = p.raw_hash
     WHERE k.job_id = %(job)s AND p.job_id = %(previous)s AND p.dmo_id = %(dmo)s
       AND p.review_status IN ('pending', 'approved', 'rejected')
       AND p.row_kind IN ('full', 'copied') AND p.rec_num IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM thin t WHERE t.rec_num = k.rec_num)
       AND NOT EXISTS (SELECT 1 FROM staging.listings s WHERE s.job_id = %(job)s AND s.rec_num = k.rec_num)
       AND NOT EXISTS (SELECT 1 FROM pipeline.job_errors e
                        WHERE e.job_id = %(job)s AND e.stage = 'stage' AND e.rec_num = k.rec_num)
     ORDER BY k.rec_num, p.id) t
 GROUP BY file_seq;

-- name: write_thin
INSERT INTO staging.listings (id, job_id, dmo_id, file_seq, rec_num, raw_hash, source_id, listing_match_hash,
                              target_listing_id, target_listing_info_id, reused_from, row_kind, match_method,
                              certainty_score, action, l_action, li_action, ok_to_promote)
SELECT nextval('staging.listings_id_seq'), job_id, dmo_id, file_seq, rec_num, raw_hash, source_id, listing_match_hash,
       target_listing_id, target_listing_info_id, reused_from, 'thin', 'source_id', 1, 'unchanged', 'unchanged',
       'unchanged', true
  FROM thin;

-- name: copy_twins
-- A file's twins, staged with their new ids: %(ids)s, %(rec_nums)s and the rows holding their data,
-- %(data_ids)s, in the same order.
INSERT INTO staging.listings (id, job_id, dmo_id, file_seq, rec_num, row_kind, raw_hash, source_id, name, category,
                              google_place_id, address1, address2, city, state, zip, country, lat, lng,
                              listing_match_hash, l_hash, location_hash, place_form, place_keys)
SELECT t.id, %(job)s, d.dmo_id, %(file_seq)s, t.rec_num, 'copied', d.raw_hash, d.source_id, d.name, d.category,
       d.google_place_id, d.address1, d.address2, d.city, d.state, d.zip, d.country, d.lat, d.lng,
       d.listing_match_hash, d.l_hash, d.location_hash, d.place_form, d.place_keys
  FROM unnest(%(ids)s::bigint[], %(rec_nums)s::int[], %(data_ids)s::bigint[]) AS t(id, rec_num, data_id)
  JOIN staging.listings d ON d.id = t.data_id;
INSERT INTO staging.listing_info (id, job_id, description, contact_name, email, local_phone, international_phone,
                                  website_url, facebook_url, instagram_url, twitter_url, tripadvisor_url, images,
                                  hours, start_date, end_date, li_hash, contact_info_hash, images_hash, hours_hash)
SELECT t.id, %(job)s, d.description, d.contact_name, d.email, d.local_phone, d.international_phone,
       d.website_url, d.facebook_url, d.instagram_url, d.twitter_url, d.tripadvisor_url, d.images,
       d.hours, d.start_date, d.end_date, d.li_hash, d.contact_info_hash, d.images_hash, d.hours_hash
  FROM unnest(%(ids)s::bigint[], %(rec_nums)s::int[], %(data_ids)s::bigint[]) AS t(id, rec_num, data_id)
  JOIN staging.listing_info d ON d.id = t.data_id;

-- name: missing_records
-- Checkpointed files (%(files)s) holding a record that is neither staged, nor in error, nor staged
-- thin now: a record an earlier attempt skipped as unchanged that is no longer (its listing hidden
-- meanwhile, say). Such a file is staged again whole (reopen_files, committed before the workers).
SELECT DISTINCT k.file_seq FROM staging.raw_keys k
 WHERE k.job_id = %(job)s AND k.file_seq = ANY(%(files)s)
   AND NOT EXISTS (SELECT 1 FROM staging.listings s WHERE s.job_id = %(job)s AND s.rec_num = k.rec_num)
   AND NOT EXISTS (SELECT 1 FROM pipeline.job_errors e
                    WHERE e.job_id = %(job)s AND e.stage = 'stage' AND e.rec_num = k.rec_num)
   AND NOT EXISTS (SELECT 1 FROM thin t WHERE t.rec_num = k.rec_num);

-- name: reopen_files
DELETE FROM staging.listings WHERE job_id = %(job)s AND file_seq = ANY(%(files)s);
DELETE FROM pipeline.job_errors e USING pipeline.job_files r
 WHERE e.job_id = %(job)s AND e.stage = 'stage' AND r.id = e.file_id AND r.batch = ANY(%(files)s);
DELETE FROM pipeline.job_files WHERE job_id = %(job)s AND stage = 'transformed' AND batch = ANY(%(files)s);

-- name: file_errors
INSERT INTO pipeline.job_errors (job_id, file_id, stage, rec_num, record_id, original_record, error_type, error_message)
VALUES (%s, %s, 'stage', %s, %s, %s, %s, %s);

-- name: file_done
INSERT INTO pipeline.job_files (job_id, s3_path, stage, data_domain, dmo_id, file_date, batch, format, file_size,
                                record_count)
VALUES (%(job)s, %(path)s, 'transformed', 'listings', %(dmo)s, %(day)s, %(batch)s, 'jsonl.gz', %(size)s, %(records)s);

-- name: supersede_older
-- Staging a job supersedes what older jobs of the DMO left waiting (promotion would take it): rows
-- under review or approved, and the rows of older jobs staged and never promoted. Older jobs are
-- all staged, promoted or failed by now (a stage takes the DMO's jobs in arrival order).
UPDATE staging.listings SET review_status = 'superseded', ok_to_promote = false
 WHERE dmo_id = %(dmo)s AND review_status IN ('pending', 'approved') AND job_id < %(job)s AND promoted_at IS NULL;
UPDATE staging.listings SET review_status = 'superseded', ok_to_promote = false
 WHERE job_id IN (SELECT id FROM pipeline.jobs WHERE dmo_id = %(dmo)s AND id < %(job)s AND stage = 'staged')
   AND ok_to_promote AND promoted_at IS NULL;
UPDATE pipeline.jobs SET stage = 'superseded', superseded_by = %(job)s
 WHERE dmo_id = %(dmo)s AND id < %(job)s AND stage = 'staged';

-- name: action_counts
SELECT coalesce(action, 'none'), count(*), count(*) FILTER (WHERE review_status = 'pending')
  FROM staging.listings WHERE job_id = %(job)s GROUP BY 1;

-- name: identifier_reviews
-- Records sent to a person because they share a phone, a website or a name and address with a
-- listing they were not matched to (core/matching.py: no silent duplicate).
SELECT count(*) FROM staging.listings
 WHERE job_id = %(job)s AND review_status = 'pending' AND match_explanation ? 'review';

-- name: error_types
SELECT error_type, count(*) FROM pipeline.job_errors WHERE job_id = %(job)s AND stage = 'stage' GROUP BY 1;

-- name: copy_listings
COPY staging.listings (id, job_id, dmo_id, file_seq, rec_num, raw_hash, source_id, name, category, google_place_id,
                       address1, address2, city, state, zip, country, lat, lng, listing_match_hash, l_hash,
                       location_hash, place_form, place_keys) FROM STDIN;

-- name: copy_listing_info
COPY staging.listing_info (id, job_id, description, contact_name, email, local_phone, international_phone,
                           website_url, facebook_url, instagram_url, twitter_url, tripadvisor_url, images, hours,
                           start_date, end_date, li_hash, contact_info_hash, images_hash, hours_hash) FROM STDIN;

-- name: new_ids
SELECT nextval('staging.listings_id_seq') FROM generate_series(1, %(n)s);

-- name: hold_job
-- A worker's file transaction holds the job's lock shared (as the stage does): the job is not taken
-- for dead while the worker writes, and a worker left after a dead stage cannot write once it is.
SELECT pg_advisory_xact_lock_shared(%(space)s::int, %(job)s::int);

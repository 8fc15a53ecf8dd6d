-- Pulled sources (sources/pull.py): the DMO's current config, where an incremental pull starts, and
-- what each pull did.

-- name: current_config
SELECT config_params FROM pipeline.configs WHERE dmo_id = %(dmo)s AND data_domain = 'listings';

-- name: last_mark
-- The high-water mark of the DMO's newest promoted pull of this source. Pulls not yet promoted do
-- not count: a later stage may supersede them, and their changes must then be pulled again.
SELECT p.high_water_mark FROM pipeline.source_pulls p JOIN pipeline.jobs j ON j.id = p.job_id
 WHERE p.dmo_id = %(dmo)s AND p.source_key = %(source_key)s AND j.stage = 'promoted'
   AND p.high_water_mark IS NOT NULL
 ORDER BY p.job_id DESC LIMIT 1;

-- name: record
INSERT INTO pipeline.source_pulls (job_id, dmo_id, source_type, source_key, url, incremental, since, high_water_mark,
                                   pages_fetched, pages_failed, pages_total, records, problems, bytes_fetched)
VALUES (%(job)s, %(dmo)s, %(source_type)s, %(source_key)s, %(url)s, %(incremental)s, %(since)s, %(mark)s,
        %(pages_fetched)s, %(pages_failed)s, %(pages_total)s, %(records)s, %(problems)s, %(bytes)s)
ON CONFLICT (job_id) DO UPDATE SET
    since = EXCLUDED.since, high_water_mark = EXCLUDED.high_water_mark, pages_fetched = EXCLUDED.pages_fetched,
    pages_failed = EXCLUDED.pages_failed, pages_total = EXCLUDED.pages_total, records = EXCLUDED.records,
    problems = EXCLUDED.problems, bytes_fetched = EXCLUDED.bytes_fetched, incremental = EXCLUDED.incremental;

-- name: partial_job
-- The job holds only part of the source (an incremental pull, or pages that failed): its listings
-- left out are not deletions, so its config snapshot says so.
UPDATE pipeline.job_configs
   SET config_params = config_params
       || jsonb_build_object('import', coalesce(config_params -> 'import', '{}'::jsonb) || '{"full_import": false}')
 WHERE job_id = %(job)s;

-- name: problem
INSERT INTO pipeline.job_errors (job_id, stage, record_id, original_record, error_type, error_message)
VALUES (%s, 'import', %s, %s, %s, %s);

-- name: of_job
SELECT source_type, incremental, since, high_water_mark, pages_fetched, pages_failed, pages_total, records, problems,
       bytes_fetched
  FROM pipeline.source_pulls WHERE job_id = %(job)s;

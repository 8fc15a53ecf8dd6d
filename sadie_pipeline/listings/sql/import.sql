-- The raw step: an inbox file to raw files, their keys and job rows.

-- name: earlier_imports
-- The DMO's earlier imports of a file of this size, under the same config and the same raw-line code,
-- whose raw files and raw keys are complete (a failed import never got past stage 'import'), latest first.
SELECT j.id, j.source_sha256
  FROM pipeline.jobs j
  JOIN pipeline.job_configs c ON c.job_id = j.id
  JOIN pipeline.job_configs me ON me.job_id = %(job)s
 WHERE j.dmo_id = %(dmo)s AND j.id <> %(job)s AND j.source_bytes = %(bytes)s AND j.stage <> 'import'
   AND j.raw_version = %(raw_version)s
   AND j.source_sha256 IS NOT NULL AND c.config_params = me.config_params
   AND j.records_read = (SELECT coalesce(sum(f.record_count), 0) FROM pipeline.job_files f
                          WHERE f.job_id = j.id AND f.stage = 'raw')
   AND j.records_read = (SELECT count(*) FROM staging.raw_keys k WHERE k.job_id = j.id)
 ORDER BY j.id DESC;

-- name: earlier_files
SELECT batch, file_date, record_count FROM pipeline.job_files WHERE job_id = %(job)s AND stage = 'raw' ORDER BY batch;

-- name: copy_raw_keys
INSERT INTO staging.raw_keys (job_id, file_seq, rec_num, raw_hash, source_id)
SELECT %(job)s, file_seq, rec_num, raw_hash, source_id FROM staging.raw_keys
 WHERE job_id = %(earlier)s AND NOT file_seq = ANY(%(existing)s);

-- name: raw_parts_written
SELECT batch FROM pipeline.job_files WHERE job_id = %(job)s AND stage = 'raw';

-- name: copy_keys
COPY staging.raw_keys (job_id, file_seq, rec_num, raw_hash, source_id) FROM STDIN;

-- name: raw_file
INSERT INTO pipeline.job_files (job_id, s3_path, stage, data_domain, country, dmo_id, file_date, batch, format,
                                file_size, record_count)
VALUES (%(job)s, %(path)s, 'raw', 'listings', %(country)s, %(dmo)s, %(day)s, %(seq)s, 'jsonl.gz', %(size)s, %(records)s)
ON CONFLICT (job_id, stage, batch) DO NOTHING;

-- name: imported
UPDATE pipeline.jobs
   SET records_read = %(records)s, source_sha256 = %(sha256)s, source_bytes = %(bytes)s,
       stage = 'imported', status = 'succeeded', finished_at = now()
 WHERE id = %(job)s;

-- name: pending_keys
SELECT source_key FROM pipeline.jobs WHERE dmo_id = %(dmo)s AND stage <> 'import';

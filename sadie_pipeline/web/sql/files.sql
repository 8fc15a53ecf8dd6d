-- The files browser (routes/files.py): each job's delivered file, raw and transformed files, by DMO
-- and date, newest job first.

-- name: files
SELECT x.* FROM (
    SELECT f.id, f.job_id, d.slug AS dmo, f.stage, f.batch, f.file_date AS day, f.format, f.file_size,
           f.record_count, f.s3_path AS path, f.created_at
      FROM pipeline.job_files f JOIN pipeline.jobs j ON j.id = f.job_id JOIN public.dmos d ON d.id = j.dmo_id
     WHERE (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
       AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
       AND (%(day)s::date IS NULL OR f.file_date = %(day)s)
       AND j.id < %(before)s
    UNION ALL
    SELECT NULL, j.id, d.slug, 'delivered', NULL, j.created_at::date, NULL, j.source_bytes, j.records_read,
           j.source_key, j.created_at
      FROM pipeline.jobs j JOIN public.dmos d ON d.id = j.dmo_id
     WHERE j.source_key IS NOT NULL
       AND (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
       AND (%(dmo)s::text IS NULL OR d.slug = %(dmo)s)
       AND (%(day)s::date IS NULL OR j.created_at::date = %(day)s)
       AND j.id < %(before)s
) x
 ORDER BY x.job_id DESC, CASE x.stage WHEN 'delivered' THEN 0 WHEN 'raw' THEN 1 ELSE 2 END, x.batch
 LIMIT %(limit)s;

-- name: file
SELECT f.id, f.job_id, d.slug AS dmo, f.stage, f.batch, f.file_date AS day, f.format, f.file_size, f.record_count,
       f.s3_path AS path
  FROM pipeline.job_files f JOIN pipeline.jobs j ON j.id = f.job_id JOIN public.dmos d ON d.id = j.dmo_id
 WHERE f.id = %(file)s;

-- name: delivered
SELECT j.id AS job_id, d.slug AS dmo, j.source_key AS path, j.source_name, j.source_bytes AS file_size,
       j.records_read AS record_count, j.created_at::date AS day, c.config_params #>> '{import,records_path}' AS records_path
  FROM pipeline.jobs j JOIN public.dmos d ON d.id = j.dmo_id
  LEFT JOIN pipeline.job_configs c ON c.job_id = j.id
 WHERE j.id = %(job)s;

-- The size of the file a job imported, next to its sha256: a file the DMO delivers again byte for
-- byte is found among the earlier imports of its size, and only then read to compare checksums
-- (listings/redelivery.py).
-- depends: 0017_thin_rows_promoted_with_their_job

ALTER TABLE pipeline.jobs ADD COLUMN IF NOT EXISTS source_bytes bigint;
COMMENT ON COLUMN pipeline.jobs.source_bytes IS 'size in bytes of the imported file (source_key)';

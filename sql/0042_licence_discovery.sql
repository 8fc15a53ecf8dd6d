-- Issue 32: licence registers as a discovery source (hotels/discovery_licences.py).
-- * A register file's load is a job (pipeline.jobs, data_domain 'licences', no DMO): the rows it
--   could not read (no licence number, address or name) are its job_errors rows, as an import's are.
-- * Each register file remembers the content discovery last wrote as hotel_sources rows, so that
--   discovery writes a file's licences once per content, whichever asset downloaded it.
-- depends: 0041_licence_records

ALTER TABLE pipeline.jobs ALTER COLUMN dmo_id DROP NOT NULL;
COMMENT ON COLUMN pipeline.jobs.dmo_id IS
    'the DMO whose file the job imported; NULL for a licence register file (data_domain licences)';

ALTER TABLE sadie_gtm.licence_files
    ADD COLUMN IF NOT EXISTS job_id bigint REFERENCES pipeline.jobs (id) ON DELETE SET NULL,
    ADD COLUMN IF NOT EXISTS discovered_hash text,
    ADD COLUMN IF NOT EXISTS discovered_at timestamptz;
COMMENT ON COLUMN sadie_gtm.licence_files.job_id IS 'the job of the file''s last load (its job_errors: rows not read)';
COMMENT ON COLUMN sadie_gtm.licence_files.discovered_hash IS
    'file_hash of the content licence_discovery last wrote as hotel_sources rows (NULL: never)';

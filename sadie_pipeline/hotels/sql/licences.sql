-- Licence registers (hotels/enrichment/licences.py): files loaded once per content, records
-- replaced per file, records of a region read for matching.

-- name: file_state
-- The file's last load: its hash, and whether it was downloaded within max_age_s.
SELECT file_hash, checked_at > now() - make_interval(secs => %(max_age_s)s) AS fresh
  FROM sadie_gtm.licence_files WHERE registry = %(registry)s AND url = %(url)s;

-- name: file_checked
UPDATE sadie_gtm.licence_files SET checked_at = now() WHERE registry = %(registry)s AND url = %(url)s;

-- name: staging
-- The file's records, copied in before they replace the file's previous ones.
CREATE TEMP TABLE licence_staging (LIKE sadie_gtm.licence_records INCLUDING DEFAULTS) ON COMMIT DROP;

-- name: copy_staging
COPY licence_staging (registry, licence_number, region, licence_type, status, business_name, licensee_name,
                      owner_name, address, city, state, zip, county, phone, mailing_address, rooms, source_url,
                      file_hash) FROM STDIN;

-- name: replace_file_records
-- The file's earlier records go; its records now are written (a licence that moved from another
-- district's file is taken over by this one).
DELETE FROM sadie_gtm.licence_records WHERE registry = %(registry)s AND source_url = %(url)s;
INSERT INTO sadie_gtm.licence_records AS t
SELECT * FROM licence_staging
    ON CONFLICT (registry, licence_number) DO UPDATE SET
       region = EXCLUDED.region, licence_type = EXCLUDED.licence_type, status = EXCLUDED.status,
       business_name = EXCLUDED.business_name, licensee_name = EXCLUDED.licensee_name,
       owner_name = EXCLUDED.owner_name, address = EXCLUDED.address, city = EXCLUDED.city, state = EXCLUDED.state,
       zip = EXCLUDED.zip, county = EXCLUDED.county, phone = EXCLUDED.phone,
       mailing_address = EXCLUDED.mailing_address, rooms = EXCLUDED.rooms, source_url = EXCLUDED.source_url,
       file_hash = EXCLUDED.file_hash, loaded_at = now();

-- name: record_file
INSERT INTO sadie_gtm.licence_files AS t (registry, url, file_hash, bytes, rows_read, records, filtered, job_id)
VALUES (%(registry)s, %(url)s, %(file_hash)s, %(bytes)s, %(rows_read)s, %(records)s, %(filtered)s, %(job_id)s)
    ON CONFLICT (registry, url) DO UPDATE SET
       file_hash = EXCLUDED.file_hash, bytes = EXCLUDED.bytes, rows_read = EXCLUDED.rows_read,
       records = EXCLUDED.records, filtered = EXCLUDED.filtered, job_id = EXCLUDED.job_id, loaded_at = now(),
       checked_at = now();

-- name: load_job
-- The file's load as a job (no DMO; 0042): done once written, its unread rows are its job_errors.
INSERT INTO pipeline.jobs (dmo_id, data_domain, status, stage, source_key, source_name, source_sha256,
                           source_bytes, records_read, started_at, finished_at)
VALUES (NULL, 'licences', 'succeeded', 'promoted', %(url)s, %(registry)s, %(file_hash)s, %(bytes)s, %(rows_read)s,
        now(), now())
RETURNING id;

-- name: load_error
INSERT INTO pipeline.job_errors (job_id, stage, rec_num, record_id, original_record, error_type, error_message)
VALUES (%(job_id)s, 'import', %(rec_num)s, %(record_id)s, %(original)s, 'bad_record', %(message)s);

-- name: region_records
-- The records of the region's registers that no other hotel holds already (a licence is one
-- establishment's: never given to two hotels).
SELECT r.registry, r.licence_number, r.region, r.licence_type, r.status, r.business_name, r.licensee_name,
       r.owner_name, r.address, r.city, r.state, r.zip, r.county, r.phone, r.mailing_address, r.rooms, r.source_url
  FROM sadie_gtm.licence_records r
 WHERE r.registry = ANY(%(registries)s)
   AND NOT EXISTS (SELECT 1 FROM sadie_gtm.hotel_owner_enrichment e
                    WHERE e.licence_registry = r.registry AND e.licence_number = r.licence_number
                      AND e.hotel_id <> ALL(%(hotel_ids)s))
 ORDER BY r.registry, r.licence_number;

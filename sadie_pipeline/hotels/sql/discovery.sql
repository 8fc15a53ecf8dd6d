-- Discovery (discovery.py, save_sources): source records written in bulk. The rows are copied
-- into a temporary table, then one set-based upsert writes them: a million rows are one COPY and
-- one statement, not a million round trips.

-- name: staging
-- seq keeps the input order: within one batch the last row of an external id wins.
DROP TABLE IF EXISTS pg_temp.source_staging;
CREATE TEMP TABLE source_staging (
    seq         bigserial,
    region      text NOT NULL,
    city        text,
    external_id text NOT NULL,
    record      jsonb NOT NULL,
    raw_s3_path text
) ON COMMIT DROP;

-- name: copy_staging
COPY source_staging (region, city, external_id, record, raw_s3_path) FROM STDIN;

-- name: upsert_staged
-- One row per external id (the batch's last), inserted in input order; a row seen before gets
-- the new record, city and raw path, and last_seen_at moves on.
INSERT INTO sadie_gtm.hotel_sources AS t (region, city, source, external_id, record, raw_s3_path)
SELECT region, city, %(source)s, external_id, record, raw_s3_path
  FROM (SELECT DISTINCT ON (external_id) seq, region, city, external_id, record, raw_s3_path
          FROM source_staging ORDER BY external_id, seq DESC) last_of_each
 ORDER BY seq
    ON CONFLICT (source, external_id) DO UPDATE
   SET record = EXCLUDED.record, city = EXCLUDED.city, raw_s3_path = EXCLUDED.raw_s3_path, last_seen_at = now();
DROP TABLE source_staging;

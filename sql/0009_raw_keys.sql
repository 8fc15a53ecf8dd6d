-- Raw keys: the import records, next to the raw files, each raw record's keys (file, rec_num,
-- raw hash, source_id). Staging finds the records the DMO sent unchanged since its last promoted
-- import with one join on these keys, and stages them thin in SQL, without reading the raw
-- files or decoding the records; only the other records are read and transformed.
-- depends: 0008_promote_speed

CREATE TABLE IF NOT EXISTS staging.raw_keys (
    job_id    bigint  NOT NULL REFERENCES pipeline.jobs (id) ON DELETE CASCADE,
    file_seq  integer NOT NULL,
    rec_num   integer NOT NULL,
    raw_hash  text    NOT NULL,
    source_id text    NOT NULL
);
CREATE INDEX IF NOT EXISTS raw_keys_job_idx ON staging.raw_keys (job_id, file_seq);

-- Pipeline management tables (seed 004): configs, jobs and their snapshots, files,
-- results, record-level errors, the source -> target bridge and review decisions.
-- depends: 0001_public

CREATE SCHEMA IF NOT EXISTS pipeline;

CREATE TABLE IF NOT EXISTS pipeline.configs (
    id            bigserial PRIMARY KEY,
    dmo_id        integer NOT NULL REFERENCES public.dmos (id),
    source_type   text NOT NULL,
    data_domain   text NOT NULL DEFAULT 'listings',
    config_params jsonb NOT NULL,
    version       integer NOT NULL DEFAULT 1,
    schedule      text NOT NULL DEFAULT 'manual',
    active        boolean NOT NULL DEFAULT true,
    created_at    timestamp NOT NULL DEFAULT now(),
    updated_at    timestamp NOT NULL DEFAULT now(),
    UNIQUE (dmo_id, data_domain)
);

-- One job = one imported file taken through import, stage and promote.
CREATE TABLE IF NOT EXISTS pipeline.jobs (
    id             bigserial PRIMARY KEY,
    dmo_id         integer NOT NULL REFERENCES public.dmos (id),
    data_domain    text NOT NULL DEFAULT 'listings',
    status         text NOT NULL,   -- queued, in_progress, succeeded, failed
    stage          text NOT NULL,   -- import, stage, promote
    source_key     text,            -- the inbox object the job imported
    source_name    text,
    source_sha256  text,
    dagster_run_id text,
    records_read   integer,
    created_at     timestamp NOT NULL DEFAULT now(),
    started_at     timestamp,
    finished_at    timestamp,
    error_summary  text
);
CREATE UNIQUE INDEX IF NOT EXISTS jobs_source_key_uq ON pipeline.jobs (dmo_id, source_key);

CREATE TABLE IF NOT EXISTS pipeline.job_configs (
    job_id            bigint PRIMARY KEY REFERENCES pipeline.jobs (id) ON DELETE CASCADE,
    dmo_id            integer NOT NULL REFERENCES public.dmos (id),
    source_type       text NOT NULL,
    data_domain       text NOT NULL,
    config_params     jsonb NOT NULL,
    config_version    integer NOT NULL DEFAULT 1,
    schedule          text NOT NULL,
    created_at        timestamp NOT NULL DEFAULT now(),
    source_updated_at timestamp NOT NULL
);

CREATE TABLE IF NOT EXISTS pipeline.job_files (
    id           bigserial PRIMARY KEY,
    job_id       bigint NOT NULL REFERENCES pipeline.jobs (id) ON DELETE CASCADE,
    s3_path      text NOT NULL,
    stage        text NOT NULL,   -- raw, transformed
    data_domain  text,
    country      text,
    dmo_id       integer,
    file_date    date,
    batch        integer,
    format       text,
    file_size    bigint,
    record_count integer,
    created_at   timestamp NOT NULL DEFAULT now(),
    UNIQUE (job_id, stage, batch)
);

CREATE TABLE IF NOT EXISTS pipeline.job_results (
    job_id             bigint PRIMARY KEY REFERENCES pipeline.jobs (id) ON DELETE CASCADE,
    records_total      integer,
    records_new        integer,
    records_updated    integer,
    records_deleted    integer,
    records_duplicates integer,
    records_unchanged  integer,
    records_error      integer,
    records_review     integer,
    created_at         timestamp NOT NULL DEFAULT now(),
    updated_at         timestamp NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS pipeline.job_errors (
    id              bigserial PRIMARY KEY,
    job_id          bigint NOT NULL REFERENCES pipeline.jobs (id) ON DELETE CASCADE,
    file_id         bigint REFERENCES pipeline.job_files (id),
    stage           text NOT NULL DEFAULT 'stage',
    rec_num         integer,
    record_id       text,
    original_record jsonb,
    error_type      text,
    error_message   text,
    created_at      timestamp NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS job_errors_job_idx ON pipeline.job_errors (job_id);

CREATE TABLE IF NOT EXISTS pipeline.bridge_source_target (
    id              bigserial PRIMARY KEY,
    dmo_id          integer NOT NULL,
    source_id       text NOT NULL,
    target_type     text NOT NULL,   -- listing, listing_info
    target_id       integer NOT NULL,
    certainty_score numeric(5, 4) NOT NULL DEFAULT 1.0,
    job_id          bigint,
    created_at      timestamp NOT NULL DEFAULT now(),
    updated_at      timestamp NOT NULL DEFAULT now(),
    UNIQUE (dmo_id, source_id, target_type)
);
CREATE INDEX IF NOT EXISTS bridge_target_idx ON pipeline.bridge_source_target (target_type, target_id);

CREATE TABLE IF NOT EXISTS pipeline.review_decisions (
    id           bigserial PRIMARY KEY,
    stage_row_id bigint NOT NULL,
    job_id       bigint NOT NULL,
    dmo_id       integer NOT NULL,
    action       text NOT NULL,
    decision     text NOT NULL,   -- approved, rejected
    decided_by   text,
    decided_at   timestamp NOT NULL DEFAULT now()
);

-- Pulled listing sources (issue 17): one row per import job that pulled a DMO's configured source
-- (WordPress, Drupal, a partner API, a scraped site, a file at a URL): what it asked for and what it
-- got. The high-water mark of a DMO's newest promoted pull of the same source is where its next
-- incremental pull starts (listings/sources/pull.py).

CREATE TABLE IF NOT EXISTS pipeline.source_pulls (
    job_id          bigint PRIMARY KEY REFERENCES pipeline.jobs (id) ON DELETE CASCADE,
    dmo_id          integer NOT NULL REFERENCES public.dmos (id) ON DELETE CASCADE,
    source_type     text NOT NULL,
    source_key      text NOT NULL,   -- digest of the settings that decide what is pulled (url, paging, ...)
    url             text,
    incremental     boolean NOT NULL DEFAULT false,  -- asked only for what changed since `since`
    since           text,            -- the high-water mark the pull started from
    high_water_mark text,            -- the latest modification time pulled; NULL when pages failed
    pages_fetched   integer NOT NULL DEFAULT 0,
    pages_failed    integer NOT NULL DEFAULT 0,
    pages_total     integer,         -- as the source announced it (X-WP-TotalPages, meta.total_pages)
    records         integer NOT NULL DEFAULT 0,
    problems        integer NOT NULL DEFAULT 0,  -- job_errors rows of stage 'import'
    bytes_fetched   bigint NOT NULL DEFAULT 0,
    created_at      timestamp NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS source_pulls_dmo_idx ON pipeline.source_pulls (dmo_id, source_key, job_id DESC);

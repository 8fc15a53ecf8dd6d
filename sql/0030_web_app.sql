-- The review and operations web app (issue 18, sadie_pipeline/web): its users and API keys, what
-- people change by hand on listings (edits, visibility, merges, restores: listing_changes, with
-- who and when), merges that can be undone, jobs a person discarded after phase one of an upload,
-- and the indexes its searches and queues read.
-- depends: 0026_operations

CREATE TABLE IF NOT EXISTS pipeline.web_users (
    id            serial PRIMARY KEY,
    name          text NOT NULL UNIQUE,
    password_hash text NOT NULL,
    role          text NOT NULL CHECK (role IN ('viewer', 'reviewer', 'admin')),
    dmos          text[] NOT NULL DEFAULT '{}',   -- DMO slugs the user may see; empty: every DMO
    created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS pipeline.api_keys (
    id                  serial PRIMARY KEY,
    name                text NOT NULL UNIQUE,
    key_hash            text NOT NULL UNIQUE,      -- sha256 of the key: the key itself is shown once
    requests_per_minute integer NOT NULL DEFAULT 600 CHECK (requests_per_minute > 0),
    created_at          timestamptz NOT NULL DEFAULT now(),
    revoked_at          timestamptz
);

-- A merged listing points at the listing it was merged into; pipeline.listing_merges keeps what
-- the merge moved (DMO records, bridge rows) so that unmerge moves exactly those back.
ALTER TABLE public.listings ADD COLUMN IF NOT EXISTS merged_into integer REFERENCES public.listings (id);

CREATE TABLE IF NOT EXISTS pipeline.listing_merges (
    id               serial PRIMARY KEY,
    listing_id       integer NOT NULL REFERENCES public.listings (id),
    into_listing_id  integer NOT NULL REFERENCES public.listings (id),
    status_before    text NOT NULL,
    visible_before   boolean NOT NULL,
    moved_info_ids   integer[] NOT NULL DEFAULT '{}',
    moved_bridge_ids bigint[] NOT NULL DEFAULT '{}',
    merged_by        text NOT NULL,
    merged_at        timestamptz NOT NULL DEFAULT now(),
    undone_by        text,
    undone_at        timestamptz
);
CREATE INDEX IF NOT EXISTS listing_merges_open_idx ON pipeline.listing_merges (listing_id) WHERE undone_at IS NULL;

CREATE TABLE IF NOT EXISTS pipeline.listing_changes (
    id              bigserial PRIMARY KEY,
    listing_id      integer NOT NULL,
    listing_info_id integer,
    change          text NOT NULL,   -- edit, visibility, merge, unmerge, restore, force_match
    detail          jsonb,
    changed_by      text NOT NULL,
    changed_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS listing_changes_listing_idx ON pipeline.listing_changes (listing_id, changed_at);

-- Phase two of an upload may discard the staged job: nothing of it reaches public.
ALTER TABLE pipeline.jobs
    ADD COLUMN IF NOT EXISTS discarded_by text,
    ADD COLUMN IF NOT EXISTS discarded_at timestamptz;
ALTER TABLE pipeline.jobs DROP CONSTRAINT IF EXISTS jobs_stage_check;
ALTER TABLE pipeline.jobs ADD CONSTRAINT jobs_stage_check
    CHECK (stage IN ('import', 'imported', 'stage', 'staged', 'promoted', 'superseded', 'discarded'));

-- Listings search: names by trigram where pg_trgm is installed (contrib; the embedded server has
-- none), else by prefix; cities by equality. The review queue pages through pending rows by id.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE INDEX IF NOT EXISTS listings_name_trgm_idx ON public.listings USING gin (lower(name) gin_trgm_ops);
    END IF;
END $$;
CREATE INDEX IF NOT EXISTS listings_name_prefix_idx ON public.listings (lower(name) text_pattern_ops);
CREATE INDEX IF NOT EXISTS locations_city_idx ON public.locations (lower(city));
CREATE INDEX IF NOT EXISTS staging_listings_pending_id_idx ON staging.listings (id) WHERE review_status = 'pending';
CREATE INDEX IF NOT EXISTS review_decisions_row_idx ON pipeline.review_decisions (stage_row_id);
-- Listings found by city reach their listing through its location.
CREATE INDEX IF NOT EXISTS listings_location_idx ON public.listings (location_id);
-- Live listings per DMO (the sources page) by an index-only count; the listings merged into one.
CREATE INDEX IF NOT EXISTS listing_info_visible_dmo_idx ON public.listing_info (dmo_id) WHERE info_visible;
CREATE INDEX IF NOT EXISTS listings_merged_into_idx ON public.listings (merged_into) WHERE merged_into IS NOT NULL;

-- Staging: one row per imported record (and one per detected deletion), mirroring the two
-- matched public entities. Dependent objects (location, contact, images, hours) travel as
-- columns of their parent row; promotion resolves them through the matched public ids.
-- staging.listings carries the record's match, actions and review state for both entities;
-- staging.listing_info (the wide per-DMO detail) is written once and never updated.
-- depends: 0002_pipeline

CREATE SCHEMA IF NOT EXISTS staging;

CREATE TABLE IF NOT EXISTS staging.listings (
    id                 bigserial PRIMARY KEY,
    job_id             bigint NOT NULL REFERENCES pipeline.jobs (id) ON DELETE CASCADE,
    dmo_id             integer NOT NULL,
    file_seq           integer,
    rec_num            integer,           -- null for rows added by deletion detection
    raw_hash           text,              -- digest of the raw record: unchanged records reuse their staging
    source_id          text NOT NULL,
    name               varchar,
    category           varchar,
    google_place_id    varchar,
    address1           varchar,
    address2           varchar,
    city               varchar,
    state              varchar,
    zip                varchar,
    country            char(2),
    lat                numeric(10, 8),
    lng                numeric(11, 8),
    listing_match_hash text,
    l_hash             text,
    location_hash      text,
    target_listing_id  integer,
    target_listing_info_id integer,
    match_method       text,              -- source_id, match_hash, fuzzy
    certainty_score    numeric(5, 4),
    duplicate_of       bigint,
    action             text,              -- insert, update, unchanged, duplicate, delete
    l_action           text,
    li_action          text,
    ok_to_promote      boolean NOT NULL DEFAULT false,
    review_status      text,              -- pending, approved, rejected, superseded
    review_reason      text,
    promoted_at        timestamp,
    created_at         timestamp NOT NULL DEFAULT now()
) WITH (fillfactor = 50);  -- resolution, review and promotion update rows in place (HOT updates)
CREATE INDEX IF NOT EXISTS staging_listings_job_idx ON staging.listings (job_id);
CREATE INDEX IF NOT EXISTS staging_listings_dmo_idx ON staging.listings (dmo_id);

CREATE TABLE IF NOT EXISTS staging.listing_info (
    id                     bigint PRIMARY KEY REFERENCES staging.listings (id) ON DELETE CASCADE,
    job_id                 bigint NOT NULL,
    description            varchar,
    contact_name           varchar,
    email                  varchar,
    local_phone            varchar,
    international_phone    varchar,
    website_url            varchar,
    facebook_url           varchar,
    instagram_url          varchar,
    twitter_url            varchar,
    tripadvisor_url        varchar,
    images                 jsonb,
    hours                  jsonb,
    start_date             varchar,
    end_date               varchar,
    li_hash                text,
    contact_info_hash      text,
    images_hash            text,
    hours_hash             text
);
CREATE INDEX IF NOT EXISTS staging_listing_info_job_idx ON staging.listing_info (job_id);

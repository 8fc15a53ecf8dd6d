-- Production (canonical) tables, from seed 002 with the pipeline's additions:
-- listing_match_hash and the last promoted change hashes (so staging can compare without
-- recomputing from public rows), last_seen_at / last_job_id, and one listing_info per (listing, DMO).

CREATE TABLE IF NOT EXISTS public.dmos (
    id              serial PRIMARY KEY,
    slug            text NOT NULL UNIQUE,
    name            text NOT NULL,
    dmo_type_id     integer NOT NULL DEFAULT 3,      -- SCRAPED 1, TRAVEL_SITE 2, CLIENT 3, PARTNER 4
    source_type     text NOT NULL DEFAULT 'csv',
    created_at      timestamp NOT NULL DEFAULT now(),
    updated_at      timestamp NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS public.locations (
    id              serial PRIMARY KEY,
    address1        varchar,
    address2        varchar,
    city            varchar,
    state           varchar,
    zip             varchar,
    country         char(2),
    lat             numeric(10, 8),
    lng             numeric(11, 8),
    region_name     varchar,
    created_at      timestamp DEFAULT now(),
    updated_at      timestamp DEFAULT now()
);

CREATE TABLE IF NOT EXISTS public.contact_info (
    id                  serial PRIMARY KEY,
    name                varchar,
    email               varchar,
    local_phone         varchar,
    international_phone varchar,
    website_url         varchar,
    facebook_url        varchar,
    instagram_url       varchar,
    youtube_url         varchar,
    tiktok_url          varchar,
    twitter_url         varchar,
    pinterest_url       varchar,
    tripadvisor_url     varchar,
    yelp_url            varchar,
    created_at          timestamp DEFAULT now(),
    updated_at          timestamp DEFAULT now()
);

CREATE TABLE IF NOT EXISTS public.listings (
    id                   serial PRIMARY KEY,
    name                 varchar,
    category             varchar,
    google_place_id      varchar,
    location_id          integer REFERENCES public.locations (id),
    listing_match_hash   text,
    l_hash               text,
    location_hash        text,
    created_at           timestamp DEFAULT now(),
    updated_at           timestamp DEFAULT now(),
    manually_modified    boolean NOT NULL DEFAULT false,
    manually_modified_at timestamp,
    manually_modified_by integer,
    listing_visible      boolean NOT NULL DEFAULT true,
    listing_status       varchar NOT NULL DEFAULT 'active',
    last_job_id          bigint,
    last_seen_at         timestamp
);
CREATE INDEX IF NOT EXISTS listings_match_hash_idx ON public.listings (listing_match_hash);

CREATE TABLE IF NOT EXISTS public.listing_info (
    id                   serial PRIMARY KEY,
    listing_id           integer NOT NULL REFERENCES public.listings (id),
    dmo_id               integer NOT NULL REFERENCES public.dmos (id),
    external_source_id   text,
    description          varchar,
    contact_info_id      integer REFERENCES public.contact_info (id),
    l_hash               text,            -- listing-level hashes as this DMO last sent them
    location_hash        text,
    li_hash              text,
    contact_info_hash    text,
    images_hash          text,
    hours_hash           text,
    created_at           timestamp DEFAULT now(),
    updated_at           timestamp DEFAULT now(),
    manually_modified    boolean NOT NULL DEFAULT false,
    manually_modified_at timestamp,
    manually_modified_by integer,
    info_visible         boolean NOT NULL DEFAULT true,
    info_status          varchar NOT NULL DEFAULT 'active',
    last_seen_at         timestamp,
    last_job_id          bigint,
    UNIQUE (listing_id, dmo_id)
);
CREATE INDEX IF NOT EXISTS listing_info_dmo_idx ON public.listing_info (dmo_id);

CREATE TABLE IF NOT EXISTS public.listing_images (
    id              serial PRIMARY KEY,
    listing_info_id integer NOT NULL REFERENCES public.listing_info (id),
    image           varchar,
    rank            integer,
    created_at      timestamp DEFAULT now(),
    updated_at      timestamp DEFAULT now()
);
CREATE INDEX IF NOT EXISTS listing_images_info_idx ON public.listing_images (listing_info_id);

CREATE TABLE IF NOT EXISTS public.opening_dates (
    id              serial PRIMARY KEY,
    start_date      varchar,
    end_date        varchar,
    listing_info_id integer NOT NULL REFERENCES public.listing_info (id),
    created_at      timestamp DEFAULT now(),
    updated_at      timestamp DEFAULT now()
);
CREATE INDEX IF NOT EXISTS opening_dates_info_idx ON public.opening_dates (listing_info_id);

CREATE TABLE IF NOT EXISTS public.ref_days (
    id         serial PRIMARY KEY,
    name       varchar,
    created_at timestamp DEFAULT now(),
    updated_at timestamp DEFAULT now()
);
INSERT INTO public.ref_days (id, name) VALUES
    (1, 'Monday'), (2, 'Tuesday'), (3, 'Wednesday'), (4, 'Thursday'),
    (5, 'Friday'), (6, 'Saturday'), (7, 'Sunday')
ON CONFLICT (id) DO NOTHING;

CREATE TABLE IF NOT EXISTS public.opening_hours (
    id              serial PRIMARY KEY,
    opening_date_id integer NOT NULL REFERENCES public.opening_dates (id),
    day_id          integer,          -- ref_days id (1 = Monday); no FK: checked by the hours parser
    open_time       varchar,
    close_time      varchar,
    created_at      timestamp DEFAULT now(),
    updated_at      timestamp DEFAULT now()
);
CREATE INDEX IF NOT EXISTS opening_hours_date_idx ON public.opening_hours (opening_date_id);

CREATE TABLE IF NOT EXISTS public.ref_attributes (
    id          serial PRIMARY KEY,
    name        varchar,
    description varchar,
    icon        varchar,
    created_at  timestamp DEFAULT now(),
    updated_at  timestamp DEFAULT now()
);

CREATE TABLE IF NOT EXISTS public.bridge_attributes_listings (
    id           serial PRIMARY KEY,
    attribute_id integer REFERENCES public.ref_attributes (id),
    listing_id   integer REFERENCES public.listings (id),
    created_at   timestamp DEFAULT now(),
    updated_at   timestamp DEFAULT now()
);

-- Hotel leads (seeds 000 and 001): markets to discover, hotels and their source records,
-- booking engines, enrichment layers, decision makers; and the pipeline's dead letters.
-- Statuses on sadie_gtm.hotels: 0 scraped, 1 detected, 3 enriched, 4 scored, 5 live,
-- 6 exported, 99 no booking engine (dead end).
-- depends: 0003_staging

CREATE SCHEMA IF NOT EXISTS sadie_gtm;

CREATE TABLE IF NOT EXISTS sadie_gtm.markets (
    region     text NOT NULL,              -- ISO 3166-2, e.g. US-FL
    city       text NOT NULL,
    active     boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (region, city)
);

CREATE TABLE IF NOT EXISTS sadie_gtm.hotels (
    id                        serial PRIMARY KEY,
    region                    text NOT NULL,
    city                      text,
    name                      text NOT NULL,
    address                   text,
    state                     text,
    zip                       text,
    country                   char(2),
    lat                       double precision,
    lng                       double precision,
    phone                     text,
    website                   text,
    google_place_id           text,
    rating                    numeric(3, 2),
    review_count              integer,
    status                    integer NOT NULL DEFAULT 0,
    website_content_s3_path   text,
    created_at                timestamptz NOT NULL DEFAULT now(),
    updated_at                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS hotels_region_status_idx ON sadie_gtm.hotels (region, status);
CREATE UNIQUE INDEX IF NOT EXISTS hotels_place_id_uq ON sadie_gtm.hotels (google_place_id) WHERE google_place_id IS NOT NULL;

-- One row per record a discovery source returned; entity resolution points it at its hotel.
CREATE TABLE IF NOT EXISTS sadie_gtm.hotel_sources (
    id          bigserial PRIMARY KEY,
    region      text NOT NULL,
    city        text,
    source      text NOT NULL,            -- serper, dmo, csv
    external_id text NOT NULL,
    hotel_id    integer REFERENCES sadie_gtm.hotels (id),
    record      jsonb NOT NULL,
    raw_s3_path text,
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (source, external_id)
);
CREATE INDEX IF NOT EXISTS hotel_sources_hotel_idx ON sadie_gtm.hotel_sources (hotel_id);

CREATE TABLE IF NOT EXISTS sadie_gtm.hotel_entity_reviews (
    id           bigserial PRIMARY KEY,
    source_id_a  bigint NOT NULL REFERENCES sadie_gtm.hotel_sources (id),
    source_id_b  bigint NOT NULL REFERENCES sadie_gtm.hotel_sources (id),
    score        numeric(5, 4) NOT NULL,
    decision     text,                    -- null (pending), merge, separate
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (source_id_a, source_id_b)
);

CREATE TABLE IF NOT EXISTS sadie_gtm.booking_engines (
    id         serial PRIMARY KEY,
    name       text NOT NULL UNIQUE,
    tier       integer NOT NULL,
    category   text,
    signals    jsonb NOT NULL            -- domains, script_srcs, link_patterns, iframe_srcs, js_globals, cookies
);

CREATE TABLE IF NOT EXISTS sadie_gtm.hotel_booking_engines (
    hotel_id          integer PRIMARY KEY REFERENCES sadie_gtm.hotels (id),
    booking_engine_id integer REFERENCES sadie_gtm.booking_engines (id),
    booking_url       text,
    detection_method  text,
    confidence        numeric(4, 3),
    detected_at       timestamptz NOT NULL DEFAULT now()
);

-- Enrichment layers: one row per hotel, accumulated idempotently (COALESCE, OR, DISTINCT, GREATEST).
CREATE TABLE IF NOT EXISTS sadie_gtm.hotel_owner_enrichment (
    hotel_id          integer PRIMARY KEY REFERENCES sadie_gtm.hotels (id),
    layers_completed  integer NOT NULL DEFAULT 0,
    status            integer NOT NULL DEFAULT 0,
    room_count        integer,
    room_count_evidence text,
    room_count_source text,
    nearest_attraction text,
    nearest_attraction_km double precision,
    attractions_by_radius jsonb,
    property_type     text,
    chain_or_independent text,
    management_company text,
    amenities         text[],
    research_evidence jsonb,
    registrant_org    text,
    email_provider    text,
    mx_hosts          text[],
    sources           text[] NOT NULL DEFAULT '{}',
    confidence        double precision,
    layer_updated_at  jsonb NOT NULL DEFAULT '{}',
    updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS sadie_gtm.hotel_decision_makers (
    id             serial PRIMARY KEY,
    hotel_id       integer NOT NULL REFERENCES sadie_gtm.hotels (id),
    full_name      text NOT NULL,
    title          text NOT NULL DEFAULT '',
    email          text,
    email_verified boolean NOT NULL DEFAULT false,
    email_status   text,
    phone          text,
    sources        text[] NOT NULL DEFAULT '{}',
    confidence     double precision NOT NULL DEFAULT 0,
    raw_source_url text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (hotel_id, full_name, title)
);

-- Items an external service failed three times for; the run goes on without them.
CREATE TABLE IF NOT EXISTS pipeline.dead_letters (
    id              bigserial PRIMARY KEY,
    item_key        text NOT NULL,
    layer           text NOT NULL,
    error_class     text NOT NULL,
    attempts        integer NOT NULL CHECK (attempts >= 0),
    last_error      text NOT NULL DEFAULT '',
    first_failed_at timestamptz NOT NULL DEFAULT now(),
    last_failed_at  timestamptz NOT NULL DEFAULT now(),
    resolved_at     timestamptz,
    UNIQUE (item_key, layer)
);
CREATE INDEX IF NOT EXISTS dead_letters_unresolved_idx
    ON pipeline.dead_letters (layer, last_failed_at) WHERE resolved_at IS NULL;

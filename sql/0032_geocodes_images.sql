-- Geocodes and images after promotion (issue 17, listings/geocodes.py and listings/images.py).
-- pipeline.geocode_cache: every definitive answer of the geocoding provider by normalised address
-- (core/geocode.py address_key), so an address is asked once. pipeline.location_geocodes: each
-- location's last outcome with its reason. public.listing_images gains each image's state and what
-- processing made of it; pipeline.image_fetches keeps each URL's download per listing_info, since a
-- promotion replaces a listing_info's image rows whole when its set changes.
-- The status values are the enums of core/geocode.py and core/images.py (a test keeps them alike).
-- depends: 0026_operations

CREATE TABLE IF NOT EXISTS pipeline.geocode_cache (
    address_key       text PRIMARY KEY,
    query             text NOT NULL,
    status            text NOT NULL CHECK (status IN ('found', 'zero_results')),
    lat               numeric(10, 8),
    lng               numeric(11, 8),
    precision         text CHECK (precision IN ('rooftop', 'interpolated', 'street', 'approximate')),
    formatted_address text,
    place_id          text,
    provider          text NOT NULL,
    created_at        timestamp NOT NULL DEFAULT now(),
    updated_at        timestamp NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS pipeline.location_geocodes (
    location_id integer PRIMARY KEY REFERENCES public.locations (id) ON DELETE CASCADE,
    address_key text NOT NULL,       -- '' when there was no address to ask with
    status      text NOT NULL CHECK (status IN ('geocoded', 'zero_results', 'approximate', 'no_address', 'failed')),
    reason      text,
    provider    text,
    from_cache  boolean NOT NULL DEFAULT false,
    attempts    integer NOT NULL DEFAULT 1,
    updated_at  timestamp NOT NULL DEFAULT now()
);

ALTER TABLE public.listing_images
    ADD COLUMN IF NOT EXISTS image_status  text CHECK (image_status IN ('ok', 'duplicate', 'failed')),
    ADD COLUMN IF NOT EXISTS status_reason text,
    ADD COLUMN IF NOT EXISTS canonical_url text,
    ADD COLUMN IF NOT EXISTS variants      jsonb,
    ADD COLUMN IF NOT EXISTS width         integer,
    ADD COLUMN IF NOT EXISTS height        integer,
    ADD COLUMN IF NOT EXISTS phash         text,
    ADD COLUMN IF NOT EXISTS duplicate_of  integer,
    ADD COLUMN IF NOT EXISTS processed_at  timestamp;
-- The work list: images never processed or failed (the rest is most of the table, and done).
CREATE INDEX IF NOT EXISTS listing_images_to_process_idx ON public.listing_images (listing_info_id)
    WHERE image_status IS NULL OR image_status = 'failed';

CREATE TABLE IF NOT EXISTS pipeline.image_fetches (
    listing_info_id integer NOT NULL REFERENCES public.listing_info (id) ON DELETE CASCADE,
    source_url      text NOT NULL,
    status          text NOT NULL CHECK (status IN ('ok', 'failed')),
    failure         text,
    reason          text,
    attempts        integer NOT NULL DEFAULT 1,
    storage_key     text,
    canonical_url   text,
    variants        jsonb,
    content_type    text,
    byte_size       bigint,
    width           integer,
    height          integer,
    phash           text,
    fetched_at      timestamp NOT NULL DEFAULT now(),
    PRIMARY KEY (listing_info_id, source_url)
);

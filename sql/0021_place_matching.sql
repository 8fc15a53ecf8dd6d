-- One place-matching engine (core/places): the blocking keys of every listing, so that staging
-- finds candidates by phone, website, street and number, name words or map cell, not only by city;
-- the explanation of every fuzzy match; the explanation of every hotel pair sent to review.

-- Both tables are UNLOGGED and without foreign keys: derived data, never worth a WAL write or a
-- trigger per key; a crash empties both together, and the next lookup keys every listing again.
-- Keys of a listing that no longer exists match nothing: the lookup joins public.listings.
CREATE UNLOGGED TABLE IF NOT EXISTS pipeline.listing_match_keys (
    listing_id  integer NOT NULL,
    key         text NOT NULL
);
CREATE INDEX IF NOT EXISTS listing_match_keys_key_idx ON pipeline.listing_match_keys (key, listing_id);
CREATE INDEX IF NOT EXISTS listing_match_keys_listing_idx ON pipeline.listing_match_keys (listing_id);

-- What the keys of a listing were computed from (a digest of its fields and of the engine's code):
-- a listing whose digest differs is keyed again before candidates are looked up.
CREATE UNLOGGED TABLE IF NOT EXISTS pipeline.listing_match_keyed (
    listing_id  integer PRIMARY KEY,
    fingerprint text NOT NULL
);

ALTER TABLE staging.listings ADD COLUMN IF NOT EXISTS match_explanation jsonb;
ALTER TABLE sadie_gtm.hotel_entity_reviews ADD COLUMN IF NOT EXISTS explanation jsonb;

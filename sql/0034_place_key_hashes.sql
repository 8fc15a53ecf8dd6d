-- The listings' blocking keys stored as 64-bit hashes (listings/match_keys.py): a promotion of
-- 100,000 new listings sorts and indexes 700,000 numbers instead of strings. The lowest bit says
-- whether a key is a name word, whose blocks are capped lower (match_keys.sql, candidates). Two keys
-- of one hash would only add a candidate to score. hashtextextended hashes the key's bytes (keys are
-- compared byte-wise) and is stable across releases: hash partitioning relies on it.
CREATE OR REPLACE FUNCTION pipeline.place_key_hash(key text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT (hashtextextended(key, 0) & ~1::bigint) | (left(key, 2) = 'n:')::int $$;

ALTER TABLE pipeline.listing_match_keys ALTER COLUMN key TYPE bigint USING pipeline.place_key_hash(key);

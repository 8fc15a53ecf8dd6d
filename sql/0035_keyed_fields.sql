-- What a listing's keys were computed from is stored as the fields themselves and the engine's
-- code version, not as an md5 of their text: the check before every lookup compares fields
-- (listings/match_keys.py, stale) instead of printing and hashing every listing's, and a promotion
-- writes its new listings' fields from their staged rows. Rows keyed before have no version: the
-- next lookup keys them again (the tables are derived data).
ALTER TABLE pipeline.listing_match_keyed
    ADD COLUMN IF NOT EXISTS version text,
    ADD COLUMN IF NOT EXISTS name text,
    ADD COLUMN IF NOT EXISTS address1 text,
    ADD COLUMN IF NOT EXISTS city text,
    ADD COLUMN IF NOT EXISTS state text,
    ADD COLUMN IF NOT EXISTS zip text,
    ADD COLUMN IF NOT EXISTS lat numeric,
    ADD COLUMN IF NOT EXISTS lng numeric,
    ADD COLUMN IF NOT EXISTS phone text,
    ADD COLUMN IF NOT EXISTS website text,
    ADD COLUMN IF NOT EXISTS merged boolean;
ALTER TABLE pipeline.listing_match_keyed DROP COLUMN IF EXISTS fingerprint;

-- The fields a listing's keys come from (one phone and one website of its DMOs' contacts); the
-- keyed row holds the same columns. `fields`, the text the digest was of, is gone with it.
DROP VIEW IF EXISTS pipeline.listing_place_fields;
CREATE VIEW pipeline.listing_place_fields AS
SELECT l.id, l.name, loc.address1, loc.city, loc.state, loc.zip, loc.lat, loc.lng, c.phone, c.website,
       l.listing_status = 'merged' AS merged
  FROM public.listings l
  LEFT JOIN public.locations loc ON loc.id = l.location_id
  LEFT JOIN (SELECT li.listing_id, min(ci.international_phone) AS phone, min(ci.website_url) AS website
               FROM public.listing_info li JOIN public.contact_info ci ON ci.id = li.contact_info_id
              GROUP BY li.listing_id) c ON c.listing_id = l.id;

-- Stored place forms (core/places/form.py): the stage's workers compute each staged record's form
-- and the keys its listing will be found by, so that matching a job normalises no text in the
-- stage's own process and a promotion keys the listings it creates from their rows.
-- JSON arrays of strings: COPY writes them from orjson, where psycopg would build each text[] in Python.
ALTER TABLE staging.listings ADD COLUMN IF NOT EXISTS place_form jsonb;
ALTER TABLE staging.listings ADD COLUMN IF NOT EXISTS place_keys jsonb;
ALTER TABLE pipeline.listing_match_keyed ADD COLUMN IF NOT EXISTS form jsonb;

-- The fields a listing's keys come from (one phone and one website of its DMOs' contacts), and
-- `fields`, their concatenation: a listing's keys are current while the digest of `fields` (and of
-- the engine's code) is the one stored in pipeline.listing_match_keyed. The one definition of it,
-- for the keying before a lookup and for the promotion that keys the listings it creates.
CREATE OR REPLACE VIEW pipeline.listing_place_fields AS
SELECT l.id, l.name, loc.address1, loc.city, loc.zip, c.phone, loc.state, c.website, loc.lat, loc.lng,
       l.listing_status = 'merged' AS merged,
       concat_ws('|', l.name, loc.address1, loc.city, loc.state, loc.zip, loc.lat, loc.lng, c.phone, c.website,
                 l.listing_status = 'merged') AS fields
  FROM public.listings l
  LEFT JOIN public.locations loc ON loc.id = l.location_id
  LEFT JOIN (SELECT li.listing_id, min(ci.international_phone) AS phone, min(ci.website_url) AS website
               FROM public.listing_info li JOIN public.contact_info ci ON ci.id = li.contact_info_id
              GROUP BY li.listing_id) c ON c.listing_id = l.id;

-- A promotion of 100,000 new listings writes about 700,000 keys in one statement: they compare
-- byte-wise (COLLATE "C"), arrive in key order, and maintain one index, not two (a listing's keys
-- are forgotten only when its fields changed, by a scan of the table).
ALTER TABLE pipeline.listing_match_keys ALTER COLUMN key TYPE text COLLATE "C";
DROP INDEX IF EXISTS pipeline.listing_match_keys_listing_idx;

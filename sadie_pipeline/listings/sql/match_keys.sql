-- The blocking keys of the listings (core.places computes them; see listings/match_keys.py).

-- name: stale
-- Listings whose keys are missing or were computed from other fields or other code
-- (pipeline.listing_place_fields says which fields; the keyed row holds those it was keyed from), in
-- core.matching.MatchRecord's order, then whether merged.
SELECT f.id, f.name, f.address1, f.city, f.zip, f.phone, f.state, f.website, f.lat, f.lng, f.merged
  FROM pipeline.listing_place_fields f
  LEFT JOIN pipeline.listing_match_keyed k ON k.listing_id = f.id
 WHERE (k.version, k.name, k.address1, k.city, k.state, k.zip, k.lat, k.lng, k.phone, k.website, k.merged)
       IS DISTINCT FROM (%(version)s::text, f.name, f.address1, f.city, f.state, f.zip, f.lat, f.lng, f.phone,
                         f.website, f.merged);

-- name: forget
DELETE FROM pipeline.listing_match_keys WHERE listing_id = ANY(%(ids)s);
DELETE FROM pipeline.listing_match_keyed WHERE listing_id = ANY(%(ids)s);

-- name: key_table
-- The keys of the listings being keyed, as text until store_keys hashes them (0034_place_key_hashes.sql).
CREATE TEMP TABLE new_keys (listing_id int, key text) ON COMMIT DROP;

-- name: copy_keys
COPY new_keys (listing_id, key) FROM STDIN;

-- name: store_keys
INSERT INTO pipeline.listing_match_keys (listing_id, key)
SELECT listing_id, pipeline.place_key_hash(key) FROM new_keys ORDER BY 2;
TRUNCATE new_keys;

-- name: copy_keyed
COPY pipeline.listing_match_keyed (listing_id, version, name, address1, city, zip, phone, state, website, lat, lng,
                                   merged, form) FROM STDIN;

-- name: candidates
-- The listings (with an id above %(after)s, not merged) sharing a key with the records, through
-- keys that at most %(max_block)s listings share, %(name_block)s for a name word (a larger block
-- says nothing: a chain's name; core.places.index caps its blocks alike). A listing with its stored
-- form needs no phone or website (core.matching reads its coordinates only): only one keyed by an
-- older release looks them up. %(exclude)s: listings that are no candidate and count in no block
-- (a promotion's own new listings, promote.py's last step); empty elsewhere.
WITH hits AS (
    SELECT key, listing_id FROM pipeline.listing_match_keys
     WHERE key = ANY(ARRAY(SELECT pipeline.place_key_hash(k) FROM unnest(%(keys)s::text[]) k))
       AND listing_id > %(after)s
       AND listing_id NOT IN (SELECT unnest(%(exclude)s::int[]))
), small AS (
    SELECT key FROM hits GROUP BY key  -- a name word's hash ends in a 1 bit
    HAVING count(*) <= CASE WHEN key & 1 = 1 THEN %(name_block)s ELSE %(max_block)s END
)
SELECT l.id, l.name, loc.address1, loc.city, loc.zip, c.phone, loc.state, c.website, loc.lat, loc.lng, k.form
  FROM (SELECT DISTINCT listing_id FROM hits WHERE key IN (SELECT key FROM small)) h
  JOIN public.listings l ON l.id = h.listing_id AND l.listing_status <> 'merged'
  LEFT JOIN public.locations loc ON loc.id = l.location_id
  LEFT JOIN pipeline.listing_match_keyed k ON k.listing_id = l.id
  LEFT JOIN LATERAL (SELECT min(ci.international_phone) AS phone, min(ci.website_url) AS website
                       FROM public.listing_info li JOIN public.contact_info ci ON ci.id = li.contact_info_id
                      WHERE li.listing_id = l.id AND k.form IS NULL) c ON true
 ORDER BY l.id;

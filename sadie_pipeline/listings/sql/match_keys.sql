-- The blocking keys of the listings (core.places computes them; see listings/match_keys.py).

-- name: stale
-- Listings whose keys are missing or were computed from other fields or other code: each with the
-- fields the keys come from (one phone and one website of its DMOs' contacts) and their digest.
WITH contacts AS (
    SELECT li.listing_id, min(ci.international_phone) AS phone, min(ci.website_url) AS website
      FROM public.listing_info li JOIN public.contact_info ci ON ci.id = li.contact_info_id
     GROUP BY li.listing_id
), cur AS (
    SELECT l.id, l.name, loc.address1, loc.city, c.phone, loc.state, c.website, loc.lat, loc.lng,
           md5(concat_ws('|', %(version)s::text, l.name, loc.address1, loc.city, loc.state, loc.zip, loc.lat,
                         loc.lng, c.phone, c.website, l.listing_status = 'merged')) AS fingerprint,
           loc.zip, l.listing_status = 'merged' AS merged
      FROM public.listings l
      LEFT JOIN public.locations loc ON loc.id = l.location_id
      LEFT JOIN contacts c ON c.listing_id = l.id
)
SELECT cur.id, cur.name, cur.address1, cur.city, cur.zip, cur.phone, cur.state, cur.website, cur.lat, cur.lng,
       cur.fingerprint, cur.merged
  FROM cur LEFT JOIN pipeline.listing_match_keyed k ON k.listing_id = cur.id
 WHERE k.fingerprint IS DISTINCT FROM cur.fingerprint;

-- name: forget
DELETE FROM pipeline.listing_match_keys WHERE listing_id = ANY(%(ids)s);

-- name: keyed
INSERT INTO pipeline.listing_match_keyed (listing_id, fingerprint)
SELECT * FROM unnest(%(ids)s::int[], %(fingerprints)s::text[])
    ON CONFLICT (listing_id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint;

-- name: candidates
-- The listings (with an id above %(after)s, not merged) sharing a key with the records, through
-- keys that at most %(max_block)s listings share, %(name_block)s for a name word (a larger block
-- says nothing: a chain's name; core.places.index caps its blocks alike).
WITH hits AS (
    SELECT key, listing_id FROM pipeline.listing_match_keys
     WHERE key = ANY(%(keys)s) AND listing_id > %(after)s
), small AS (
    SELECT key FROM hits GROUP BY key
    HAVING count(*) <= CASE WHEN key LIKE 'n:%%' THEN %(name_block)s ELSE %(max_block)s END
), contacts AS (
    SELECT li.listing_id, min(ci.international_phone) AS phone, min(ci.website_url) AS website
      FROM public.listing_info li JOIN public.contact_info ci ON ci.id = li.contact_info_id
     WHERE li.listing_id IN (SELECT listing_id FROM hits)
     GROUP BY li.listing_id
)
SELECT l.id, l.name, loc.address1, loc.city, loc.zip, c.phone, loc.state, c.website, loc.lat, loc.lng
  FROM (SELECT DISTINCT listing_id FROM hits WHERE key IN (SELECT key FROM small)) h
  JOIN public.listings l ON l.id = h.listing_id AND l.listing_status <> 'merged'
  LEFT JOIN public.locations loc ON loc.id = l.location_id
  LEFT JOIN contacts c ON c.listing_id = l.id
 ORDER BY l.id;

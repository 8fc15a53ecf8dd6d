-- Listings search (listing_search.py), for the listings page, the review page's "Match to..." box and
-- /v1/admin/listings: every query word is in the folded name (sql/0039: accents, case, "&"/"and",
-- punctuation forgiven; any order) or, with pg_trgm, within a typo of one of its words. The four
-- longest words are each a condition the trigram index serves; the rest are checked on its rows.
-- Filters by city (locations_city_idx), DMO, status, category (a group takes its subtypes: "lodging"
-- finds "lodging.hotel") and region (country, state); paged by id. status_counts counts the listings
-- of the same filters but status, by status, for the counts above the list.

-- name: typo_tolerance
-- How close a misspelt word must be (pg_trgm's word similarity; its default 0.6 misses "aubrge"),
-- for this transaction only.
SELECT set_config('pg_trgm.word_similarity_threshold', %(threshold)s, true);

-- name: no_jit
-- The counts' plans cost enough to be compiled (JIT), which takes longer than the count, for this
-- transaction only.
SELECT set_config('jit', 'off', true);

-- name: search
SELECT l.id, l.name, l.category, l.listing_visible, l.listing_status, l.manually_modified, l.merged_into,
       loc.city, loc.state, l.updated_at,
       (SELECT string_agg(d.slug, ', ' ORDER BY d.slug) FROM public.listing_info li
          JOIN public.dmos d ON d.id = li.dmo_id WHERE li.listing_id = l.id) AS dmos
  FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
 WHERE l.id > %(after)s
   AND (%(status)s::text IS NULL OR l.listing_status = %(status)s)
   AND (%(w1)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w1)s::text), l.name_search))
   AND (%(w2)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w2)s::text), l.name_search))
   AND (%(w3)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w3)s::text), l.name_search))
   AND (%(w4)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w4)s::text), l.name_search))
   AND (%(more)s::text[] IS NULL OR NOT EXISTS (SELECT 1 FROM unnest(%(more)s::text[]) w
                                                 WHERE NOT public.sadie_word_match(public.sadie_fold(w), l.name_search)))
   AND (%(city)s::text IS NULL OR lower(loc.city) = lower(%(city)s))
   AND (%(dmo)s::text IS NULL OR EXISTS (SELECT 1 FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                          WHERE li.listing_id = l.id AND d.slug = %(dmo)s))
   AND (%(dmos)s::text[] IS NULL OR EXISTS (SELECT 1 FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                             WHERE li.listing_id = l.id AND d.slug = ANY(%(dmos)s)))
   AND (%(category)s::text IS NULL OR lower(l.category) = %(category)s
        OR (%(category_group)s::text IS NOT NULL AND lower(l.category) LIKE %(category_group)s))
   AND (%(country)s::text IS NULL OR loc.country = %(country)s::char(2))
   AND (%(state)s::text IS NULL OR loc.state = %(state)s)
 ORDER BY l.id
 LIMIT %(limit)s;

-- name: status_counts
SELECT l.listing_status AS status, count(*) AS n
  FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
 WHERE true
   AND (%(w1)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w1)s::text), l.name_search))
   AND (%(w2)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w2)s::text), l.name_search))
   AND (%(w3)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w3)s::text), l.name_search))
   AND (%(w4)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w4)s::text), l.name_search))
   AND (%(more)s::text[] IS NULL OR NOT EXISTS (SELECT 1 FROM unnest(%(more)s::text[]) w
                                                 WHERE NOT public.sadie_word_match(public.sadie_fold(w), l.name_search)))
   AND (%(city)s::text IS NULL OR lower(loc.city) = lower(%(city)s))
   AND (%(dmo)s::text IS NULL OR EXISTS (SELECT 1 FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                          WHERE li.listing_id = l.id AND d.slug = %(dmo)s))
   AND (%(dmos)s::text[] IS NULL OR EXISTS (SELECT 1 FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                             WHERE li.listing_id = l.id AND d.slug = ANY(%(dmos)s)))
   AND (%(category)s::text IS NULL OR lower(l.category) = %(category)s
        OR (%(category_group)s::text IS NOT NULL AND lower(l.category) LIKE %(category_group)s))
   AND (%(country)s::text IS NULL OR loc.country = %(country)s::char(2))
   AND (%(state)s::text IS NULL OR loc.state = %(state)s)
 GROUP BY l.listing_status
 ORDER BY count(*) DESC;

-- name: regions
-- The countries and states the locations of the user's listings have (the region filter's choices).
SELECT loc.country, loc.state, count(*) AS n
  FROM public.listings l JOIN public.locations loc ON loc.id = l.location_id
 WHERE (%(dmos)s::text[] IS NULL OR EXISTS (SELECT 1 FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                            WHERE li.listing_id = l.id AND d.slug = ANY(%(dmos)s)))
   AND (loc.country IS NOT NULL OR loc.state IS NOT NULL)
 GROUP BY loc.country, loc.state
 ORDER BY loc.country NULLS LAST, loc.state NULLS FIRST
 LIMIT 500;

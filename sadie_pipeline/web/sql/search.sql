-- Listings search (listing_search.py), for the listings page, the review page's "Match to..." box and
-- /v1/admin/listings: every query word is in the folded name (sql/0039: accents, case, "&"/"and",
-- punctuation forgiven; any order) or, with pg_trgm, within a typo of one of its words. The four
-- longest words are each a condition the trigram index serves; the rest are checked on its rows.
-- Filters by city (locations_city_idx), DMO and status; paged by id.

-- name: typo_tolerance
-- How close a misspelt word must be (pg_trgm's word similarity; its default 0.6 misses "aubrge"),
-- for this transaction only.
SELECT set_config('pg_trgm.word_similarity_threshold', %(threshold)s, true);

-- name: search
SELECT l.id, l.name, l.category, l.listing_visible, l.listing_status, l.manually_modified, l.merged_into,
       loc.city, loc.state, l.updated_at,
       (SELECT string_agg(d.slug, ', ' ORDER BY d.slug) FROM public.listing_info li
          JOIN public.dmos d ON d.id = li.dmo_id WHERE li.listing_id = l.id) AS dmos
  FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
 WHERE l.id > %(after)s
   AND (%(w1)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w1)s::text), l.name_search))
   AND (%(w2)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w2)s::text), l.name_search))
   AND (%(w3)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w3)s::text), l.name_search))
   AND (%(w4)s::text IS NULL OR public.sadie_word_match(public.sadie_fold(%(w4)s::text), l.name_search))
   AND (%(more)s::text[] IS NULL OR NOT EXISTS (SELECT 1 FROM unnest(%(more)s::text[]) w
                                                 WHERE NOT public.sadie_word_match(public.sadie_fold(w), l.name_search)))
   AND (%(city)s::text IS NULL OR lower(loc.city) = lower(%(city)s))
   AND (%(status)s::text IS NULL OR l.listing_status = %(status)s)
   AND (%(dmo)s::text IS NULL OR EXISTS (SELECT 1 FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                          WHERE li.listing_id = l.id AND d.slug = %(dmo)s))
   AND (%(dmos)s::text[] IS NULL OR EXISTS (SELECT 1 FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                             WHERE li.listing_id = l.id AND d.slug = ANY(%(dmos)s)))
 ORDER BY l.id
 LIMIT %(limit)s;

-- The name search finds a part of a name anywhere (LIKE '%...%'), which only the trigram index
-- serves: the prefix index never answered a search, and every new listing paid for it.
DROP INDEX IF EXISTS public.listings_name_prefix_idx;

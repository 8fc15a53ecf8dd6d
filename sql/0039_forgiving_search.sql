-- Issue 30: a listings search that forgives, and web accounts whose sessions end when they change.
--
-- public.sadie_fold(text): text as the search compares it: accents and case dropped (unaccent where
-- the server has it; a fixed table of Latin letters on the embedded server, which has no contrib),
-- "&" read as "and", any other run of non-letters read as one space. Declared IMMUTABLE (unaccent's
-- dictionary does not change under a running app) so that it can feed a stored column.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'unaccent') THEN
        CREATE EXTENSION IF NOT EXISTS unaccent;
        CREATE OR REPLACE FUNCTION public.sadie_fold(value text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
            SELECT btrim(regexp_replace(replace(lower(public.unaccent('public.unaccent'::regdictionary, value)),
                                                '&', ' and '), '[^[:alnum:]]+', ' ', 'g'))
        $f$;
    ELSE
        CREATE OR REPLACE FUNCTION public.sadie_fold(value text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
            SELECT btrim(regexp_replace(replace(replace(replace(replace(lower(translate(value,
                'ÀÁÂÃÄÅĀĂĄÇĆČĎÈÉÊËĒĖĘĚÌÍÎÏĪĮİÑŃŇÒÓÔÕÖØŌŐÙÚÛÜŪŮŰŲÝŸŹŻŽŚŠŞŢŤŔŘĹĽŁàáâãäåāăąçćčďèéêëēėęěìíîïīįıñńňòóôõöøōőùúûüūůűųýÿźżžśšşţťŕřĺľł',
                'AAAAAAAAACCCDEEEEEEEEIIIIIIINNNOOOOOOOOUUUUUUUUYYZZZSSSTTRRLLLaaaaaaaaacccdeeeeeeeeiiiiiiinnnoooooooouuuuuuuuyyzzzsssttrrlll')),
                'œ', 'oe'), 'æ', 'ae'), 'ß', 'ss'), '&', ' and '), '[^[:alnum:]]+', ' ', 'g'))
        $f$;
    END IF;
END $$;

-- The folded name, kept by the server on every write (no writer of listings has to know of it).
ALTER TABLE public.listings ADD COLUMN IF NOT EXISTS name_search text GENERATED ALWAYS AS (public.sadie_fold(name)) STORED;

-- public.sadie_word_match(word, folded): a folded query word begins a word of the folded name ("and"
-- finds "&", not "Island"), or (with pg_trgm) is a word of it within a typo (word similarity over
-- pg_trgm.word_similarity_threshold; for words of four characters or more without digits: 12345 is
-- not a typo of 1234). Plain SQL so that the planner inlines it and the trigram index serves it.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE OR REPLACE FUNCTION public.sadie_word_match(word text, folded text) RETURNS boolean
        LANGUAGE sql STABLE PARALLEL SAFE AS $f$
            SELECT folded LIKE word || '%' OR folded LIKE '% ' || word || '%'
                OR (length(word) >= 4 AND word !~ '[0-9]' AND word OPERATOR(public.<%) folded)
        $f$;
        CREATE INDEX IF NOT EXISTS listings_name_search_trgm_idx ON public.listings USING gin (name_search gin_trgm_ops);
    ELSE
        CREATE OR REPLACE FUNCTION public.sadie_word_match(word text, folded text) RETURNS boolean
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
            SELECT folded LIKE word || '%' OR folded LIKE '% ' || word || '%'
        $f$;
    END IF;
END $$;

-- Accounts: a session carries its user's session_version, which a password reset or a change of
-- role, DMOs or grants raises: every session opened before it is over. grants: what a DMO-limited
-- user may see beyond its DMOs ('hotels': the hotel pages).
ALTER TABLE pipeline.web_users
    ADD COLUMN IF NOT EXISTS session_version integer NOT NULL DEFAULT 1,
    ADD COLUMN IF NOT EXISTS grants text[] NOT NULL DEFAULT '{}';

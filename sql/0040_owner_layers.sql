-- Issue 31: every owner layer of seed 001 (WHOIS, WHOIS history, certificate transparency, licence
-- registers, ABN / ASIC, review replies, Common Crawl, Google Maps details) and mailboxes verified
-- over SMTP or Microsoft's account check.
-- depends: 0039_forgiving_search

ALTER TABLE sadie_gtm.hotel_owner_enrichment
    ADD COLUMN IF NOT EXISTS whois_server          text,     -- the registrar's WHOIS server answered
    ADD COLUMN IF NOT EXISTS whois_registrant_org  text,
    ADD COLUMN IF NOT EXISTS whois_privacy         boolean,
    ADD COLUMN IF NOT EXISTS whois_history_date    date,     -- the archived record used (newest unmasked)
    ADD COLUMN IF NOT EXISTS whois_history_org     text,
    ADD COLUMN IF NOT EXISTS cert_orgs             text[],   -- O= of OV/EV certificates
    ADD COLUMN IF NOT EXISTS cert_sibling_domains  text[],   -- other registrable domains on those certificates
    ADD COLUMN IF NOT EXISTS cert_org_matches_whois boolean,
    ADD COLUMN IF NOT EXISTS licence_registry      text,     -- e.g. fl_dbpr_lodging
    ADD COLUMN IF NOT EXISTS licence_number        text,
    ADD COLUMN IF NOT EXISTS licensee_name         text,
    ADD COLUMN IF NOT EXISTS licence_mailing_address text,
    ADD COLUMN IF NOT EXISTS abn                   text,
    ADD COLUMN IF NOT EXISTS abn_entity_name       text,
    ADD COLUMN IF NOT EXISTS abn_trading_names     text[],
    ADD COLUMN IF NOT EXISTS abn_state             text,
    ADD COLUMN IF NOT EXISTS abn_status            text,
    ADD COLUMN IF NOT EXISTS review_replies        integer,  -- owner / manager replies read
    ADD COLUMN IF NOT EXISTS cc_crawl              text,     -- the Common Crawl index the pages came from
    ADD COLUMN IF NOT EXISTS cc_pages              integer,
    ADD COLUMN IF NOT EXISTS opening_hours         jsonb,
    ADD COLUMN IF NOT EXISTS price_level           text,
    ADD COLUMN IF NOT EXISTS photos_count          integer,
    ADD COLUMN IF NOT EXISTS gmaps_rating          numeric(3, 2),
    ADD COLUMN IF NOT EXISTS gmaps_reviews         integer;

-- A mailbox check's outcome: verified_smtp | verified_o365 | catch_all | rejected | unknown (the
-- older syntax / MX statuses and pattern_guess stay for addresses not checked yet), the server's
-- reply as evidence, and when.
ALTER TABLE sadie_gtm.hotel_decision_makers
    ADD COLUMN IF NOT EXISTS email_reply       text,
    ADD COLUMN IF NOT EXISTS email_checked_at  timestamptz;

-- Promotion: staged rows that are ok_to_promote -> public, set-based, in one transaction.
-- One pass over the DMO's staged rows takes the batch (take_batch): it marks the rows promoted,
-- draws the new ids of the rows to insert from the public sequences (so every insert is a plain
-- INSERT ... SELECT) and keeps their keys in `promo`, the narrow working set every later statement
-- reads. promote.py counts the batch by action and runs only the statements some row needs. The
-- staged content is read only for rows that insert or update something: a thin row has keys alone.

-- name: promo_table
CREATE TEMP TABLE promo (
    id bigint, job_id bigint, action text, l_action text, li_action text, target_listing_id int,
    target_listing_info_id int, duplicate_of bigint, source_id text, certainty_score numeric(5, 4),
    match_method text, raw_hash text, new_location_id int, new_contact_id int
) ON COMMIT DROP;

-- name: new_listings_since_stage
-- The newest listing when the earliest stage of the batch began, if listings were created since (by
-- other DMOs' promotions); else NULL.
SELECT j.seen FROM (SELECT min(listings_seen_upto) AS seen FROM pipeline.jobs WHERE id = ANY(%(staged_jobs)s)) j
 WHERE EXISTS (SELECT 1 FROM public.listings l WHERE l.id > j.seen);

-- name: rematch_by_hash
-- A record staged as new that has the match hash of a listing created since its stage began: it is
-- that listing, as it would have been had the two imports run one after the other.
UPDATE staging.listings s
   SET target_listing_id = m.listing_id, l_action = 'unchanged', match_method = 'match_hash', certainty_score = 1
  FROM (SELECT r.id, (SELECT min(l.id) FROM public.listings l
                       WHERE l.listing_match_hash = r.listing_match_hash AND l.id > j.listings_seen_upto
                         AND l.listing_status <> 'merged') AS listing_id
          FROM staging.listings r JOIN pipeline.jobs j ON j.id = r.job_id
         WHERE r.job_id = ANY(%(staged_jobs)s) AND r.l_action = 'insert' AND r.ok_to_promote
           AND r.review_status IS NULL) m
 WHERE s.id = m.id AND m.listing_id IS NOT NULL
RETURNING s.id, s.target_listing_id;

-- name: rematch_taken
-- Records the re-matches just put on a listing (%(ids)s on %(targets)s) that another record of their
-- DMO already takes wait for a person: one promoted with them, one a person approved, or a record of
-- the DMO on it already (a DMO has one record a listing). The stage saw that listing, which another
-- promotion created while it ran, for the other record; in order it would have met both on it.
WITH moved AS (SELECT * FROM unnest(%(ids)s::bigint[], %(targets)s::int[]) AS m(id, target)),
taken AS (
    SELECT o.id, o.target_listing_id AS listing FROM staging.listings o
     WHERE o.job_id = ANY(%(staged_jobs)s) AND o.ok_to_promote AND o.target_listing_id IN (SELECT target FROM moved)
    UNION ALL
    SELECT o.id, o.target_listing_id FROM staging.listings o
     WHERE o.dmo_id = %(dmo)s AND o.review_status = 'approved' AND o.promoted_at IS NULL
       AND o.target_listing_id IN (SELECT target FROM moved)
    UNION ALL
    SELECT NULL, li.listing_id FROM public.listing_info li
     WHERE li.dmo_id = %(dmo)s AND li.listing_id IN (SELECT target FROM moved))
UPDATE staging.listings s
   SET review_status = 'pending', ok_to_promote = false,
       review_reason = 'matches listing ' || m.target || ', which another record of this DMO has'
                       || ' (created by another import while this one was staged)'
  FROM moved m
 WHERE s.id = m.id AND s.ok_to_promote
   AND EXISTS (SELECT 1 FROM taken t WHERE t.listing = m.target AND t.id IS DISTINCT FROM m.id);

-- name: rematch_records
-- The jobs' records for fuzzy matching against those listings: the ones still staged as new, and the
-- ones the stage matched fuzzily that go as they are (no person to decide), judged again as a stage
-- seeing those listings too would have judged them. Text fields only for a row without its place
-- form, as in resolve.sql's unmatched_rows; last, a matched record's listing and certainty (NULL
-- for a new one).
SELECT s.id, t.name, t.address1, t.city, t.zip, t.international_phone, t.state, t.website_url, s.lat::float8,
       s.lng::float8, s.place_form, CASE WHEN s.l_action <> 'insert' THEN s.target_listing_id END,
       s.certainty_score::float8
  FROM staging.listings s
  LEFT JOIN LATERAL (SELECT s.name, s.address1, s.city, s.zip, i.international_phone, s.state, i.website_url
                       FROM staging.listing_info i WHERE i.id = s.id AND s.place_form IS NULL) t ON true
 WHERE s.job_id = ANY(%(staged_jobs)s) AND s.ok_to_promote AND s.review_status IS NULL
   AND (s.l_action = 'insert'
        OR (s.l_action IN ('unchanged', 'update') AND s.li_action = 'insert' AND s.match_method = 'fuzzy'
            AND s.duplicate_of IS NULL AND s.certainty_score < 1))
 ORDER BY s.id;

-- name: rematch_fuzzy
-- %(ids)s matched %(targets)s with %(certainties)s: over the auto-match threshold they join the
-- listing, else they wait for a person, as do the records (%(second)s) matching a listing another
-- record of theirs matched better.
UPDATE staging.listings s
   SET target_listing_id = m.target, l_action = 'unchanged', match_method = 'fuzzy', certainty_score = m.certainty,
       match_explanation = m.explanation,
       review_status = CASE WHEN m.certainty < %(auto_match)s OR m.second THEN 'pending' END,
       ok_to_promote = m.certainty >= %(auto_match)s AND NOT m.second,
       review_reason = CASE WHEN m.certainty < %(auto_match)s OR m.second
                            THEN 'fuzzy match to listing ' || m.target || ' with certainty ' || m.certainty
                                 || coalesce(' (' || m.reason || ')', '')
                                 || ' (created by another import while this one was staged)' END
  FROM unnest(%(ids)s::bigint[], %(targets)s::int[], %(certainties)s::numeric[], %(second)s::boolean[],
              %(explanations)s::jsonb[], %(reasons)s::text[])
       AS m(id, target, certainty, second, explanation, reason)
 WHERE s.id = m.id;

-- name: new_listings_floor
-- Below every listing id a promotion starting now draws: the key of its NEW_LISTINGS lock (promote.py).
SELECT greatest(last_value - 1, 0)::int FROM public.listings_id_seq;

-- name: listings_seen_now
-- Every listing this transaction does not see yet has an id above this: the newest listing it sees,
-- or lower, below the ids a promotion under way may still commit (the keys of their NEW_LISTINGS
-- locks, 5 in locks.py: each is taken before its holder draws an id and let go after it commits).
SELECT least((SELECT coalesce(max(id), 0) FROM public.listings),
             (SELECT min(l.objid::bigint) FROM pg_locks l
               WHERE l.locktype = 'advisory' AND l.classid = 5 AND l.objsubid = 2
                 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())))::int;

-- name: rematch_by_hash_since
-- The last steps (promote.py, _rematch_since): a record of the batch that creates a listing and has the
-- match hash of a listing another promotion committed since the last re-match (above %(since)s, not one
-- of the batch's own) is that listing, as rematch_by_hash would have found had it come first. The few
-- listings above %(since)s are joined to the batch, not the batch looked up one by one.
UPDATE staging.listings s
   SET target_listing_id = m.listing_id, l_action = 'unchanged', match_method = 'match_hash', certainty_score = 1
  FROM (SELECT r.id, min(l.id) AS listing_id
          FROM promo p JOIN staging.listings r ON r.id = p.id
          JOIN public.listings l ON l.listing_match_hash = r.listing_match_hash
         WHERE p.l_action = 'insert' AND r.review_status IS NULL AND l.id > %(since)s
           AND l.listing_status <> 'merged'
           AND l.id NOT IN (SELECT o.target_listing_id FROM promo o
                             WHERE o.l_action = 'insert' AND o.target_listing_id IS NOT NULL)
         GROUP BY r.id) m
 WHERE s.id = m.id;

-- name: rematch_records_in_batch
-- The batch's records, for the last steps (as rematch_records): those that still create a listing,
-- and those joining one by a fuzzy match, which a listing committed meanwhile may beat (the
-- promotion then rolls back).
SELECT s.id, t.name, t.address1, t.city, t.zip, t.international_phone, t.state, t.website_url, s.lat::float8,
       s.lng::float8, s.place_form, CASE WHEN p.l_action <> 'insert' THEN p.target_listing_id END,
       s.certainty_score::float8
  FROM promo p JOIN staging.listings s ON s.id = p.id
  LEFT JOIN LATERAL (SELECT s.name, s.address1, s.city, s.zip, i.international_phone, s.state, i.website_url
                       FROM staging.listing_info i WHERE i.id = s.id AND s.place_form IS NULL) t ON true
 WHERE s.review_status IS NULL
   AND ((p.l_action = 'insert' AND s.l_action = 'insert')
        OR (p.l_action IN ('unchanged', 'update') AND p.li_action = 'insert' AND p.duplicate_of IS NULL
            AND s.match_method = 'fuzzy' AND s.certainty_score < 1))
 ORDER BY s.id;

-- name: considered_table
-- The listings above the promotion's first %(since)s that a re-match of it has seen (other promotions').
CREATE TEMP TABLE considered (id int PRIMARY KEY) ON COMMIT DROP;
INSERT INTO considered SELECT id FROM public.listings WHERE id > %(since)s;

-- name: fresh_since
-- Whether another promotion committed a listing above %(since)s that no re-match of this one has seen.
-- (NOT IN a subquery: hashed once, where NOT EXISTS could read promo once per listing.)
SELECT EXISTS (SELECT 1 FROM public.listings l
                WHERE l.id > %(since)s AND l.id NOT IN (SELECT c.id FROM considered c)
                  AND l.id NOT IN (SELECT o.target_listing_id FROM promo o
                                    WHERE o.l_action = 'insert' AND o.target_listing_id IS NOT NULL));

-- name: consider
-- Those listings, seen by the re-match that follows.
INSERT INTO considered
SELECT l.id FROM public.listings l
 WHERE l.id > %(since)s
   AND l.id NOT IN (SELECT o.target_listing_id FROM promo o WHERE o.l_action = 'insert' AND o.target_listing_id IS NOT NULL)
ON CONFLICT (id) DO NOTHING;

-- name: batch_new_listings
-- The listings the batch creates: no candidate of its own last step (match_keys.sql candidates' exclude).
SELECT o.target_listing_id FROM promo o WHERE o.l_action = 'insert' AND o.target_listing_id IS NOT NULL;

-- name: repoint_rematched
-- The batch's records the last step matched to another promotion's listing: their listing_info rows
-- (and their duplicates') moved to it, the bridge too; the listings they had created, with their
-- locations and keys, gone. Nothing else refers to those: they are this transaction's own.
DROP TABLE IF EXISTS repointed;
CREATE TEMP TABLE repointed ON COMMIT DROP AS
SELECT p.id, p.target_listing_id AS own_listing, s.target_listing_id AS listing, p.new_location_id,
       s.certainty_score, s.match_method
  FROM promo p JOIN staging.listings s ON s.id = p.id
 WHERE p.l_action = 'insert' AND s.l_action = 'unchanged';
ANALYZE repointed;  -- joined to promo below: hashed, not read once per row
UPDATE staging.listings s SET target_listing_id = r.listing
  FROM promo p JOIN repointed r ON r.own_listing = p.target_listing_id
 WHERE s.id = p.id AND p.id <> r.id;
UPDATE public.listing_info li SET listing_id = r.listing
  FROM promo p JOIN repointed r ON r.own_listing = p.target_listing_id
 WHERE li.id = p.target_listing_info_id AND li.listing_id = r.own_listing;
UPDATE pipeline.bridge_source_target b
   SET target_id = r.listing,
       certainty_score = CASE WHEN p.id = r.id THEN coalesce(r.certainty_score, 1) ELSE b.certainty_score END
  FROM promo p JOIN repointed r ON r.own_listing = p.target_listing_id
 WHERE b.dmo_id = %(dmo)s AND b.source_id = p.source_id AND b.target_type = 'listing'
   AND b.target_id = r.own_listing;
UPDATE promo p SET target_listing_id = r.listing,
                   l_action = CASE WHEN p.id = r.id THEN 'unchanged' ELSE p.l_action END,
                   certainty_score = CASE WHEN p.id = r.id THEN r.certainty_score ELSE p.certainty_score END,
                   match_method = CASE WHEN p.id = r.id THEN r.match_method ELSE p.match_method END
  FROM repointed r WHERE p.target_listing_id = r.own_listing;
DELETE FROM pipeline.listing_match_keys k USING repointed r WHERE k.listing_id = r.own_listing;
DELETE FROM pipeline.listing_match_keyed k USING repointed r WHERE k.listing_id = r.own_listing;

-- name: drop_repointed
-- Their listings and locations (run without row triggers: the foreign keys' checks would each read
-- listing_info whole, and repoint_rematched moved what referred to them).
DELETE FROM public.listings l USING repointed r WHERE l.id = r.own_listing;
DELETE FROM public.locations loc USING repointed r WHERE loc.id = r.new_location_id;

-- name: take_batch
-- The DMO's rows that may be promoted and are not yet: marked promoted, new ids drawn for what they
-- insert (written to the staged row as its targets), their keys copied into promo. They are the rows
-- of the jobs promoted now (%(staged_jobs)s), thin rows included, and rows a person decided on
-- (approved, or rejected as a new listing) after their job was promoted. Approved duplicates follow
-- their primary: one whose primary is not promoted yet and is not in this batch either waits.
WITH batch AS (
    UPDATE staging.listings s
       SET promoted_at = now(),
           target_listing_id = CASE WHEN s.l_action = 'insert' THEN nextval('public.listings_id_seq')
                                    ELSE s.target_listing_id END,
           target_listing_info_id = CASE WHEN s.li_action = 'insert' THEN nextval('public.listing_info_id_seq')
                                         ELSE s.target_listing_info_id END
     WHERE s.dmo_id = %(dmo)s AND s.ok_to_promote AND s.promoted_at IS NULL
       AND (s.job_id = ANY(%(staged_jobs)s) OR s.review_status IN ('approved', 'rejected'))
       AND (s.action IS DISTINCT FROM 'duplicate' OR NOT EXISTS (
            SELECT 1 FROM staging.listings prim
             WHERE prim.id = s.duplicate_of AND prim.promoted_at IS NULL
               AND NOT (prim.dmo_id = %(dmo)s AND prim.ok_to_promote)))
    RETURNING s.id, s.job_id, s.action, s.l_action, s.li_action, s.target_listing_id, s.target_listing_info_id,
              s.duplicate_of, s.source_id, s.certainty_score, s.match_method, s.raw_hash,
              CASE WHEN s.l_action = 'insert' THEN nextval('public.locations_id_seq') END,
              CASE WHEN s.li_action = 'insert' THEN nextval('public.contact_info_id_seq') END)
INSERT INTO promo SELECT * FROM batch;

-- name: batch_shape
-- What the batch holds, to skip the statements no row needs (and for the result and job figures);
-- the fifth column: matched by what the bridge says; the sixth: joining a listing by a fuzzy match,
-- which a listing another promotion commits meanwhile may beat (the last steps judge it again).
ANALYZE promo;
SELECT job_id, action, l_action, li_action, coalesce(match_method, '') <> 'source_id',
       match_method IS NOT DISTINCT FROM 'fuzzy' AND certainty_score < 1 AND l_action <> 'insert'
           AND li_action = 'insert', count(*)
  FROM promo GROUP BY 1, 2, 3, 4, 5, 6;

-- name: insert_locations
INSERT INTO public.locations (id, address1, address2, city, state, zip, country, lat, lng)
SELECT p.new_location_id, s.address1, s.address2, s.city, s.state, s.zip, s.country, s.lat, s.lng
  FROM promo p JOIN staging.listings s ON s.id = p.id WHERE p.l_action = 'insert';

-- name: insert_listings
INSERT INTO public.listings (id, name, category, google_place_id, location_id, listing_match_hash, l_hash,
                             location_hash)
SELECT p.target_listing_id, s.name, s.category, s.google_place_id, p.new_location_id, s.listing_match_hash,
       s.l_hash, s.location_hash
  FROM promo p JOIN staging.listings s ON s.id = p.id WHERE p.l_action = 'insert';

-- name: duplicate_targets
-- Duplicates take their primary's targets (drawn in this batch or promoted earlier), in promo and as
-- the staged row's targets.
UPDATE promo p SET target_listing_id = coalesce(q.target_listing_id, prim.target_listing_id),
                   target_listing_info_id = coalesce(q.target_listing_info_id, prim.target_listing_info_id)
  FROM staging.listings prim
  LEFT JOIN promo q ON q.id = prim.id
 WHERE p.action = 'duplicate' AND prim.id = p.duplicate_of;
UPDATE staging.listings s SET target_listing_id = p.target_listing_id, target_listing_info_id = p.target_listing_info_id
  FROM promo p WHERE p.action = 'duplicate' AND s.id = p.id;

-- name: update_listings
-- The merge policies (%(<table>_policy)s): latest_wins takes the staged value, field_level_merge the
-- staged value unless empty, skip_if_exists keeps the public value.
-- A row a person approved keeps the live value of the fields they kept (a hand edit) and of those
-- it leaves blank (staging.keeps_live); the listing stays marked as edited by hand if a kept field is its.
UPDATE public.locations loc
   SET address1 = CASE WHEN staging.keeps_live(s.keep_fields, 'address1', nullif(btrim(s.address1), '') IS NULL) THEN loc.address1 ELSE CASE %(locations_policy)s WHEN 'latest_wins' THEN s.address1 WHEN 'field_level_merge' THEN coalesce(s.address1, loc.address1) ELSE loc.address1 END END,
       address2 = CASE %(locations_policy)s WHEN 'latest_wins' THEN s.address2 WHEN 'field_level_merge' THEN coalesce(s.address2, loc.address2) ELSE loc.address2 END,
       city = CASE WHEN staging.keeps_live(s.keep_fields, 'city', nullif(btrim(s.city), '') IS NULL) THEN loc.city ELSE CASE %(locations_policy)s WHEN 'latest_wins' THEN s.city WHEN 'field_level_merge' THEN coalesce(s.city, loc.city) ELSE loc.city END END,
       state = CASE WHEN staging.keeps_live(s.keep_fields, 'state', nullif(btrim(s.state), '') IS NULL) THEN loc.state ELSE CASE %(locations_policy)s WHEN 'latest_wins' THEN s.state WHEN 'field_level_merge' THEN coalesce(s.state, loc.state) ELSE loc.state END END,
       zip = CASE WHEN staging.keeps_live(s.keep_fields, 'zip', nullif(btrim(s.zip), '') IS NULL) THEN loc.zip ELSE CASE %(locations_policy)s WHEN 'latest_wins' THEN s.zip WHEN 'field_level_merge' THEN coalesce(s.zip, loc.zip) ELSE loc.zip END END,
       country = CASE %(locations_policy)s WHEN 'latest_wins' THEN s.country WHEN 'field_level_merge' THEN coalesce(s.country, loc.country) ELSE loc.country END,
       lat = CASE WHEN staging.keeps_live(s.keep_fields, 'lat', s.lat IS NULL) THEN loc.lat ELSE CASE %(locations_policy)s WHEN 'latest_wins' THEN s.lat WHEN 'field_level_merge' THEN coalesce(s.lat, loc.lat) ELSE loc.lat END END,
       lng = CASE WHEN staging.keeps_live(s.keep_fields, 'lng', s.lng IS NULL) THEN loc.lng ELSE CASE %(locations_policy)s WHEN 'latest_wins' THEN s.lng WHEN 'field_level_merge' THEN coalesce(s.lng, loc.lng) ELSE loc.lng END END,
       updated_at = now()
  FROM promo p JOIN staging.listings s ON s.id = p.id JOIN public.listings l ON l.id = p.target_listing_id
 WHERE p.l_action = 'update' AND loc.id = l.location_id AND l.location_hash IS DISTINCT FROM s.location_hash;
UPDATE public.listings l
   SET name = CASE WHEN staging.keeps_live(s.keep_fields, 'name', nullif(btrim(s.name), '') IS NULL) THEN l.name ELSE CASE %(listings_policy)s WHEN 'latest_wins' THEN s.name WHEN 'field_level_merge' THEN coalesce(s.name, l.name) ELSE l.name END END,
       category = CASE WHEN staging.keeps_live(s.keep_fields, 'category', nullif(btrim(s.category), '') IS NULL) THEN l.category ELSE CASE %(listings_policy)s WHEN 'latest_wins' THEN s.category WHEN 'field_level_merge' THEN coalesce(s.category, l.category) ELSE l.category END END,
       google_place_id = CASE %(listings_policy)s WHEN 'latest_wins' THEN s.google_place_id WHEN 'field_level_merge' THEN coalesce(s.google_place_id, l.google_place_id) ELSE l.google_place_id END,
       l_hash = s.l_hash, location_hash = s.location_hash, listing_match_hash = s.listing_match_hash,
       listing_visible = true, listing_status = 'active', updated_at = now(),
       manually_modified = l.manually_modified AND coalesce(s.keep_fields && '{name,category,address1,city,state,zip,lat,lng}', false)
  FROM promo p JOIN staging.listings s ON s.id = p.id
 WHERE p.l_action = 'update' AND l.id = p.target_listing_id;

-- name: insert_contacts
INSERT INTO public.contact_info (id, name, email, local_phone, international_phone, website_url, facebook_url,
                                 instagram_url, twitter_url, tripadvisor_url)
SELECT p.new_contact_id, i.contact_name, i.email, i.local_phone, i.international_phone, i.website_url,
       i.facebook_url, i.instagram_url, i.twitter_url, i.tripadvisor_url
  FROM promo p JOIN staging.listing_info i ON i.id = p.id WHERE p.li_action = 'insert';

-- name: insert_listing_info
INSERT INTO public.listing_info (id, listing_id, dmo_id, external_source_id, description, contact_info_id,
                                 l_hash, location_hash, li_hash, contact_info_hash, images_hash, hours_hash,
                                 raw_hash, last_seen_at, last_job_id)
SELECT p.target_listing_info_id, p.target_listing_id, %(dmo)s, p.source_id, i.description, p.new_contact_id,
       s.l_hash, s.location_hash, i.li_hash, i.contact_info_hash, i.images_hash, i.hours_hash, s.raw_hash, now(),
       p.job_id
  FROM promo p JOIN staging.listing_info i ON i.id = p.id JOIN staging.listings s ON s.id = p.id
 WHERE p.li_action = 'insert';

-- name: update_contacts
UPDATE public.contact_info c
   SET name = CASE %(contact_info_policy)s WHEN 'latest_wins' THEN i.contact_name WHEN 'field_level_merge' THEN coalesce(i.contact_name, c.name) ELSE c.name END,
       email = CASE WHEN staging.keeps_live(s.keep_fields, 'email', nullif(btrim(i.email), '') IS NULL) THEN c.email ELSE CASE %(contact_info_policy)s WHEN 'latest_wins' THEN i.email WHEN 'field_level_merge' THEN coalesce(i.email, c.email) ELSE c.email END END,
       local_phone = CASE WHEN staging.keeps_live(s.keep_fields, 'local_phone', nullif(btrim(i.local_phone), '') IS NULL) THEN c.local_phone ELSE CASE %(contact_info_policy)s WHEN 'latest_wins' THEN i.local_phone WHEN 'field_level_merge' THEN coalesce(i.local_phone, c.local_phone) ELSE c.local_phone END END,
       international_phone = CASE %(contact_info_policy)s WHEN 'latest_wins' THEN i.international_phone WHEN 'field_level_merge' THEN coalesce(i.international_phone, c.international_phone) ELSE c.international_phone END,
       website_url = CASE WHEN staging.keeps_live(s.keep_fields, 'website_url', nullif(btrim(i.website_url), '') IS NULL) THEN c.website_url ELSE CASE %(contact_info_policy)s WHEN 'latest_wins' THEN i.website_url WHEN 'field_level_merge' THEN coalesce(i.website_url, c.website_url) ELSE c.website_url END END,
       facebook_url = CASE %(contact_info_policy)s WHEN 'latest_wins' THEN i.facebook_url WHEN 'field_level_merge' THEN coalesce(i.facebook_url, c.facebook_url) ELSE c.facebook_url END,
       instagram_url = CASE %(contact_info_policy)s WHEN 'latest_wins' THEN i.instagram_url WHEN 'field_level_merge' THEN coalesce(i.instagram_url, c.instagram_url) ELSE c.instagram_url END,
       twitter_url = CASE %(contact_info_policy)s WHEN 'latest_wins' THEN i.twitter_url WHEN 'field_level_merge' THEN coalesce(i.twitter_url, c.twitter_url) ELSE c.twitter_url END,
       tripadvisor_url = CASE %(contact_info_policy)s WHEN 'latest_wins' THEN i.tripadvisor_url WHEN 'field_level_merge' THEN coalesce(i.tripadvisor_url, c.tripadvisor_url) ELSE c.tripadvisor_url END,
       updated_at = now()
  FROM promo p JOIN staging.listing_info i ON i.id = p.id JOIN staging.listings s ON s.id = p.id
  JOIN public.listing_info li ON li.id = p.target_listing_info_id
 WHERE p.li_action = 'update' AND c.id = li.contact_info_id AND li.contact_info_hash IS DISTINCT FROM i.contact_info_hash;

-- name: replaced_children
-- Images and hours of changed listing_info rows are replaced as a set: an updated one first loses the
-- children whose hash changed (compared before update_listing_info writes the new hashes); a new one
-- has none yet. Empty when the batch updates no listing_info.
CREATE TEMP TABLE replaced_children ON COMMIT DROP AS
SELECT p.target_listing_info_id AS li_id,
       li.images_hash IS DISTINCT FROM i.images_hash AS images_changed,
       li.hours_hash IS DISTINCT FROM i.hours_hash AS hours_changed
  FROM promo p JOIN staging.listing_info i ON i.id = p.id
  LEFT JOIN public.listing_info li ON li.id = p.target_listing_info_id
 WHERE p.li_action = 'update';
ANALYZE replaced_children;
DELETE FROM public.listing_images im USING replaced_children c WHERE c.images_changed AND im.listing_info_id = c.li_id;
DELETE FROM public.opening_hours h USING public.opening_dates d, replaced_children c
 WHERE c.hours_changed AND d.listing_info_id = c.li_id AND h.opening_date_id = d.id;
DELETE FROM public.opening_dates d USING replaced_children c WHERE c.hours_changed AND d.listing_info_id = c.li_id;

-- name: insert_children
-- The new images, opening dates and hours of inserted and changed listing_info rows, from one read of
-- the staged rows. Returns how many opening dates were to be inserted and how many were (the parents
-- of the hours, checked by the caller when the per-row foreign-key triggers are skipped).
WITH src AS MATERIALIZED (
    SELECT c.li_id, c.images_changed, c.images, c.hours, c.start_date, c.end_date,
           CASE WHEN c.hours_changed AND (jsonb_array_length(coalesce(c.hours, '[]')) > 0
                                          OR c.start_date IS NOT NULL OR c.end_date IS NOT NULL)
                THEN nextval('public.opening_dates_id_seq') END AS date_id
      FROM (SELECT p.target_listing_info_id AS li_id, i.images, i.hours, i.start_date, i.end_date,
                   p.li_action = 'insert' OR coalesce(r.images_changed, false) AS images_changed,
                   p.li_action = 'insert' OR coalesce(r.hours_changed, false) AS hours_changed
              FROM promo p JOIN staging.listing_info i ON i.id = p.id
              LEFT JOIN replaced_children r ON r.li_id = p.target_listing_info_id AND p.li_action = 'update'
             WHERE p.li_action IN ('insert', 'update')) c
     WHERE c.images_changed OR c.hours_changed),
images AS (
    INSERT INTO public.listing_images (listing_info_id, image, rank)
    SELECT s.li_id, img.value, img.ordinality
      FROM src s, jsonb_array_elements_text(coalesce(s.images, '[]')) WITH ORDINALITY AS img(value, ordinality)
     WHERE s.images_changed),
dates AS (
    INSERT INTO public.opening_dates (id, listing_info_id, start_date, end_date)
    SELECT s.date_id, s.li_id, s.start_date, s.end_date FROM src s WHERE s.date_id IS NOT NULL
    RETURNING id),
hours AS (
    INSERT INTO public.opening_hours (opening_date_id, day_id, open_time, close_time)
    SELECT s.date_id, (h.value ->> 0)::int, h.value ->> 1, h.value ->> 2
      FROM src s, jsonb_array_elements(coalesce(s.hours, '[]')) AS h(value)
     WHERE s.date_id IS NOT NULL)
SELECT (SELECT count(*) FROM src WHERE date_id IS NOT NULL), (SELECT count(*) FROM dates);

-- name: update_listing_info
UPDATE public.listing_info li
   SET description = CASE WHEN staging.keeps_live(s.keep_fields, 'description', nullif(btrim(i.description), '') IS NULL) THEN li.description ELSE CASE %(listing_info_policy)s WHEN 'latest_wins' THEN i.description WHEN 'field_level_merge' THEN coalesce(i.description, li.description) ELSE li.description END END,
       li_hash = i.li_hash, contact_info_hash = i.contact_info_hash, images_hash = i.images_hash,
       hours_hash = i.hours_hash, l_hash = s.l_hash, location_hash = s.location_hash, raw_hash = s.raw_hash,
       info_visible = true, info_status = 'active', updated_at = now(),
       manually_modified = li.manually_modified AND coalesce(s.keep_fields && '{description,email,local_phone,website_url}', false),
       last_seen_at = now(), last_job_id = p.job_id
  FROM promo p JOIN staging.listing_info i ON i.id = p.id JOIN staging.listings s ON s.id = p.id
 WHERE (p.li_action = 'update' OR p.l_action = 'update') AND li.id = p.target_listing_info_id;

-- name: touch_unchanged_info
-- Unchanged rows: promo's targets are all they need (a thin row has nothing else). (A listing's last
-- sighting is that of its listing_info rows: the view public.listing_last_seen.)
UPDATE public.listing_info li SET last_seen_at = now(), last_job_id = p.job_id, raw_hash = p.raw_hash
  FROM promo p WHERE p.li_action = 'unchanged' AND li.id = p.target_listing_info_id;

-- name: soft_delete
UPDATE public.listing_info li SET info_visible = false, info_status = 'missing_from_import', updated_at = now()
  FROM promo p WHERE p.action = 'delete' AND li.id = p.target_listing_info_id;
-- The listing goes too when no other DMO shows it now (one may have come since the stage).
UPDATE public.listings l SET listing_visible = false, listing_status = 'missing_from_import', updated_at = now()
  FROM promo p
 WHERE p.action = 'delete' AND p.l_action = 'delete' AND l.id = p.target_listing_id
   AND NOT EXISTS (SELECT 1 FROM public.listing_info o WHERE o.listing_id = l.id AND o.info_visible);

-- name: key_new_listings
-- The blocking keys and forms of the listings this batch created, from the staged rows that created
-- them (the stage's workers computed both), with the fields they come from and the key version of
-- the job that staged them: the next lookup keys none of them again (listings/match_keys.py) unless
-- a release came between the stage and now. A new listing's fields are its staged row's, its one
-- contact that row's (a duplicate adds none). Written in this transaction, so that a listing and its
-- keys appear together.
INSERT INTO pipeline.listing_match_keys (listing_id, key)
SELECT p.target_listing_id, pipeline.place_key_hash(k.key)
  FROM promo p JOIN staging.listings s ON s.id = p.id CROSS JOIN jsonb_array_elements_text(s.place_keys) k(key)
 WHERE p.l_action = 'insert' AND s.place_form IS NOT NULL
 ORDER BY 2;
INSERT INTO pipeline.listing_match_keyed (listing_id, version, name, address1, city, state, zip, lat, lng, phone,
                                          website, merged, form)
SELECT p.target_listing_id, j.key_version, s.name, s.address1, s.city, s.state, s.zip, s.lat, s.lng,
       i.international_phone, i.website_url, false, s.place_form
  FROM promo p JOIN staging.listings s ON s.id = p.id JOIN staging.listing_info i ON i.id = p.id
  JOIN pipeline.jobs j ON j.id = p.job_id AND j.dmo_id = %(dmo)s
 WHERE p.l_action = 'insert' AND p.li_action = 'insert' AND s.place_form IS NOT NULL
    -- a row already there is checked by the next lookup like any other
    ON CONFLICT (listing_id) DO NOTHING;

-- name: upsert_bridge
-- Rows found through the bridge already have their mapping; everything else gets one: a plain INSERT
-- for keys the bridge does not hold yet (most of them), then (update_bridge) an UPDATE of the keys it
-- holds with another target, run only when this returns a count above 0.
WITH rows AS (
    SELECT %(dmo)s AS dmo_id, p.source_id, t.target_type, t.target_id,
           coalesce(p.certainty_score, 1) AS certainty_score, p.job_id
      FROM promo p,
           LATERAL (VALUES ('listing', p.target_listing_id), ('listing_info', p.target_listing_info_id)) AS t(target_type, target_id)
     WHERE p.action <> 'delete' AND coalesce(p.match_method, '') <> 'source_id' AND t.target_id IS NOT NULL),
r AS MATERIALIZED (
    SELECT r.*, b.id AS bridge_id, b.target_id AS bridged_target
      FROM rows r
      LEFT JOIN pipeline.bridge_source_target b
             ON b.dmo_id = r.dmo_id AND b.source_id = r.source_id AND b.target_type = r.target_type),
new AS (
    INSERT INTO pipeline.bridge_source_target (dmo_id, source_id, target_type, target_id, certainty_score, job_id)
    SELECT dmo_id, source_id, target_type, target_id, certainty_score, job_id FROM r WHERE bridge_id IS NULL
     ORDER BY source_id COLLATE "C", target_type)  -- neighbours in the unique index: fewer pages touched
SELECT count(*) FROM r WHERE bridge_id IS NOT NULL AND bridged_target IS DISTINCT FROM target_id;

-- name: update_bridge
UPDATE pipeline.bridge_source_target b
   SET target_id = r.target_id, certainty_score = coalesce(r.certainty_score, 1), job_id = r.job_id, updated_at = now()
  FROM (SELECT p.source_id, t.target_type, t.target_id, p.certainty_score, p.job_id
          FROM promo p,
               LATERAL (VALUES ('listing', p.target_listing_id), ('listing_info', p.target_listing_info_id)) AS t(target_type, target_id)
         WHERE p.action <> 'delete' AND coalesce(p.match_method, '') <> 'source_id' AND t.target_id IS NOT NULL) r
 WHERE b.dmo_id = %(dmo)s AND b.source_id = r.source_id AND b.target_type = r.target_type
   AND b.target_id IS DISTINCT FROM r.target_id;

-- name: finish_jobs
-- The figures of the batch's jobs (%(jobs)s), and the jobs promoted now marked so.
INSERT INTO pipeline.job_results (job_id, records_total, records_new, records_updated, records_deleted,
                                  records_duplicates, records_unchanged, records_error, records_review)
SELECT j.id, j.records_read,
       count(*) FILTER (WHERE s.action = 'insert' AND s.promoted_at IS NOT NULL),
       count(*) FILTER (WHERE s.action = 'update' AND s.promoted_at IS NOT NULL),
       count(*) FILTER (WHERE s.action = 'delete' AND s.promoted_at IS NOT NULL),
       count(*) FILTER (WHERE s.action = 'duplicate'),
       count(*) FILTER (WHERE s.action = 'unchanged'),
       (SELECT count(*) FROM pipeline.job_errors e WHERE e.job_id = j.id),
       count(*) FILTER (WHERE s.review_status = 'pending')
  FROM pipeline.jobs j JOIN staging.listings s ON s.job_id = j.id
 WHERE j.id = ANY(%(jobs)s)
 GROUP BY j.id, j.records_read
ON CONFLICT (job_id) DO UPDATE SET
   records_total = EXCLUDED.records_total, records_new = EXCLUDED.records_new,
   records_updated = EXCLUDED.records_updated, records_deleted = EXCLUDED.records_deleted,
   records_duplicates = EXCLUDED.records_duplicates, records_unchanged = EXCLUDED.records_unchanged,
   records_error = EXCLUDED.records_error, records_review = EXCLUDED.records_review, updated_at = now();
UPDATE pipeline.jobs SET stage = 'promoted', status = 'succeeded', finished_at = now()
 WHERE id = ANY(%(staged_jobs)s) AND stage = 'staged';

-- name: dmo_figures
-- The DMO's figures in one statement (each was a scan of its own, 0.1 s at 100,000 records): rows
-- waiting for review; live listings (visible listing_info rows whose listing is visible too: every
-- listing_info has its listing, so, whose listing is not among the hidden ones, a partial index);
-- and what the version of its public listings is made of (its listing_info rows and their newest
-- updated_at: an insert, an update or a soft delete sets it; touch_unchanged_info does not).
SELECT (SELECT count(*) FROM staging.listings WHERE dmo_id = %(dmo)s AND review_status = 'pending'),
       count(*) FILTER (WHERE li.info_visible AND NOT EXISTS (
           SELECT 1 FROM public.listings l WHERE l.id = li.listing_id AND NOT l.listing_visible)),
       count(*), max(li.updated_at)
  FROM public.listing_info li
 WHERE li.dmo_id = %(dmo)s;

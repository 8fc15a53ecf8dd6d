-- Resolving a staged job: duplicates in the batch, matches (bridge, match hash, then fuzzy in
-- Python), actions, review flags and deletions. The work happens on `work`, a narrow temporary copy
-- of the job's keys and matches. Every statement is scoped to one job, so a retried stage computes
-- the whole resolution again from the staged rows.
-- Thin rows (row_kind 'thin') were staged resolved as 'unchanged' with their targets: they take part
-- only in the duplicate checks; one that turns out a duplicate gets its data copied back from the row
-- it points at (write_back_thin_duplicates, thicken_duplicates).

-- name: load_work
-- Deletions detected by an earlier attempt (their listing_info rows go with them: ON DELETE CASCADE),
-- found through a partial index on rows without rec_num.
DELETE FROM staging.listings WHERE job_id = %(job)s AND rec_num IS NULL;
-- The job's rows with their exact duplicates, bridge matches and match-hash matches, in one pass.
-- Partitions compare ids and hashes byte-wise (COLLATE "C": the same groups, far cheaper sorts). Only
-- full rows look up the bridge and the match hash. A duplicate takes precedence over the bridge, the
-- bridge over the match hash.
CREATE TEMP TABLE work ON COMMIT DROP AS
WITH dups AS (
    SELECT r.id, r.rec_num, r.dmo_id, r.source_id, r.listing_match_hash, r.l_hash, r.location_hash,
           r.reused_from, r.target_listing_id, r.target_listing_info_id,
           CASE WHEN r.by_source <> r.id THEN r.by_source
                WHEN r.by_hash <> r.id THEN r.by_hash END AS duplicate_of,
           CASE WHEN r.by_source <> r.id THEN 'source_id'
                WHEN r.by_hash <> r.id THEN 'match_hash' END AS duplicate_method
      FROM (SELECT s.id, s.rec_num, s.dmo_id, s.source_id, s.listing_match_hash, s.l_hash, s.location_hash,
                   s.reused_from, s.target_listing_id, s.target_listing_info_id,
                   first_value(s.id) OVER (PARTITION BY s.source_id COLLATE "C" ORDER BY s.rec_num) AS by_source,
                   first_value(s.id) OVER (PARTITION BY s.listing_match_hash COLLATE "C" ORDER BY s.rec_num) AS by_hash
              FROM staging.listings s WHERE s.job_id = %(job)s) r)
SELECT d.id, d.rec_num, d.dmo_id, NULL::text AS l_hash, NULL::text AS location_hash, d.duplicate_of,
       d.reused_from, coalesce(d.duplicate_method, 'source_id') AS match_method,
       1::numeric(5, 4) AS certainty_score, NULL::text AS fuzzy_reason,
       CASE WHEN d.duplicate_of IS NULL THEN d.target_listing_id END AS target_listing_id,
       CASE WHEN d.duplicate_of IS NULL THEN d.target_listing_info_id END AS target_listing_info_id
  FROM dups d
 WHERE d.reused_from IS NOT NULL
UNION ALL
SELECT d.id, d.rec_num, d.dmo_id, d.l_hash, d.location_hash, d.duplicate_of, NULL,
       CASE WHEN d.duplicate_of IS NOT NULL THEN d.duplicate_method
            WHEN bl.target_id IS NOT NULL THEN 'source_id'
            WHEN h.id IS NOT NULL THEN 'match_hash' END,
       CASE WHEN d.duplicate_of IS NOT NULL OR bl.target_id IS NOT NULL OR h.id IS NOT NULL THEN 1 END::numeric(5, 4),
       NULL,
       CASE WHEN d.duplicate_of IS NULL THEN coalesce(d.target_listing_id, bl.target_id, h.id) END,
       CASE WHEN d.duplicate_of IS NULL THEN coalesce(d.target_listing_info_id, bli.target_id) END
  FROM dups d
  LEFT JOIN pipeline.bridge_source_target bl
         ON bl.dmo_id = d.dmo_id AND bl.source_id = d.source_id AND bl.target_type = 'listing'
  LEFT JOIN pipeline.bridge_source_target bli
         ON bli.dmo_id = d.dmo_id AND bli.source_id = d.source_id AND bli.target_type = 'listing_info'
  -- one probe of the (listing_match_hash, id) index
  LEFT JOIN LATERAL (SELECT min(l.id) AS id FROM public.listings l
                      WHERE l.listing_match_hash = d.listing_match_hash AND l.listing_status <> 'merged') h ON true
 WHERE d.reused_from IS NULL;
ANALYZE work;

-- name: fuzzy_possible
-- Whether a record of the job may need fuzzy candidates: there are listings, and records the stage
-- did not stage thin (a thin row is placed by the previous import).
SELECT EXISTS (SELECT FROM public.listings)
   AND EXISTS (SELECT FROM staging.listings WHERE job_id = %(job)s AND row_kind <> 'thin');

-- name: unmatched_rows
-- In core.matching.MatchRecord's order. A row with its place form needs no text fields (100,000
-- rows of them would take a hundred megabytes of the stage's memory): only a row staged by an
-- older release has them.
SELECT w.id, t.name, t.address1, t.city, t.zip, t.international_phone, t.state, t.website_url, s.lat::float8,
       s.lng::float8, s.place_form
  FROM work w JOIN staging.listings s ON s.id = w.id
  LEFT JOIN LATERAL (SELECT s.name, s.address1, s.city, s.zip, i.international_phone, s.state, i.website_url
                       FROM staging.listing_info i WHERE i.id = s.id AND s.place_form IS NULL) t ON true
 WHERE w.duplicate_of IS NULL AND w.target_listing_id IS NULL
 ORDER BY w.rec_num;

-- name: fuzzy_table
-- reason: why a pair under the review threshold still goes to a person (it shares an identifier)
CREATE TEMP TABLE fuzzy (id bigint, target int, dup bigint, certainty numeric, explanation jsonb, reason text)
    ON COMMIT DROP;

-- name: apply_fuzzy
-- fuzzy's row count and unique ids: the update hashes these few rows, not the whole of `work`
ANALYZE fuzzy;
UPDATE work w SET target_listing_id = f.target, duplicate_of = f.dup, certainty_score = f.certainty,
       match_method = 'fuzzy', fuzzy_reason = f.reason
  FROM fuzzy f WHERE w.id = f.id;
-- Why each fuzzy match was made (a retried stage forgets the earlier attempt's first).
UPDATE staging.listings SET match_explanation = NULL WHERE job_id = %(job)s AND match_explanation IS NOT NULL;
UPDATE staging.listings s SET match_explanation = f.explanation FROM fuzzy f WHERE s.id = f.id;

-- name: settle_matches
-- Two records of one DMO that land on the same listing: the later ones are duplicates. Only the
-- rows of such listings are ranked (a hash count finds them; most listings have one row).
WITH ranked AS (
    SELECT id, first_value(id) OVER (PARTITION BY target_listing_id ORDER BY certainty_score DESC, rec_num) AS first_id
      FROM work
     WHERE duplicate_of IS NULL AND target_listing_id IN (
           SELECT target_listing_id FROM work WHERE duplicate_of IS NULL GROUP BY 1 HAVING count(*) > 1)
)
UPDATE work w SET duplicate_of = r.first_id FROM ranked r WHERE w.id = r.id AND r.first_id <> r.id;
-- Matched by hash or fuzzily: the DMO's listing_info of that listing, if it has one.
UPDATE work w SET target_listing_info_id = li.id FROM public.listing_info li
 WHERE w.duplicate_of IS NULL AND w.target_listing_info_id IS NULL
   AND li.listing_id = w.target_listing_id AND li.dmo_id = w.dmo_id;

-- name: write_back
-- Actions and review flags of the full rows, written back to staging.listings.
-- Listing-level fields change only when this DMO's own data changed since it last sent them
-- (a second DMO linking to a listing does not rename it), or to bring back a hidden listing.
-- Review: duplicates, fuzzy matches under the auto-match threshold, and updates of anything a
-- person edited by hand wait for a decision.
WITH sides AS (
    SELECT w.*, l.manually_modified AS l_manual, li.manually_modified AS li_manual,
           CASE WHEN w.duplicate_of IS NOT NULL THEN 'duplicate'
                WHEN w.target_listing_id IS NULL THEN 'insert'
                WHEN NOT l.listing_visible THEN 'update'
                WHEN li.id IS NULL THEN 'unchanged'
                WHEN li.l_hash IS DISTINCT FROM w.l_hash
                  OR li.location_hash IS DISTINCT FROM w.location_hash THEN 'update'
                ELSE 'unchanged' END AS l_action,
           CASE WHEN w.duplicate_of IS NOT NULL THEN 'duplicate'
                WHEN li.id IS NULL THEN 'insert'
                WHEN li.li_hash IS DISTINCT FROM i.li_hash
                  OR li.contact_info_hash IS DISTINCT FROM i.contact_info_hash
                  OR li.images_hash IS DISTINCT FROM i.images_hash
                  OR li.hours_hash IS DISTINCT FROM i.hours_hash
                  OR NOT li.info_visible THEN 'update'
                ELSE 'unchanged' END AS li_action
      FROM work w
      LEFT JOIN public.listings l ON l.id = w.target_listing_id
      LEFT JOIN public.listing_info li ON li.id = w.target_listing_info_id
      -- the staged listing_info hashes, read only where there is a listing_info to compare them with
      LEFT JOIN LATERAL (SELECT i.li_hash, i.contact_info_hash, i.images_hash, i.hours_hash
                           FROM staging.listing_info i WHERE i.id = w.id AND li.id IS NOT NULL OFFSET 0) i ON true
     WHERE w.reused_from IS NULL),
actions AS (
    SELECT s.*, CASE WHEN s.l_action = 'duplicate' THEN 'duplicate'
                     WHEN s.li_action = 'insert' THEN 'insert'
                     WHEN s.l_action = 'update' OR s.li_action = 'update' THEN 'update'
                     ELSE 'unchanged' END AS action
      FROM sides s),
reviewed AS (
    SELECT a.*, CASE
           WHEN a.action = 'duplicate'
                THEN 'duplicate of staged row ' || a.duplicate_of || coalesce(' (certainty ' || a.certainty_score || ')', '')
           WHEN a.match_method = 'fuzzy' AND a.duplicate_of IS NULL AND a.certainty_score < %(auto_match)s
                THEN 'fuzzy match to listing ' || a.target_listing_id || ' with certainty ' || a.certainty_score
                     || coalesce(' (' || a.fuzzy_reason || ')', '')
           WHEN a.l_action = 'update' AND a.l_manual
                THEN 'listing ' || a.target_listing_id || ' was edited by hand'
           WHEN a.li_action = 'update' AND a.li_manual
                THEN 'listing_info ' || a.target_listing_info_id || ' was edited by hand'
           END AS review_reason
      FROM actions a)
UPDATE staging.listings s
   SET target_listing_id = r.target_listing_id, target_listing_info_id = r.target_listing_info_id,
       match_method = r.match_method, certainty_score = r.certainty_score, duplicate_of = r.duplicate_of,
       action = r.action, l_action = r.l_action, li_action = r.li_action,
       review_status = CASE WHEN r.review_reason IS NOT NULL THEN 'pending' END,
       review_reason = r.review_reason, ok_to_promote = (r.review_reason IS NULL)
  FROM reviewed r
 WHERE s.id = r.id;

-- name: write_back_thin_duplicates
-- Thin rows found duplicates get their data back from the row they point at (a staged row of a
-- promoted job: never removed), so review and promotion read them like any other staged row. The
-- few such rows are picked from `work` first, then each probes its data row (OFFSET 0 keeps the
-- probe a subquery, never a join that reads every staged row).
UPDATE staging.listings s
   SET target_listing_id = NULL, target_listing_info_id = NULL, match_method = w.match_method,
       certainty_score = w.certainty_score, duplicate_of = w.duplicate_of,
       action = 'duplicate', l_action = 'duplicate', li_action = 'duplicate', review_status = 'pending',
       review_reason = 'duplicate of staged row ' || w.duplicate_of || coalesce(' (certainty ' || w.certainty_score || ')', ''),
       ok_to_promote = false, row_kind = 'copied', reused_from = NULL,
       raw_hash = d.raw_hash, source_id = d.source_id, name = d.name, category = d.category,
       google_place_id = d.google_place_id, address1 = d.address1, address2 = d.address2, city = d.city,
       state = d.state, zip = d.zip, country = d.country, lat = d.lat, lng = d.lng,
       listing_match_hash = d.listing_match_hash, l_hash = d.l_hash, location_hash = d.location_hash
  FROM (SELECT * FROM work WHERE reused_from IS NOT NULL AND duplicate_of IS NOT NULL OFFSET 0) w,
       LATERAL (SELECT * FROM staging.listings d WHERE d.id = w.reused_from OFFSET 0) d
 WHERE s.id = w.id;

-- name: thicken_duplicates
-- ... and their staging.listing_info row.
INSERT INTO staging.listing_info (id, job_id, description, contact_name, email, local_phone, international_phone,
                                  website_url, facebook_url, instagram_url, twitter_url, tripadvisor_url, images,
                                  hours, start_date, end_date, li_hash, contact_info_hash, images_hash, hours_hash)
SELECT w.id, %(job)s, d.description, d.contact_name, d.email, d.local_phone, d.international_phone,
       d.website_url, d.facebook_url, d.instagram_url, d.twitter_url, d.tripadvisor_url, d.images,
       d.hours, d.start_date, d.end_date, d.li_hash, d.contact_info_hash, d.images_hash, d.hours_hash
  FROM work w JOIN staging.listing_info d ON d.id = w.reused_from
 WHERE w.reused_from IS NOT NULL AND w.duplicate_of IS NOT NULL;

-- name: detect_deletions
-- A visible listing_info of the DMO that no record of a full import maps to is a deletion.
CREATE TEMP TABLE gone ON COMMIT DROP AS
SELECT nextval('staging.listings_id_seq') AS id, li.id AS listing_info_id, l.id AS listing_id,
       coalesce(li.external_source_id, 'listing_info:' || li.id) AS source_id,
       NOT EXISTS (SELECT 1 FROM public.listing_info o
                    WHERE o.listing_id = l.id AND o.id <> li.id AND o.info_visible) AS last_info
  FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
 WHERE li.dmo_id = %(dmo)s AND li.info_visible
   AND NOT EXISTS (SELECT 1 FROM work w WHERE w.target_listing_info_id = li.id);
INSERT INTO staging.listings (id, job_id, dmo_id, row_kind, source_id, name, category, address1, city, zip,
                              target_listing_id, target_listing_info_id, match_method, certainty_score,
                              action, l_action, li_action, review_status, review_reason)
SELECT g.id, %(job)s, %(dmo)s, 'deletion', g.source_id, l.name, l.category, loc.address1, loc.city, loc.zip,
       g.listing_id, g.listing_info_id, 'absent', 1, 'delete',
       CASE WHEN g.last_info THEN 'delete' ELSE 'unchanged' END, 'delete',
       'pending', 'absent from a full import'
  FROM gone g JOIN public.listings l ON l.id = g.listing_id
  LEFT JOIN public.locations loc ON loc.id = l.location_id;
INSERT INTO staging.listing_info (id, job_id) SELECT id, %(job)s FROM gone;

"""Promotion SQL: staged rows that are ok_to_promote -> public, set-based, in one transaction.

One pass over the DMO's staged rows takes the batch (TAKE_BATCH): it marks the rows promoted, draws
the new ids of the rows to insert from the public sequences (so every insert is a plain INSERT ...
SELECT) and keeps their keys in `promo`, the narrow working set every later statement reads. Thin
rows (records the DMO sent unchanged, reused_from set) are promoted with their job: TAKE_THIN copies
their keys into promo without marking them.
promote.py counts the batch by action and runs only the statements some row needs. The staged
content (content columns of staging.listings, staging.listing_info) is read only for rows that
insert or update something: a row staged as unchanged may carry its keys alone."""

from sadie_pipeline.listings.stage_sql import UNCHANGED_THIN

# A staged row's keys as promo holds them (then the new location and contact ids).
_PROMO_KEYS = """s.id, s.job_id, s.action, s.l_action, s.li_action, s.target_listing_id, s.target_listing_info_id,
       s.duplicate_of, s.source_id, s.certainty_score, s.match_method, s.raw_hash"""

# The batch's keys; filled by TAKE_THIN and TAKE_BATCH.
PROMO_TABLE = f"""
CREATE TEMP TABLE promo ON COMMIT DROP AS
SELECT {_PROMO_KEYS}, NULL::int AS new_location_id, NULL::int AS new_contact_id
  FROM staging.listings s
  WITH NO DATA
"""

# Thin rows of the staged jobs (unchanged, reused_from set): ok to promote, nothing to insert. Their
# keys go into promo; the rows themselves are not written (one new version of each unchanged row
# per import saved), so promoted_at stays empty on them: such a row is promoted when its job is. A
# job is promoted with all of them: they are never reviewed, and superseded only with their job.
# (A thin row found a duplicate is another action: TAKE_BATCH takes it, once approved.)
TAKE_THIN = f"""
INSERT INTO promo
SELECT {_PROMO_KEYS}, NULL, NULL
  FROM staging.listings s
 WHERE s.job_id = ANY(%(staged_jobs)s) AND {UNCHANGED_THIN.format("s")} AND s.ok_to_promote
"""

# The other staged rows of the DMO that may be promoted and are not yet: marked promoted, new ids
# drawn for what they insert (the listing and listing_info ids are written to the staged row as its
# targets), their keys copied into promo. Such rows are in the DMO's staged jobs (%(staged_jobs)s),
# or were decided on by a person (approved, or rejected as a new listing) after their job was
# promoted. Approved duplicates follow their primary: one whose primary is not promoted yet and is
# not in this batch either waits (a thin primary is in the batch, or was promoted with its job).
TAKE_BATCH = f"""
WITH batch AS (
    UPDATE staging.listings s
       SET promoted_at = now(),
           target_listing_id = CASE WHEN s.l_action = 'insert' THEN nextval('public.listings_id_seq')
                                    ELSE s.target_listing_id END,
           target_listing_info_id = CASE WHEN s.li_action = 'insert' THEN nextval('public.listing_info_id_seq')
                                         ELSE s.target_listing_info_id END
     WHERE s.dmo_id = %(dmo)s AND s.ok_to_promote AND s.promoted_at IS NULL
       AND NOT {UNCHANGED_THIN.format("s")}  -- not one of TAKE_THIN's
       AND (s.job_id = ANY(%(staged_jobs)s) OR s.review_status IN ('approved', 'rejected'))
       AND (s.action IS DISTINCT FROM 'duplicate' OR NOT EXISTS (
            SELECT 1 FROM staging.listings prim
             WHERE prim.id = s.duplicate_of AND prim.promoted_at IS NULL
               AND NOT (prim.dmo_id = %(dmo)s AND prim.ok_to_promote)))
    RETURNING {_PROMO_KEYS},
              CASE WHEN s.l_action = 'insert' THEN nextval('public.locations_id_seq') END,
              CASE WHEN s.li_action = 'insert' THEN nextval('public.contact_info_id_seq') END)
INSERT INTO promo SELECT * FROM batch
"""

# What the batch holds, to skip the statements no row needs (and for the result and job figures).
BATCH_SHAPE = """
SELECT job_id, action, l_action, li_action, coalesce(match_method, '') <> 'source_id', count(*)
  FROM promo GROUP BY 1, 2, 3, 4, 5
"""

INSERT_LOCATIONS = """
INSERT INTO public.locations (id, address1, address2, city, state, zip, country, lat, lng)
SELECT p.new_location_id, s.address1, s.address2, s.city, s.state, s.zip, s.country, s.lat, s.lng
  FROM promo p JOIN staging.listings s ON s.id = p.id WHERE p.l_action = 'insert'
"""

INSERT_LISTINGS = """
INSERT INTO public.listings (id, name, category, google_place_id, location_id, listing_match_hash, l_hash,
                             location_hash)
SELECT p.target_listing_id, s.name, s.category, s.google_place_id, p.new_location_id, s.listing_match_hash,
       s.l_hash, s.location_hash
  FROM promo p JOIN staging.listings s ON s.id = p.id WHERE p.l_action = 'insert'
"""

# Duplicates take their primary's targets (drawn in this batch or promoted earlier), in promo and
# as the staged row's targets.
DUPLICATE_TARGETS = [
    """UPDATE promo p SET target_listing_id = coalesce(q.target_listing_id, prim.target_listing_id),
                          target_listing_info_id = coalesce(q.target_listing_info_id, prim.target_listing_info_id)
         FROM staging.listings prim
         LEFT JOIN promo q ON q.id = prim.id
        WHERE p.action = 'duplicate' AND prim.id = p.duplicate_of""",
    """UPDATE staging.listings s SET target_listing_id = p.target_listing_id, target_listing_info_id = p.target_listing_info_id
         FROM promo p WHERE p.action = 'duplicate' AND s.id = p.id""",
]

# {listings_set} / {locations_set}: the column assignments of the merge policy (see promote.py).
UPDATE_LOCATIONS = """
UPDATE public.locations loc SET {locations_set}, updated_at = now()
  FROM promo p JOIN staging.listings s ON s.id = p.id JOIN public.listings l ON l.id = p.target_listing_id
 WHERE p.l_action = 'update' AND loc.id = l.location_id AND l.location_hash IS DISTINCT FROM s.location_hash
"""

UPDATE_LISTINGS = """
UPDATE public.listings l SET {listings_set}, l_hash = s.l_hash, location_hash = s.location_hash,
       listing_match_hash = s.listing_match_hash, listing_visible = true, listing_status = 'active',
       manually_modified = false, updated_at = now()
  FROM promo p JOIN staging.listings s ON s.id = p.id
 WHERE p.l_action = 'update' AND l.id = p.target_listing_id
"""

INSERT_CONTACTS = """
INSERT INTO public.contact_info (id, name, email, local_phone, international_phone, website_url, facebook_url,
                                 instagram_url, twitter_url, tripadvisor_url)
SELECT p.new_contact_id, i.contact_name, i.email, i.local_phone, i.international_phone, i.website_url,
       i.facebook_url, i.instagram_url, i.twitter_url, i.tripadvisor_url
  FROM promo p JOIN staging.listing_info i ON i.id = p.id WHERE p.li_action = 'insert'
"""

INSERT_LISTING_INFO = """
INSERT INTO public.listing_info (id, listing_id, dmo_id, external_source_id, description, contact_info_id,
                                 l_hash, location_hash, li_hash, contact_info_hash, images_hash, hours_hash,
                                 raw_hash, last_seen_at, last_job_id)
SELECT p.target_listing_info_id, p.target_listing_id, %(dmo)s, p.source_id, i.description, p.new_contact_id,
       s.l_hash, s.location_hash, i.li_hash, i.contact_info_hash, i.images_hash, i.hours_hash, s.raw_hash, now(),
       p.job_id
  FROM promo p JOIN staging.listing_info i ON i.id = p.id JOIN staging.listings s ON s.id = p.id
 WHERE p.li_action = 'insert'
"""

UPDATE_CONTACTS = """
UPDATE public.contact_info c SET {contact_info_set}, updated_at = now()
  FROM promo p JOIN staging.listing_info i ON i.id = p.id JOIN public.listing_info li ON li.id = p.target_listing_info_id
 WHERE p.li_action = 'update' AND c.id = li.contact_info_id AND li.contact_info_hash IS DISTINCT FROM i.contact_info_hash
"""

# Images and hours of changed listing_info rows are replaced as a set. A new listing_info has
# none yet: its children are only inserted. An updated one first loses the children whose hash
# changed (REPLACED_CHILDREN, compared before UPDATE_LISTING_INFO writes the new hashes).
REPLACED_CHILDREN = [
    """CREATE TEMP TABLE replaced_children ON COMMIT DROP AS
       SELECT p.target_listing_info_id AS li_id,
              li.images_hash IS DISTINCT FROM i.images_hash AS images_changed,
              li.hours_hash IS DISTINCT FROM i.hours_hash AS hours_changed
         FROM promo p JOIN staging.listing_info i ON i.id = p.id
         LEFT JOIN public.listing_info li ON li.id = p.target_listing_info_id
        WHERE p.li_action = 'update'""",
    "ANALYZE replaced_children",
    """DELETE FROM public.listing_images im USING replaced_children c
        WHERE c.images_changed AND im.listing_info_id = c.li_id""",
    """DELETE FROM public.opening_hours h USING public.opening_dates d, replaced_children c
        WHERE c.hours_changed AND d.listing_info_id = c.li_id AND h.opening_date_id = d.id""",
    """DELETE FROM public.opening_dates d USING replaced_children c
        WHERE c.hours_changed AND d.listing_info_id = c.li_id""",
]

# The new images, opening dates and hours of inserted and changed listing_info rows, from one read
# of the staged rows. Returns how many opening dates were to be inserted and how many were (the
# parents of the hours, checked when the per-row foreign-key triggers are skipped).
# {replaced}: "replaced_children" when the batch updates listing_info rows, else an empty set.
INSERT_CHILDREN = """
WITH src AS MATERIALIZED (
    SELECT c.li_id, c.images_changed, c.images, c.hours, c.start_date, c.end_date,
           CASE WHEN c.hours_changed AND (jsonb_array_length(coalesce(c.hours, '[]')) > 0
                                          OR c.start_date IS NOT NULL OR c.end_date IS NOT NULL)
                THEN nextval('public.opening_dates_id_seq') END AS date_id
      FROM (SELECT p.target_listing_info_id AS li_id, i.images, i.hours, i.start_date, i.end_date,
                   p.li_action = 'insert' OR coalesce(r.images_changed, false) AS images_changed,
                   p.li_action = 'insert' OR coalesce(r.hours_changed, false) AS hours_changed
              FROM promo p JOIN staging.listing_info i ON i.id = p.id
              LEFT JOIN {replaced} r ON r.li_id = p.target_listing_info_id AND p.li_action = 'update'
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
SELECT (SELECT count(*) FROM src WHERE date_id IS NOT NULL), (SELECT count(*) FROM dates)
"""

NO_REPLACED_CHILDREN = "(SELECT NULL::int AS li_id, NULL::boolean AS images_changed, NULL::boolean AS hours_changed WHERE false)"

UPDATE_LISTING_INFO = """
UPDATE public.listing_info li SET {listing_info_set}, li_hash = i.li_hash, contact_info_hash = i.contact_info_hash,
       images_hash = i.images_hash, hours_hash = i.hours_hash, l_hash = s.l_hash, location_hash = s.location_hash,
       raw_hash = s.raw_hash, info_visible = true, info_status = 'active', manually_modified = false, updated_at = now(),
       last_seen_at = now(), last_job_id = p.job_id
  FROM promo p JOIN staging.listing_info i ON i.id = p.id JOIN staging.listings s ON s.id = p.id
 WHERE (p.li_action = 'update' OR p.l_action = 'update') AND li.id = p.target_listing_info_id
"""

# Unchanged rows: promo's targets are all they need (a thin staged row has nothing else). (A
# listing's last sighting is that of its listing_info rows: the view public.listing_last_seen.)
TOUCH_UNCHANGED_INFO = """
UPDATE public.listing_info li SET last_seen_at = now(), last_job_id = p.job_id, raw_hash = p.raw_hash
  FROM promo p WHERE p.li_action = 'unchanged' AND li.id = p.target_listing_info_id
"""

SOFT_DELETE_INFO = """
UPDATE public.listing_info li SET info_visible = false, info_status = 'missing_from_import', updated_at = now()
  FROM promo p WHERE p.action = 'delete' AND li.id = p.target_listing_info_id
"""
SOFT_DELETE_LISTINGS = """
UPDATE public.listings l SET listing_visible = false, listing_status = 'missing_from_import', updated_at = now()
  FROM promo p WHERE p.action = 'delete' AND p.l_action = 'delete' AND l.id = p.target_listing_id
"""

# Rows found through the bridge already have their mapping; everything else gets one: a plain
# INSERT for keys the bridge does not hold yet (most of them; no speculative insertion), then an
# UPDATE of the keys it holds with another target. UPSERT_BRIDGE inserts and returns how many
# keys the bridge holds with another target; only then does UPDATE_BRIDGE run.
_BRIDGE_ROWS = """
SELECT %(dmo)s AS dmo_id, p.source_id, t.target_type, t.target_id, coalesce(p.certainty_score, 1) AS certainty_score,
       p.job_id
  FROM promo p,
       LATERAL (VALUES ('listing', p.target_listing_id), ('listing_info', p.target_listing_info_id)) AS t(target_type, target_id)
 WHERE p.action <> 'delete' AND coalesce(p.match_method, '') <> 'source_id' AND t.target_id IS NOT NULL
"""

UPSERT_BRIDGE = f"""
WITH r AS MATERIALIZED (
    SELECT r.*, b.id AS bridge_id, b.target_id AS bridged_target
      FROM ({_BRIDGE_ROWS}) r
      LEFT JOIN pipeline.bridge_source_target b
             ON b.dmo_id = r.dmo_id AND b.source_id = r.source_id AND b.target_type = r.target_type),
new AS (
    INSERT INTO pipeline.bridge_source_target (dmo_id, source_id, target_type, target_id, certainty_score, job_id)
    SELECT dmo_id, source_id, target_type, target_id, certainty_score, job_id FROM r WHERE bridge_id IS NULL
     ORDER BY source_id COLLATE "C", target_type)  -- neighbours in the unique index: fewer pages touched
SELECT count(*) FROM r WHERE bridge_id IS NOT NULL AND bridged_target IS DISTINCT FROM target_id
"""

UPDATE_BRIDGE = f"""
UPDATE pipeline.bridge_source_target b
   SET target_id = r.target_id, certainty_score = r.certainty_score, job_id = r.job_id, updated_at = now()
  FROM ({_BRIDGE_ROWS}) r
 WHERE b.dmo_id = r.dmo_id AND b.source_id = r.source_id AND b.target_type = r.target_type
   AND b.target_id IS DISTINCT FROM r.target_id
"""

# %(jobs)s: the batch's jobs.
JOB_RESULTS = """
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
   records_error = EXCLUDED.records_error, records_review = EXCLUDED.records_review, updated_at = now()
"""

MARK_JOBS = """
UPDATE pipeline.jobs SET stage = 'promoted', status = 'succeeded', finished_at = now()
 WHERE id = ANY(%(jobs)s) AND stage = 'staged'
"""


# --- trusted inserts ---------------------------------------------------------------------------
# Brand-new rows reference parents that either were created in this same transaction (ids drawn
# above; no other session can see, let alone delete them) or already existed. Their foreign keys
# are checked set-based instead of by one trigger call per row: the existing parents are locked
# FOR KEY SHARE up front (what each per-row check would do), and the parents created here are
# counted: every INSERT of a parent table must have written one row per row of the batch that
# needs it (promote.py compares the row counts). The per-row triggers are skipped only for the
# INSERT statements into TRUSTED_TABLES (session_replication_role), and only when those tables
# carry no trigger of their own (see promote.trusted_inserts_allowed).

TRUSTED_TABLES = ("public.listings", "public.listing_info", "public.listing_images", "public.opening_dates",
                  "public.opening_hours")

LOCK_EXISTING_PARENTS = """
WITH dmo AS (SELECT id FROM public.dmos WHERE id = %(dmo)s FOR KEY SHARE),
listings AS (
    SELECT l.id FROM public.listings l
     WHERE l.id IN (SELECT target_listing_id FROM promo WHERE li_action = 'insert' AND l_action <> 'insert')
       FOR KEY SHARE),
infos AS (
    SELECT li.id FROM public.listing_info li
     WHERE li.id IN (SELECT target_listing_info_id FROM promo WHERE li_action = 'update')
       FOR KEY SHARE)
SELECT (SELECT count(*) FROM dmo) = 1
   AND (SELECT count(*) FROM listings) = (SELECT count(DISTINCT target_listing_id) FROM promo
                                           WHERE li_action = 'insert' AND l_action <> 'insert')
   AND (SELECT count(*) FROM infos) = (SELECT count(DISTINCT target_listing_info_id) FROM promo
                                        WHERE li_action = 'update')
"""

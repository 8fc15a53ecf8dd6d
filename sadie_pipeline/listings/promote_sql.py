"""Promotion SQL: staged rows that are ok_to_promote -> public, set-based, in one transaction.
New ids are drawn from the public sequences up front so every insert is a plain INSERT ... SELECT."""

SELECT_BATCH = """
CREATE TEMP TABLE promo ON COMMIT DROP AS
SELECT s.id, s.job_id, s.action, s.l_action, s.li_action, s.target_listing_id, s.target_listing_info_id,
       s.duplicate_of, s.source_id, s.certainty_score, s.match_method, s.raw_hash,
       NULL::int AS new_location_id, NULL::int AS new_contact_id
  FROM staging.listings s
 WHERE s.dmo_id = %(dmo)s AND s.ok_to_promote AND s.promoted_at IS NULL
"""

# Approved duplicates follow their primary; one whose primary is not promoted yet waits.
RESOLVE_DUPLICATES_FIRST = """
DELETE FROM promo p USING staging.listings prim
 WHERE p.action = 'duplicate' AND prim.id = p.duplicate_of AND prim.promoted_at IS NULL
   AND NOT EXISTS (SELECT 1 FROM promo q WHERE q.id = prim.id)
"""

ALLOCATE_IDS = """
UPDATE promo SET
    target_listing_id = CASE WHEN l_action = 'insert' THEN nextval('public.listings_id_seq') ELSE target_listing_id END,
    new_location_id = CASE WHEN l_action = 'insert' THEN nextval('public.locations_id_seq') END,
    target_listing_info_id = CASE WHEN li_action = 'insert' THEN nextval('public.listing_info_id_seq') ELSE target_listing_info_id END,
    new_contact_id = CASE WHEN li_action = 'insert' THEN nextval('public.contact_info_id_seq') END
"""

INSERT_LOCATIONS = """
INSERT INTO public.locations (id, address1, address2, city, state, zip, country, lat, lng)
SELECT p.new_location_id, s.address1, s.address2, s.city, s.state, s.zip, s.country, s.lat, s.lng
  FROM promo p JOIN staging.listings s ON s.id = p.id WHERE p.l_action = 'insert'
"""

INSERT_LISTINGS = """
INSERT INTO public.listings (id, name, category, google_place_id, location_id, listing_match_hash, l_hash,
                             location_hash, last_job_id, last_seen_at)
SELECT p.target_listing_id, s.name, s.category, s.google_place_id, p.new_location_id, s.listing_match_hash,
       s.l_hash, s.location_hash, s.job_id, now()
  FROM promo p JOIN staging.listings s ON s.id = p.id WHERE p.l_action = 'insert'
"""

DUPLICATE_TARGETS = """
UPDATE promo p SET target_listing_id = coalesce(q.target_listing_id, prim.target_listing_id),
                   target_listing_info_id = coalesce(q.target_listing_info_id, prim.target_listing_info_id)
  FROM staging.listings prim
  LEFT JOIN promo q ON q.id = prim.id
 WHERE p.action = 'duplicate' AND prim.id = p.duplicate_of
"""

# {listings_set} / {locations_set}: the column assignments of the merge policy (see promote.py).
UPDATE_LOCATIONS = """
UPDATE public.locations loc SET {locations_set}, updated_at = now()
  FROM promo p JOIN staging.listings s ON s.id = p.id JOIN public.listings l ON l.id = p.target_listing_id
 WHERE p.l_action = 'update' AND loc.id = l.location_id AND l.location_hash IS DISTINCT FROM s.location_hash
"""

UPDATE_LISTINGS = """
UPDATE public.listings l SET {listings_set}, l_hash = s.l_hash, location_hash = s.location_hash,
       listing_match_hash = s.listing_match_hash, listing_visible = true, listing_status = 'active',
       manually_modified = false, updated_at = now(), last_job_id = s.job_id, last_seen_at = now()
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

# Images and hours of changed listing_info rows are replaced as a set.
CHANGED_CHILDREN = [
    """CREATE TEMP TABLE changed_children ON COMMIT DROP AS
       SELECT p.id, p.target_listing_info_id AS li_id,
              p.li_action = 'insert' OR li.images_hash IS DISTINCT FROM i.images_hash AS images_changed,
              p.li_action = 'insert' OR li.hours_hash IS DISTINCT FROM i.hours_hash AS hours_changed,
              jsonb_array_length(coalesce(i.hours, '[]')) > 0
                OR i.start_date IS NOT NULL OR i.end_date IS NOT NULL AS has_dates,
              NULL::int AS date_id
         FROM promo p JOIN staging.listing_info i ON i.id = p.id
         LEFT JOIN public.listing_info li ON li.id = p.target_listing_info_id
        WHERE p.li_action IN ('insert', 'update')""",
    "UPDATE changed_children SET date_id = nextval('public.opening_dates_id_seq') WHERE hours_changed AND has_dates",
    "ANALYZE changed_children",
]

REPLACE_CHILDREN = [
    """DELETE FROM public.listing_images im USING changed_children c
        WHERE c.images_changed AND im.listing_info_id = c.li_id""",
    """INSERT INTO public.listing_images (listing_info_id, image, rank)
       SELECT c.li_id, img.value, img.ordinality
         FROM changed_children c JOIN staging.listing_info i ON i.id = c.id,
              jsonb_array_elements_text(coalesce(i.images, '[]')) WITH ORDINALITY AS img(value, ordinality)
        WHERE c.images_changed""",
    """DELETE FROM public.opening_hours h USING public.opening_dates d, changed_children c
        WHERE c.hours_changed AND d.listing_info_id = c.li_id AND h.opening_date_id = d.id""",
    """DELETE FROM public.opening_dates d USING changed_children c
        WHERE c.hours_changed AND d.listing_info_id = c.li_id""",
    """INSERT INTO public.opening_dates (id, listing_info_id, start_date, end_date)
       SELECT c.date_id, c.li_id, i.start_date, i.end_date
         FROM changed_children c JOIN staging.listing_info i ON i.id = c.id
        WHERE c.date_id IS NOT NULL""",
    """INSERT INTO public.opening_hours (opening_date_id, day_id, open_time, close_time)
       SELECT c.date_id, (h.value ->> 0)::int, h.value ->> 1, h.value ->> 2
         FROM changed_children c JOIN staging.listing_info i ON i.id = c.id,
              jsonb_array_elements(coalesce(i.hours, '[]')) AS h(value)
        WHERE c.date_id IS NOT NULL""",
]

UPDATE_LISTING_INFO = """
UPDATE public.listing_info li SET {listing_info_set}, li_hash = i.li_hash, contact_info_hash = i.contact_info_hash,
       images_hash = i.images_hash, hours_hash = i.hours_hash, l_hash = s.l_hash, location_hash = s.location_hash,
       raw_hash = s.raw_hash, info_visible = true, info_status = 'active', manually_modified = false, updated_at = now(),
       last_seen_at = now(), last_job_id = p.job_id
  FROM promo p JOIN staging.listing_info i ON i.id = p.id JOIN staging.listings s ON s.id = p.id
 WHERE (p.li_action = 'update' OR p.l_action = 'update') AND li.id = p.target_listing_info_id
"""

TOUCH_UNCHANGED = [
    """UPDATE public.listing_info li SET last_seen_at = now(), last_job_id = p.job_id, raw_hash = p.raw_hash
         FROM promo p WHERE p.li_action = 'unchanged' AND li.id = p.target_listing_info_id""",
    """UPDATE public.listings l SET last_seen_at = now(), last_job_id = p.job_id
         FROM promo p WHERE p.l_action = 'unchanged' AND p.action <> 'delete' AND l.id = p.target_listing_id""",
]

SOFT_DELETES = [
    """UPDATE public.listing_info li SET info_visible = false, info_status = 'missing_from_import', updated_at = now()
         FROM promo p WHERE p.action = 'delete' AND li.id = p.target_listing_info_id""",
    """UPDATE public.listings l SET listing_visible = false, listing_status = 'missing_from_import', updated_at = now()
         FROM promo p WHERE p.action = 'delete' AND p.l_action = 'delete' AND l.id = p.target_listing_id""",
]

# Rows found through the bridge already have their mapping; everything else gets one: a plain
# INSERT for keys the bridge does not hold yet (most of them; no speculative insertion), then an
# UPDATE of the keys it holds with another target.
_BRIDGE_ROWS = """
SELECT %(dmo)s AS dmo_id, p.source_id, t.target_type, t.target_id, coalesce(p.certainty_score, 1) AS certainty_score,
       p.job_id
  FROM promo p,
       LATERAL (VALUES ('listing', p.target_listing_id), ('listing_info', p.target_listing_info_id)) AS t(target_type, target_id)
 WHERE p.action <> 'delete' AND coalesce(p.match_method, '') <> 'source_id' AND t.target_id IS NOT NULL
"""

UPSERT_BRIDGE = [
    f"""CREATE TEMP TABLE bridge_rows ON COMMIT DROP AS
        SELECT r.*, b.id AS bridge_id, b.target_id AS bridged_target
          FROM ({_BRIDGE_ROWS}) r
          LEFT JOIN pipeline.bridge_source_target b
                 ON b.dmo_id = r.dmo_id AND b.source_id = r.source_id AND b.target_type = r.target_type""",
    """INSERT INTO pipeline.bridge_source_target (dmo_id, source_id, target_type, target_id, certainty_score, job_id)
       SELECT dmo_id, source_id, target_type, target_id, certainty_score, job_id FROM bridge_rows WHERE bridge_id IS NULL""",
    """UPDATE pipeline.bridge_source_target b
          SET target_id = r.target_id, certainty_score = r.certainty_score, job_id = r.job_id, updated_at = now()
         FROM bridge_rows r
        WHERE b.id = r.bridge_id AND r.bridged_target IS DISTINCT FROM r.target_id""",
    "DROP TABLE bridge_rows",
]

MARK_PROMOTED = [
    """UPDATE staging.listings s SET promoted_at = now(), target_listing_id = p.target_listing_id,
              target_listing_info_id = p.target_listing_info_id
         FROM promo p WHERE s.id = p.id""",
]

PROMOTED_COUNTS = "SELECT action, count(*) FROM promo GROUP BY action"

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
 WHERE j.id IN (SELECT DISTINCT job_id FROM promo)
 GROUP BY j.id, j.records_read
ON CONFLICT (job_id) DO UPDATE SET
   records_total = EXCLUDED.records_total, records_new = EXCLUDED.records_new,
   records_updated = EXCLUDED.records_updated, records_deleted = EXCLUDED.records_deleted,
   records_duplicates = EXCLUDED.records_duplicates, records_unchanged = EXCLUDED.records_unchanged,
   records_error = EXCLUDED.records_error, records_review = EXCLUDED.records_review, updated_at = now()
"""

MARK_JOBS = """
UPDATE pipeline.jobs SET stage = 'promoted', status = 'succeeded', finished_at = now()
 WHERE id IN (SELECT DISTINCT job_id FROM promo) AND stage = 'staged'
"""


# --- trusted inserts ---------------------------------------------------------------------------
# Brand-new rows reference parents that either were created in this same transaction (ids drawn
# above; no other session can see, let alone delete them) or already existed. Their foreign keys
# are checked set-based instead of by one trigger call per row: the existing parents are locked
# FOR KEY SHARE up front (what each per-row check would do), and after the inserts one query
# counts the batch's references whose parent is missing. The per-row triggers are skipped only for
# those INSERT statements (session_replication_role), and only when the tables carry no trigger
# of their own (see promote.trusted_inserts_allowed).

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

# References of the rows just inserted whose parent row does not exist: must be zero.
MISSING_PARENTS = """
SELECT (SELECT count(*) FROM promo p LEFT JOIN public.locations loc ON loc.id = p.new_location_id
         WHERE p.l_action = 'insert' AND loc.id IS NULL)
     + (SELECT count(*) FROM promo p LEFT JOIN public.listings l ON l.id = p.target_listing_id
         WHERE p.li_action = 'insert' AND l.id IS NULL)
     + (SELECT count(*) FROM promo p LEFT JOIN public.contact_info c ON c.id = p.new_contact_id
         WHERE p.li_action = 'insert' AND p.new_contact_id IS NOT NULL AND c.id IS NULL)
     + (SELECT count(*) FROM changed_children c LEFT JOIN public.listing_info li ON li.id = c.li_id
         WHERE (c.images_changed OR c.date_id IS NOT NULL) AND li.id IS NULL)
     + (SELECT count(*) FROM changed_children c LEFT JOIN public.opening_dates d ON d.id = c.date_id
         WHERE c.date_id IS NOT NULL AND d.id IS NULL)
"""

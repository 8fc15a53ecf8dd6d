"""Job-level staging SQL: duplicates, matching, actions, review flags and deletion detection.
Every statement is scoped to one job and safe to run again (the first ones reset the job)."""

RESET = [
    "DELETE FROM staging.listings WHERE job_id = %(job)s AND rec_num IS NULL",
    """UPDATE staging.listings SET target_listing_id = NULL, match_method = NULL, certainty_score = NULL,
           duplicate_of = NULL, action = NULL, l_action = NULL, ok_to_promote = false,
           review_status = NULL, review_reason = NULL
       WHERE job_id = %(job)s""",
    "UPDATE staging.listing_info SET target_listing_info_id = NULL, li_action = NULL WHERE job_id = %(job)s",
]

# Within the file: the same source_id (or the same match hash) again is a duplicate of the first.
EXACT_DUPLICATES = """
WITH ranked AS (
    SELECT id,
           first_value(id) OVER (PARTITION BY source_id ORDER BY rec_num) AS by_source,
           first_value(id) OVER (PARTITION BY listing_match_hash ORDER BY rec_num) AS by_hash
    FROM staging.listings WHERE job_id = %(job)s
)
UPDATE staging.listings s
   SET duplicate_of = CASE WHEN r.by_source <> r.id THEN r.by_source ELSE r.by_hash END,
       match_method = CASE WHEN r.by_source <> r.id THEN 'source_id' ELSE 'match_hash' END,
       certainty_score = 1
  FROM ranked r
 WHERE s.id = r.id AND (r.by_source <> r.id OR r.by_hash <> r.id)
"""

MATCH_BY_BRIDGE = """
UPDATE staging.listings s
   SET target_listing_id = b.target_id, match_method = 'source_id', certainty_score = 1
  FROM pipeline.bridge_source_target b
 WHERE s.job_id = %(job)s AND s.duplicate_of IS NULL
   AND b.dmo_id = s.dmo_id AND b.source_id = s.source_id AND b.target_type = 'listing'
"""

MATCH_BY_HASH = """
UPDATE staging.listings s
   SET target_listing_id = m.id, match_method = 'match_hash', certainty_score = 1
  FROM (SELECT listing_match_hash, min(id) AS id FROM public.listings
         WHERE listing_status <> 'merged' GROUP BY listing_match_hash) m
 WHERE s.job_id = %(job)s AND s.duplicate_of IS NULL AND s.target_listing_id IS NULL
   AND m.listing_match_hash = s.listing_match_hash
"""

UNMATCHED_ROWS = """
SELECT s.id, s.name, s.address1, s.city, s.zip, i.international_phone
  FROM staging.listings s JOIN staging.listing_info i USING (id)
 WHERE s.job_id = %(job)s AND s.rec_num IS NOT NULL AND s.duplicate_of IS NULL AND s.target_listing_id IS NULL
 ORDER BY s.rec_num
"""

FUZZY_CANDIDATES = """
SELECT l.id, l.name, loc.address1, loc.city, loc.zip, NULL
  FROM public.listings l JOIN public.locations loc ON loc.id = l.location_id
 WHERE l.listing_status <> 'merged'
   AND (lower(loc.city) = ANY(%(cities)s) OR replace(upper(loc.zip), ' ', '') = ANY(%(zips)s))
"""

# Two records of one DMO that land on the same listing: the later ones are duplicates.
TARGET_COLLISIONS = """
WITH ranked AS (
    SELECT id, first_value(id) OVER (PARTITION BY target_listing_id ORDER BY certainty_score DESC, rec_num) AS first_id
      FROM staging.listings
     WHERE job_id = %(job)s AND duplicate_of IS NULL AND target_listing_id IS NOT NULL
)
UPDATE staging.listings s SET duplicate_of = r.first_id
  FROM ranked r WHERE s.id = r.id AND r.first_id <> r.id
"""

MATCH_LISTING_INFO = """
UPDATE staging.listing_info i
   SET target_listing_info_id = coalesce(
         (SELECT b.target_id FROM pipeline.bridge_source_target b
           WHERE b.dmo_id = s.dmo_id AND b.source_id = s.source_id AND b.target_type = 'listing_info'),
         (SELECT li.id FROM public.listing_info li WHERE li.listing_id = s.target_listing_id AND li.dmo_id = s.dmo_id))
  FROM staging.listings s
 WHERE s.id = i.id AND s.job_id = %(job)s AND s.duplicate_of IS NULL AND s.target_listing_id IS NOT NULL
"""

ACTIONS_NEW_AND_DUPLICATE = [
    """UPDATE staging.listings SET action = 'duplicate', l_action = 'duplicate'
        WHERE job_id = %(job)s AND duplicate_of IS NOT NULL""",
    """UPDATE staging.listing_info i SET li_action = 'duplicate' FROM staging.listings s
        WHERE s.id = i.id AND s.job_id = %(job)s AND s.duplicate_of IS NOT NULL""",
    """UPDATE staging.listings SET action = 'insert', l_action = 'insert'
        WHERE job_id = %(job)s AND duplicate_of IS NULL AND target_listing_id IS NULL""",
    """UPDATE staging.listing_info i SET li_action = 'insert' FROM staging.listings s
        WHERE s.id = i.id AND s.job_id = %(job)s AND s.duplicate_of IS NULL AND s.target_listing_id IS NULL""",
]

# Listing-level fields change only when this DMO's own data changed since it last sent them
# (a second DMO linking to a listing does not rename it), or to bring back a hidden listing.
ACTIONS_MATCHED = [
    """UPDATE staging.listings s
          SET l_action = CASE WHEN NOT l.listing_visible
                                OR (li.id IS NOT NULL AND (li.l_hash IS DISTINCT FROM s.l_hash
                                                          OR li.location_hash IS DISTINCT FROM s.location_hash))
                              THEN 'update' ELSE 'unchanged' END
         FROM staging.listing_info i
         JOIN public.listings l ON true
         LEFT JOIN public.listing_info li ON li.id = i.target_listing_info_id
        WHERE s.id = i.id AND s.job_id = %(job)s AND s.duplicate_of IS NULL AND l.id = s.target_listing_id""",
    """UPDATE staging.listing_info i SET li_action = 'insert' FROM staging.listings s
        WHERE s.id = i.id AND s.job_id = %(job)s AND s.duplicate_of IS NULL AND s.target_listing_id IS NOT NULL
          AND i.target_listing_info_id IS NULL""",
    """UPDATE staging.listing_info i
          SET li_action = CASE WHEN li.li_hash IS DISTINCT FROM i.li_hash
                                 OR li.contact_info_hash IS DISTINCT FROM i.contact_info_hash
                                 OR li.images_hash IS DISTINCT FROM i.images_hash
                                 OR li.hours_hash IS DISTINCT FROM i.hours_hash
                                 OR NOT li.info_visible THEN 'update' ELSE 'unchanged' END
         FROM staging.listings s, public.listing_info li
        WHERE s.id = i.id AND s.job_id = %(job)s AND s.duplicate_of IS NULL AND li.id = i.target_listing_info_id""",
    """UPDATE staging.listings s
          SET action = CASE WHEN i.li_action = 'insert' THEN 'insert'
                            WHEN s.l_action = 'update' OR i.li_action = 'update' THEN 'update'
                            ELSE 'unchanged' END
         FROM staging.listing_info i
        WHERE s.id = i.id AND s.job_id = %(job)s AND s.duplicate_of IS NULL AND s.target_listing_id IS NOT NULL""",
]

REVIEW_FLAGS = [
    """UPDATE staging.listings SET review_status = 'pending',
              review_reason = 'duplicate of staged row ' || duplicate_of
                              || coalesce(' (certainty ' || certainty_score || ')', '')
        WHERE job_id = %(job)s AND action = 'duplicate'""",
    """UPDATE staging.listings SET review_status = 'pending',
              review_reason = 'fuzzy match to listing ' || target_listing_id || ' with certainty ' || certainty_score
        WHERE job_id = %(job)s AND match_method = 'fuzzy' AND duplicate_of IS NULL
          AND certainty_score < %(auto_match)s""",
    """UPDATE staging.listings s SET review_status = 'pending',
              review_reason = 'listing ' || s.target_listing_id || ' was edited by hand'
         FROM public.listings l
        WHERE s.job_id = %(job)s AND s.review_status IS NULL AND s.l_action = 'update'
          AND l.id = s.target_listing_id AND l.manually_modified""",
    """UPDATE staging.listings s SET review_status = 'pending',
              review_reason = 'listing_info ' || i.target_listing_info_id || ' was edited by hand'
         FROM staging.listing_info i JOIN public.listing_info li ON li.id = i.target_listing_info_id
        WHERE s.id = i.id AND s.job_id = %(job)s AND s.review_status IS NULL
          AND i.li_action = 'update' AND li.manually_modified""",
    "UPDATE staging.listings SET ok_to_promote = (review_status IS NULL) WHERE job_id = %(job)s",
]

# A visible listing_info of the DMO that no record of a full import maps to is a deletion.
DETECT_DELETIONS = [
    """CREATE TEMP TABLE gone ON COMMIT DROP AS
       SELECT nextval('staging.listings_id_seq') AS id, li.id AS listing_info_id, l.id AS listing_id,
              coalesce(li.external_source_id, 'listing_info:' || li.id) AS source_id,
              NOT EXISTS (SELECT 1 FROM public.listing_info o
                           WHERE o.listing_id = l.id AND o.id <> li.id AND o.info_visible) AS last_info
         FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
        WHERE li.dmo_id = %(dmo)s AND li.info_visible
          AND NOT EXISTS (SELECT 1 FROM staging.listing_info i
                           WHERE i.job_id = %(job)s AND i.target_listing_info_id = li.id)""",
    """INSERT INTO staging.listings (id, job_id, dmo_id, source_id, name, category, address1, city, zip,
                                     target_listing_id, match_method, certainty_score, action, l_action,
                                     review_status, review_reason)
       SELECT g.id, %(job)s, %(dmo)s, g.source_id, l.name, l.category, loc.address1, loc.city, loc.zip,
              g.listing_id, 'absent', 1, 'delete', CASE WHEN g.last_info THEN 'delete' ELSE 'unchanged' END,
              'pending', 'absent from a full import'
         FROM gone g JOIN public.listings l ON l.id = g.listing_id
         LEFT JOIN public.locations loc ON loc.id = l.location_id""",
    """INSERT INTO staging.listing_info (id, job_id, target_listing_info_id, li_action)
       SELECT id, %(job)s, listing_info_id, 'delete' FROM gone""",
    "DROP TABLE gone",
]

SUPERSEDE_OLDER = [
    """UPDATE staging.listings SET review_status = 'superseded', ok_to_promote = false
        WHERE dmo_id = %(dmo)s AND job_id < %(job)s AND promoted_at IS NULL
          AND coalesce(review_status, '') <> 'superseded'""",
    """UPDATE pipeline.jobs SET stage = 'superseded', status = 'succeeded'
        WHERE dmo_id = %(dmo)s AND id < %(job)s AND stage IN ('imported', 'stage')""",
]

ACTION_COUNTS = """
SELECT coalesce(action, 'none'), count(*), count(*) FILTER (WHERE review_status = 'pending')
  FROM staging.listings WHERE job_id = %(job)s GROUP BY 1
"""

"""Job-level staging SQL: duplicates, matching, actions, review flags and deletion detection.

The work happens on `work`, a narrow temporary copy of the job's hashes and matches: one
statement builds it with the exact rules (duplicates in the batch, bridge, match hash), fuzzy
matching fills in some of the rest, and one UPDATE computes the actions and review flags and
writes everything back to staging.listings (a second one for the thin rows found duplicates).
Every statement is scoped to one job, so the whole resolution can run again (a retried stage
recomputes it from the staged rows).

Thin rows (reused_from set) are records the DMO sent unchanged: staged already resolved as
'unchanged' with their targets, they take part only in the duplicate checks; one that turns out
to be a duplicate gets its data copied back from the row it points at (WRITE_BACK, THICKEN_DUPLICATES)."""

# Columns of a staged record's data (besides id, job, DMO, file, rec_num).
LISTING_DATA_COLUMNS = ("raw_hash", "source_id", "name", "category", "google_place_id", "address1", "address2",
                        "city", "state", "zip", "country", "lat", "lng", "listing_match_hash", "l_hash",
                        "location_hash")
INFO_DATA_COLUMNS = ("description", "contact_name", "email", "local_phone", "international_phone", "website_url",
                     "facebook_url", "instagram_url", "twitter_url", "tripadvisor_url", "images", "hours",
                     "start_date", "end_date", "li_hash", "contact_info_hash", "images_hash", "hours_hash")
THIN_COLUMNS = ("id", "job_id", "dmo_id", "file_seq", "rec_num", "raw_hash", "source_id", "listing_match_hash",
                "target_listing_id", "target_listing_info_id", "reused_from", "match_method", "certainty_score",
                "action", "l_action", "li_action", "ok_to_promote")

# A thin row staged unchanged (formatted with the staged row's alias). Promotion takes such rows
# with their job, without marking them (promote_sql.TAKE_THIN): promoted when their job is.
UNCHANGED_THIN = "({0}.reused_from IS NOT NULL AND {0}.action = 'unchanged')"

# The stage's own transaction stages the unchanged records thin and resolves the job, while each
# file's own transaction (its checkpoint) stages the file's other records, so an attempt that fails
# can leave checkpointed files whose unchanged records it did not stage. The next attempt stages
# those thin again with the rest (FIND_THIN takes the job's records that have neither a staged row
# nor an error). A file without checkpoint has no staged rows: any there (thin rows staged before
# the files by an earlier release) are removed first.
CLEAR_UNFINISHED_FILES = """
DELETE FROM staging.listings s
 WHERE s.job_id = %(job)s
   AND NOT EXISTS (SELECT 1 FROM pipeline.job_files t
                    WHERE t.job_id = s.job_id AND t.stage = 'transformed' AND t.batch = s.file_seq)
"""

# A raw record (alias k) of the job that has neither a staged row nor a stage error: none has one
# on a first attempt; a retry's finished files have them.
UNSTAGED_RECORD = """NOT EXISTS (SELECT 1 FROM staging.listings s WHERE s.job_id = k.job_id AND s.rec_num = k.rec_num)
           AND NOT EXISTS (SELECT 1 FROM pipeline.job_errors e
                            WHERE e.job_id = k.job_id AND e.stage = 'stage' AND e.rec_num = k.rec_num)"""

# For the statements finding the records staged from earlier rows (stage._find_reused).
FIND_SETTINGS = [
    "SET LOCAL work_mem = '64MB'",
    "SET LOCAL jit = off",  # plain row processing: compiling costs more than it saves
]

# The job's records (their raw keys) identical to one of the DMO's last promoted import (same raw
# hash; %(previous)s ran with the same config; none when it is NULL), when that record was promoted as new, updated or
# unchanged, its listing and listing_info are visible, and the listing_info was last written from
# this very record (its raw_hash). Promotion, the only writer of listing_info and of the bridge,
# wrote both from that record, so matching would find the same targets and nothing to change: such
# a record is staged thin, pointing at the row holding the data. Anything else is matched, and
# transformed unless a twin under review holds its data (below). Each raw key meets at most one such
# row: a record's source_id follows from its content, and the rows of a job that are not duplicates
# have distinct source_ids. (rec_num is unique in a job.)
# FIND_THIN keeps them in `thin` (THIN_BY_FILE: their rec_nums by file, which the files' workers
# skip); WRITE_THIN stages them while the workers transform the other records.
# Run with nested loops off (stage._hash_joined), as TWINS_BY_FILE and MISSING_RECORDS are.
FIND_THIN = f"""CREATE TEMP TABLE thin ON COMMIT DROP AS
        SELECT k.job_id, p.dmo_id, k.file_seq, k.rec_num, k.raw_hash, k.source_id, p.listing_match_hash,
               p.target_listing_id, p.target_listing_info_id, coalesce(p.reused_from, p.id) AS reused_from
          FROM staging.raw_keys k
          JOIN staging.listings p ON p.raw_hash = k.raw_hash
          JOIN public.listing_info li ON li.id = p.target_listing_info_id
         WHERE k.job_id = %(job)s
           AND p.job_id = %(previous)s AND p.action IN ('insert', 'update', 'unchanged')
           AND (p.promoted_at IS NOT NULL OR {UNCHANGED_THIN.format("p")})  -- promoted
           AND li.raw_hash = p.raw_hash AND li.dmo_id = p.dmo_id AND li.info_visible
           AND li.listing_id = p.target_listing_id
           -- nor is the listing hidden or merged: the few such listings are in partial indexes
           AND NOT EXISTS (SELECT 1 FROM public.listings l WHERE l.id = p.target_listing_id AND NOT l.listing_visible)
           AND NOT EXISTS (SELECT 1 FROM public.listings l
                            WHERE l.id = p.target_listing_id AND l.listing_status = 'merged')
           AND {UNSTAGED_RECORD}"""
THIN_BY_FILE = "SELECT file_seq, array_agg(rec_num) FROM thin GROUP BY file_seq"

# Records still under review in that import (a possible duplicate or an unsure match: staged, not
# promoted) that the DMO sent again as they were: transformed the same way, so each file's worker
# copies their staged data from that earlier row (COPY_TWINS) instead of reading and transforming
# them again. They are full rows, matched and resolved like any other. Under review is what the
# partial index on decided rows holds: a handful, not the whole earlier job. By file: rec_nums and
# the rows to copy, in the same order.
TWINS_BY_FILE = f"""
SELECT file_seq, array_agg(rec_num ORDER BY rec_num), array_agg(data_id ORDER BY rec_num) FROM (
    SELECT DISTINCT ON (k.rec_num) k.file_seq, k.rec_num, p.id AS data_id
      FROM staging.listings p
      JOIN staging.raw_keys k ON k.raw_hash = p.raw_hash
     WHERE k.job_id = %(job)s AND p.job_id = %(previous)s AND p.dmo_id = %(dmo)s
       AND p.review_status IN ('pending', 'approved', 'rejected')
       AND p.reused_from IS NULL AND p.rec_num IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM thin t WHERE t.rec_num = k.rec_num)
       AND {UNSTAGED_RECORD}
     ORDER BY k.rec_num, p.id) t
 GROUP BY file_seq
"""
WRITE_THIN = f"""
INSERT INTO staging.listings ({", ".join(THIN_COLUMNS)})
SELECT nextval('staging.listings_id_seq'), job_id, dmo_id, file_seq, rec_num, raw_hash, source_id, listing_match_hash,
       target_listing_id, target_listing_info_id, reused_from, 'source_id', 1, 'unchanged', 'unchanged', 'unchanged',
       true
  FROM thin
"""
# A file's twins (TWINS_BY_FILE), staged with their new ids: %(ids)s, %(rec_nums)s and the rows holding
# their data, %(data_ids)s, in the same order.
_TWINS = "unnest(%(ids)s::bigint[], %(rec_nums)s::int[], %(data_ids)s::bigint[]) AS t(id, rec_num, data_id)"
COPY_TWINS = [
    f"""INSERT INTO staging.listings (id, job_id, dmo_id, file_seq, rec_num, {", ".join(LISTING_DATA_COLUMNS)})
        SELECT t.id, %(job)s, d.dmo_id, %(file_seq)s, t.rec_num, {", ".join("d." + c for c in LISTING_DATA_COLUMNS)}
          FROM {_TWINS} JOIN staging.listings d ON d.id = t.data_id""",
    f"""INSERT INTO staging.listing_info (id, job_id, {", ".join(INFO_DATA_COLUMNS)})
        SELECT t.id, %(job)s, {", ".join("d." + c for c in INFO_DATA_COLUMNS)}
          FROM {_TWINS} JOIN staging.listing_info d ON d.id = t.data_id""",
]

# Checkpointed files (%(files)s) holding a record that is neither staged, nor in error, nor staged
# thin now: a record an earlier attempt skipped as unchanged that is no longer (its listing hidden
# meanwhile, say). Such a file is staged again whole (REOPEN_FILES, committed before the workers).
MISSING_RECORDS = f"""
SELECT DISTINCT k.file_seq FROM staging.raw_keys k
 WHERE k.job_id = %(job)s AND k.file_seq = ANY(%(files)s)
   AND {UNSTAGED_RECORD}
   AND NOT EXISTS (SELECT 1 FROM thin t WHERE t.rec_num = k.rec_num)
"""
REOPEN_FILES = [
    "DELETE FROM staging.listings WHERE job_id = %(job)s AND file_seq = ANY(%(files)s)",
    """DELETE FROM pipeline.job_errors e USING pipeline.job_files r
        WHERE e.job_id = %(job)s AND e.stage = 'stage' AND r.id = e.file_id AND r.batch = ANY(%(files)s)""",
    "DELETE FROM pipeline.job_files WHERE job_id = %(job)s AND stage = 'transformed' AND batch = ANY(%(files)s)",
]

# The job's rows with their exact duplicates, bridge matches and match-hash matches, in one pass.
# Partitions compare ids and hashes byte-wise (COLLATE "C": the same groups, far cheaper sorts), and
# the sorts carry keys, ids and targets. Thin rows keep the targets they were staged with unless
# they are duplicates; only full rows look up the bridge and the match hash (a probe each for those
# rows, none for the thin ones). The staged listing_info hashes are left to WRITE_BACK, which reads
# them only where a listing_info exists to compare them with (none on a DMO's first import).
LOAD_WORK = [
    "SET LOCAL work_mem = '64MB'",
    "SET LOCAL jit = off",  # plain row processing: compiling costs more than it saves
    # What resolution reads was just staged or read by staging: cached, so an index probe costs
    # about a page read in sequence (with the default 4, ten thousand probes lose to scanning all
    # staged rows).
    "SET LOCAL random_page_cost = 1.1",
    # Deletions detected by an earlier attempt (their listing_info rows go with them: ON DELETE CASCADE),
    # found through a partial index on rows without rec_num, not among all the job's rows.
    "DELETE FROM staging.listings WHERE job_id = %(job)s AND rec_num IS NULL",
    """CREATE TEMP TABLE work ON COMMIT DROP AS
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
                          first_value(s.id) OVER (PARTITION BY s.listing_match_hash COLLATE "C" ORDER BY s.rec_num)
                              AS by_hash
                     FROM staging.listings s WHERE s.job_id = %(job)s) r)
       SELECT d.id, d.rec_num, d.dmo_id, NULL::text AS l_hash, NULL::text AS location_hash, d.duplicate_of,
              d.reused_from, coalesce(d.duplicate_method, 'source_id') AS match_method,
              1::numeric(5, 4) AS certainty_score,
              CASE WHEN d.duplicate_of IS NULL THEN d.target_listing_id END AS target_listing_id,
              CASE WHEN d.duplicate_of IS NULL THEN d.target_listing_info_id END AS target_listing_info_id
         FROM dups d
        WHERE d.reused_from IS NOT NULL
       UNION ALL
       -- a duplicate takes precedence over the bridge, the bridge over the match hash
       SELECT d.id, d.rec_num, d.dmo_id, d.l_hash, d.location_hash, d.duplicate_of, NULL,
              CASE WHEN d.duplicate_of IS NOT NULL THEN d.duplicate_method
                   WHEN bl.target_id IS NOT NULL THEN 'source_id'
                   WHEN h.id IS NOT NULL THEN 'match_hash' END,
              CASE WHEN d.duplicate_of IS NOT NULL OR bl.target_id IS NOT NULL OR h.id IS NOT NULL
                   THEN 1 END::numeric(5, 4),
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
        WHERE d.reused_from IS NULL""",
    # Row counts and rough distributions are all the plans need; a small sample is enough.
    "SET LOCAL default_statistics_target = 10",
    "ANALYZE work",
    "RESET default_statistics_target",
]

UNMATCHED_ROWS = """
SELECT w.id, s.name, s.address1, s.city, s.zip, i.international_phone
  FROM work w JOIN staging.listings s ON s.id = w.id JOIN staging.listing_info i ON i.id = w.id
 WHERE w.duplicate_of IS NULL AND w.target_listing_id IS NULL
 ORDER BY w.rec_num
"""

# Listings in the records' blocks. With a filter (%(numbers)s set: matching.candidate_filter, every
# record has a house number), only those fuzzy matching may compare: sharing a block and the house
# number with a record, with an address of at least %(long_address)s characters, or without a house
# number. Here the number is the address's first word in lower case when that word is digits and at
# most one letter and the address printable ASCII: then it is what matching takes as the house
# number (matching.address_key, _house_number); any other address is kept. A city or postal code
# not in printable ASCII, or a city the records do not spell so, may lower-case or key otherwise in
# Python: such a candidate is kept at any record's number.
FUZZY_CANDIDATES = """
SELECT l.id, l.name, loc.address1, loc.city, loc.zip, NULL
  FROM public.listings l JOIN public.locations loc ON loc.id = l.location_id,
       LATERAL (SELECT lower(split_part(loc.address1, ' ', 1)) AS word) a
 WHERE l.listing_status <> 'merged'
   AND (lower(loc.city) = ANY(%(cities)s) OR replace(upper(loc.zip), ' ', '') = ANY(%(zips)s))
   AND (%(numbers)s::text[] IS NULL
        OR a.word || ' ' || lower(loc.city) = ANY(%(city_numbers)s)
        OR a.word || ' ' || replace(upper(loc.zip), ' ', '') = ANY(%(zip_numbers)s)
        OR length(loc.address1) >= %(long_address)s
        OR loc.address1 IS NULL OR a.word !~ '^[0-9]+[a-z]?$' OR loc.address1 !~ '^[ -~]*$'
        OR (a.word = ANY(%(numbers)s)
            AND (loc.city !~ '^[ -~]*$' OR NOT lower(loc.city) = ANY(%(cities)s) OR loc.zip !~ '^[ -~]*$')))
"""

APPLY_FUZZY = """
UPDATE work w SET target_listing_id = f.target, duplicate_of = f.dup, certainty_score = f.certainty,
       match_method = 'fuzzy'
  FROM fuzzy f WHERE w.id = f.id
"""

# Two records of one DMO that land on the same listing: the later ones are duplicates. Only the
# rows of such listings are ranked (a hash count finds them; most listings have one row).
TARGET_COLLISIONS = """
WITH ranked AS (
    SELECT id, first_value(id) OVER (PARTITION BY target_listing_id ORDER BY certainty_score DESC, rec_num) AS first_id
      FROM work
     WHERE duplicate_of IS NULL AND target_listing_id IN (
           SELECT target_listing_id FROM work WHERE duplicate_of IS NULL GROUP BY 1 HAVING count(*) > 1)
)
UPDATE work w SET duplicate_of = r.first_id FROM ranked r WHERE w.id = r.id AND r.first_id <> r.id
"""

# Matched by hash or fuzzily: the DMO's listing_info of that listing, if it has one.
MATCH_LISTING_INFO = """
UPDATE work w SET target_listing_info_id = li.id FROM public.listing_info li
 WHERE w.duplicate_of IS NULL AND w.target_listing_info_id IS NULL
   AND li.listing_id = w.target_listing_id AND li.dmo_id = w.dmo_id
"""

# Actions and review flags, written back to staging.listings (thin rows were staged resolved; only
# those that turned out duplicates are written).
# Listing-level fields change only when this DMO's own data changed since it last sent them
# (a second DMO linking to a listing does not rename it), or to bring back a hidden listing.
# Review: duplicates, fuzzy matches under the auto-match threshold, and updates of anything a
# person edited by hand wait for a decision.
# Two updates on disjoint rows: the full rows, and the thin duplicates, which in the same update get
# their data back from the row they point at, so review and promotion read them like any other
# staged row (one new version of each such row, and the full rows carry no data columns along).
_WRITE_BACK = """
WITH sides AS (
    SELECT w.*, l.manually_modified AS l_manual, li.manually_modified AS li_manual,
           CASE WHEN w.duplicate_of IS NOT NULL THEN 'duplicate'
                WHEN w.reused_from IS NOT NULL THEN 'unchanged'
                WHEN w.target_listing_id IS NULL THEN 'insert'
                WHEN NOT l.listing_visible THEN 'update'
                WHEN li.id IS NULL THEN 'unchanged'
                WHEN li.l_hash IS DISTINCT FROM w.l_hash
                  OR li.location_hash IS DISTINCT FROM w.location_hash THEN 'update'
                ELSE 'unchanged' END AS l_action,
           CASE WHEN w.duplicate_of IS NOT NULL THEN 'duplicate'
                WHEN w.reused_from IS NOT NULL THEN 'unchanged'
                WHEN li.id IS NULL THEN 'insert'
                WHEN li.li_hash IS DISTINCT FROM i.li_hash
                  OR li.contact_info_hash IS DISTINCT FROM i.contact_info_hash
                  OR li.images_hash IS DISTINCT FROM i.images_hash
                  OR li.hours_hash IS DISTINCT FROM i.hours_hash
                  OR NOT li.info_visible THEN 'update'
                ELSE 'unchanged' END AS li_action
      FROM work w
      LEFT JOIN public.listings l ON {l_join}
      LEFT JOIN public.listing_info li ON {li_join}
      -- the staged listing_info hashes, read only where there is a listing_info to compare them with
      LEFT JOIN LATERAL (SELECT i.li_hash, i.contact_info_hash, i.images_hash, i.hours_hash
                           FROM staging.listing_info i WHERE i.id = w.id AND li.id IS NOT NULL OFFSET 0) i ON true
     WHERE {rows}),
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
       review_reason = r.review_reason, ok_to_promote = (r.review_reason IS NULL){thicken}
  FROM reviewed r{thicken_from}
 WHERE s.id = r.id
"""
WRITE_BACK = [
    _WRITE_BACK.format(rows="w.reused_from IS NULL", l_join="l.id = w.target_listing_id",
                       li_join="li.id = w.target_listing_info_id", thicken="", thicken_from=""),
    _WRITE_BACK.format(
        rows="w.reused_from IS NOT NULL AND w.duplicate_of IS NOT NULL",
        # duplicates all: neither their actions nor their review reason read the listing or listing_info
        l_join="false", li_join="false",
        thicken="".join(f",\n       {c} = CASE WHEN d.id IS NULL THEN s.{c} ELSE d.{c} END" for c in LISTING_DATA_COLUMNS)
        + ",\n       reused_from = CASE WHEN d.id IS NULL THEN s.reused_from END",
        # a probe for each (OFFSET 0 keeps it a subquery: never a join that reads every staged row)
        thicken_from=f"""
  LEFT JOIN LATERAL (SELECT d.id, {", ".join("d." + c for c in LISTING_DATA_COLUMNS)} FROM staging.listings d
                      WHERE d.id = r.reused_from OFFSET 0) d ON true"""),
]

# Thin rows found to be duplicates get their staging.listing_info row back too (WRITE_BACK copied
# their staging.listings data). Its parent is the job's own row WRITE_BACK just updated: `_resolve`
# runs it as a trusted insert (repository.rows_of_job), without a foreign-key check per row.
THICKEN_DUPLICATES = f"""
INSERT INTO staging.listing_info (id, job_id, {", ".join(INFO_DATA_COLUMNS)})
SELECT w.id, %(job)s, {", ".join("d." + c for c in INFO_DATA_COLUMNS)}
  FROM work w JOIN staging.listing_info d ON d.id = w.reused_from
 WHERE w.reused_from IS NOT NULL AND w.duplicate_of IS NOT NULL
"""

# A visible listing_info of the DMO that no record of a full import maps to is a deletion.
DETECT_DELETIONS = [
    """CREATE TEMP TABLE gone ON COMMIT DROP AS
       SELECT nextval('staging.listings_id_seq') AS id, li.id AS listing_info_id, l.id AS listing_id,
              coalesce(li.external_source_id, 'listing_info:' || li.id) AS source_id,
              NOT EXISTS (SELECT 1 FROM public.listing_info o
                           WHERE o.listing_id = l.id AND o.id <> li.id AND o.info_visible) AS last_info
         FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
        WHERE li.dmo_id = %(dmo)s AND li.info_visible
          AND NOT EXISTS (SELECT 1 FROM work w WHERE w.target_listing_info_id = li.id)""",
    """INSERT INTO staging.listings (id, job_id, dmo_id, source_id, name, category, address1, city, zip,
                                     target_listing_id, target_listing_info_id, match_method, certainty_score,
                                     action, l_action, li_action, review_status, review_reason)
       SELECT g.id, %(job)s, %(dmo)s, g.source_id, l.name, l.category, loc.address1, loc.city, loc.zip,
              g.listing_id, g.listing_info_id, 'absent', 1, 'delete',
              CASE WHEN g.last_info THEN 'delete' ELSE 'unchanged' END, 'delete',
              'pending', 'absent from a full import'
         FROM gone g JOIN public.listings l ON l.id = g.listing_id
         LEFT JOIN public.locations loc ON loc.id = l.location_id""",
    "INSERT INTO staging.listing_info (id, job_id) SELECT id, %(job)s FROM gone",
]

# Rows still waiting in older jobs: under review or approved (a partial index), or ok to promote
# in a job not promoted yet (through the job index). Promotion would take either kind. The older
# jobs not promoted are locked first: a promotion holding one (promote.promote_dmo) commits before,
# and its job, promoted then, is left alone (promotion reads its thin rows without marking them).
SUPERSEDE_OLDER = [
    """SELECT FROM pipeline.jobs WHERE dmo_id = %(dmo)s AND id < %(job)s AND stage <> 'promoted'
        ORDER BY id FOR NO KEY UPDATE""",
    """UPDATE staging.listings SET review_status = 'superseded', ok_to_promote = false
        WHERE dmo_id = %(dmo)s AND review_status IN ('pending', 'approved') AND job_id < %(job)s
          AND promoted_at IS NULL""",
    """UPDATE staging.listings SET review_status = 'superseded', ok_to_promote = false
        WHERE job_id IN (SELECT id FROM pipeline.jobs WHERE dmo_id = %(dmo)s AND id < %(job)s AND stage <> 'promoted')
          AND dmo_id = %(dmo)s AND ok_to_promote AND promoted_at IS NULL""",
    """UPDATE pipeline.jobs SET stage = 'superseded', status = 'succeeded'
        WHERE dmo_id = %(dmo)s AND id < %(job)s AND stage IN ('imported', 'stage')""",
]

ACTION_COUNTS = """
SELECT coalesce(action, 'none'), count(*), count(*) FILTER (WHERE review_status = 'pending')
  FROM staging.listings WHERE job_id = %(job)s GROUP BY 1
"""

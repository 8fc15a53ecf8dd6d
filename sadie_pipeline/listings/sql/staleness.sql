-- Time-based soft delete (staleness.py, core/staleness.py): the DMO's visible records that its pulled
-- source has not shown since %(cutoff)s, proposed for deletion in the job being staged, as a full
-- import's absent records are (resolve.sql detect_deletions).

-- name: now
SELECT localtimestamp;

-- name: stale
-- Not a record the job places (its full and thin rows, and a full import's deletions, have it as
-- their target), nor one a person kept: a stale proposal rejected since it was last shown.
SELECT li.id AS listing_info_id, li.listing_id, coalesce(li.last_seen_at, li.created_at) AS last_seen,
       NOT EXISTS (SELECT 1 FROM public.listing_info o
                    WHERE o.listing_id = li.listing_id AND o.id <> li.id AND o.info_visible) AS last_info
  FROM public.listing_info li
 WHERE li.dmo_id = %(dmo)s AND li.info_visible AND coalesce(li.last_seen_at, li.created_at) < %(cutoff)s
   AND NOT EXISTS (SELECT 1 FROM staging.listings s WHERE s.job_id = %(job)s AND s.target_listing_info_id = li.id)
   AND NOT EXISTS (SELECT 1 FROM staging.listings r
                    WHERE r.dmo_id = %(dmo)s AND r.review_status = 'rejected' AND r.match_method = 'stale'
                      AND r.target_listing_info_id = li.id AND r.job_id > coalesce(li.last_job_id, 0))
 ORDER BY li.id;

-- name: propose
-- One deletion row per stale record (%(infos)s, with %(reasons)s in the same order), waiting for review.
WITH gone AS (
    SELECT nextval('staging.listings_id_seq') AS id, li.id AS listing_info_id, li.listing_id,
           coalesce(li.external_source_id, 'listing_info:' || li.id) AS source_id, t.reason, t.last_info
      FROM unnest(%(infos)s::int[], %(reasons)s::text[], %(last_infos)s::boolean[]) AS t(info, reason, last_info)
      JOIN public.listing_info li ON li.id = t.info),
rows AS (
    INSERT INTO staging.listings (id, job_id, dmo_id, row_kind, source_id, name, category, address1, city, zip,
                                  target_listing_id, target_listing_info_id, match_method, certainty_score,
                                  action, l_action, li_action, review_status, review_reason)
    SELECT g.id, %(job)s, %(dmo)s, 'deletion', g.source_id, l.name, l.category, loc.address1, loc.city, loc.zip,
           g.listing_id, g.listing_info_id, 'stale', 1, 'delete',
           CASE WHEN g.last_info THEN 'delete' ELSE 'unchanged' END, 'delete', 'pending', g.reason
      FROM gone g JOIN public.listings l ON l.id = g.listing_id
      LEFT JOIN public.locations loc ON loc.id = l.location_id
    RETURNING id)
INSERT INTO staging.listing_info (id, job_id) SELECT id, %(job)s FROM rows;

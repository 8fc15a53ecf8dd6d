-- The small previews of each step's data shown in the asset metadata (previews.py).

-- name: staged
-- The job's first rows, full rows first; a thin row's data is that of the row it points at.
SELECT s.id, s.rec_num, coalesce(s.name, d.name), coalesce(s.city, d.city), s.action, s.match_method,
       s.certainty_score, s.target_listing_id, s.review_reason
  FROM (SELECT * FROM staging.listings WHERE job_id = %(job)s
         ORDER BY (row_kind = 'thin'), rec_num NULLS LAST LIMIT %(rows)s) s
  LEFT JOIN staging.listings d ON d.id = s.reused_from
 ORDER BY (s.row_kind = 'thin'), s.rec_num NULLS LAST;

-- name: errors
SELECT rec_num, error_type, error_message FROM pipeline.job_errors WHERE job_id = %(job)s ORDER BY rec_num LIMIT %(rows)s;

-- name: live
-- The DMO's most recently updated listings: the first rows of listing_info_dmo_updated_idx, then their
-- listing and location (l.id = li.listing_id: the same order as by listing id).
SELECT l.id, l.name, loc.city, li.info_status, li.last_seen_at
  FROM (SELECT listing_id, info_status, last_seen_at, updated_at FROM public.listing_info
         WHERE dmo_id = %(dmo)s ORDER BY updated_at DESC, listing_id LIMIT %(rows)s) li
  JOIN public.listings l ON l.id = li.listing_id
  LEFT JOIN public.locations loc ON loc.id = l.location_id
 ORDER BY li.updated_at DESC, li.listing_id;

-- name: categories
-- The categories of the job's transformed records (thin rows carry none) and how many have each.
SELECT category, count(*) FROM staging.listings
 WHERE job_id = %(job)s AND category IS NOT NULL
 GROUP BY category ORDER BY count(*) DESC, category;

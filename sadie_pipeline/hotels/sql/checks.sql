-- The hotel-lead asset checks (checks.py) and the row counts the assets report.

-- name: golden_rows_per_hotel
-- Hotels of the region the golden record must cover (golden.golden_hotel_ids: past detection,
-- with a booking engine) without exactly one golden row filed under the region, and golden rows
-- filed under the region whose hotel is not such a hotel of it (moved, merged away, a dead end).
-- hotel_id is the table's primary key today; counting keeps the check true to its name if not.
WITH expected AS (
    SELECT DISTINCT h.id
      FROM sadie_gtm.hotels h
      JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id AND hbe.booking_engine_id IS NOT NULL
     WHERE h.region = %(region)s AND h.status = ANY(%(statuses)s)),
filed AS (
    SELECT g.hotel_id, count(*) AS golden_rows, string_agg(DISTINCT g.region, ', ') AS regions
      FROM sadie_gtm.golden_hotels g
     WHERE g.hotel_id IN (SELECT id FROM expected) OR g.region = %(region)s
     GROUP BY g.hotel_id)
SELECT coalesce(e.id, f.hotel_id) AS hotel_id, h.city, coalesce(f.golden_rows, 0) AS golden_rows,
       CASE WHEN e.id IS NULL THEN 'golden row of a hotel not in the region''s pipeline'
            WHEN f.hotel_id IS NULL THEN 'no golden row'
            WHEN f.golden_rows <> 1 THEN f.golden_rows || ' golden rows'
            ELSE 'golden row filed under ' || f.regions END AS problem
  FROM expected e FULL JOIN filed f ON f.hotel_id = e.id
  LEFT JOIN sadie_gtm.hotels h ON h.id = coalesce(e.id, f.hotel_id)
 WHERE e.id IS NULL OR f.hotel_id IS NULL OR f.golden_rows <> 1 OR f.regions <> %(region)s
 ORDER BY 1;

-- name: score_problems
-- Scored hotels of the region whose score is outside 0..100, lacks a component, differs from its
-- details' total or from the sum of its components' points by more than rounding allows: the
-- score is the unrounded sum rounded half up, each component's points rounded to 2 decimals.
WITH scored AS (
    SELECT h.id, h.city, h.score, (h.score_details ->> 'total')::numeric AS total,
           (SELECT count(*) FROM unnest(%(components)s::text[]) c
             WHERE jsonb_typeof(h.score_details -> c -> 'points') = 'number') AS components,
           (SELECT sum((h.score_details -> c ->> 'points')::numeric) FROM unnest(%(components)s::text[]) c
             WHERE jsonb_typeof(h.score_details -> c -> 'points') = 'number') AS points
      FROM sadie_gtm.hotels h
     WHERE h.region = %(region)s AND h.score IS NOT NULL)
SELECT id, city, score, points,
       CASE WHEN score NOT BETWEEN 0 AND 100 THEN 'score outside 0..100'
            WHEN components < cardinality(%(components)s::text[]) THEN
                 (cardinality(%(components)s::text[]) - components) || ' component(s) missing'
            WHEN total IS DISTINCT FROM score THEN 'score differs from its details'' total ' || coalesce(total::text, 'NULL')
            ELSE 'score is not the sum of its components' END AS problem
  FROM scored
 WHERE score NOT BETWEEN 0 AND 100
    OR components < cardinality(%(components)s::text[])
    OR total IS DISTINCT FROM score
    OR abs(score - least(100, greatest(0, points))) > %(tolerance)s
 ORDER BY id;

-- name: launched_by_run
-- The hotels a run moved to LIVE (the audit trail records the run as the change's actor), as the
-- launch reads them (launch.decisions): score, engine tier and the golden fields.
SELECT g.*, h.id, h.name AS hotel_name, h.city AS hotel_city, h.score, be.tier
  FROM sadie_gtm.hotels h
  JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN sadie_gtm.golden_hotels g ON g.hotel_id = h.id
 WHERE h.region = %(region)s
   AND h.id IN (SELECT a.hotel_id FROM sadie_gtm.audit_log a
                 WHERE a.new_status = %(live)s AND a.changed_by = %(actor)s)
 ORDER BY h.id;

-- name: latest_export_files
-- The latest export of each of the region's files: what the published workbooks should hold.
SELECT DISTINCT ON (scope, city) scope, city, object_key, hotels, decision_makers
  FROM sadie_gtm.lead_exports
 WHERE region = %(region)s
 ORDER BY scope, city, id DESC;

-- name: golden_row_count
SELECT count(*) FROM sadie_gtm.golden_hotels WHERE region = ANY(%(regions)s);

-- name: scored_row_count
SELECT count(*) FROM sadie_gtm.hotels WHERE region = ANY(%(regions)s) AND score IS NOT NULL;

-- The hotel-lead assets' values (frames.py): the rows each asset hands its IO manager, read back
-- from the tables the asset changed, so a partition's value is the region as it now stands. No status
-- column: later assets move a hotel's status, which would make a stored row stale.

-- name: lead_scores
-- Every scored hotel of the regions, its score and each component's points (core.scoring.COMPONENTS).
SELECT h.id AS hotel_id, h.region, h.city, h.score,
       (h.score_details -> 'booking_engine_tier' ->> 'points')::float8 AS booking_engine_tier,
       (h.score_details -> 'room_count' ->> 'points')::float8 AS room_count,
       (h.score_details -> 'rating_reviews' ->> 'points')::float8 AS rating_reviews,
       (h.score_details -> 'location' ->> 'points')::float8 AS location,
       (h.score_details -> 'completeness' ->> 'points')::float8 AS completeness,
       (h.score_details -> 'verified_contacts' ->> 'points')::float8 AS verified_contacts,
       h.scored_at
  FROM sadie_gtm.hotels h
 WHERE h.region = ANY(%(regions)s) AND h.score IS NOT NULL
 ORDER BY h.region, h.id;

-- name: launched_leads
-- Every launched hotel of the regions (status LIVE, or EXPORTED once exported): what lead_exports exports.
SELECT h.id AS hotel_id, h.region, h.city, coalesce(g.name, h.name) AS name, h.score, be.tier,
       h.launched_at
  FROM sadie_gtm.hotels h
  LEFT JOIN sadie_gtm.golden_hotels g ON g.hotel_id = h.id
  LEFT JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  LEFT JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
 WHERE h.region = ANY(%(regions)s) AND h.status = ANY(%(launched)s)
 ORDER BY h.region, h.id;

-- name: table_exists
-- The table's oid, NULL when there is no such table.
SELECT to_regclass(%(table)s);

-- name: layer_rows
-- An enrichment layer's stored rows for the regions ({table}: sadie_leads.{layer}, formatted by psycopg.sql).
SELECT hotel_id, region, layer, outcome, detail, attempts, value
  FROM {table}
 WHERE region = ANY(%(regions)s)
 ORDER BY region, hotel_id;

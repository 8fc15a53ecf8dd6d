-- name: layers_completed
-- Each tier-1 hotel's completed layers in a region (the summary counts them per layer).
SELECT coalesce(e.layers_completed, 0)
  FROM sadie_gtm.hotels h
  JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id AND be.tier = 1
  LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id
 WHERE h.region = %(region)s;

-- name: people
-- The region's named decision makers (merged rows left out), with where each was found and how far
-- their address was checked.
SELECT h.name AS hotel, d.full_name, d.title, d.email, d.email_status, d.email_verified, d.sources
  FROM sadie_gtm.hotel_decision_makers d
  JOIN sadie_gtm.hotels h ON h.id = d.hotel_id
 WHERE h.region = %(region)s AND d.merged_into IS NULL
 ORDER BY h.name, d.confidence DESC, d.id;

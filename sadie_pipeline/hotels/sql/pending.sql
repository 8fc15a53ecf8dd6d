-- The enrichment layers' pending work (hotels/enrichment/pending.py), read in keyset windows: the
-- next candidate ids in id order (pending_window: the WHERE sql/0051_pending_enrichment.sql's partial
-- index is built for, so the window is read from that index in order and stops at %(limit)s), then
-- those of them that still need the layer (layer_pending, by primary key).

-- name: pending_window
-- The region's next %(limit)s (NULL: all) hotels by id after %(after)s whose status lets layers run
-- (DETECTED, ENRICHED; with ids, any stage past detection: a re-run from a hotel's page).
SELECT h.id
  FROM sadie_gtm.hotels h
 WHERE h.region = %(region)s AND h.status = ANY(%(statuses)s) AND h.id > %(after)s
   AND (cardinality(%(ids)s::int[]) = 0 OR h.id = ANY(%(ids)s))
 ORDER BY h.id
 LIMIT %(limit)s;

-- name: layer_pending
-- The window's hotels on a tier-%(tier)s engine still missing the layer bit; with force also those
-- that have it (only those older than stale days when stale > 0); in the cities when given.
SELECT h.id, h.name, h.city, h.state, h.region, h.address, h.zip, h.phone, h.lat, h.lng, h.website,
       h.website_content_s3_path, h.google_place_id,
       coalesce(e.layers_completed, 0) AS layers_completed
  FROM sadie_gtm.hotels h
  JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id
 WHERE h.id = ANY(%(window)s::int[]) AND h.region = %(region)s AND h.status = ANY(%(statuses)s)
   AND be.tier = %(tier)s
   AND (cardinality(%(cities)s::text[]) = 0 OR lower(h.city) = ANY(%(cities)s))
   AND (coalesce(e.layers_completed, 0) & %(bit)s = 0
        OR %(force)s AND (%(stale)s = 0 OR coalesce((e.layer_updated_at ->> %(layer)s)::timestamptz,
                                                   '-infinity') < now() - make_interval(days => %(stale)s)))
 ORDER BY h.id;

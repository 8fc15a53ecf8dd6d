-- The exact stages again for hotels whose engine and client id detection found since the last run
-- (client_matches.py). A detection row is matched once: client_id_matched_at NULL means "since".

-- name: unmatched
SELECT hbe.hotel_id
  FROM sadie_gtm.hotel_booking_engines hbe JOIN sadie_gtm.hotels h ON h.id = hbe.hotel_id
 WHERE h.region = %(region)s AND hbe.booking_engine_id IS NOT NULL AND hbe.client_id_matched_at IS NULL
   AND h.status <> %(duplicate)s
 ORDER BY hbe.hotel_id;

-- name: region_hotels
-- The region's hotels (not duplicates) with the engine and client id detection found.
SELECT h.id, h.name, h.address, h.city, h.website, h.google_place_id, be.name AS engine, hbe.client_id
  FROM sadie_gtm.hotels h
  LEFT JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  LEFT JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
 WHERE h.region = %(region)s AND h.status <> %(duplicate)s
 ORDER BY h.id;

-- name: region_sources
-- Each hotel's source rows; those of engines' client pages (and any record that knows them) with
-- their engine and client id.
SELECT s.hotel_id, s.id, s.record ->> 'booking_engine', lower(s.record ->> 'client_id')
  FROM sadie_gtm.hotel_sources s
 WHERE s.region = %(region)s AND s.hotel_id IS NOT NULL
 ORDER BY s.id;

-- name: separated
-- Hotels a person said are two (a reject decision between two of their records).
SELECT DISTINCT sa.hotel_id, sb.hotel_id
  FROM sadie_gtm.hotel_entity_reviews r
  JOIN sadie_gtm.hotel_sources sa ON sa.id = r.source_id_a
  JOIN sadie_gtm.hotel_sources sb ON sb.id = r.source_id_b
 WHERE sa.region = %(region)s AND r.decision = 'separate' AND sa.hotel_id IS NOT NULL AND sb.hotel_id IS NOT NULL;

-- name: point_sources
UPDATE sadie_gtm.hotel_sources SET hotel_id = %(kept)s WHERE hotel_id = ANY(%(ids)s);

-- name: record_merge
INSERT INTO sadie_gtm.hotel_merges (region, hotel_id, merged_hotel_id, source_id_a, source_id_b, stage,
                                    booking_engine, client_id)
VALUES (%(region)s, %(kept)s, %(merged)s, %(a)s, %(b)s, %(stage)s, %(engine)s, %(client)s)
    ON CONFLICT (source_id_a, source_id_b) DO NOTHING;

-- name: ask_person
-- Same client id, two Google place ids: a pending review pair (a decided one keeps its decision).
INSERT INTO sadie_gtm.hotel_entity_reviews (source_id_a, source_id_b, score, explanation)
VALUES (%(a)s, %(b)s, 1.0, %(explanation)s)
    ON CONFLICT (source_id_a, source_id_b) DO NOTHING;

-- name: matched
UPDATE sadie_gtm.hotel_booking_engines SET client_id_matched_at = now() WHERE hotel_id = ANY(%(ids)s);

-- Entity resolution of a region's source records into hotels (entities.py).

-- name: sources_of_region
-- With the engine and client id detection found on the record's hotel (a record knows its hotel's).
SELECT s.id, s.source, s.external_id, s.hotel_id, s.record, be.name AS engine, hbe.client_id
  FROM sadie_gtm.hotel_sources s
  LEFT JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = s.hotel_id
  LEFT JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
 WHERE s.region = %(region)s ORDER BY s.id;

-- name: mark_duplicates
UPDATE sadie_gtm.hotels SET status = %(status)s, updated_at = now() WHERE id = ANY(%(ids)s);

-- name: point_sources
UPDATE sadie_gtm.hotel_sources SET hotel_id = %(hotel)s
 WHERE id = ANY(%(ids)s) AND hotel_id IS DISTINCT FROM %(hotel)s;

-- name: create_hotel
-- A hotel with the same place id already there is that hotel (only its updated_at changes).
INSERT INTO sadie_gtm.hotels (region, status, name, address, city, state, zip, phone, website, lat, lng,
                              google_place_id, rating, review_count)
VALUES (%(region)s, %(status)s, %(name)s, %(address)s, %(city)s, %(state)s, %(zip)s, %(phone)s, %(website)s,
        %(lat)s, %(lng)s, %(google_place_id)s, %(rating)s, %(review_count)s)
    ON CONFLICT (google_place_id) WHERE google_place_id IS NOT NULL DO UPDATE SET updated_at = now()
RETURNING id;

-- name: resolved_with
-- The resolver version the region's hotels were resolved with now (resolver_release.py reads it).
INSERT INTO sadie_gtm.hotel_region_resolutions (region, resolver_version, resolved_at)
VALUES (%(region)s, %(version)s, now())
    ON CONFLICT (region) DO UPDATE SET resolver_version = EXCLUDED.resolver_version, resolved_at = now();

-- name: stale_regions
-- The regions (of %(regions)s, the partitions) last resolved by another resolver than %(version)s.
SELECT region FROM sadie_gtm.hotel_region_resolutions
 WHERE resolver_version <> %(version)s AND region = ANY(%(regions)s)
 ORDER BY region;

-- name: record_merges
-- This run's merges (source id a < b) with their stage; a pair already recorded changes only when
-- its hotel or stage did. Returns the rows written.
INSERT INTO sadie_gtm.hotel_merges AS m (region, hotel_id, source_id_a, source_id_b, stage, booking_engine, client_id)
SELECT %(region)s, t.h, t.a, t.b, t.st, t.e, t.c
  FROM unnest(%(hotel)s::int[], %(a)s::bigint[], %(b)s::bigint[], %(stage)s::text[], %(engine)s::text[],
              %(client)s::text[]) AS t(h, a, b, st, e, c)
    ON CONFLICT (source_id_a, source_id_b) DO UPDATE
   SET hotel_id = EXCLUDED.hotel_id, stage = EXCLUDED.stage, booking_engine = EXCLUDED.booking_engine,
       client_id = EXCLUDED.client_id, merged_at = now()
 WHERE (m.hotel_id, m.stage) IS DISTINCT FROM (EXCLUDED.hotel_id, EXCLUDED.stage)
RETURNING stage;

-- name: drop_undone_merges
-- Merges of the region whose two records are no longer on one hotel (a person separated them).
DELETE FROM sadie_gtm.hotel_merges m
 USING sadie_gtm.hotel_sources a, sadie_gtm.hotel_sources b
 WHERE m.region = %(region)s AND a.id = m.source_id_a AND b.id = m.source_id_b
   AND a.hotel_id IS DISTINCT FROM b.hotel_id;

-- name: adopt_detection
-- The kept hotel takes the engine a duplicate's website showed when it has none of its own (an
-- engine's client page discovered first, the hotel's site detected later): the lead keeps its engine.
INSERT INTO sadie_gtm.hotel_booking_engines AS k (hotel_id, booking_engine_id, booking_url, detection_method,
                                                  confidence, unknown_host, found_on_url, client_id,
                                                  client_id_matched_at, detected_at)
SELECT %(kept)s, d.booking_engine_id, d.booking_url, d.detection_method, d.confidence, d.unknown_host,
       d.found_on_url, d.client_id, d.client_id_matched_at, d.detected_at
  FROM sadie_gtm.hotel_booking_engines d
 WHERE d.hotel_id = ANY(%(ids)s) AND d.booking_engine_id IS NOT NULL
 ORDER BY d.detected_at DESC, d.hotel_id LIMIT 1
    ON CONFLICT (hotel_id) DO UPDATE
   SET booking_engine_id = EXCLUDED.booking_engine_id, booking_url = EXCLUDED.booking_url,
       detection_method = EXCLUDED.detection_method, confidence = EXCLUDED.confidence,
       unknown_host = EXCLUDED.unknown_host, found_on_url = EXCLUDED.found_on_url, client_id = EXCLUDED.client_id,
       client_id_matched_at = EXCLUDED.client_id_matched_at, detected_at = EXCLUDED.detected_at
 WHERE k.booking_engine_id IS NULL
RETURNING hotel_id;

-- name: adopt_status
-- ... and moves on with it from before detection or a dead end, with the duplicates' website if it has none.
UPDATE sadie_gtm.hotels k
   SET status = %(status)s, updated_at = now(),
       website = COALESCE(k.website, (SELECT d.website FROM sadie_gtm.hotels d
                                       WHERE d.id = ANY(%(ids)s) AND d.website IS NOT NULL ORDER BY d.id LIMIT 1))
 WHERE k.id = %(kept)s AND k.status = ANY(%(before)s);

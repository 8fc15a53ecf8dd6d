-- Entity resolution of a region's source records into hotels (entities.py).

-- name: sources_of_region
SELECT id, source, external_id, hotel_id, record FROM sadie_gtm.hotel_sources
 WHERE region = %(region)s ORDER BY id;

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

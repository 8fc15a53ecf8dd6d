-- Booking hosts no catalogued engine matches (hotels/unknown_engines.py, `sadie hotel engines`).

-- name: unknown_hosts
-- Every uncatalogued booking host detection has recorded, most hotels first: how many hotels
-- use it, how many still wait for review (status %(review)s), a few pages it was seen on (the
-- followed booking page, else the hotel's website) and one booking or script URL; `total` is
-- the number of hosts before the limit.
WITH seen AS (
    SELECT hbe.unknown_host AS host, h.id AS hotel_id, h.status,
           coalesce(hbe.found_on_url, h.website) AS page, hbe.booking_url
      FROM sadie_gtm.hotel_booking_engines hbe
      JOIN sadie_gtm.hotels h ON h.id = hbe.hotel_id
     WHERE hbe.unknown_host IS NOT NULL
       AND (%(regions)s::text[] IS NULL OR h.region = ANY(%(regions)s::text[]))
)
SELECT host,
       count(DISTINCT hotel_id) AS hotels,
       count(DISTINCT hotel_id) FILTER (WHERE status = %(review)s) AS waiting,
       (array_agg(DISTINCT page ORDER BY page) FILTER (WHERE page IS NOT NULL))[1:%(samples)s] AS pages,
       min(booking_url) AS example,
       count(*) OVER () AS total
  FROM seen
 GROUP BY host
 ORDER BY hotels DESC, host
 LIMIT %(limit)s;

-- What starts the hotel side unattended (hotels/intake.py): DMO promotions that add or change
-- lodging or attraction listings in a region.
--
-- Promotion (listings/sql/promote.sql, finish_jobs) writes pipeline.job_results.updated_at for
-- every job whose rows it promoted, and only promotion writes that table. Promotions run one at a
-- time under the promotions lock, so a later promotion's now() is later than every committed
-- one: the newest updated_at seen is a safe cursor, and the few jobs changed since it lead to their
-- staged rows through staging_listings_job_idx (no scan of staging.listings).

-- name: promotions_upto
SELECT max(updated_at)::text FROM pipeline.job_results WHERE updated_at > %(since)s::timestamp;

-- name: promoted_by_region
-- Listings inserted or updated by promotions in (since, upto], counted by region: lodging in one
-- of the region's active market cities (what discovery's dmo_lodging reads), and attractions where
-- the region has hotels whose proximity layer can still change (DETECTED or ENRICHED). The region is
-- the listing's current location's state as a region code (US and Canadian codes do not overlap).
-- The categories are the vocabulary's groups discovery and proximity read (core/categories.py).
WITH promoted AS (
    SELECT DISTINCT l.id, l.name, l.category, lower(loc.city) AS city,
           coalesce(us.region, ca.region) AS region
      FROM pipeline.job_results r
      JOIN staging.listings s ON s.job_id = r.job_id
      JOIN public.listings l ON l.id = s.target_listing_id
      JOIN public.locations loc ON loc.id = l.location_id
      LEFT JOIN LATERAL (SELECT 'US-' || upper(loc.state) AS region) us ON us.region = ANY(%(regions)s)
      LEFT JOIN LATERAL (SELECT 'CA-' || upper(loc.state) AS region) ca ON ca.region = ANY(%(regions)s)
     WHERE r.updated_at > %(since)s::timestamp AND r.updated_at <= %(upto)s::timestamp
       AND s.promoted_at > %(since)s::timestamp AND s.action IN ('insert', 'update')
), kinds AS (
    SELECT region, city,
           split_part(category, '.', 1) = %(lodging)s AS lodging,
           split_part(category, '.', 1) = ANY(%(attraction)s) AS attraction
      FROM promoted WHERE region IS NOT NULL
)
SELECT k.region,
       count(*) FILTER (WHERE k.lodging AND EXISTS (
           SELECT 1 FROM sadie_gtm.markets m
            WHERE m.region = k.region AND m.active AND lower(m.city) = k.city)) AS lodging,
       count(*) FILTER (WHERE k.attraction AND EXISTS (
           SELECT 1 FROM sadie_gtm.hotels h
            WHERE h.region = k.region AND h.status = ANY(%(proximity_statuses)s))) AS attractions
  FROM kinds k
 GROUP BY k.region
 ORDER BY k.region;

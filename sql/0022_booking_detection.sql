-- Booking-engine detection that keeps what it finds (issue 15, part 3).
-- * An engine the catalogue does not know is still recorded: booking_engine_id stays NULL and
--   unknown_host names the third-party booking host; the hotel waits for review (status 98).
-- * found_on_url: the page the engine was found on when it is not the home page (a followed
--   same-site "Book now" page).

ALTER TABLE sadie_gtm.hotel_booking_engines
    ADD COLUMN IF NOT EXISTS unknown_host text,
    ADD COLUMN IF NOT EXISTS found_on_url text;

CREATE INDEX IF NOT EXISTS hotel_booking_engines_unknown_host_idx
    ON sadie_gtm.hotel_booking_engines (unknown_host) WHERE unknown_host IS NOT NULL;

-- The pipeline-stage view of 0005 with status 98 (engine_review); the rest unchanged.
CREATE OR REPLACE VIEW sadie_gtm.hotel_pipeline_status AS
SELECT h.id,
       h.name,
       h.region,
       h.city,
       h.status,
       CASE
           WHEN h.status = 99 THEN 'no_booking_engine'
           WHEN h.status = 98 THEN 'engine_review'
           WHEN h.status = 6 THEN 'exported'
           WHEN h.status = 5 THEN 'launched'
           WHEN h.status = 4 THEN 'scored'
           WHEN h.status = 0 THEN 'scraped'
           WHEN be.tier = 2 THEN 'awaiting_score'
           WHEN hoe.hotel_id IS NULL THEN 'pending_enrichment'
           WHEN h.status = 1 THEN 'enriching'
           WHEN coalesce(hdm.dm_count, 0) = 0 THEN 'enriched_no_contacts'
           WHEN hdm.verified_count = 0 THEN 'enriched_unverified'
           ELSE 'enriched_verified'
       END AS pipeline_stage,
       be.tier,
       hoe.layers_completed,
       coalesce(hdm.dm_count, 0) AS dm_count,
       coalesce(hdm.verified_count, 0) AS verified_count,
       h.score,
       h.updated_at
  FROM sadie_gtm.hotels h
  LEFT JOIN sadie_gtm.hotel_owner_enrichment hoe ON hoe.hotel_id = h.id
  LEFT JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  LEFT JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN LATERAL (
      SELECT count(*) AS dm_count,
             count(*) FILTER (WHERE d.email_verified) AS verified_count
        FROM sadie_gtm.hotel_decision_makers d
       WHERE d.hotel_id = h.id AND d.merged_into IS NULL
  ) hdm ON true;

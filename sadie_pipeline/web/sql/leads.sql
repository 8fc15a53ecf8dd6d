-- The leads page (routes/leads.py): the scored hotels the next launch decides on, filtered, a page at
-- a time by keyset (region, city, best score first, id); their details, people and decisions; the
-- export's rows (the launch workbook's columns); the hotel page.

-- name: pick
-- The filtered scored hotels after the key, in page order. No filter given: every region's.
SELECT h.id, h.region, coalesce(h.city, '') AS city_key, -coalesce(h.score, -1) AS score_key
  FROM sadie_gtm.hotels h
  JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
 WHERE h.status = %(scored)s
   AND (%(region)s::text IS NULL OR h.region = %(region)s)
   AND (%(city)s::text IS NULL OR coalesce(h.city, '') = %(city)s)
   AND (%(tier)s::int IS NULL OR be.tier = %(tier)s)
   AND (%(engine)s::text IS NULL OR be.name = %(engine)s)
   AND (%(min_score)s::int IS NULL OR h.score >= %(min_score)s)
   AND (NOT %(verified)s OR EXISTS (
        SELECT 1 FROM sadie_gtm.hotel_decision_makers d
         WHERE d.hotel_id = h.id AND d.email_verified AND d.merged_into IS NULL
           AND d.email_status IN ('verified_smtp', 'verified_o365')))
   AND (%(like)s::text IS NULL OR lower(h.name) LIKE %(like)s OR lower(h.website) LIKE %(like)s)
   AND (%(after_region)s::text IS NULL
        OR (h.region, coalesce(h.city, ''), -coalesce(h.score, -1), h.id)
           > (%(after_region)s, %(after_city)s, %(after_score)s, %(after_id)s))
 ORDER BY h.region, coalesce(h.city, ''), -coalesce(h.score, -1), h.id
 LIMIT %(limit)s;

-- name: details
-- What a lead row shows, and what the launch's criteria read (the golden record as JSON).
SELECT h.id, h.region, h.city, h.name, h.website, h.score, h.score_details, h.status, h.launch_rejections,
       be.name AS engine, be.tier, hbe.booking_url, to_jsonb(g) AS golden,
       e.registrant_org, e.whois_registrant_org, e.licensee_name, e.abn_entity_name,
       cdm.email AS contact_email, cdm.email_status AS contact_email_status,
       cdm.email_verified AS contact_email_verified,
       d.decision, d.reason, d.decided_by, d.decided_at, d.held_for
  FROM sadie_gtm.hotels h
  JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN sadie_gtm.golden_hotels g ON g.hotel_id = h.id
  LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id
  LEFT JOIN sadie_gtm.hotel_decision_makers cdm ON cdm.id = g.contact_dm_id
  LEFT JOIN LATERAL (SELECT x.decision, x.reason, x.decided_by, x.decided_at, x.held_for
                       FROM sadie_gtm.lead_decisions x WHERE x.hotel_id = h.id
                      ORDER BY x.decided_at DESC, x.id DESC LIMIT 1) d ON true
 WHERE h.id = ANY(%(ids)s);

-- name: people
SELECT hotel_id, full_name, title, email, email_status, email_verified, sources
  FROM sadie_gtm.hotel_decision_makers
 WHERE hotel_id = ANY(%(ids)s) AND merged_into IS NULL
 ORDER BY hotel_id, confidence DESC NULLS LAST, id;

-- name: cities
-- The scored hotels per region and city (the page's overview and city filter).
SELECT h.region, h.city, count(*) AS hotels
  FROM sadie_gtm.hotels h
 WHERE h.status = %(scored)s AND (%(region)s::text IS NULL OR h.region = %(region)s)
 GROUP BY h.region, h.city ORDER BY h.region, h.city NULLS LAST LIMIT 500;

-- name: engines
-- The engines some hotel books through (the catalogue holds hundreds).
SELECT be.name FROM sadie_gtm.booking_engines be
 WHERE EXISTS (SELECT 1 FROM sadie_gtm.hotel_booking_engines hbe WHERE hbe.booking_engine_id = be.id)
 ORDER BY be.name;

-- name: scored_ids
-- Which of these hotels are scored (a decision is on a lead the launch will see).
SELECT id, name FROM sadie_gtm.hotels WHERE id = ANY(%(ids)s) AND status = %(scored)s ORDER BY id;

-- name: decide
INSERT INTO sadie_gtm.lead_decisions (hotel_id, decision, reason, decided_by, held_for)
SELECT unnest(%(ids)s::int[]), %(decision)s, %(reason)s, %(by)s, %(held_for)s;

-- name: hotel
SELECT h.id, h.region, h.city, h.name, h.website, h.status, h.score, h.score_details, h.launch_rejections,
       h.launched_at, be.name AS engine, be.tier, hbe.booking_url,
       e.layers_completed, e.layer_updated_at
  FROM sadie_gtm.hotels h
  LEFT JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  LEFT JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id
 WHERE h.id = %(id)s;

-- name: history
SELECT decision, reason, decided_by, decided_at, held_for, applied_at, applied_by, overrode
  FROM sadie_gtm.lead_decisions WHERE hotel_id = %(id)s ORDER BY decided_at DESC, id DESC LIMIT 100;

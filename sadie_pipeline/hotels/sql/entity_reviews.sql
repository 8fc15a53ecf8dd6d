-- Hotel entity review pairs and people's decisions on them (entity_reviews.py). A pair is two
-- hotel_sources rows (source_id_a < source_id_b); its region is its first record's.

-- name: decisions_of_region
SELECT r.source_id_a, r.source_id_b, r.decision
  FROM sadie_gtm.hotel_entity_reviews r JOIN sadie_gtm.hotel_sources s ON s.id = r.source_id_a
 WHERE s.region = %(region)s AND r.decision IS NOT NULL
 ORDER BY r.id;

-- name: record_pair
-- A decided pair keeps its decision: only the score and its explanation follow the latest run.
INSERT INTO sadie_gtm.hotel_entity_reviews (source_id_a, source_id_b, score, explanation)
VALUES (%(a)s, %(b)s, %(score)s, %(explanation)s)
    ON CONFLICT (source_id_a, source_id_b) DO UPDATE
   SET score = EXCLUDED.score, explanation = EXCLUDED.explanation;

-- name: drop_unasked
-- Pending pairs the latest run no longer reports (merged since, or now asked about through a
-- better pair of the same two entities): a question nobody needs to answer any more.
DELETE FROM sadie_gtm.hotel_entity_reviews r USING sadie_gtm.hotel_sources s
 WHERE s.id = r.source_id_a AND s.region = %(region)s AND r.decision IS NULL
   AND (r.source_id_a, r.source_id_b) NOT IN (SELECT * FROM unnest(%(a)s::bigint[], %(b)s::bigint[]));

-- name: pending_count
SELECT count(*)
  FROM sadie_gtm.hotel_entity_reviews r JOIN sadie_gtm.hotel_sources s ON s.id = r.source_id_a
 WHERE s.region = %(region)s AND r.decision IS NULL;

-- name: pairs
SELECT r.id, s.region, r.score, r.decision, r.decided_by, r.decided_at, r.explanation,
       r.source_id_a, s.source AS source_a, s.record AS record_a,
       r.source_id_b, t.source AS source_b, t.record AS record_b
  FROM sadie_gtm.hotel_entity_reviews r
  JOIN sadie_gtm.hotel_sources s ON s.id = r.source_id_a
  JOIN sadie_gtm.hotel_sources t ON t.id = r.source_id_b
 WHERE (%(region)s::text IS NULL OR s.region = %(region)s) AND (%(all)s OR r.decision IS NULL)
 ORDER BY s.region, r.score DESC, r.id;

-- name: decide
UPDATE sadie_gtm.hotel_entity_reviews
   SET decision = %(decision)s, decided_by = %(by)s, decided_at = now()
 WHERE id = ANY(%(ids)s) AND decision IS NULL
RETURNING id;

-- name: why_undecided
SELECT id, 'already decided: ' || decision || ' by ' || decided_by || ' on ' || to_char(decided_at, 'YYYY-MM-DD')
  FROM sadie_gtm.hotel_entity_reviews
 WHERE id = ANY(%(ids)s) AND decision IS NOT NULL;

-- Dead letters of the enrichment layers (pipeline.dead_letters, written by
-- resources/reliability.py record_dead_letters). An item key is 'hotel:<id>'.

-- name: dead_letters
-- Dead letters with what decides whether the next run of their layer retries them: the hotel's
-- status and the layers it has completed (enrichment/common.py hotels_needing).
SELECT d.id, d.layer, d.item_key, d.error_class, d.attempts, d.last_error, d.last_failed_at,
       d.resolved_at, d.requeued_at, h.status AS hotel_status, coalesce(e.layers_completed, 0) AS layers_completed
  FROM pipeline.dead_letters d
  LEFT JOIN sadie_gtm.hotels h ON h.id = substring(d.item_key FROM '^hotel:(\d{1,9})$')::integer
  LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id
 WHERE (%(layer)s::text IS NULL OR d.layer = %(layer)s)
   AND (%(ids)s::bigint[] IS NULL OR d.id = ANY(%(ids)s))
   AND (%(include_resolved)s OR d.resolved_at IS NULL)
 ORDER BY d.layer, d.id;

-- name: layers
SELECT DISTINCT layer FROM pipeline.dead_letters ORDER BY layer;

-- name: requeue
-- Resolved rows are left alone: their item succeeded since.
UPDATE pipeline.dead_letters SET requeued_at = clock_timestamp(), requeued_by = %(by)s
 WHERE id = ANY(%(ids)s) AND resolved_at IS NULL
RETURNING id;

-- name: open_by_layer
-- Open: unresolved and not waiting on a requeue (failed again since, or never requeued).
SELECT layer, count(*) FROM pipeline.dead_letters
 WHERE resolved_at IS NULL AND (requeued_at IS NULL OR requeued_at < last_failed_at)
 GROUP BY layer ORDER BY layer;

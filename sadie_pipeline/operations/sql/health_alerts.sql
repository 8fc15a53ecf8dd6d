-- Health alerts (health_alerts.py): the figures the rules in core/alert_rules.py judge, and the
-- once-per-day record of what was posted.

-- name: calls_on
SELECT service, calls FROM pipeline.service_usage WHERE day = %(day)s;

-- name: recent_imports
-- Each DMO's latest imports with results, newest first (the rule compares the newest with the rest).
SELECT slug AS dmo, job_id, records_total, records_duplicates, records_deleted FROM (
    SELECT d.slug, j.id AS job_id, r.records_total, r.records_duplicates, r.records_deleted,
           row_number() OVER (PARTITION BY j.dmo_id ORDER BY j.id DESC) AS n
      FROM pipeline.jobs j
      JOIN pipeline.job_results r ON r.job_id = j.id
      JOIN public.dmos d ON d.id = j.dmo_id
     WHERE r.records_total > 0 AND j.stage <> 'discarded'  -- a discarded upload was never imported
) recent
 WHERE n <= %(history)s
 ORDER BY slug, job_id DESC;

-- name: enrichment_errors
-- Per region: enrichment failures (dead letters failing that day) and hotels enriched that day,
-- today and over the seven days before.
WITH failed AS (
    SELECT h.region, d.last_failed_at::date AS day, count(*) AS n
      FROM pipeline.dead_letters d
      JOIN sadie_gtm.hotels h ON d.item_key = 'hotel:' || h.id
     WHERE d.last_failed_at >= %(day)s::date - 7 AND d.last_failed_at < %(day)s::date + 1
     GROUP BY 1, 2
), done AS (
    SELECT h.region, e.updated_at::date AS day, count(*) AS n
      FROM sadie_gtm.hotel_owner_enrichment e
      JOIN sadie_gtm.hotels h ON h.id = e.hotel_id
     WHERE e.updated_at >= %(day)s::date - 7 AND e.updated_at < %(day)s::date + 1
     GROUP BY 1, 2
), days AS (
    SELECT region, day, coalesce(f.n, 0) AS errors, coalesce(f.n, 0) + coalesce(o.n, 0) AS total
      FROM failed f FULL JOIN done o USING (region, day)
)
SELECT region,
       sum(errors) FILTER (WHERE day = %(day)s::date)::int AS today_errors,
       sum(total) FILTER (WHERE day = %(day)s::date)::int AS today_total,
       coalesce(sum(errors) FILTER (WHERE day < %(day)s::date), 0)::int AS trailing_errors,
       coalesce(sum(total) FILTER (WHERE day < %(day)s::date), 0)::int AS trailing_total
  FROM days GROUP BY region HAVING sum(total) FILTER (WHERE day = %(day)s::date) > 0 ORDER BY region;

-- name: hotel_regions
SELECT DISTINCT region FROM sadie_gtm.hotels ORDER BY region;

-- name: claim_alert
INSERT INTO pipeline.alerts_sent (kind, subject, day, message)
VALUES (%(kind)s, %(subject)s, %(day)s, %(message)s)
ON CONFLICT (kind, subject, day) DO NOTHING
RETURNING kind;

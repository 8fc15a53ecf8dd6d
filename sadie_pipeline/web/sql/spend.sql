-- The spend page (routes/spend.py): the guards' calls, failures and estimated cost per service and
-- day (pipeline.service_usage, written at the end of each Dagster step).

-- name: usage_range
SELECT day, service, calls, failures, cost_usd
  FROM pipeline.service_usage
 WHERE day BETWEEN %(start)s AND %(end)s
 ORDER BY service, day;

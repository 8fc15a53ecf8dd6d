-- Spend (spend.py): the guards' calls and failures per day and service, added to what earlier
-- steps of the day wrote (an increment, so concurrent steps never lose each other's counts).

-- name: add_usage
INSERT INTO pipeline.service_usage AS u (day, service, calls, failures, cost_usd)
VALUES (%(day)s, %(service)s, %(calls)s, %(failures)s, %(cost_usd)s)
ON CONFLICT (day, service) DO UPDATE
   SET calls = u.calls + EXCLUDED.calls, failures = u.failures + EXCLUDED.failures,
       cost_usd = u.cost_usd + EXCLUDED.cost_usd, updated_at = now();

-- name: usage_on
SELECT service, calls, failures, cost_usd FROM pipeline.service_usage WHERE day = %(day)s ORDER BY service;

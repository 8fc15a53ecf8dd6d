-- Issue 33: spend and health visible. Calls, failures and estimated cost of each external service
-- per day (the guards' counters, one upsert per service per step), and the health alerts already
-- posted to Slack (one per kind, subject and day).
-- depends: 0045_sales_role

CREATE TABLE IF NOT EXISTS pipeline.service_usage (
    day        date NOT NULL,
    service    text NOT NULL,
    calls      bigint NOT NULL DEFAULT 0 CHECK (calls >= 0),
    failures   bigint NOT NULL DEFAULT 0 CHECK (failures >= 0),
    cost_usd   numeric(14, 6) NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (day, service)
);

-- An alert is posted at most once per (kind, subject, day): the row is written in the transaction
-- that posts it, so a failed post leaves no row and a later tick tries again.
CREATE TABLE IF NOT EXISTS pipeline.alerts_sent (
    kind    text NOT NULL,
    subject text NOT NULL,
    day     date NOT NULL,
    message text NOT NULL,
    sent_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, subject, day)
);

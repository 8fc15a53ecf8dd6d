-- Issue 33: the sales role (web/users.py Role.SALES): leads and hotel pages, nothing of the listings
-- side.
-- depends: 0030_web_app

ALTER TABLE pipeline.web_users DROP CONSTRAINT IF EXISTS web_users_role_check;
ALTER TABLE pipeline.web_users ADD CONSTRAINT web_users_role_check
    CHECK (role IN ('viewer', 'reviewer', 'admin', 'sales'));

-- Who did what in the app where no table of its own records it (DMO changes, job retries and
-- cancels, lead decisions' bulk actions, image re-fetches): one row per action.
CREATE TABLE IF NOT EXISTS pipeline.web_audit (
    id        bigserial PRIMARY KEY,
    at        timestamptz NOT NULL DEFAULT now(),
    user_name text NOT NULL,
    action    text NOT NULL,
    target    text NOT NULL,
    detail    jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS web_audit_target_idx ON pipeline.web_audit (target, at DESC);

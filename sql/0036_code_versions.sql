-- Versions that cannot be forgotten (issue 29, item 7).
--
-- A job's key_version: the code version its staged place forms and keys were computed with
-- (listings/versions.py, KEY_VERSION, stamped when its stage starts). A promotion stores its new
-- listings' keys under it, not under the running version: a job staged before a release and
-- promoted after it has its listings keyed again by the next lookup. Jobs staged before this
-- column store their keys without a version, which the next lookup keys again too.
ALTER TABLE pipeline.jobs ADD COLUMN IF NOT EXISTS key_version text;

-- The resolver version each region's hotels were last resolved with (hotels/entities.py,
-- RESOLVER_VERSION). A region whose version is not the running one is resolved again without a
-- person (hotels/resolver_release.py). Regions resolved before this table get an unknown
-- version (''), so the first release with it resolves them again once.
CREATE TABLE IF NOT EXISTS sadie_gtm.hotel_region_resolutions (
    region           text PRIMARY KEY,
    resolver_version text NOT NULL,
    resolved_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO sadie_gtm.hotel_region_resolutions (region, resolver_version)
SELECT DISTINCT region, '' FROM sadie_gtm.hotel_sources WHERE hotel_id IS NOT NULL
    ON CONFLICT (region) DO NOTHING;

-- Bulk inserts whose foreign keys are checked per batch instead of per row (trusted.py): brand-new
-- rows refer to parents either created in the same transaction (counted by the caller) or existing
-- (locked FOR KEY SHARE here, as each per-row check would).

-- name: allowed
-- The role may set session_replication_role, and no table has an insert trigger of its own (it would
-- be skipped too; foreign-key triggers are internal). Only inserts run without triggers, so an update
-- trigger (migration 0048's on listings) is not one (tgtype bit 4: INSERT).
SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
       OR (current_setting('server_version_num')::int >= 150000
           AND has_parameter_privilege('session_replication_role', 'SET')),
       NOT EXISTS (SELECT 1 FROM pg_trigger WHERE NOT tgisinternal AND tgrelid = ANY(%(tables)s::regclass[])
                     AND (tgtype::int & 4) <> 0);

-- name: lock_job
SELECT id FROM pipeline.jobs WHERE id = %(job)s FOR KEY SHARE;

-- name: lock_promoted_parents
-- The existing parents of a promotion batch, locked; false when one is gone.
WITH dmo AS (SELECT id FROM public.dmos WHERE id = %(dmo)s FOR KEY SHARE),
listings AS (
    SELECT l.id FROM public.listings l
     WHERE l.id IN (SELECT target_listing_id FROM promo WHERE li_action = 'insert' AND l_action <> 'insert')
       FOR KEY SHARE),
infos AS (
    SELECT li.id FROM public.listing_info li
     WHERE li.id IN (SELECT target_listing_info_id FROM promo WHERE li_action = 'update')
       FOR KEY SHARE)
SELECT (SELECT count(*) FROM dmo) = 1
   AND (SELECT count(*) FROM listings) = (SELECT count(DISTINCT target_listing_id) FROM promo
                                           WHERE li_action = 'insert' AND l_action <> 'insert')
   AND (SELECT count(*) FROM infos) = (SELECT count(DISTINCT target_listing_info_id) FROM promo
                                        WHERE li_action = 'update');

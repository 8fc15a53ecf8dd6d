-- The DMO admin (routes/dmos.py): create, rename, type, (de)activate, delete; config versions.

-- name: create
INSERT INTO public.dmos (slug, name, dmo_type_id) VALUES (%(slug)s, %(name)s, %(type)s)
ON CONFLICT (slug) DO NOTHING
RETURNING id;

-- name: admin
SELECT d.id, d.slug, d.name, d.dmo_type_id, d.source_type, d.active, d.created_at, d.updated_at,
       (SELECT count(*) FROM public.listing_info li WHERE li.dmo_id = d.id AND li.info_visible) AS live_listings,
       (SELECT count(*) FROM public.listing_info li WHERE li.dmo_id = d.id) AS listing_infos,
       (SELECT count(*) FROM pipeline.jobs j WHERE j.dmo_id = d.id) AS jobs
  FROM public.dmos d WHERE d.slug = %(slug)s;

-- name: rename
UPDATE public.dmos SET name = %(name)s, updated_at = now() WHERE slug = %(slug)s;

-- name: set_type
UPDATE public.dmos SET dmo_type_id = %(type)s, updated_at = now() WHERE slug = %(slug)s;

-- name: set_active
-- configs.active follows (the sources page read it before the DMO had a state of its own).
UPDATE public.dmos SET active = %(active)s, updated_at = now() WHERE slug = %(slug)s;
UPDATE pipeline.configs c SET active = %(active)s FROM public.dmos d WHERE d.id = c.dmo_id AND d.slug = %(slug)s;

-- name: delete
-- Only a DMO none of whose records reached the public tables (the caller checks it in the same
-- transaction, under the row lock): its jobs (their files, results, errors, staged rows cascade),
-- bridge rows, review decisions, configs and versions go with it.
DELETE FROM pipeline.bridge_source_target WHERE dmo_id = %(id)s;
DELETE FROM pipeline.review_decisions WHERE dmo_id = %(id)s;
DELETE FROM pipeline.job_configs WHERE dmo_id = %(id)s;
DELETE FROM pipeline.jobs WHERE dmo_id = %(id)s;
DELETE FROM pipeline.configs WHERE dmo_id = %(id)s;
DELETE FROM public.dmos WHERE id = %(id)s;

-- name: lock
SELECT id FROM public.dmos WHERE slug = %(slug)s FOR UPDATE;

-- name: versions
SELECT v.version, v.schedule, v.saved_by, v.saved_at, (v.version = c.version) AS current
  FROM pipeline.config_versions v JOIN public.dmos d ON d.id = v.dmo_id
  LEFT JOIN pipeline.configs c ON c.dmo_id = v.dmo_id AND c.data_domain = v.data_domain
 WHERE d.slug = %(slug)s AND v.data_domain = 'listings'
 ORDER BY v.version DESC;

-- name: version
SELECT v.version, v.config_params, v.schedule, v.saved_by, v.saved_at
  FROM pipeline.config_versions v JOIN public.dmos d ON d.id = v.dmo_id
 WHERE d.slug = %(slug)s AND v.data_domain = 'listings' AND v.version = %(version)s;

-- name: saver
-- The person saving a config in this transaction, for the trigger that keeps its version (0047).
SELECT set_config('sadie.user', %(user)s, true);

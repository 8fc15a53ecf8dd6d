-- Sources (routes/sources.py): each DMO with its type, state (0047), config, last job, error rate and
-- live listings.

-- name: sources
SELECT d.id, d.slug, d.name, d.source_type, d.dmo_type_id, c.version AS config_version, c.schedule, d.active,
       c.updated_at AS config_updated_at,
       -- an archived listing is live for no DMO (migration 0048)
       (SELECT count(*) FROM public.listing_info li WHERE li.dmo_id = d.id AND li.info_visible
           AND NOT EXISTS (SELECT 1 FROM public.listings l WHERE l.id = li.listing_id AND l.listing_status = 'archived'))
       AS live_listings,
       j.id AS last_job_id, j.stage AS last_stage, j.status AS last_status, j.created_at AS last_run_at,
       j.finished_at AS last_finished_at, j.error_summary AS last_error,
       (SELECT e.error_rate FROM pipeline.jobs e WHERE e.dmo_id = d.id AND e.error_rate IS NOT NULL
         ORDER BY e.id DESC LIMIT 1) AS error_rate
  FROM public.dmos d
  LEFT JOIN pipeline.configs c ON c.dmo_id = d.id AND c.data_domain = 'listings'
  LEFT JOIN LATERAL (SELECT * FROM pipeline.jobs j WHERE j.dmo_id = d.id ORDER BY j.id DESC LIMIT 1) j ON true
 WHERE (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
   AND (%(slug)s::text IS NULL OR d.slug = %(slug)s)
 ORDER BY d.slug;

-- name: config
SELECT c.config_params, c.version, c.schedule, c.updated_at FROM pipeline.configs c
  JOIN public.dmos d ON d.id = c.dmo_id WHERE d.slug = %(slug)s AND c.data_domain = 'listings';

-- name: open_jobs
-- Jobs of the DMO not yet promoted, superseded or discarded: they keep the config they were imported with.
SELECT j.id, j.stage, j.status, c.config_version
  FROM pipeline.jobs j LEFT JOIN pipeline.job_configs c ON c.job_id = j.id
 WHERE j.dmo_id = %(dmo)s AND j.stage NOT IN ('promoted', 'superseded', 'discarded')
 ORDER BY j.id;

-- name: slugs
-- The DMOs a user may choose in a filter (no figures: cheap on every page that shows one).
SELECT d.slug, d.name FROM public.dmos d
 WHERE (%(dmos)s::text[] IS NULL OR d.slug = ANY(%(dmos)s))
 ORDER BY d.slug;

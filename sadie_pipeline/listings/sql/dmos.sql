-- DMOs, their configs, and the config snapshot each job is run with (repository.py).

-- name: list
SELECT d.slug, d.name, d.source_type, c.version AS config_version, c.schedule,
       (SELECT count(*) FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
         WHERE li.dmo_id = d.id AND li.info_visible AND l.listing_status <> 'archived') AS live_listings,
       (SELECT max(j.created_at) FROM pipeline.jobs j WHERE j.dmo_id = d.id) AS last_job_at
  FROM public.dmos d LEFT JOIN pipeline.configs c ON c.dmo_id = d.id AND c.data_domain = 'listings'
 ORDER BY d.slug;

-- name: upsert
INSERT INTO public.dmos (slug, name, source_type) VALUES (%(slug)s, %(name)s, %(source_type)s)
ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, source_type = EXCLUDED.source_type, updated_at = now()
RETURNING id;

-- name: upsert_config
-- The config's version goes up when it changes.
INSERT INTO pipeline.configs (dmo_id, source_type, config_params, schedule)
VALUES (%(dmo)s, %(source_type)s, %(params)s, %(schedule)s)
ON CONFLICT (dmo_id, data_domain) DO UPDATE
   SET config_params = EXCLUDED.config_params, source_type = EXCLUDED.source_type,
       schedule = EXCLUDED.schedule, updated_at = now(),
       version = pipeline.configs.version
                 + (pipeline.configs.config_params IS DISTINCT FROM EXCLUDED.config_params)::int;

-- name: snapshot_config
INSERT INTO pipeline.job_configs (job_id, dmo_id, source_type, data_domain, config_params, config_version, schedule,
                                  source_updated_at)
SELECT %(job)s, dmo_id, source_type, data_domain, config_params, version, schedule, updated_at
  FROM pipeline.configs WHERE dmo_id = %(dmo)s AND data_domain = 'listings'
ON CONFLICT (job_id) DO NOTHING;

-- name: set_job_state
UPDATE pipeline.jobs SET stage = %(stage)s, status = %(status)s, error_summary = %(error)s,
       finished_at = CASE WHEN %(status)s IN ('succeeded', 'failed') THEN now() END
 WHERE id = %(job)s;

-- name: scheduled
-- DMOs whose imports run on a schedule (pipeline.configs.schedule, from import.schedule), with their
-- config, for the pull sensor (listings/pull_schedule.py).
SELECT d.slug, c.schedule, c.config_params
  FROM public.dmos d JOIN pipeline.configs c ON c.dmo_id = d.id AND c.data_domain = 'listings'
 WHERE c.schedule <> 'manual' AND d.active  -- a deactivated DMO pulls nothing until reactivated
 ORDER BY d.slug;

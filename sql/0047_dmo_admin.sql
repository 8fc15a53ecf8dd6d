-- Issue 33 (data team: sources without a terminal): a DMO is deactivated rather than deleted once it
-- has listings, its type is one of the seed's four, and every config version is kept with who saved
-- it and when (pipeline.configs holds only the current one), by a trigger so that every save path
-- (the app, `sadie dmo add`, the demo) keeps its versions.
-- depends: 0045_sales_role

ALTER TABLE public.dmos ADD COLUMN IF NOT EXISTS active boolean NOT NULL DEFAULT true;

-- core/dmo_types.py DmoType: SCRAPED 1, TRAVEL_SITE 2, CLIENT 3, PARTNER 4
ALTER TABLE public.dmos DROP CONSTRAINT IF EXISTS dmos_dmo_type_check;
ALTER TABLE public.dmos ADD CONSTRAINT dmos_dmo_type_check CHECK (dmo_type_id IN (1, 2, 3, 4));

CREATE TABLE IF NOT EXISTS pipeline.config_versions (
    id            bigserial PRIMARY KEY,
    dmo_id        integer NOT NULL REFERENCES public.dmos (id) ON DELETE CASCADE,
    data_domain   text NOT NULL DEFAULT 'listings',
    version       integer NOT NULL,
    config_params jsonb NOT NULL,
    schedule      text NOT NULL,
    saved_by      text NOT NULL,
    saved_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (dmo_id, data_domain, version)
);

-- The saver is the transaction's setting sadie.user (the app sets it); else the command line.
CREATE OR REPLACE FUNCTION pipeline.keep_config_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version THEN
        INSERT INTO pipeline.config_versions (dmo_id, data_domain, version, config_params, schedule, saved_by)
        VALUES (NEW.dmo_id, NEW.data_domain, NEW.version, NEW.config_params, NEW.schedule,
                coalesce(nullif(current_setting('sadie.user', true), ''), 'command line'))
        ON CONFLICT (dmo_id, data_domain, version) DO NOTHING;
    END IF;
    RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS configs_keep_version ON pipeline.configs;
CREATE TRIGGER configs_keep_version AFTER INSERT OR UPDATE ON pipeline.configs
    FOR EACH ROW EXECUTE FUNCTION pipeline.keep_config_version();

-- the configs saved before versions were kept: their current version, saved by whoever it was
INSERT INTO pipeline.config_versions (dmo_id, data_domain, version, config_params, schedule, saved_by, saved_at)
SELECT dmo_id, data_domain, version, config_params, schedule, 'before 0047', updated_at
  FROM pipeline.configs
ON CONFLICT (dmo_id, data_domain, version) DO NOTHING;

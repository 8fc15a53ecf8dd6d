-- Each DMO's estimate of the place engine's model (core/places/model.py): EM on the candidate
-- pairs of its jobs, pulled towards the calibrated priors. A job is judged by the estimate made
-- before it; an estimate of another engine version is not used (listings/dmo_model.py).
CREATE TABLE IF NOT EXISTS pipeline.dmo_match_models (
    dmo_id integer PRIMARY KEY REFERENCES public.dmos (id) ON DELETE CASCADE,
    engine_version text NOT NULL,
    model jsonb NOT NULL,
    pairs bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

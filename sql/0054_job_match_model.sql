-- Issue 34 (concurrent promotions end as if run in order): a job is judged by the model its DMO had
-- before it (listings/dmo_model.py), and its stage then refines that model for the next job. A
-- promotion that matches the job's new records again (against listings other DMOs' promotions
-- created meanwhile) must judge them with that same model, not the refined one: run in order, the
-- stage would have met those listings and judged them with it. The stage keeps it here (JSON null:
-- the priors); NULL, for jobs staged before this, reads the DMO's current model.
ALTER TABLE pipeline.jobs ADD COLUMN IF NOT EXISTS match_model jsonb;

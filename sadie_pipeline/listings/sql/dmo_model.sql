-- A DMO's estimate of the place engine's model (listings/dmo_model.py).

-- name: load
SELECT model FROM pipeline.dmo_match_models WHERE dmo_id = %(dmo)s AND engine_version = %(version)s;

-- name: store
INSERT INTO pipeline.dmo_match_models (dmo_id, engine_version, model, pairs)
VALUES (%(dmo)s, %(version)s, %(model)s, %(pairs)s)
ON CONFLICT (dmo_id) DO UPDATE
   SET engine_version = excluded.engine_version, model = excluded.model, pairs = excluded.pairs, updated_at = now();

-- name: judged_with
-- The model the job's stage judges it with (JSON null: the priors), for its promotion's re-matches.
UPDATE pipeline.jobs SET match_model = %(model)s WHERE id = %(job)s;

-- name: of_jobs
-- The model the earliest of these jobs was judged with, when its stage recorded one.
SELECT match_model FROM pipeline.jobs WHERE id = ANY(%(jobs)s) AND match_model IS NOT NULL ORDER BY id LIMIT 1;

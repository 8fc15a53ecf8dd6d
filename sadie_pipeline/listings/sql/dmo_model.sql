-- A DMO's estimate of the place engine's model (listings/dmo_model.py).

-- name: load
SELECT model FROM pipeline.dmo_match_models WHERE dmo_id = %(dmo)s AND engine_version = %(version)s;

-- name: store
INSERT INTO pipeline.dmo_match_models (dmo_id, engine_version, model, pairs)
VALUES (%(dmo)s, %(version)s, %(model)s, %(pairs)s)
ON CONFLICT (dmo_id) DO UPDATE
   SET engine_version = excluded.engine_version, model = excluded.model, pairs = excluded.pairs, updated_at = now();

"""Each DMO's estimate of the place engine's model (pipeline.dmo_match_models). A job is judged by
the estimate its DMO had before it (the calibrated priors for a new DMO), so its judgement does not
depend on which records its stage happens to score together; its candidate pairs then refine the
estimate for the next job, pulled towards what the estimate already holds (model.estimate), so a
few hundred records cannot outvote it. The job keeps the estimate it was judged by: its promotion's
re-matches judge by that one too. An estimate of another engine version is not used."""

from __future__ import annotations

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

from sadie_pipeline.core.places import Model, estimate
from sadie_pipeline.listings.queries import run
from sadie_pipeline.listings.versions import KEY_VERSION

# A job of fewer candidate pairs teaches the model nothing it could trust, and leaves it as it was:
# sending a few records again never changes how the DMO's next records are judged.
MIN_PAIRS = 500
# The levels and what they mean: core.matching's import closure holds the comparison and the model.
VERSION = KEY_VERSION


def load(conn: psycopg.Connection, dmo_id: int) -> Model | None:
    """The DMO's estimate, or None (the priors) when it has none of the running engine."""
    row = run(conn, "dmo_model", "load", {"dmo": dmo_id, "version": VERSION}).fetchone()
    return Model.from_json(row[0]) if row else None


def judge_job(conn: psycopg.Connection, dmo_id: int, job_id: int) -> Model | None:
    """The model the job is judged by (load), recorded on the job in the caller's transaction."""
    model = load(conn, dmo_id)
    run(conn, "dmo_model", "judged_with", {"job": job_id, "model": Jsonb(model.to_json() if model else None)})
    return model


def of_jobs(conn: psycopg.Connection, dmo_id: int, jobs: list[int]) -> Model | None:
    """The model the earliest of the jobs was judged by: a promotion's re-match of their records
    judges as their stage did (sql/0054). The DMO's current one for jobs staged before it was kept."""
    row = run(conn, "dmo_model", "of_jobs", {"jobs": jobs}).fetchone() if jobs else None
    return Model.from_json(row[0]) if row else load(conn, dmo_id)


def learn(conn: psycopg.Connection, dmo_id: int, model: Model | None, evidence: list[np.ndarray]) -> Model | None:
    """The estimate refined by a job's candidate pairs' levels, stored in the caller's transaction
    (a stage that fails keeps the estimate it started from)."""
    levels = [e for e in evidence if len(e)]
    if sum(map(len, levels)) < MIN_PAIRS:
        return model
    learned = estimate(np.concatenate(levels), start=model)
    run(conn, "dmo_model", "store", {"dmo": dmo_id, "version": VERSION, "model": Jsonb(learned.to_json()),
                                     "pairs": learned.pairs})
    return learned

"""Discard: phase two of a two-phase upload may throw the staged job away instead of promoting it.
The job becomes `discarded` (a terminal stage) and its staged rows are deleted, so nothing of it
reaches `public`; its raw files and errors stay for the record."""

from __future__ import annotations

from sadie_pipeline.listings.locks import holding_dmo
from sadie_pipeline.listings.queries import run, sql
from sadie_pipeline.listings.repository import Dmo
from sadie_pipeline.listings.states import JobStage, JobStatus
from sadie_pipeline.resources.database import Database

DISCARDABLE = (JobStage.IMPORTED, JobStage.STAGE, JobStage.STAGED)


class NotDiscardable(ValueError):
    """The job is another DMO's, promoted, superseded, or being worked on now."""


def discard_job(db: Database, dmo: Dmo, job_id: int, by: str) -> None:
    """Under the DMO's lock (no stage or promotion of the DMO runs meanwhile), the job discarded."""
    with holding_dmo(db, dmo.id, dmo.slug, "discard"), db.connect() as conn:
        row = conn.execute(sql("discard", "discardable"), {"job": job_id, "dmo": dmo.id}).fetchone()
        if row is None:
            raise NotDiscardable(f"{dmo.slug} has no job {job_id}")
        _, stage, status = row
        if stage not in DISCARDABLE or status == JobStatus.IN_PROGRESS:
            raise NotDiscardable(f"job {job_id} is {stage} ({status}): only a staged job waiting for "
                                 f"promotion, or one whose import or stage failed, can be discarded")
        run(conn, "discard", "discard", {"job": job_id, "by": by})

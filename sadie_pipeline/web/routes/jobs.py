"""Jobs: per DMO, status, stage and counts by action; a job's files (download), errors (the original
record and the reason, filterable), review items, its Dagster run and what people did to it. The
review figures (sent, decided, waiting, superseded) are those of every page (web/queries.py). A
reviewer retries a failed job (its run re-executed from its failure), runs a DMO's stage or
promotion step again, and cancels a queued or running run: through Dagster (web/dagster_control.py),
each with an audit row."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse

from sadie_pipeline.listings.promote import job_summary
from sadie_pipeline.web.audit import audit, trail
from sadie_pipeline.web.auth import Reviewer, Viewer, check_dmo
from sadie_pipeline.web.dagster_control import ENDED_BADLY, cancel, newest_of_family, reexecute, run_of
from sadie_pipeline.web.dagster_runs import launch
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.listing_search import like_pattern
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import figures_by_job, one, rows, with_review_figures
from sadie_pipeline.web.review_view import job_item
from sadie_pipeline.web.users import User

router = APIRouter(include_in_schema=False)
STAGES = ("import", "imported", "stage", "staged", "promoted", "superseded", "discarded")


class Step(StrEnum):
    """A DMO's pipeline step run again from a job's page: the job to launch and the assets of it."""
    STAGE = "stage"      # stages the DMO's imported jobs, in arrival order
    PROMOTE = "promote"  # promotes its staged jobs (and the rows people approved)

    @property
    def job(self) -> str:
        return "listing_stage_job" if self is Step.STAGE else "listing_promote_job"

    @property
    def assets(self) -> list[str] | None:
        return ["listing_stage"] if self is Step.STAGE else None


@router.get("/jobs", response_class=HTMLResponse)
def jobs(request: Request, user: Viewer, dmo: str | None = None, stage: str | None = None,
         before: Annotated[int, Query(ge=1)] = 2**62) -> Response:
    if dmo:
        check_dmo(user, dmo)
    limit = request.app.state.settings.page_size
    with connection(request) as conn:
        found = rows(conn, "jobs", "jobs", {"dmos": user.dmo_filter, "dmo": dmo or None,
                                            "stage": stage if stage in STAGES else None, "before": before,
                                            "limit": limit + 1})
        dmos = rows(conn, "sources", "slugs", {"dmos": user.dmo_filter})
        shown = with_review_figures(conn, user.dmo_filter, found[:limit])
    return render(request, "jobs.html", jobs=shown, more=len(found) > limit,
                  next_before=found[limit - 1]["id"] if len(found) > limit else None, stages=STAGES,
                  dmos=[d["slug"] for d in dmos])


def job_for(request: Request, user: User, job_id: int) -> dict:
    with connection(request) as conn:
        job = one(conn, "jobs", "job", {"job": job_id})
    if job is None:
        raise HTTPException(404, f"no job {job_id}")
    check_dmo(user, job["dmo"])
    return job


@router.get("/jobs/{job_id}", response_class=HTMLResponse)
def job(request: Request, user: Viewer, job_id: int, type: str | None = None, q: str | None = None,
        after: Annotated[int, Query(ge=0)] = 0) -> Response:
    found = job_for(request, user, job_id)
    run_info = newest_of_family(request.app.state.settings.dagster_url, found["dagster_run_id"] or "")
    with connection(request) as conn:
        # a promoted job's figures are in job_results; counting its staged rows again would cost a scan
        summary = None if found["records_new"] is not None else job_summary(conn, job_id)
        files = rows(conn, "jobs", "files", {"job": job_id})
        types = rows(conn, "jobs", "error_types", {"job": job_id})
        errors = rows(conn, "jobs", "errors", {"job": job_id, "after": after, "type": type or None,
                                                "text_like": like_pattern(q), "limit": 101})
        items = rows(conn, "jobs", "review_items", {"job": job_id, "limit": 200})
        review = figures_by_job(conn, user.dmo_filter, [job_id])[job_id]
        actions = trail(conn, f"job:{job_id}", limit=20)
    return render(request, "job.html", job=found, summary=summary, files=files, types=types, errors=errors[:100],
                  more_errors=len(errors) > 100, items=[job_item(r) for r in items], review=review,
                  run_info=run_info, steps=list(Step), actions=actions)


@router.get("/jobs/{job_id}/files/{file_id}")
def download(request: Request, user: Viewer, job_id: int, file_id: int) -> Response:
    job_for(request, user, job_id)
    with connection(request) as conn:
        row = one(conn, "jobs", "file", {"job": job_id, "file": file_id})
    if row is None:
        return Response("no such file", status_code=404)
    return _stream(request, _key_of(request, row["s3_path"]))


@router.get("/jobs/{job_id}/source")
def download_source(request: Request, user: Viewer, job_id: int) -> Response:
    """The file the job imported, as it was delivered (kept in the inbox)."""
    found = job_for(request, user, job_id)
    return _stream(request, found["source_key"])


def _key_of(request: Request, uri: str) -> str | None:
    """The object key behind a stored URI (the store writes s3://bucket/key or a file:// URI)."""
    store = request.app.state.store
    probe = "probe"
    prefix = store.uri(probe)[: -len(probe)]
    if not uri.startswith(prefix):
        return None
    from urllib.parse import unquote

    key = unquote(uri[len(prefix):]) if uri.startswith("file:") else uri[len(prefix):]
    return key if store.uri(key) == uri else None


def _stream(request: Request, key: str | None) -> Response:
    store = request.app.state.store
    if not key or not store.exists(key):
        return Response("the file is not in the object store", status_code=404)
    name = re.sub(r"[^A-Za-z0-9._-]", "_", key.rsplit("/", 1)[-1])

    def chunks():
        with store.open_read(key) as fh:
            while block := fh.read(256 * 1024):
                yield block

    return StreamingResponse(chunks(), media_type="application/octet-stream",
                             headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.post("/jobs/{job_id}/retry")
def retry(request: Request, user: Reviewer, job_id: int) -> Response:
    """A failed job's run again from its failure: a re-execution keeps the run's root id, so the job
    is still the run's own and its stage (or import) runs again."""
    found = job_for(request, user, job_id)
    back = f"/jobs/{job_id}"
    if found["status"] != "failed":
        return redirect(flash_url(back, f"job {job_id} has not failed ({found['status']}): nothing to retry"), request)
    dagster_url = request.app.state.settings.dagster_url
    parent = newest_of_family(dagster_url, found["dagster_run_id"] or "")
    if parent is None:
        return redirect(flash_url(back, f"Dagster knows no run of job {job_id}: upload or run its source again"),
                        request)
    if parent.status not in ENDED_BADLY:
        return redirect(flash_url(back, f"its run {parent.run_id[:8]} is {parent.status.lower()}: it is retried once "
                                        f"it has failed or been canceled"), request)
    outcome = reexecute(dagster_url, parent.run_id, user.name)
    if outcome.ok:
        with connection(request) as conn:
            audit(conn, user, "job.retry", f"job:{job_id}", {"parent_run": parent.run_id, "run": outcome.run_id})
    return redirect(flash_url(back + (f"?run={outcome.run_id}" if outcome.run_id else ""), outcome.message), request)


@router.post("/jobs/{job_id}/rerun")
def rerun(request: Request, user: Reviewer, job_id: int, step: Annotated[Step, Form()]) -> Response:
    """The job's DMO's stage or promotion step run again (the step takes every job of the DMO
    waiting for it, in arrival order)."""
    found = job_for(request, user, job_id)
    launched = launch(request.app.state.settings.dagster_url, step.job, found["dmo"], user=user.name,
                      assets=step.assets)
    if not launched.ok:
        return redirect(flash_url(f"/jobs/{job_id}", launched.problem or "not launched"), request)
    with connection(request) as conn:
        audit(conn, user, "job.rerun", f"job:{job_id}", {"step": step.value, "run": launched.run_id})
    return redirect(flash_url(f"/jobs/{job_id}?run={launched.run_id}",
                              f"the {step.value} step of {found['dmo']} launched {launched.where}"), request)


@router.post("/runs/{run_id}/cancel")
def cancel_run(request: Request, user: Reviewer, run_id: str, back: Annotated[str, Form(max_length=300)] = "") -> Response:
    """Cancels a queued or running run of a DMO the user may see."""
    dagster_url = request.app.state.settings.dagster_url
    found = run_of(dagster_url, run_id)
    if found is None or not found.partition:
        raise HTTPException(404, "no such run of a DMO")
    check_dmo(user, found.partition)
    page = back if back.startswith("/") and not back.startswith("//") else f"/sources/{found.partition}"
    outcome = cancel(dagster_url, run_id)
    if outcome.ok:
        with connection(request) as conn:
            audit(conn, user, "run.cancel", f"run:{run_id}", {"dmo": found.partition, "job": found.job,
                                                              "status": found.status})
    return redirect(flash_url(page, outcome.message), request)

"""Jobs: per DMO, status, stage and counts by action; a job's files (download), errors (the original
record and the reason, filterable) and review items. The review figures (sent, decided, waiting,
superseded) are those of every page (web/queries.py)."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse

from sadie_pipeline.listings.promote import job_summary
from sadie_pipeline.web.auth import Viewer, check_dmo
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.listing_search import like_pattern
from sadie_pipeline.web.pages import render
from sadie_pipeline.web.queries import figures_by_job, one, rows, with_review_figures
from sadie_pipeline.web.review_view import job_item
from sadie_pipeline.web.users import User

router = APIRouter(include_in_schema=False)
STAGES = ("import", "imported", "stage", "staged", "promoted", "superseded", "discarded")


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
        from fastapi import HTTPException

        raise HTTPException(404, f"no job {job_id}")
    check_dmo(user, job["dmo"])
    return job


@router.get("/jobs/{job_id}", response_class=HTMLResponse)
def job(request: Request, user: Viewer, job_id: int, type: str | None = None, q: str | None = None,
        after: Annotated[int, Query(ge=0)] = 0) -> Response:
    found = job_for(request, user, job_id)
    with connection(request) as conn:
        # a promoted job's figures are in job_results; counting its staged rows again would cost a scan
        summary = None if found["records_new"] is not None else job_summary(conn, job_id)
        files = rows(conn, "jobs", "files", {"job": job_id})
        types = rows(conn, "jobs", "error_types", {"job": job_id})
        errors = rows(conn, "jobs", "errors", {"job": job_id, "after": after, "type": type or None,
                                                "text_like": like_pattern(q), "limit": 101})
        items = rows(conn, "jobs", "review_items", {"job": job_id, "limit": 200})
        review = figures_by_job(conn, user.dmo_filter, [job_id])[job_id]
    return render(request, "job.html", job=found, summary=summary, files=files, types=types, errors=errors[:100],
                  more_errors=len(errors) > 100, items=[job_item(r) for r in items], review=review)


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

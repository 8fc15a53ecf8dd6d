"""Two-phase upload. Phase one stores the file under uploads/{dmo}/ (an inbox the inbox sensor does
not watch: that sensor imports and promotes) and launches listing_stage_job: import and stage, no
promotion. The page then shows the summary, a preview, the errors and the deletions. Phase two
confirms (listing_promote_job) or discards the job (listings/discard.py): nothing reaches public.
The runs go through whatever of Dagster is running, or in the app itself (dagster_runs.py)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import PurePath
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.listings.discard import NotDiscardable, discard_job
from sadie_pipeline.listings.importer import upload_prefix
from sadie_pipeline.listings.promote import job_summary
from sadie_pipeline.listings.repository import get_dmo
from sadie_pipeline.listings.states import JobStage
from sadie_pipeline.web.audit import audit
from sadie_pipeline.web.auth import Reviewer, check_dmo
from sadie_pipeline.web.dagster_runs import launch, run_failed
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import one, rows
from sadie_pipeline.web.users import User

router = APIRouter(include_in_schema=False)

EXTENSIONS = (".csv", ".tsv", ".txt", ".xlsx")
_NAME = re.compile(r"[0-9]{8}T[0-9]{6}-[A-Za-z0-9._-]{1,120}")
WAITING = (None, JobStage.IMPORT, JobStage.IMPORTED, JobStage.STAGE)


def _dmos(request: Request, user: User) -> list[dict]:
    with connection(request) as conn:
        return rows(conn, "sources", "slugs", {"dmos": user.dmo_filter})


@router.get("/upload", response_class=HTMLResponse)
def upload_form(request: Request, user: Reviewer, dmo: str | None = None) -> Response:
    return render(request, "upload.html", dmos=_dmos(request, user), chosen=dmo, problem=None)


def _bad_file(file: UploadFile, limit: int) -> str | None:
    """Why the file is refused before anything is stored (type, size, binary content), or None."""
    name = file.filename or ""
    ext = PurePath(name).suffix.lower()
    if ext not in EXTENSIONS:
        return f"{name or 'the file'}: unsupported file type {ext or '(no extension)'}; upload a CSV or an XLSX file"
    size = file.size or 0
    if size == 0:
        return f"{name}: the file is empty"
    if size > limit:
        return f"{name}: {size:,} bytes is over the upload limit of {limit // (1024 * 1024)} MB"
    head = file.file.read(8192)
    file.file.seek(0)
    if ext == ".xlsx" and not head.startswith(b"PK\x03\x04"):
        return f"{name}: not an XLSX workbook (an .xlsx file is a ZIP archive)"
    if ext != ".xlsx" and b"\x00" in head:
        return f"{name}: binary content, not a CSV text file"
    return None


@router.post("/upload", response_class=HTMLResponse)
def upload(request: Request, user: Reviewer, dmo: Annotated[str, Form()], file: Annotated[UploadFile, File()]) -> Response:
    check_dmo(user, dmo)
    settings, store = request.app.state.settings, request.app.state.store
    problem = _bad_file(file, settings.upload_max_bytes)
    if problem:
        return render(request, "upload.html", status_code=422, dmos=_dmos(request, user), chosen=dmo, problem=problem)
    with connection(request) as conn:
        get_dmo(conn, dmo)
        active = one(conn, "upload", "dmo_active", {"dmo": dmo})
    if active is not None and not active["active"]:
        return render(request, "upload.html", status_code=409, dmos=_dmos(request, user), chosen=dmo,
                      problem=f"{dmo} is deactivated: reactivate it on its source page before uploading")
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", PurePath(file.filename or "upload.csv").name)[-120:]
    name = f"{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%S}-{safe}"
    key = f"{upload_prefix(dmo)}{name}"
    store.put_bytes(key, file.file.read())
    config = {"ops": {"listing_raw_files": {"config": {"inbox_key": key, "imported_by": user.name}}}}
    run = launch(settings.dagster_url, "listing_stage_job", dmo, config, user=user.name)
    # the job id comes with the run's import: the row names the file and the run that makes it
    _audit(request, user, "upload", f"dmo:{dmo}", {"file": name, "run": run.run_id, "problem": run.problem})
    if not run.ok:
        store.delete(key)  # nothing was imported: the upload is not kept
        return render(request, "upload.html", status_code=503, dmos=_dmos(request, user), chosen=dmo,
                      problem=run.problem)
    return redirect(flash_url(f"/upload/{dmo}/{name}?run={run.run_id}", f"import and stage launched {run.where}"),
                    request)


def _audit(request: Request, user: User, action: str, target: str, detail: dict) -> None:
    with connection(request) as conn:
        audit(conn, user, action, target, detail)


def _job(request: Request, user: User, dmo: str, name: str) -> int | None:
    check_dmo(user, dmo)
    if not _NAME.fullmatch(name):
        raise HTTPException(404, "no such upload")
    with connection(request) as conn:
        found = one(conn, "upload", "job_of_key", {"dmo": dmo, "key": f"{upload_prefix(dmo)}{name}"})
    return found["id"] if found else None


@router.get("/upload/{dmo}/{name}", response_class=HTMLResponse)
def status(request: Request, user: Reviewer, dmo: str, name: str, partial: bool = False) -> Response:
    job_id = _job(request, user, dmo, name)
    context = {"dmo": dmo, "name": name, "job": None, "summary": None}
    if job_id is not None:
        with connection(request) as conn:
            context.update(job=one(conn, "jobs", "job", {"job": job_id}), summary=job_summary(conn, job_id),
                           preview=rows(conn, "jobs", "staged_preview", {"job": job_id}),
                           errors=rows(conn, "jobs", "errors", {"job": job_id, "after": 0, "type": None,
                                                                 "text_like": None, "limit": 20}),
                           deletions=rows(conn, "jobs", "deletions", {"job": job_id}))
    stage = context["job"]["stage"] if context["job"] else None
    failed = context["job"] is not None and context["job"]["status"] == "failed"
    # just confirmed (the page came back with its promotion's run): wait for the promotion too
    run_id = request.query_params.get("run")
    promoting = stage == JobStage.STAGED and bool(run_id)
    waiting = (stage in WAITING or promoting) and not failed
    # a run that ended before its job did (it failed to start, or was canceled) ends the wait
    context["run_problem"] = run_failed(run_id) if waiting else None
    context["waiting"] = waiting and context["run_problem"] is None
    context["poll"] = f"/upload/{dmo}/{name}?" + urlencode({"partial": 1, "run": request.query_params.get("run", "")})
    return render(request, "upload_status_part.html" if partial else "upload_status.html", **context)


@router.post("/upload/{dmo}/{name}/confirm")
def confirm(request: Request, user: Reviewer, dmo: str, name: str,
            accept_errors: Annotated[bool, Form()] = False) -> Response:
    """Phase two: promote (a listing_promote_job run for the DMO)."""
    job_id = _job(request, user, dmo, name)
    if job_id is None:
        raise HTTPException(404, "no job for this upload yet")
    config = {"ops": {"listing_promotion": {"config": {"accept_errors": True, "accepted_by": user.name}}}} \
        if accept_errors else None
    run = launch(request.app.state.settings.dagster_url, "listing_promote_job", dmo, config, user=user.name)
    _audit(request, user, "confirm upload", f"job:{job_id}",
           {"dmo": dmo, "file": name, "run": run.run_id, "problem": run.problem, "accept_errors": accept_errors})
    message = f"promotion launched {run.where}" if run.ok else run.problem
    return redirect(flash_url(f"/upload/{dmo}/{name}" + (f"?run={run.run_id}" if run.ok else ""), message), request)


@router.post("/upload/{dmo}/{name}/discard")
def discard(request: Request, user: Reviewer, dmo: str, name: str) -> Response:
    job_id = _job(request, user, dmo, name)
    if job_id is None:
        raise HTTPException(404, "no job for this upload yet")
    with connection(request) as conn:
        found = get_dmo(conn, dmo)
    try:
        discard_job(request.app.state.database, found, job_id, by=user.name)
    except NotDiscardable as exc:
        return redirect(flash_url(f"/upload/{dmo}/{name}", str(exc)), request)
    _audit(request, user, "discard upload", f"job:{job_id}", {"dmo": dmo, "file": name})
    return redirect(flash_url(f"/upload/{dmo}/{name}", f"job {job_id} discarded: nothing of it reaches the live listings"), request)

"""The files browser (seed 002's raw and transformed files browsers): each job's delivered file, its
raw files and its transformed files, by DMO and date, each downloadable; a file's first records as
a table in the page (web/file_preview.py reads only them). A user limited to some DMOs sees theirs."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.web import file_preview
from sadie_pipeline.web.auth import Viewer, check_dmo
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.pages import render
from sadie_pipeline.web.queries import one, rows
from sadie_pipeline.web.routes.jobs import _key_of, _stream
from sadie_pipeline.web.users import User

router = APIRouter(include_in_schema=False)
PAGE_ROWS = 300


def _day(text: str | None) -> dt.date | None:
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise HTTPException(422, f"bad date {text[:20]!r}: YYYY-MM-DD") from None


@router.get("/files", response_class=HTMLResponse)
def files(request: Request, user: Viewer, dmo: str | None = None, date: str | None = None,
          before: Annotated[int, Query(ge=1)] = 2**62) -> Response:
    if dmo:
        check_dmo(user, dmo)
    with connection(request) as conn:
        found = rows(conn, "files", "files", {"dmos": user.dmo_filter, "dmo": dmo or None, "day": _day(date),
                                              "before": before, "limit": PAGE_ROWS + 1})
        dmos = rows(conn, "sources", "slugs", {"dmos": user.dmo_filter})
    shown, next_before = _page(found)
    return render(request, "files.html", files=shown, next_before=next_before, dmos=[d["slug"] for d in dmos])


def _page(found: list[dict]) -> tuple[list[dict], int | None]:
    """A page of whole jobs: when more rows came than a page, the last job's rows wait for the next
    page (unless the page holds that one job only)."""
    if len(found) <= PAGE_ROWS:
        return found, None
    last = found[PAGE_ROWS - 1]["job_id"]
    whole = [f for f in found[:PAGE_ROWS] if f["job_id"] != last]
    return (whole, last) if whole else (found[:PAGE_ROWS], last)


@router.get("/files/{file_id}", response_class=HTMLResponse)
def file(request: Request, user: Viewer, file_id: int) -> Response:
    """A raw or transformed file's first records."""
    found = _row_of_dmo(request, user, "file", {"file": file_id}, f"no file {file_id}")
    key = _key_of(request, found["path"])
    store = request.app.state.store
    preview = file_preview.stored_lines(store, key) if key and store.exists(key) else \
        file_preview.Preview(problem="the file is not in the object store")
    return render(request, "file.html", file=found, preview=preview,
                  download=f"/jobs/{found['job_id']}/files/{file_id}")


@router.get("/files/source/{job_id}", response_class=HTMLResponse)
def delivered(request: Request, user: Viewer, job_id: int) -> Response:
    """The file a job imported, as the DMO delivered it: its first records."""
    found = _row_of_dmo(request, user, "delivered", {"job": job_id}, f"no job {job_id}")
    store, key = request.app.state.store, found["path"]
    preview = file_preview.delivered(store, key, found["records_path"]) if key and store.exists(key) else \
        file_preview.Preview(problem="no delivered file is in the object store (a pulled API source has none)")
    return render(request, "file.html", file={**found, "stage": "delivered", "id": None}, preview=preview,
                  download=f"/jobs/{job_id}/source")


@router.get("/files/{file_id}/download")
def download(request: Request, user: Viewer, file_id: int) -> Response:
    with connection(request) as conn:
        found = one(conn, "files", "file", {"file": file_id})
    if found is None:
        raise HTTPException(404, f"no file {file_id}")
    check_dmo(user, found["dmo"])
    return _stream(request, _key_of(request, found["path"]))


def _row_of_dmo(request: Request, user: User, query: str, params: dict, missing: str) -> dict:
    """files.sql's row, 404 when there is none, 403 when its DMO is not the user's."""
    with connection(request) as conn:
        found = one(conn, "files", query, params)
    if found is None:
        raise HTTPException(404, missing)
    check_dmo(user, found["dmo"])
    return found

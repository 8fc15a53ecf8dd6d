"""Sources: each DMO with its source type, status, last run, error rate, next scheduled run and live
listings; a DMO's config, which admins edit (validated by core/config.py, saved as a new version by
listings/repository.py), with what the change does to scheduled imports."""

from __future__ import annotations

import datetime as dt
import json
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.core.config import ConfigError, merge_config
from sadie_pipeline.core.schedules import Frequency, ScheduleError, next_run
from sadie_pipeline.listings.repository import get_dmo, schedule_of, upsert_dmo
from sadie_pipeline.web.auth import Admin, Viewer, check_dmo
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import one, rows, with_review_figures

router = APIRouter(include_in_schema=False)


def _next(schedule: str | None, now: dt.datetime) -> dt.datetime | None:
    try:
        return next_run(schedule or Frequency.MANUAL, now)
    except ScheduleError:
        return None


@router.get("/sources", response_class=HTMLResponse)
def sources(request: Request, user: Viewer) -> Response:
    now = dt.datetime.now(dt.UTC)
    with connection(request) as conn:
        found = rows(conn, "sources", "sources", {"dmos": user.dmo_filter, "slug": None})
    for s in found:
        s["next_run"] = _next(s["schedule"], now)
    return render(request, "sources.html", sources=found)


@router.get("/sources/{slug}", response_class=HTMLResponse)
def source(request: Request, user: Viewer, slug: str) -> Response:
    check_dmo(user, slug)
    with connection(request) as conn:
        dmo = get_dmo(conn, slug)
        [info] = rows(conn, "sources", "sources", {"dmos": None, "slug": slug})
        config = one(conn, "sources", "config", {"slug": slug})
        jobs = with_review_figures(conn, None, rows(conn, "jobs", "jobs", {"dmos": None, "dmo": slug, "stage": None,
                                                                           "before": 2**62, "limit": 20}))
    stale = _failed_checks(config["config_params"] if config else {})
    info["next_run"] = None if stale else _next(info["schedule"], dt.datetime.now(dt.UTC))
    text = json.dumps(config["config_params"] if config else {}, indent=2, sort_keys=True)
    return render(request, "source.html", dmo=dmo, info=info, config=config, config_text=text, jobs=jobs,
                  problems=None, stale=stale)


def _failed_checks(params: dict[str, Any]) -> list[str]:
    """The checks a config saved before they existed fails (say a schedule on a source with nothing
    to pull, which still imports, but whose schedule the pull sensor skips until it is saved again)."""
    try:
        merge_config(params)
    except ConfigError as exc:
        return [str(p) for p in exc.problems]
    return []


@router.post("/sources/{slug}/config", response_class=HTMLResponse)
def save_config(request: Request, user: Admin, slug: str, config: Annotated[str, Form(max_length=200_000)]) -> Response:
    """Validates the config (every problem by key path) and saves it as the DMO's next version."""
    check_dmo(user, slug)
    try:
        params = json.loads(config)
        if not isinstance(params, dict):
            raise ValueError("the config must be a JSON object")
        merged = merge_config(params)
    except (ValueError, ConfigError) as exc:
        return _config_problems(request, user, slug, config, str(exc))
    with connection(request) as conn:
        dmo = get_dmo(conn, slug)
        before = one(conn, "sources", "config", {"slug": slug})
        upsert_dmo(conn, slug, dmo.name, params)
        after = one(conn, "sources", "config", {"slug": slug})
        open_jobs = rows(conn, "sources", "open_jobs", {"dmo": dmo.id})
    return redirect(flash_url(f"/sources/{slug}", _what_changes(before, after, schedule_of(merged), open_jobs)), request)


def _config_problems(request: Request, user: Any, slug: str, text: str, problems: str) -> Response:
    with connection(request) as conn:
        dmo = get_dmo(conn, slug)
        [info] = rows(conn, "sources", "sources", {"dmos": None, "slug": slug})
        config = one(conn, "sources", "config", {"slug": slug})
    info["next_run"] = _next(info["schedule"], dt.datetime.now(dt.UTC))
    return render(request, "source.html", status_code=422, dmo=dmo, info=info, config=config, config_text=text,
                  jobs=[], problems=problems.splitlines(), stale=[])


def _what_changes(before: dict | None, after: dict | None, schedule: str, open_jobs: list[dict]) -> str:
    """One message: the new version, the schedule change and its next run, and the jobs that keep the old config."""
    if before and after and before["version"] == after["version"]:
        return "the config is unchanged"
    parts = [f"saved as config version {after['version'] if after else 1}"]
    old = before["schedule"] if before else Frequency.MANUAL
    upcoming = _next(schedule, dt.datetime.now(dt.UTC))
    if old != schedule:
        parts.append(f"scheduled imports: {old} → {schedule}"
                     + (f", next at {upcoming:%Y-%m-%d %H:%M} UTC" if upcoming else ", none scheduled now"))
    else:
        parts.append(f"schedule unchanged ({schedule})" + (f", next import at {upcoming:%Y-%m-%d %H:%M} UTC with "
                                                           f"this version" if upcoming else ""))
    if open_jobs:
        parts.append(f"{len(open_jobs)} job(s) not yet promoted ({', '.join(str(j['id']) for j in open_jobs)}) "
                     f"keep the config they were imported with")
    return "; ".join(parts)

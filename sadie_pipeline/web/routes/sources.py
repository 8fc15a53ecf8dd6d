"""Sources: each DMO with its type, state, source type, last run, error rate, next scheduled run and
live listings; a DMO's page: its config, which admins edit (validated as `sadie dmo validate`
validates a file, saved by listings/repository.py as the next version, every version kept by
migration 0047's trigger with who saved it), with what the change does to scheduled imports, its
config versions, its recent Dagster runs and jobs. The admin actions are in routes/dmos.py."""

from __future__ import annotations

import datetime as dt
import json
import tempfile
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.core.config import ConfigError, load_config_file, merge_config
from sadie_pipeline.core.dmo_types import DmoType
from sadie_pipeline.core.schedules import Frequency, ScheduleError, next_run
from sadie_pipeline.core.sources.config import SourceType, pulled
from sadie_pipeline.listings.repository import Dmo, UnknownDmoError, get_dmo, schedule_of, upsert_dmo
from sadie_pipeline.web.auth import Admin, Viewer, check_dmo
from sadie_pipeline.web.dagster_control import PARTITION_TAG, find_runs
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import one, rows, run, with_review_figures

router = APIRouter(include_in_schema=False)


def _next(schedule: str | None, now: dt.datetime) -> dt.datetime | None:
    try:
        return next_run(schedule or Frequency.MANUAL, now)
    except ScheduleError:
        return None


@router.get("/sources", response_class=HTMLResponse)
def sources(request: Request, user: Viewer) -> Response:
    return sources_page(request, user)


def sources_page(request: Request, user: Any, problem: str | None = None, form: dict[str, str] | None = None,
                 status_code: int = 200) -> Response:
    """The sources page; with a refused "add a DMO" form's problem and values when given."""
    now = dt.datetime.now(dt.UTC)
    with connection(request) as conn:
        found = rows(conn, "sources", "sources", {"dmos": user.dmo_filter, "slug": None})
    for s in found:
        s["next_run"] = _next(s["schedule"], now)
        s["type"] = _type(s["dmo_type_id"])
    return render(request, "sources.html", status_code=status_code, sources=found, types=list(DmoType),
                  problem=problem, form=form or {})


def _type(type_id: int | None) -> DmoType | None:
    return DmoType(type_id) if type_id in DmoType._value2member_map_ else None


def is_pulled_config(params: dict[str, Any] | None) -> bool:
    """Whether the DMO's source is pulled (an API, or a file at a URL): what "Run now" runs."""
    try:
        merged = merge_config(params or {}, stored=True)
        return pulled(SourceType(merged["import"]["source_type"]), merged["import"].get("url"))
    except (ConfigError, ValueError):
        return False


def dmo_or_404(conn: Any, slug: str) -> Dmo:
    try:
        return get_dmo(conn, slug)
    except UnknownDmoError as exc:
        raise HTTPException(404, str(exc)) from None


def source_context(request: Request, slug: str, config_text: str | None = None) -> dict[str, Any]:
    """What the DMO page shows: the DMO, its figures, config, versions, recent runs and jobs."""
    with connection(request) as conn:
        dmo = dmo_or_404(conn, slug)
        [info] = rows(conn, "sources", "sources", {"dmos": None, "slug": slug})
        admin = one(conn, "dmos", "admin", {"slug": slug})
        config = one(conn, "sources", "config", {"slug": slug})
        versions = rows(conn, "dmos", "versions", {"slug": slug})
        jobs = with_review_figures(conn, None, rows(conn, "jobs", "jobs", {"dmos": None, "dmo": slug, "stage": None,
                                                                           "before": 2**62, "limit": 20}))
    params = config["config_params"] if config else {}
    stale = _failed_checks(params)
    info["next_run"] = None if stale else _next(info["schedule"], dt.datetime.now(dt.UTC))
    text = config_text if config_text is not None else json.dumps(params, indent=2, sort_keys=True)
    runs = find_runs(request.app.state.settings.dagster_url, tags={PARTITION_TAG: slug}, limit=10)
    return {"dmo": dmo, "info": info, "admin": admin, "config": config, "config_text": text, "jobs": jobs,
            "problems": None, "stale": stale, "versions": versions, "runs": runs, "types": list(DmoType),
            "dmo_type": _type(admin["dmo_type_id"]), "pulled": is_pulled_config(params)}


@router.get("/sources/{slug}", response_class=HTMLResponse)
def source(request: Request, user: Viewer, slug: str) -> Response:
    check_dmo(user, slug)
    return render(request, "source.html", **source_context(request, slug))


@router.get("/sources/{slug}/versions/{version}", response_class=HTMLResponse)
def config_version(request: Request, user: Viewer, slug: str, version: int) -> Response:
    """One saved version of the DMO's config, as it was saved."""
    check_dmo(user, slug)
    with connection(request) as conn:
        dmo = dmo_or_404(conn, slug)
        found = one(conn, "dmos", "version", {"slug": slug, "version": version})
    if found is None:
        raise HTTPException(404, f"no config version {version} of {slug}")
    return render(request, "source_version.html", dmo=dmo, version=found,
                  text=json.dumps(found["config_params"], indent=2, sort_keys=True))


def _failed_checks(params: dict[str, Any]) -> list[str]:
    """The checks a config saved before they existed fails (say a schedule on a source with nothing
    to pull, which still imports, but whose schedule the pull sensor skips until it is saved again)."""
    try:
        merge_config(params)
    except ConfigError as exc:
        return [str(p) for p in exc.problems]
    return []


def validate_config_text(text: str) -> dict[str, Any]:
    """The config JSON as `sadie dmo validate` checks a file (core/config.py load_config_file: every
    problem with its line and column, here of the text field "config"); raises ConfigError."""
    with tempfile.TemporaryDirectory(prefix="sadie-config-") as folder:
        path = Path(folder) / "config"
        path.write_text(text, encoding="utf-8")
        try:
            return load_config_file(path)
        except ConfigError as exc:
            raise ConfigError(str(exc).replace(str(path), "config")) from None


@router.post("/sources/{slug}/config", response_class=HTMLResponse)
def save_config(request: Request, user: Admin, slug: str, config: Annotated[str, Form(max_length=200_000)]) -> Response:
    """Validates the config (every problem by line, column and key path) and saves it as the DMO's
    next version (the trigger of migration 0047 keeps the version with who saved it)."""
    check_dmo(user, slug)
    try:
        params = validate_config_text(config)
        merged = merge_config(params)
    except ConfigError as exc:
        context = source_context(request, slug, config_text=config)
        context["problems"] = str(exc).splitlines()
        return render(request, "source.html", status_code=422, **context)
    with connection(request) as conn:
        dmo = dmo_or_404(conn, slug)
        before = one(conn, "sources", "config", {"slug": slug})
        run(conn, "dmos", "saver", {"user": user.name})
        upsert_dmo(conn, slug, dmo.name, params)
        after = one(conn, "sources", "config", {"slug": slug})
        open_jobs = rows(conn, "sources", "open_jobs", {"dmo": dmo.id})
    return redirect(flash_url(f"/sources/{slug}", _what_changes(before, after, schedule_of(merged), open_jobs)), request)


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

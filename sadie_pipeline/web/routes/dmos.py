"""The DMO admin (seeds 002 and 004): an admin creates a DMO (slug, name, type, optionally its first
config), renames it, sets its type, deactivates or reactivates it (public.dmos.active: shown on the
sources page, Run now refused), and deletes it while none of its records reached the public tables
(else: deactivate it). "Run now" pulls a pulled source (WordPress,
Drupal, partner API, scrape, or a file at a URL) through Dagster. Each action writes an audit row
(web/audit.py) in the transaction of its change; config versions keep their own (migration 0047)."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.core.config import ConfigError
from sadie_pipeline.core.dmo_types import DmoType
from sadie_pipeline.listings.repository import BadSlugError, check_slug, upsert_dmo
from sadie_pipeline.web.audit import audit
from sadie_pipeline.web.auth import Admin, Forbidden, Reviewer, check_dmo
from sadie_pipeline.web.dagster_control import ensure_partition
from sadie_pipeline.web.dagster_runs import launch
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.pages import flash_url, redirect
from sadie_pipeline.web.queries import one, rows, run
from sadie_pipeline.web.routes.sources import dmo_or_404, is_pulled_config, sources_page, validate_config_text
from sadie_pipeline.web.users import User

router = APIRouter(include_in_schema=False)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class DmoInputError(ValueError):
    """A person's mistake in a DMO form: one line."""


def _name(text: str) -> str:
    name = " ".join(text.split())
    if not name or len(name) > 200 or _CONTROL.search(name):
        raise DmoInputError("a DMO's name is 1 to 200 characters, no control characters")
    return name


def _dmo_type(text: str) -> DmoType:
    try:
        return DmoType.parse(text)
    except ValueError as exc:
        raise DmoInputError(str(exc)) from None


def _every_dmo(user: User) -> None:
    if user.dmos:
        raise Forbidden("creating or deleting a DMO needs an admin of every DMO")


def _refused(request: Request, user: User, problem: str, form: dict[str, str]) -> Response:
    return sources_page(request, user, problem=problem, form=form, status_code=422)


@router.post("/dmos", response_class=HTMLResponse)
def create(request: Request, user: Admin, slug: Annotated[str, Form(max_length=100)],
           name: Annotated[str, Form(max_length=400)], dmo_type: Annotated[str, Form(max_length=40)] = "CLIENT",
           config: Annotated[str, Form(max_length=200_000)] = "") -> Response:
    """A new DMO with its type and config (none: the defaults), and its Dagster partition."""
    _every_dmo(user)
    form = {"slug": slug, "name": name, "dmo_type": dmo_type, "config": config}
    try:
        slug, clean, kind = check_slug(slug.strip()), _name(name), _dmo_type(dmo_type)
        params = validate_config_text(config) if config.strip() else {}
    except (BadSlugError, DmoInputError, ConfigError) as exc:
        return _refused(request, user, str(exc), form)
    with connection(request) as conn:
        if one(conn, "dmos", "create", {"slug": slug, "name": clean, "type": int(kind)}) is None:
            conn.rollback()
            return _refused(request, user, f"a DMO {slug!r} exists already", form)
        run(conn, "dmos", "saver", {"user": user.name})
        upsert_dmo(conn, slug, clean, params)
        audit(conn, user, "dmo.create", f"dmo:{slug}", {"name": clean, "type": kind.name, "config": bool(params)})
    why = ensure_partition(request.app.state.settings.dagster_url, slug)
    note = f"; its Dagster partition waits for the partition sensor ({why})" if why else ""
    return redirect(flash_url(f"/sources/{slug}", f"DMO {slug} created as {kind.name}{note}"), request)


def _change(request: Request, user: User, slug: str, query: str, params: dict, action: str, detail: dict,
            message: str) -> Response:
    check_dmo(user, slug)
    with connection(request) as conn:
        dmo_or_404(conn, slug)
        run(conn, "dmos", query, {"slug": slug, **params})
        audit(conn, user, action, f"dmo:{slug}", detail)
    return redirect(flash_url(f"/sources/{slug}", message), request)


@router.post("/dmos/{slug}/rename")
def rename(request: Request, user: Admin, slug: str, name: Annotated[str, Form(max_length=400)]) -> Response:
    try:
        clean = _name(name)
    except DmoInputError as exc:
        return redirect(flash_url(f"/sources/{slug}", f"not renamed: {exc}"), request)
    return _change(request, user, slug, "rename", {"name": clean}, "dmo.rename", {"name": clean},
                   f"renamed to {clean}")


@router.post("/dmos/{slug}/type")
def set_type(request: Request, user: Admin, slug: str, dmo_type: Annotated[str, Form(max_length=40)]) -> Response:
    try:
        kind = _dmo_type(dmo_type)
    except DmoInputError as exc:
        return redirect(flash_url(f"/sources/{slug}", f"type not changed: {exc}"), request)
    return _change(request, user, slug, "set_type", {"type": int(kind)}, "dmo.type", {"type": kind.name},
                   f"type set to {kind.name}")


@router.post("/dmos/{slug}/active")
def set_active(request: Request, user: Admin, slug: str, active: Annotated[bool, Form()]) -> Response:
    message = "reactivated: Run now is back" if active else \
        "deactivated: its listings stay as they are; Run now is refused until it is reactivated"
    return _change(request, user, slug, "set_active", {"active": active},
                   "dmo.activate" if active else "dmo.deactivate", {}, message)


@router.post("/dmos/{slug}/delete")
def delete(request: Request, user: Admin, slug: str) -> Response:
    """Deletes the DMO with its jobs and configs, only while none of its records reached the public
    tables (listing_info rows, live or not: their history stays); else refused: deactivate it."""
    _every_dmo(user)
    with connection(request) as conn:
        dmo_or_404(conn, slug)
        [locked] = rows(conn, "dmos", "lock", {"slug": slug})
        found = one(conn, "dmos", "admin", {"slug": slug})
        if found["listing_infos"]:
            live = found["live_listings"]
            return redirect(flash_url(f"/sources/{slug}", (
                f"not deleted: {slug} has {live} live listing(s)" if live else
                f"not deleted: {found['listing_infos']} listing record(s) of {slug} reached the public tables")
                + "; deactivate it instead"), request)
        run(conn, "dmos", "delete", {"id": locked["id"]})
        audit(conn, user, "dmo.delete", f"dmo:{slug}", {"name": found["name"], "jobs": found["jobs"]})
    return redirect(flash_url("/sources", f"DMO {slug} deleted with its {found['jobs']} job(s) and its configs"),
                    request)


@router.post("/dmos/{slug}/run")
def run_now(request: Request, user: Reviewer, slug: str) -> Response:
    """Pulls the DMO's source now (listing_import_job with no inbox file: import, stage, promote what
    needs no review). A reviewer may: a reviewer already launches the same job by uploading a file."""
    check_dmo(user, slug)
    with connection(request) as conn:
        dmo_or_404(conn, slug)
        found = one(conn, "dmos", "admin", {"slug": slug})
        config = one(conn, "sources", "config", {"slug": slug})
    if not found["active"]:
        return redirect(flash_url(f"/sources/{slug}", f"{slug} is deactivated: reactivate it to run it"), request)
    if not is_pulled_config(config["config_params"] if config else None):
        return redirect(flash_url(f"/sources/{slug}", f"{slug}'s source is not pulled (its files come by upload or "
                                                      f"the inbox): upload a file instead"), request)
    dagster_url = request.app.state.settings.dagster_url
    ensure_partition(dagster_url, slug)
    launched = launch(dagster_url, "listing_import_job", slug,
                      {"ops": {"listing_raw_files": {"config": {"imported_by": user.name}}}}, user=user.name)
    if not launched.ok:
        return redirect(flash_url(f"/sources/{slug}", launched.problem or "not launched"), request)
    with connection(request) as conn:
        audit(conn, user, "dmo.run", f"dmo:{slug}", {"run": launched.run_id, "route": str(launched.route)})
    return redirect(flash_url(f"/sources/{slug}?run={launched.run_id}", f"pull of {slug} launched {launched.where}"),
                    request)

"""The review queue: pending staged rows with filters, approve/reject one or in bulk (listings/review.py),
force-match to a listing found by search (listings/curation.py), and promote (a Dagster run)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.listings import curation, review
from sadie_pipeline.listings.states import Action
from sadie_pipeline.web.auth import Forbidden, Reviewer, Viewer, check_dmo
from sadie_pipeline.web.cache import Cache
from sadie_pipeline.web.dagster_runs import launch
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import rows, sql
from sadie_pipeline.web.review_view import REASONS, explanation, explanation_line, reason_pattern, sides
from sadie_pipeline.web.users import User

router = APIRouter(include_in_schema=False)
REVIEW_PAGE = 20  # items per page: each shows a dozen fields side by side


def _filters(user: User, dmo: str | None, action: str | None, reason: str | None, job: int | None) -> dict[str, Any]:
    if dmo:
        check_dmo(user, dmo)
    return {"dmos": user.dmo_filter, "dmo": dmo or None, "action": action if action in set(Action) else None,
            "reason": reason_pattern(reason), "job": job}


@router.get("/review", response_class=HTMLResponse)
def queue(request: Request, user: Viewer, dmo: str | None = None, action: str | None = None,
          reason: str | None = None, job: int | None = None, after: Annotated[int, Query(ge=0)] = 0) -> Response:
    params = _filters(user, dmo, action, reason, job)
    limit = REVIEW_PAGE
    cache: Cache = request.app.state.review_cache
    scope = {"dmos": user.dmo_filter}
    with connection(request) as conn:
        items = rows(conn, "review", "queue", {**params, "after": after, "limit": limit + 1})
        # counts over the whole queue: shared a few seconds by every page view (cleared by a decision)
        facets = cache.get(("facets", user.dmos), lambda: rows(conn, "review", "facets", scope))
        recent = cache.get(("recent", user.dmos), lambda: rows(conn, "review", "recent_decisions", scope))
        waiting = cache.get(("waiting", user.dmos), lambda: rows(conn, "review", "approved_waiting", scope))
    more = len(items) > limit
    items = [_item(r) for r in items[:limit]]
    return render(request, "review.html", items=items, facets=facets, recent=recent, waiting=waiting,
                  more=more, next_after=items[-1]["row"]["id"] if items else after, reasons=REASONS,
                  actions=list(Action), total=sum(f["n"] for f in facets))


def _item(row: dict[str, Any]) -> dict[str, Any]:
    against, fields = sides(row)
    return {"row": row, "against": against, "fields": fields, "why": explanation(row), "why_line": explanation_line(row)}


def _allowed_ids(conn, user: User, ids: list[int]) -> list[int]:
    found = dict(conn.execute(sql("review", "row_dmos"), {"ids": ids}).fetchall())
    for slug in set(found.values()):
        check_dmo(user, slug)
    return [i for i in ids if i in found]


def _decide(request: Request, user: User, ids: list[int], decision: str) -> tuple[list[int], dict[int, str]]:
    with connection(request) as conn:
        ids = _allowed_ids(conn, user, ids)
        done = (review.approve if decision == "approve" else review.reject)(conn, ids, decided_by=user.name)
        left = review.why_undecided(conn, [i for i in ids if i not in done])
    request.app.state.review_cache.clear()
    return done, left


@router.post("/review/{row_id}/approve", response_class=HTMLResponse)
def approve_one(request: Request, user: Reviewer, row_id: int) -> Response:
    return _decide_one(request, user, row_id, "approve")


@router.post("/review/{row_id}/reject", response_class=HTMLResponse)
def reject_one(request: Request, user: Reviewer, row_id: int) -> Response:
    return _decide_one(request, user, row_id, "reject")


def _decide_one(request: Request, user: User, row_id: int, decision: str) -> Response:
    done, left = _decide(request, user, [row_id], decision)
    with connection(request) as conn:
        decided = rows(conn, "review", "decided", {"ids": [row_id]})
    return render(request, "review_decided.html", row_id=row_id, decided=decided[:1], problem=left.get(row_id))


@router.post("/review/bulk")
def decide_bulk(request: Request, user: Reviewer, decision: Annotated[str, Form()],
                ids: Annotated[list[int] | None, Form()] = None, scope: Annotated[str, Form()] = "selected",
                dmo: Annotated[str | None, Form()] = None, action: Annotated[str | None, Form()] = None,
                reason: Annotated[str | None, Form()] = None, job: Annotated[int | None, Form()] = None) -> Response:
    """The rows ticked, or (scope=filtered) every pending row the filters select."""
    if decision not in ("approve", "reject"):
        raise Forbidden(f"unknown decision {decision!r}")
    filters = _filters(user, dmo, action, reason, job)
    if scope == "filtered":
        with connection(request) as conn:
            ids = [r["id"] for r in rows(conn, "review", "queue_ids", filters)]
    done, left = _decide(request, user, list(ids or []), decision)
    verb = "approved" if decision == "approve" else "rejected"
    message = f"{len(done)} {verb}" + (f"; {len(left)} left alone (already decided or not pending)" if left else "")
    back = {k: v for k, v in {"dmo": dmo, "action": action, "reason": reason, "job": job}.items() if v}
    return redirect(flash_url("/review?" + "&".join(f"{k}={v}" for k, v in back.items()), message), request)


@router.get("/review/{row_id}/candidates", response_class=HTMLResponse)
def candidates(request: Request, user: Viewer, row_id: int, q: str = "") -> Response:
    from sadie_pipeline.web.listing_search import search

    found = search(request, user, q=q, limit=10) if q.strip() else []
    return render(request, "review_candidates.html", row_id=row_id, found=found, q=q)


@router.post("/review/{row_id}/match", response_class=HTMLResponse)
def force_match(request: Request, user: Reviewer, row_id: int, listing_id: Annotated[int, Form()]) -> Response:
    problem = None
    with connection(request) as conn:
        _allowed_ids(conn, user, [row_id])
        try:
            curation.force_match(conn, row_id, listing_id, curation.Editor(user.name, user.id))
        except curation.CurationError as exc:
            problem = str(exc)
    request.app.state.review_cache.clear()
    with connection(request) as conn:
        decided = rows(conn, "review", "decided", {"ids": [row_id]})
    return render(request, "review_decided.html", row_id=row_id, decided=decided[:1], problem=problem)


@router.post("/review/promote")
def promote(request: Request, user: Reviewer, dmo: Annotated[str, Form()]) -> Response:
    """Launches listing_promote_job for the DMO: what is approved reaches the live listings."""
    check_dmo(user, dmo)
    run = launch(request.app.state.settings.dagster_url, "listing_promote_job", dmo, user=user.name)
    message = f"promotion of {dmo} launched: run {run.run_id}" if run.ok else run.problem
    return redirect(flash_url(f"/review?dmo={dmo}" + (f"&run={run.run_id}" if run.ok else ""), message), request)

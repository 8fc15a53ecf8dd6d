"""The review queue: pending staged rows with filters, approve/reject one (field by field where a
change meets a hand edit) or in bulk after a confirmation that states how many rows, undo until
promotion applies a decision (listings/review.py), force-match to a listing found by search, and
promote (a Dagster run). Every decision refreshes the pending counts of the page in place."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.core.review import kept_fields
from sadie_pipeline.listings import curation, review
from sadie_pipeline.listings.states import Action
from sadie_pipeline.web.audit import audit
from sadie_pipeline.web.auth import Forbidden, Reviewer, Viewer, check_dmo
from sadie_pipeline.web.cache import Cache
from sadie_pipeline.web.dagster_runs import launch
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import one, pending_count, rows, sql
from sadie_pipeline.web.review_view import REASONS, decision, item, reason_pattern
from sadie_pipeline.web.users import User

router = APIRouter(include_in_schema=False)
REVIEW_PAGE = 20  # items per page: each shows a dozen fields side by side
CONFIRM_SHOWN = 50  # rows a bulk confirmation lists (it states the count of all)
SCOPE = ("dmo", "action", "reason", "job")  # the queue's filters, sent along with each decision
VERBS = {"approve": "approved", "reject": "rejected"}


def _filters(user: User, dmo: str | None, action: str | None, reason: str | None, job: Any) -> dict[str, Any]:
    if dmo:
        check_dmo(user, dmo)
    job = int(job) if str(job or "").isdigit() else None
    return {"dmos": user.dmo_filter, "dmo": dmo or None, "action": action if action in set(Action) else None,
            "reason": reason_pattern(reason), "job": job}


def _scope(values: Any) -> dict[str, str]:
    """The queue filters among request values (a query string or a form), as given."""
    return {k: str(values.get(k)) for k in SCOPE if values.get(k)}


def counts(conn, user: User, scope: dict[str, str]) -> dict[str, int | None]:
    """The pending rows of the user's DMOs, and of those the ones the filters select (None: no filter)."""
    waiting = pending_count(conn, user.dmo_filter)
    if not scope:
        return {"waiting": waiting, "matching": None}
    filters = _filters(user, scope.get("dmo"), scope.get("action"), scope.get("reason"), scope.get("job"))
    return {"waiting": waiting, "matching": one(conn, "review", "queue_count", filters)["n"]}


@router.get("/review", response_class=HTMLResponse)
def queue(request: Request, user: Viewer, dmo: str | None = None, action: str | None = None,
          reason: str | None = None, job: int | None = None, after: Annotated[int, Query(ge=0)] = 0) -> Response:
    params = _filters(user, dmo, action, reason, job)
    cache: Cache = request.app.state.review_cache
    scope = {"dmos": user.dmo_filter}
    with connection(request) as conn:
        found = rows(conn, "review", "queue", {**params, "only": None, "after": after, "limit": REVIEW_PAGE + 1})
        # figures over the whole queue: shared a few seconds by every page view (cleared by a decision)
        facets = cache.get(("facets", user.dmos), lambda: rows(conn, "review", "facets", scope))
        # not shared: whether a decision can still be undone changes when a promotion runs
        recent = rows(conn, "review", "decisions", {**scope, "ids": None, "limit": 20})
        waiting = cache.get(("waiting", user.dmos), lambda: rows(conn, "review", "approved_waiting", scope))
        figures = counts(conn, user, _scope(request.query_params))
    items = [item(r) for r in found[:REVIEW_PAGE]]
    return render(request, "review.html", items=items, facets=facets, recent=[decision(d) for d in recent],
                  waiting=waiting, more=len(found) > REVIEW_PAGE, reasons=REASONS, actions=list(Action),
                  next_after=items[-1]["row"]["id"] if items else after, counts=figures,
                  scope=_scope(request.query_params))


def _allowed_ids(conn, user: User, ids: list[int]) -> list[int]:
    found = dict(conn.execute(sql("review", "row_dmos"), {"ids": ids}).fetchall())
    for slug in set(found.values()):
        check_dmo(user, slug)
    return [i for i in ids if i in found]


def _decide(request: Request, user: User, ids: list[int], choice: str,
            keep: dict[int, list[str]] | None = None) -> tuple[list[int], dict[int, str]]:
    with connection(request) as conn:
        allowed = _allowed_ids(conn, user, ids)
        if choice == "approve":
            done = review.approve(conn, allowed, decided_by=user.name, keep=keep)
        else:
            done = review.reject(conn, allowed, decided_by=user.name)
        left = review.why_undecided(conn, [i for i in ids if i not in done])  # "no staged row" for a wrong id
    request.app.state.review_cache.clear()
    return done, left


def _fragment(request: Request, user: User, row_id: int, scope: dict[str, str], problem: str | None = None,
              pending_again: bool = False) -> Response:
    """The item after a decision (or, undone, waiting again), with the page's counts refreshed."""
    with connection(request) as conn:
        decided = [decision(d) for d in rows(conn, "review", "decisions", {"ids": [row_id], "dmos": user.dmo_filter,
                                                                           "limit": 1})]
        again = rows(conn, "review", "queue", {**_filters(user, None, None, None, None), "only": [row_id],
                                               "after": 0, "limit": 1}) if pending_again else []
        figures = counts(conn, user, scope)
    if again:
        return render(request, "review_item.html", it=item(again[0]), scope=scope, counts=figures, oob=True)
    return render(request, "review_decided.html", row_id=row_id, decided=decided, problem=problem, scope=scope,
                  counts=figures)


async def _form(request: Request) -> tuple[dict[str, str], dict[str, str]]:
    """The queue filters and the per-field choices (keep_<field>: mine or theirs) a decision carries."""
    form = await request.form()
    choices = {k.removeprefix("keep_"): str(v) for k, v in form.items() if k.startswith("keep_")}
    return _scope(form), choices


@router.post("/review/{row_id}/approve", response_class=HTMLResponse)
async def approve_one(request: Request, user: Reviewer, row_id: int) -> Response:
    scope, choices = await _form(request)
    keep = {row_id: kept_fields(choices)}
    return await run_in_threadpool(_decide_one, request, user, row_id, "approve", scope, keep)


@router.post("/review/{row_id}/reject", response_class=HTMLResponse)
async def reject_one(request: Request, user: Reviewer, row_id: int) -> Response:
    scope, _ = await _form(request)
    return await run_in_threadpool(_decide_one, request, user, row_id, "reject", scope)


def _decide_one(request: Request, user: User, row_id: int, choice: str, scope: dict[str, str],
                keep: dict[int, list[str]] | None = None) -> Response:
    _, left = _decide(request, user, [row_id], choice, keep)
    return _fragment(request, user, row_id, scope, problem=left.get(row_id))


@router.post("/review/{row_id}/undo", response_class=HTMLResponse)
async def undo_one(request: Request, user: Reviewer, row_id: int) -> Response:
    scope, _ = await _form(request)
    return await run_in_threadpool(_undo_one, request, user, row_id, scope)


def _undo_one(request: Request, user: User, row_id: int, scope: dict[str, str]) -> Response:
    """Takes the row's decision back; in place for htmx, else back to the queue with a message."""
    with connection(request) as conn:
        allowed = _allowed_ids(conn, user, [row_id])
        done = review.undo(conn, allowed, undone_by=user.name)
        problem = None if done else review.why_not_undone(conn, [row_id])[row_id]
    request.app.state.review_cache.clear()
    if request.headers.get("hx-request"):
        return _fragment(request, user, row_id, scope, problem=problem and f"cannot undo: {problem}",
                         pending_again=bool(done))
    message = f"row #{row_id}: decision undone by {user.name}; it waits for review again" if done \
        else f"row #{row_id}: cannot undo, {problem}"
    return redirect(flash_url(_queue_url(scope), message), request)


def _queue_url(scope: dict[str, str]) -> str:
    from urllib.parse import urlencode

    return "/review" + (f"?{urlencode(scope)}" if scope else "")


@router.post("/review/bulk", response_class=HTMLResponse)
def decide_bulk(request: Request, user: Reviewer, decision: Annotated[str, Form()],
                ids: Annotated[list[int] | None, Form()] = None, scope: Annotated[str, Form()] = "selected",
                dmo: Annotated[str | None, Form()] = None, action: Annotated[str | None, Form()] = None,
                reason: Annotated[str | None, Form()] = None, job: Annotated[int | None, Form()] = None,
                confirm: Annotated[int | None, Form()] = None, upto: Annotated[int | None, Form()] = None) -> Response:
    """The rows ticked, or (scope=filtered) every pending row the filters select, once confirmed:
    `confirm` must equal the number of rows, which the confirmation page states (without it, or
    when the rows changed since, that page is shown again)."""
    if decision not in VERBS:
        raise Forbidden(f"unknown decision {decision!r}")
    filters = _filters(user, dmo, action, reason, job)
    back = _scope({"dmo": dmo, "action": action, "reason": reason, "job": job})
    with connection(request) as conn:
        if scope == "filtered":
            chosen = [r["id"] for r in rows(conn, "review", "queue_ids", {**filters, "upto": upto or 2**62})]
        else:
            ticked = _allowed_ids(conn, user, list(dict.fromkeys(ids or [])))
            chosen = [i for i in ticked if i not in review.why_undecided(conn, ticked)]
        if not chosen:
            what = "no pending row matches the filters" if scope == "filtered" else "no row was ticked"
            return redirect(flash_url(_queue_url(back), f"Nothing to {decision}: {what}."), request)
        if confirm != len(chosen):
            shown = rows(conn, "review", "queue", {**filters, "only": chosen[:CONFIRM_SHOWN], "after": 0,
                                                   "limit": CONFIRM_SHOWN})
            edited = one(conn, "review", "meeting_hand_edits", {"ids": chosen})["n"] if decision == "approve" else 0
            return render(request, "review_confirm.html", decision=decision, n=len(chosen), scope_kind=scope,
                          ids=chosen if scope != "filtered" else [], upto=max(chosen), back=back,
                          items=[item(r) for r in shown], changed=confirm is not None, hand_edited=edited,
                          left_alone=len(ids or []) - len(chosen) if scope != "filtered" else 0)
    done, left = _decide(request, user, chosen, decision)
    message = f"{len(done)} {VERBS[decision]} by {user.name}" + \
        (f"; {len(left)} left alone (decided meanwhile)" if left else "") + \
        "; each can be undone under Recent decisions until it is promoted"
    return redirect(flash_url(_queue_url(back), message), request)


@router.get("/review/{row_id}/candidates", response_class=HTMLResponse)
def candidates(request: Request, user: Viewer, row_id: int, q: str = "") -> Response:
    from sadie_pipeline.web.listing_search import search

    found = search(request, user, q=q, limit=10) if q.strip() else []
    return render(request, "review_candidates.html", row_id=row_id, found=found, q=q)


@router.post("/review/{row_id}/match", response_class=HTMLResponse)
async def force_match(request: Request, user: Reviewer, row_id: int) -> Response:
    scope, _ = await _form(request)
    listing = str((await request.form()).get("listing_id") or "")
    return await run_in_threadpool(_force_match, request, user, row_id, int(listing) if listing.isdigit() else None,
                                   scope)


def _force_match(request: Request, user: User, row_id: int, listing_id: int | None, scope: dict[str, str]) -> Response:
    problem = None if listing_id is not None else "no listing chosen"
    with connection(request) as conn:
        _allowed_ids(conn, user, [row_id])
        try:
            if listing_id is not None:
                review.force_match(conn, row_id, listing_id, curation.Editor(user.name, user.id))
        except curation.CurationError as exc:
            problem = str(exc)
    request.app.state.review_cache.clear()
    return _fragment(request, user, row_id, scope, problem=problem)


@router.post("/review/promote")
def promote(request: Request, user: Reviewer, dmo: Annotated[str, Form()]) -> Response:
    """Launches listing_promote_job for the DMO: what is decided reaches the live listings (and can
    no longer be undone)."""
    check_dmo(user, dmo)
    run = launch(request.app.state.settings.dagster_url, "listing_promote_job", dmo, user=user.name)
    with connection(request) as conn:  # a launch that failed is recorded too: someone tried to promote
        audit(conn, user, "promote", f"dmo:{dmo}", {"run": run.run_id, "problem": run.problem})
    message = f"promotion of {dmo} launched: run {run.run_id}" if run.ok else run.problem
    return redirect(flash_url(f"/review?dmo={dmo}" + (f"&run={run.run_id}" if run.ok else ""), message), request)

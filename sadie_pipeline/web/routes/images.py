"""Images: the listing images' states per DMO (core/image_queue.py ImageState), the queue the next
image run fetches (asset listing_images, listings/images.py), the failures with their reasons
(paged, by DMO and failure), the near duplicates dropped beside the image each duplicates (stored
thumbnails, served by /listings/images/{id}/thumb), and a re-fetch of failed images, one or all of
a DMO's (of a failure): back in the queue with all their tries, an audit row each time."""

from __future__ import annotations

from collections import defaultdict
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.core.image_queue import FAILED, WAITING, ImageState, image_state
from sadie_pipeline.core.images import ImageFailure
from sadie_pipeline.listings.images import ImageSettings
from sadie_pipeline.web.audit import audit
from sadie_pipeline.web.auth import Reviewer, Viewer, check_dmo
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import one, rows
from sadie_pipeline.web.users import User

router = APIRouter(include_in_schema=False)
# the runs that try a failing URL: the asset's default (a run configured otherwise decides for itself)
MAX_ATTEMPTS = ImageSettings().max_attempts
FAILURES = [f.value for f in ImageFailure]
PAGE = 50
After = Annotated[int, Query(ge=0)]


def _scope(user: User, dmo: str | None) -> dict[str, Any]:
    if dmo:
        check_dmo(user, dmo)
    return {"dmo": dmo or None, "dmos": user.dmo_filter, "max_attempts": MAX_ATTEMPTS, "failures": FAILURES,
            "limit": PAGE + 1}


def _paged(found: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int | None]:
    return found[:PAGE], found[PAGE - 1]["id"] if len(found) > PAGE else None


def _dmos(conn, user: User) -> list[str]:
    """The DMOs the filters offer: the user's."""
    return [d["slug"] for d in rows(conn, "sources", "slugs", {"dmos": user.dmo_filter})]


def state_table(found: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per DMO, its images by state, with `waiting` (what the next run fetches) and `failed`."""
    table: dict[str, dict[str, int]] = defaultdict(lambda: {s.value: 0 for s in ImageState})
    for r in found:
        state = image_state(r["status"], MAX_ATTEMPTS if r["spent"] else 0, MAX_ATTEMPTS, r["shown"])
        table[r["dmo"]][state.value] += r["n"]
    for counts in table.values():
        counts["waiting"] = sum(counts[s.value] for s in WAITING)
        counts["failed"] = sum(counts[s.value] for s in FAILED)
    return dict(table)


@router.get("/images", response_class=HTMLResponse)
def images(request: Request, user: Viewer, dmo: str | None = None, after: After = 0) -> Response:
    """The states per DMO and the queue (of one DMO when given)."""
    params = _scope(user, dmo)
    with connection(request) as conn:
        rows(conn, "images", "no_jit")
        table = state_table(rows(conn, "images", "state_counts", params))
        queue, next_after = _paged(rows(conn, "images", "queue", {**params, "after": after}))
        dmos = _dmos(conn, user)
    totals = {k: sum(c[k] for c in table.values()) for k in next(iter(table.values()), {})}
    return render(request, "images.html", view="queue", table=table, totals=totals, states=list(ImageState),
                  queue=[{**q, "last_failure": q["status_reason"] if q["status"] is None else None} for q in queue],
                  next_after=next_after, dmos=dmos, max_attempts=MAX_ATTEMPTS)


@router.get("/images/failures", response_class=HTMLResponse)
def failures(request: Request, user: Viewer, dmo: str | None = None, failure: str | None = None,
             after: After = 0) -> Response:
    params = {**_scope(user, dmo), "failure": failure or None, "after": after}
    with connection(request) as conn:
        counts = rows(conn, "images", "failure_counts", params)
        found, next_after = _paged(rows(conn, "images", "failures", params))
        dmos = _dmos(conn, user)
    shown = [{**f, "state": image_state("failed", f["attempts"], MAX_ATTEMPTS, f["shown"])} for f in found]
    by_failure: dict[str, int] = defaultdict(int)
    for c in counts:
        if not dmo or c["dmo"] == dmo:
            by_failure[c["failure"]] += c["n"]
    return render(request, "images_failures.html", view="failures", found=shown, next_after=next_after,
                  dmos=dmos,
                  by_failure=dict(sorted(by_failure.items(), key=lambda kv: -kv[1])),
                  failures=sorted(set(FAILURES) | {"other"}), max_attempts=MAX_ATTEMPTS)


@router.get("/images/duplicates", response_class=HTMLResponse)
def duplicates(request: Request, user: Viewer, dmo: str | None = None, after: After = 0) -> Response:
    params = {**_scope(user, dmo), "after": after}
    with connection(request) as conn:
        found, next_after = _paged(rows(conn, "images", "duplicates", params))
        dmos = _dmos(conn, user)
    return render(request, "images_duplicates.html", view="duplicates", found=found, next_after=next_after,
                  dmos=dmos)


def _refetch(request: Request, user: User, ids: list[int], target: str, detail: dict[str, Any]) -> int:
    """Puts the failed images of `ids` back in the queue, with the audit row, in one transaction."""
    with connection(request) as conn:
        done = one(conn, "images", "refetch", {"ids": ids})
        count = int(done["images"]) if done else 0
        if count:
            audit(conn, user, "image_refetch", target, {**detail, "images": count, "ids": ids[:100]})
    return count


def _back(dmo: str | None, failure: str | None, message: str):
    query = urlencode({k: v for k, v in (("dmo", dmo), ("failure", failure)) if v})
    return flash_url("/images/failures" + (f"?{query}" if query else ""), message)


@router.post("/images/{image_id}/refetch")
def refetch(request: Request, user: Reviewer, image_id: int) -> Response:
    with connection(request) as conn:
        image = one(conn, "images", "image", {"image": image_id})
    if image is None:
        return redirect(_back(None, None, f"no image {image_id}"), request)
    check_dmo(user, image["dmo"])
    if image["status"] != "failed":
        return redirect(_back(image["dmo"], None, f"image {image_id} has not failed "
                                                  f"({image['status'] or 'queued already'}): nothing to re-fetch"),
                        request)
    _refetch(request, user, [image_id], f"image:{image_id}", {"dmo": image["dmo"], "url": image["url"]})
    return redirect(_back(image["dmo"], None, f"image {image_id} is back in the queue: the next image run "
                                              f"of {image['dmo']} fetches it"), request)


@router.post("/images/refetch")
def refetch_many(request: Request, user: Reviewer, dmo: Annotated[str, Form(min_length=1, max_length=200)],
                 failure: Annotated[str | None, Form(max_length=100)] = None) -> Response:
    """Every failed image of a DMO (of one failure class when given) back in the queue."""
    check_dmo(user, dmo)
    failure = failure or None
    if failure and failure not in FAILURES and failure != "other":
        return redirect(_back(dmo, None, f"no failure {failure[:40]!r}"), request)
    with connection(request) as conn:
        ids = [r["id"] for r in rows(conn, "images", "failed_ids",
                                     {"dmo": dmo, "failure": failure, "failures": FAILURES})]
    count = _refetch(request, user, ids, f"dmo:{dmo}", {"dmo": dmo, "failure": failure}) if ids else 0
    what = f"{failure} failures" if failure else "failed images"
    return redirect(_back(dmo, failure, f"{count} {what} of {dmo} back in the queue: the next image run "
                                        f"of {dmo} fetches them" if count else f"no {what} of {dmo} to re-fetch"),
                    request)

"""Operations pages: hotel entity review pairs (hotels/entity_reviews.py), dead letters with requeue
(operations/dead_letters.py), which runs their layer again (web/retries.py), health charts, the
bridge table and duplicate groups."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.core.places.score import describe
from sadie_pipeline.core.retries import RETRY_WORDS, Requeued, names, plan_runs
from sadie_pipeline.hotels.entity_reviews import SHOWN_FIELDS, ReviewDecision, decide, list_pairs, why_undecided
from sadie_pipeline.operations.dead_letters import (
    DeadLetter,
    DeadLetterState,
    UnknownDeadLetters,
    dead_letters,
    known_layers,
    requeue,
)
from sadie_pipeline.web.auth import Reviewer, Viewer, check_dmo
from sadie_pipeline.web.dagster_runs import Launch, Route
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.health import hotel_charts, listing_charts
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import review_totals, rows
from sadie_pipeline.web.retries import launch_layer

router = APIRouter(include_in_schema=False)


def _same(a: object, b: object) -> bool:
    return a is not None and b is not None and " ".join(str(a).split()).casefold() == " ".join(str(b).split()).casefold()


@router.get("/hotels/reviews", response_class=HTMLResponse)
def hotel_reviews(request: Request, user: Viewer, region: str | None = None, all: bool = False) -> Response:
    with connection(request) as conn:
        pairs = list_pairs(conn, region or None, include_decided=all)[:200]
    for p in pairs:
        a, b = p["record_a"] or {}, p["record_b"] or {}
        p["fields"] = [(f, a.get(f), b.get(f), _same(a.get(f), b.get(f))) for f in SHOWN_FIELDS]
        p["why"] = describe(p["explanation"])
    return render(request, "hotel_reviews.html", pairs=pairs)


@router.post("/hotels/reviews/{pair_id}/{decision}")
def hotel_decide(request: Request, user: Reviewer, pair_id: int, decision: str) -> Response:
    """merge (the same hotel) or separate (two hotels); applied by the next hotel_entities run."""
    chosen = ReviewDecision(decision) if decision in set(ReviewDecision) else None
    if chosen is None:
        return redirect(flash_url("/hotels/reviews", f"unknown decision {decision[:20]!r}"), request)
    with connection(request) as conn:
        done = decide(conn, [pair_id], chosen, decided_by=user.name)
        reasons = why_undecided(conn, [pair_id]) if not done else {}
    message = f"pair {pair_id}: {chosen} by {user.name}; the next hotel_entities run applies it" if done \
        else f"pair {pair_id}: {reasons.get(pair_id)}"
    return redirect(flash_url("/hotels/reviews", message), request)


def _hotel_id(letter: DeadLetter) -> int | None:
    key = letter.item_key.removeprefix("hotel:")
    return int(key) if letter.item_key.startswith("hotel:") and key.isdigit() and len(key) < 10 else None


def _hotels(conn, letters: list[DeadLetter]) -> dict[int, dict]:
    """The hotels the dead letters name, by id."""
    ids = sorted({i for i in map(_hotel_id, letters) if i is not None})
    return {h["id"]: h for h in rows(conn, "operations", "letter_hotels", {"ids": ids})} if ids else {}


@router.get("/deadletters", response_class=HTMLResponse)
def dead_letter_page(request: Request, user: Viewer, layer: str | None = None, error_class: str | None = None,
                     all: bool = False) -> Response:
    with connection(request) as conn:
        layers = known_layers(conn)
        letters = dead_letters(conn, layer=layer if layer in layers else None, include_resolved=all)
        shown = [d for d in letters if not error_class or d.error_class == error_class][:500]
        hotels = _hotels(conn, shown)
    classes = sorted({d.error_class for d in letters})
    groups: dict[tuple[str, str], int] = {}
    for d in letters:
        if d.state is DeadLetterState.OPEN:
            groups[(d.layer, d.error_class)] = groups.get((d.layer, d.error_class), 0) + 1
    return render(request, "dead_letters.html", layers=layers, classes=classes, groups=groups, retry_words=RETRY_WORDS,
                  letters=[(d, hotels.get(_hotel_id(d))) for d in shown])


@router.post("/deadletters/requeue")
def dead_letter_requeue(request: Request, user: Reviewer, ids: Annotated[list[int] | None, Form()] = None,
                        layer: Annotated[str | None, Form()] = None) -> Response:
    """Requeues the ticked dead letters (or a layer's) and runs their layer again for their hotels."""
    if not ids and not layer:
        return redirect(flash_url("/deadletters", "Nothing was requeued: no dead letter was ticked."), request)
    try:
        with connection(request) as conn:
            done, left = requeue(conn, ids=ids or (), layer=None if ids else layer, by=user.name)
            hotels = _hotels(conn, done)
    except UnknownDeadLetters as exc:
        return redirect(flash_url("/deadletters", str(exc)), request)
    items = [Requeued(d.id, d.layer, str(d.retry), *_hotel_facts(hotels.get(_hotel_id(d)))) for d in done]
    runs, skipped = plan_runs(items)
    launched = [(run, launch_layer(request.app.state.settings.dagster_url, run, user.name)) for run in runs]
    parts = [f"{len(done)} requeued by {user.name}"]
    parts += [_launched_words(run, started) for run, started in launched]
    parts += [f"{it.hotel or f'dead letter {it.letter_id}'} is not retried: {why}" for it, why in skipped]
    if left:
        parts.append(f"{len(left)} already resolved, left alone")
    first = next((started.run_id for _, started in launched if started.ok), None)
    return redirect(flash_url("/deadletters" + (f"?run={first}" if first else ""), "; ".join(parts) + "."), request)


def _hotel_facts(hotel: dict | None) -> tuple[str | None, str | None, str | None]:
    return (hotel["name"], hotel["city"], hotel["region"]) if hotel else (None, None, None)


def _launched_words(run, started: Launch) -> str:
    what = f"{run.layer} {'refreshes' if run.force_refresh else 'runs again'} for {names(list(run.hotels))} " \
           f"({', '.join(run.cities) + ', ' if run.cities else ''}{run.region})"
    if not started.ok:
        return f"{what} could not start: {started.problem}"
    where = {Route.QUEUE: f"backfill {started.run_id} for the Dagster daemon",
             Route.IN_PROCESS: f"run {started.run_id[:8]} in this app (no Dagster webserver answers)"}
    return f"{what}: {where.get(started.route, f'run {started.run_id[:8]} in Dagster')}"


@router.get("/health", response_class=HTMLResponse)
def health(request: Request, user: Viewer) -> Response:
    with connection(request) as conn:
        charts = {**listing_charts(conn, user.dmo_filter), **hotel_charts(conn)}
        review = review_totals(conn, user.dmo_filter)
    return render(request, "health.html", charts=charts, review=review)


@router.get("/bridge", response_class=HTMLResponse)
def bridge(request: Request, user: Viewer, dmo: str | None = None, source: str | None = None,
           listing: int | None = None, before: Annotated[int, Query(ge=1)] = 2**62) -> Response:
    if dmo:
        check_dmo(user, dmo)
    limit = request.app.state.settings.page_size
    with connection(request) as conn:
        found = rows(conn, "operations", "bridge", {"before": before, "dmos": user.dmo_filter, "dmo": dmo or None,
                                                    "source": source or None, "listing": listing, "limit": limit + 1})
        conflicts = rows(conn, "operations", "bridge_conflicts", {"dmos": user.dmo_filter})
    return render(request, "bridge.html", found=found[:limit], conflicts=conflicts,
                  next_before=found[limit - 1]["id"] if len(found) > limit else None)


@router.get("/duplicates", response_class=HTMLResponse)
def duplicates(request: Request, user: Viewer) -> Response:
    with connection(request) as conn:
        staged = rows(conn, "operations", "staged_duplicates", {"dmos": user.dmo_filter})
        live = rows(conn, "operations", "listing_duplicates", {}) if not user.dmos else []
    return render(request, "duplicates.html", staged=staged, live=live)

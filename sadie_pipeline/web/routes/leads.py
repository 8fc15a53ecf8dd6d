"""Sales' pages (issue 33): the leads before the 06:00 launch (what the launch would take and what
it would reject, with the reasons), a salesperson's approve / hold / reject / clear on one lead or
the ticked ones (each a lead_decisions row: the table is the audit trail), the filtered view as the
launch's workbook; and a hotel's page: its golden record's provenance, its layers, its decisions,
and a re-run of one layer for that hotel alone."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.core.lead_decisions import DecisionError, next_launch_day
from sadie_pipeline.core.retries import names
from sadie_pipeline.hotels.explain import explain_hotel
from sadie_pipeline.hotels.exports.delivery import XLSX
from sadie_pipeline.hotels.jobs import ENRICHMENT_LAYER_ASSETS
from sadie_pipeline.hotels.schedules import schedule_timezone
from sadie_pipeline.web.audit import audit
from sadie_pipeline.web.auth import LeadReader, Sales
from sadie_pipeline.web.cache import Cache
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.hotel_layers import HotelLayerRun, hotel_layers
from sadie_pipeline.web.leads_view import (
    PAGE,
    encode_key,
    export_workbook,
    filters,
    lead_rows,
    pick,
    record,
    shown_filters,
)
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import one, rows
from sadie_pipeline.web.retries import launch_layer

router = APIRouter(include_in_schema=False)
_DONE = {"approved": "approved", "held": "held", "rejected": "rejected", "cleared": "cleared (undecided again)"}


def _cache(request: Request) -> Cache:
    if not hasattr(request.app.state, "leads_cache"):
        request.app.state.leads_cache = Cache(ttl_s=10.0)
    return request.app.state.leads_cache


def _launch_day() -> dt.date:
    """The next 06:00 launch's date, which the page previews: a hold made now is for that launch."""
    return next_launch_day(dt.datetime.now(dt.UTC), schedule_timezone())


def _leads_url(kept: dict[str, str]) -> str:
    return "/leads" + (f"?{urlencode(kept)}" if kept else "")


@router.get("/leads", response_class=HTMLResponse)
def leads(request: Request, user: LeadReader, after: str | None = None) -> Response:
    found = filters(request.query_params)
    day = _launch_day()
    cache = _cache(request)
    with connection(request) as conn:
        picked = pick(conn, found, after, PAGE + 1)
        shown = lead_rows(conn, picked[:PAGE], day)
        # the overview and the engine choices, shared a few seconds by every page view of this worker
        cities = cache.get(("cities", found["region"]), lambda: rows(
            conn, "leads", "cities", {"region": found["region"], "scored": HotelStatus.SCORED}))
        engines = cache.get("engines", lambda: [r["name"] for r in rows(conn, "leads", "engines")])
    kept = shown_filters(found)
    return render(request, "leads.html", title="Leads", leads=shown, cities=cities, engines=engines, kept=kept,
                  found=found, day=day, timezone=schedule_timezone(), next_after=encode_key(picked[PAGE - 1]) if len(picked) > PAGE else None,
                  export_url="/leads/export" + (f"?{urlencode(kept)}" if kept else ""))


def _asked(form) -> tuple[list[int], str, str]:
    """(hotel ids, decision, reason) of a row's button (one=ID:DECISION, its reason reason_ID) or of
    the bulk form (ids, decision, reason)."""
    one_lead = str(form.get("one") or "")
    if one_lead:
        hotel, _, decision = one_lead.partition(":")
        reason = form.get(f"reason_{hotel}") or form.get("reason") or ""
        return ([int(hotel)] if hotel.isdigit() else []), decision, str(reason)
    ids = [int(v) for v in form.getlist("ids") if str(v).isdigit()]
    return ids, str(form.get("decision") or ""), str(form.get("reason") or "")


def _row(request: Request, hotel_id: int, kept: dict[str, str], problem: str | None) -> Response:
    """One lead's row as it stands now, for htmx to swap in place of the old one (the problem shown
    in it when nothing was decided). A scored hotel has its engine: lead_rows finds its details."""
    day = _launch_day()
    with connection(request) as conn:
        scored = rows(conn, "leads", "scored_ids", {"ids": [hotel_id], "scored": HotelStatus.SCORED})
        shown = lead_rows(conn, scored, day)
    problem = problem or (None if shown else "no such lead waits for the launch")
    return render(request, "leads_row_part.html", lead=shown[0] if shown else None, lead_id=hotel_id, kept=kept,
                  problem=problem)


@router.post("/leads/decide")
async def decide(request: Request, user: Sales) -> Response:
    """One lead or the ticked ones. A row's button through htmx gets its row back; without
    JavaScript, and for the bulk form, the page comes back with a message."""
    form = await request.form()
    kept = shown_filters(filters(form))
    ids, decision, reason = _asked(form)
    in_place = bool(form.get("one")) and len(ids) == 1 and bool(request.headers.get("hx-request"))
    if not ids:
        return redirect(flash_url(_leads_url(kept), "No lead was ticked: nothing was decided."), request)
    try:
        with connection(request) as conn:
            chosen, done = record(conn, ids, decision, reason, user.name, dt.datetime.now(dt.UTC),
                                  schedule_timezone())
    except DecisionError as exc:
        if in_place:
            return _row(request, ids[0], kept, str(exc))
        return redirect(flash_url(_leads_url(kept), f"Nothing was decided: {exc}."), request)
    if in_place:
        return _row(request, ids[0], kept, None if done else "the lead no longer waits for the launch")
    if not done:
        return redirect(flash_url(_leads_url(kept), "Nothing was decided: no ticked lead waits for the launch."),
                        request)
    message = f"{names([h['name'] for h in done])} {_DONE[chosen]} by {user.name}"
    skipped = len(set(ids)) - len(done)
    return redirect(flash_url(_leads_url(kept), message + (f"; {skipped} not scored, left alone." if skipped else ".")),
                    request)


@router.get("/leads/export")
def export(request: Request, user: LeadReader) -> Response:
    found = filters(request.query_params)
    with connection(request) as conn:
        data, hotels = export_workbook(conn, found)
    name = "-".join(v for v in (found.get("region"), found.get("city")) if v) or "all"
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
    return Response(data, media_type=XLSX, headers={"Content-Disposition": f'attachment; filename="leads-{safe}.xlsx"',
                                                    "X-Sadie-Hotels": str(hotels)})


@router.get("/hotels/{hotel_id:int}", response_class=HTMLResponse)
def hotel_page(request: Request, user: LeadReader, hotel_id: int) -> Response:
    with connection(request) as conn:
        hotel = one(conn, "leads", "hotel", {"id": hotel_id})
        if hotel is None:
            return render(request, "error.html", status_code=404, title="No such hotel",
                          message=f"There is no hotel {hotel_id}.")
        explained = explain_hotel(conn, hotel_id)
        history = rows(conn, "leads", "history", {"id": hotel_id})
    return render(request, "hotel.html", title=hotel["name"], hotel=hotel, explained=explained, history=history,
                  status=HotelStatus(hotel["status"]).name.lower().replace("_", " "),
                  layers=hotel_layers(hotel["layers_completed"], hotel["layer_updated_at"]))


@router.post("/hotels/{hotel_id:int}/rerun/{layer}")
def rerun(request: Request, user: Sales, hotel_id: int, layer: str) -> Response:
    """The layer's job for this hotel alone (its region's partition, the hotel's id in the run config)."""
    page = f"/hotels/{hotel_id}"
    if layer not in ENRICHMENT_LAYER_ASSETS:
        return redirect(flash_url(page, f"No layer {layer[:40]!r} to run."), request)
    with connection(request) as conn:
        hotel = one(conn, "leads", "hotel", {"id": hotel_id})
        if hotel is None:
            return redirect(flash_url("/leads", f"There is no hotel {hotel_id}."), request)
        run = HotelLayerRun(layer, hotel["region"], (), True, (hotel["name"],), (), (hotel_id,))
        started = launch_layer(request.app.state.settings.dagster_url, run, user.name)
        audit(conn, user, "rerun layer", f"hotel:{hotel_id}",
              {"layer": layer, "run": started.run_id, "problem": started.problem})
    if not started.ok:
        return redirect(flash_url(page, f"{layer} could not start for {hotel['name']}: {started.problem}"), request)
    return redirect(flash_url(f"{page}?run={started.run_id}",
                              f"{layer} runs again for {hotel['name']} ({hotel['region']}): run {started.run_id} "
                              f"{started.where}."), request)

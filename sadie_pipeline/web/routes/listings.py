"""Listings: search (name, city, DMO; paged), a listing with its DMO records, location, contacts,
hours, images and history, and the hand changes of listings/curation.py (edit, visibility, merge,
unmerge, restore of a soft delete)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.listings import curation
from sadie_pipeline.web.auth import Forbidden, Reviewer, Viewer, check_dmo
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.listing_search import STATUSES, search
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import one, rows
from sadie_pipeline.web.users import User

router = APIRouter(include_in_schema=False)


@router.get("/listings", response_class=HTMLResponse)
def listings(request: Request, user: Viewer, q: str | None = None, city: str | None = None, dmo: str | None = None,
             status: str | None = None, after: Annotated[int, Query(ge=0)] = 0) -> Response:
    limit = request.app.state.settings.page_size
    found = search(request, user, q=q, city=city, dmo=dmo, status=status, after=after, limit=limit + 1)
    with connection(request) as conn:
        dmos = rows(conn, "sources", "slugs", {"dmos": user.dmo_filter})
    return render(request, "listings.html", found=found[:limit], more=len(found) > limit,
                  next_after=found[limit - 1]["id"] if len(found) > limit else None, statuses=STATUSES,
                  dmos=[d["slug"] for d in dmos])


def listing_page_data(request: Request, user: User, listing_id: int) -> dict[str, Any]:
    with connection(request) as conn:
        listing = one(conn, "listings", "listing", {"listing": listing_id})
        if listing is None:
            raise HTTPException(404, f"no listing {listing_id}")
        records = rows(conn, "listings", "records", {"listing": listing_id})
        merged_here = rows(conn, "listings", "merged_here", {"listing": listing_id})
        history = curation.history(conn, listing_id)
    if user.dmos and not any(user.sees_dmo(r["dmo"]) for r in records):
        raise Forbidden(f"listing {listing_id} has no record of your DMOs")
    return {"listing": listing, "records": [r for r in records if user.sees_dmo(r["dmo"])],
            "merged_here": merged_here, "history": history}


@router.get("/listings/deleted", response_class=HTMLResponse)
def soft_deleted(request: Request, user: Viewer, dmo: str | None = None) -> Response:
    if dmo:
        check_dmo(user, dmo)
    with connection(request) as conn:
        found = rows(conn, "listings", "soft_deleted", {"dmo": dmo or None, "dmos": user.dmo_filter, "info": None})
    return render(request, "deleted.html", found=found)


@router.get("/listings/{listing_id}", response_class=HTMLResponse)
def listing(request: Request, user: Viewer, listing_id: int) -> Response:
    return render(request, "listing.html", **listing_page_data(request, user, listing_id))


def _editor(user: User) -> curation.Editor:
    return curation.Editor(user.name, user.id)


def _decimal(value: str | None, name: str) -> Decimal | None:
    if value is None or not value.strip():
        return None
    try:
        return Decimal(value.strip())
    except InvalidOperation:
        raise curation.CurationError(f"{name} must be a number, not {value[:20]!r}") from None


def _act(request: Request, user: User, listing_id: int, action) -> Response:
    """Runs a curation action on a listing the user may see; back to its page with what happened."""
    listing_page_data(request, user, listing_id)  # 404 / 403 first
    try:
        with connection(request) as conn:
            message = action(conn)
    except curation.CurationError as exc:
        message = str(exc)
    return redirect(flash_url(f"/listings/{listing_id}", message), request)


@router.post("/listings/{listing_id}/edit")
def edit(request: Request, user: Reviewer, listing_id: int, name: Annotated[str | None, Form()] = None,
         category: Annotated[str | None, Form()] = None, address1: Annotated[str | None, Form()] = None,
         city: Annotated[str | None, Form()] = None, state: Annotated[str | None, Form()] = None,
         zip: Annotated[str | None, Form()] = None, lat: Annotated[str | None, Form()] = None,
         lng: Annotated[str | None, Form()] = None) -> Response:
    def action(conn):
        edit = curation.ListingEdit(name=name, category=category, address1=address1, city=city, state=state, zip=zip,
                                    lat=_decimal(lat, "lat"), lng=_decimal(lng, "lng"))
        changed = curation.edit_listing(conn, listing_id, edit, _editor(user))
        return f"saved: {', '.join(changed)}; marked as edited by hand" if changed else "nothing changed"
    return _act(request, user, listing_id, action)


@router.post("/listings/{listing_id}/records/{info_id}/edit")
def edit_record(request: Request, user: Reviewer, listing_id: int, info_id: int,
                description: Annotated[str | None, Form()] = None, email: Annotated[str | None, Form()] = None,
                local_phone: Annotated[str | None, Form()] = None,
                website_url: Annotated[str | None, Form()] = None) -> Response:
    def action(conn):
        check_dmo(user, curation.info_dmo(conn, listing_id, info_id))
        edit = curation.InfoEdit(description=description, email=email, local_phone=local_phone,
                                 website_url=website_url)
        changed = curation.edit_info(conn, listing_id, info_id, edit, _editor(user))
        return f"saved: {', '.join(changed)}; marked as edited by hand" if changed else "nothing changed"
    return _act(request, user, listing_id, action)


@router.post("/listings/{listing_id}/visibility")
def visibility(request: Request, user: Reviewer, listing_id: int, visible: Annotated[bool, Form()],
               info_id: Annotated[int | None, Form()] = None) -> Response:
    def action(conn):
        if info_id is not None:
            check_dmo(user, curation.info_dmo(conn, listing_id, info_id))
        done = curation.set_visibility(conn, listing_id, visible, _editor(user), info_id)
        what = f"record {info_id}" if info_id else "listing"
        return f"{what} {'shown' if visible else 'hidden'}" if done else f"{what} already {'shown' if visible else 'hidden'}"
    return _act(request, user, listing_id, action)


@router.post("/listings/{listing_id}/merge")
def merge(request: Request, user: Reviewer, listing_id: int, into: Annotated[int, Form()]) -> Response:
    listing_page_data(request, user, into)

    def action(conn):
        moved = curation.merge(conn, listing_id, into, _editor(user))
        return f"merged into listing {into}: {len(moved['moved_records'])} DMO record(s) moved"
    return _act(request, user, listing_id, action)


@router.post("/listings/{listing_id}/unmerge")
def unmerge(request: Request, user: Reviewer, listing_id: int) -> Response:
    def action(conn):
        into = curation.unmerge(conn, listing_id, _editor(user))
        return f"unmerged from listing {into}: its records are back"
    return _act(request, user, listing_id, action)


@router.post("/listings/records/{info_id}/restore")
def restore(request: Request, user: Reviewer, info_id: int) -> Response:
    with connection(request) as conn:
        found = rows(conn, "listings", "soft_deleted", {"dmo": None, "dmos": user.dmo_filter, "info": info_id})
    if not found:
        return redirect(flash_url("/listings/deleted", f"record {info_id} is not a soft delete you may restore"), request)
    with connection(request) as conn:
        listing_id = curation.restore(conn, info_id, _editor(user))
    return redirect(flash_url("/listings/deleted", f"restored {found[0]['name']} (listing {listing_id})"), request)

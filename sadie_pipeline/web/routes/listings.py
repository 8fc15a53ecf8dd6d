"""Listings: search (name, city, DMO, status, category, region; paged) with the counts by status, a
listing with its DMO records, location, contacts, hours, image thumbnails, its timeline (what each
import changed, people's changes) and approved deletions, and the hand changes of web/listing_edits.py
and listings/curation.py (edit with field errors and clears, visibility, merge, unmerge, restore)."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import unquote

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.core import listing_timeline as timeline
from sadie_pipeline.core.categories import VOCABULARY
from sadie_pipeline.listings import curation
from sadie_pipeline.web import listing_edits as edits
from sadie_pipeline.web.auth import Forbidden, Reviewer, Viewer, check_dmo
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.listing_search import STATUSES, Filters, regions, search, status_counts
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.queries import one, rows
from sadie_pipeline.web.users import User

router = APIRouter(include_in_schema=False)
CATEGORIES = sorted(VOCABULARY)  # the category filter's suggestions (a group takes its subtypes)


@router.get("/listings", response_class=HTMLResponse)
def listings(request: Request, user: Viewer, q: str | None = None, city: str | None = None, dmo: str | None = None,
             status: str | None = None, category: str | None = None, region: str | None = None,
             after: Annotated[int, Query(ge=0)] = 0) -> Response:
    limit = request.app.state.settings.page_size
    filters = Filters.of({"q": q, "city": city, "dmo": dmo, "category": category, "region": region})
    found = search(request, user, q=q, city=city, dmo=dmo, status=status, category=category, region=region,
                   after=after, limit=limit + 1)
    counts = status_counts(request, user, filters)
    with connection(request) as conn:
        dmos = rows(conn, "sources", "slugs", {"dmos": user.dmo_filter})
    return render(request, "listings.html", found=found[:limit], more=len(found) > limit,
                  next_after=found[limit - 1]["id"] if len(found) > limit else None, statuses=STATUSES,
                  dmos=[d["slug"] for d in dmos], counts=counts, total=sum(counts.values()),
                  regions=regions(request, user), categories=CATEGORIES)


def listing_page_data(request: Request, user: User, listing_id: int) -> dict[str, Any]:
    """The listing as `user` may see it: its records, history (what each import changed, people's
    changes; core/listing_timeline.py) and approved deletions of the user's DMOs; `shared` when other
    DMOs have records of it too (the user then changes only its own records)."""
    scope = {"listing": listing_id, "dmos": user.dmo_filter}
    with connection(request) as conn:
        listing = one(conn, "listings", "listing", {"listing": listing_id})
        if listing is None:
            raise HTTPException(404, f"no listing {listing_id}")
        records = rows(conn, "listings", "records", {"listing": listing_id})
        merged_here = rows(conn, "listings", "merged_here", {"listing": listing_id})
        history = rows(conn, "listings", "history", scope)
        versions = rows(conn, "listings", "versions", scope)
        deletions = rows(conn, "listings", "approved_deletions", scope)
    if user.dmos and not any(user.sees_dmo(r["dmo"]) for r in records):
        raise Forbidden(f"listing {listing_id} has no record of your DMOs")
    mine = [r for r in records if user.sees_dmo(r["dmo"])]
    return {"listing": listing, "records": edits.served_records(mine, listing), "merged_here": merged_here,
            "history": timeline.merged(timeline.import_events(timeline.Version(**v) for v in versions),
                                       edits.readable_history(history)),
            "approved_deletions": deletions,
            "shared": edits.shared_beyond(user, [r["dmo"] for r in records])}


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


def act_on_listing(request: Request, listing_id: int, action) -> Response:
    """Runs a curation action (the listing's page data already checked); back to its page with what happened."""
    try:
        with connection(request) as conn:
            message = action(conn)
    except curation.CurationError as exc:
        message = str(exc)
    return redirect(flash_url(f"/listings/{listing_id}", message), request)


def _refused(request: Request, page: dict[str, Any], form: edits.FormState) -> Response:
    """The listing's page again, its form holding what was typed and each refused field's reason."""
    return render(request, "listing.html", status_code=422, form=form, **page)


def record_of(request: Request, user: User, page: dict[str, Any], info_id: int) -> dict[str, Any]:
    """A record of the listing the user may change (403 for another DMO's, a CurationError for none)."""
    listing_id = page["listing"]["id"]
    found = next((r for r in page["records"] if r["id"] == info_id), None)
    if found is None:
        with connection(request) as conn:
            check_dmo(user, curation.info_dmo(conn, listing_id, info_id))
        raise curation.CurationError(f"listing {listing_id} has no DMO record {info_id}")
    return found


Text = Annotated[str | None, Form()]
Clear = Annotated[list[str] | None, Form(description="fields to empty")]


@router.post("/listings/{listing_id}/edit")
def edit(request: Request, user: Reviewer, listing_id: int, name: Text = None, category: Text = None,
         address1: Text = None, city: Text = None, state: Text = None, zip: Text = None, lat: Text = None,
         lng: Text = None, clear: Clear = None) -> Response:
    page = listing_page_data(request, user, listing_id)
    edits.require_whole_listing(page)
    given = {"name": name, "category": category, "address1": address1, "city": city, "state": state, "zip": zip,
             "lat": lat, "lng": lng}
    checked = edits.check_listing(page["listing"], given, clear or [])
    if checked.errors:
        return _refused(request, page, edits.FormState("listing", given, frozenset(clear or []), checked.errors))
    return act_on_listing(request, listing_id, lambda conn: edits.saved_message(
        edits.apply_listing(conn, page["listing"], checked.changes, _editor(user))))


@router.post("/listings/{listing_id}/records/{info_id}/edit")
def edit_record(request: Request, user: Reviewer, listing_id: int, info_id: int, description: Text = None,
                email: Text = None, local_phone: Text = None, website_url: Text = None,
                clear: Clear = None) -> Response:
    page = listing_page_data(request, user, listing_id)
    try:
        record = record_of(request, user, page, info_id)
    except curation.CurationError as exc:
        return redirect(flash_url(f"/listings/{listing_id}", str(exc)), request)
    given = {"description": description, "email": email, "local_phone": local_phone, "website_url": website_url}
    checked = edits.check_record(page["listing"], record, given, clear or [])
    if checked.errors:
        return _refused(request, page, edits.FormState(str(info_id), given, frozenset(clear or []), checked.errors))
    return act_on_listing(request, listing_id, lambda conn: edits.saved_message(
        edits.apply_record(conn, listing_id, record, checked.changes, _editor(user))))


@router.post("/listings/{listing_id}/visibility")
def visibility(request: Request, user: Reviewer, listing_id: int, visible: Annotated[bool, Form()],
               info_id: Annotated[int | None, Form()] = None) -> Response:
    page = listing_page_data(request, user, listing_id)

    def action(conn):
        if info_id is not None:
            check_dmo(user, curation.info_dmo(conn, listing_id, info_id))
        return edits.set_visibility(conn, page, visible, info_id, _editor(user))
    return act_on_listing(request, listing_id, action)


@router.post("/listings/{listing_id}/merge")
def merge(request: Request, user: Reviewer, listing_id: int, into: Annotated[int, Form()]) -> Response:
    edits.require_whole_listing(listing_page_data(request, user, listing_id))
    edits.require_whole_listing(listing_page_data(request, user, into))

    def action(conn):
        moved = curation.merge(conn, listing_id, into, _editor(user))
        return f"merged into listing {into}: {len(moved['moved_records'])} DMO record(s) moved"
    return act_on_listing(request, listing_id, action)


@router.post("/listings/{listing_id}/unmerge")
def unmerge(request: Request, user: Reviewer, listing_id: int) -> Response:
    edits.require_whole_listing(listing_page_data(request, user, listing_id))

    def action(conn):
        into = curation.unmerge(conn, listing_id, _editor(user))
        return f"unmerged from listing {into}: its records are back"
    return act_on_listing(request, listing_id, action)


@router.get("/listings/images/{image_id}/thumb")
def thumbnail(request: Request, user: Viewer, image_id: int) -> Response:
    """An image's stored thumbnail (core/images.py variants), read from the object store."""
    with connection(request) as conn:
        image = one(conn, "listings", "image", {"image": image_id})
    if image is None or not image["thumb"]:
        raise HTTPException(404, f"no thumbnail of image {image_id}")
    check_dmo(user, image["dmo"])
    store = request.app.state.store
    key = _stored_key(store, image["thumb"])
    if key is None or not store.exists(key):
        raise HTTPException(404, f"the thumbnail of image {image_id} is not in the object store")
    return Response(store.get_bytes(key), media_type="image/jpeg", headers={"Cache-Control": "private, max-age=3600"})


def _stored_key(store: Any, uri: str) -> str | None:
    """The object key behind a URI the store wrote (s3://bucket/key, or a file:// URI of its folder)."""
    prefix = store.uri("k")[:-1]
    if not uri.startswith(prefix):
        return None
    key = unquote(uri[len(prefix):]) if uri.startswith("file:") else uri[len(prefix):]
    try:
        return key if store.uri(key) == uri else None
    except ValueError:  # not a key the store would write
        return None


@router.post("/listings/records/{info_id}/restore")
def restore(request: Request, user: Reviewer, info_id: int) -> Response:
    with connection(request) as conn:
        found = rows(conn, "listings", "soft_deleted", {"dmo": None, "dmos": user.dmo_filter, "info": info_id})
    if not found:
        return redirect(flash_url("/listings/deleted", f"record {info_id} is not a soft delete you may restore"), request)
    with connection(request) as conn:
        listing_id = curation.restore(conn, info_id, _editor(user))
    return redirect(flash_url("/listings/deleted", f"restored {found[0]['name']} (listing {listing_id})"), request)

"""Archive and unarchive a listing from its page: archived, a listing is hidden for every DMO (the API
and the live counts leave it out) and no import shows it again; hiding one DMO's record is another
thing (the listing page's visibility buttons). Logged in pipeline.listing_changes (curation.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from sadie_pipeline.listings import curation
from sadie_pipeline.web import listing_edits as edits
from sadie_pipeline.web.auth import Reviewer
from sadie_pipeline.web.routes.listings import act_on_listing, listing_page_data

router = APIRouter(include_in_schema=False)
REASON_MAX = 300


@router.post("/listings/{listing_id}/archive")
def archive(request: Request, user: Reviewer, listing_id: int,
            reason: Annotated[str | None, Form(max_length=REASON_MAX)] = None) -> Response:
    """Archives a listing the user may change whole (every DMO's record of it is the user's)."""
    edits.require_whole_listing(listing_page_data(request, user, listing_id))
    by = curation.Editor(user.name, user.id)
    return act_on_listing(request, listing_id, lambda conn: "archived: hidden for every DMO"
                 if curation.archive(conn, listing_id, by, (reason or "").strip() or None) else "already archived")


@router.post("/listings/{listing_id}/unarchive")
def unarchive(request: Request, user: Reviewer, listing_id: int) -> Response:
    edits.require_whole_listing(listing_page_data(request, user, listing_id))
    by = curation.Editor(user.name, user.id)
    return act_on_listing(request, listing_id, lambda conn: "unarchived" if curation.unarchive(conn, listing_id, by)
                 else "not archived")

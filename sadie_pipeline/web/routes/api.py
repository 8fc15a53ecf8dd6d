"""The JSON API. /v1/listings: read-only, for the company's sites and apps, with an API key (header
X-API-Key) and a rate limit per key; text, city, category, bounding box and updated_since filters,
cursor pagination and ETags; e-mails, phones and URLs as the field rules serve them (null when they
refuse one). A key of one DMO reads the listings that DMO shows, with that DMO's records only; a key
of every DMO, every visible listing. Images are the stored copies (original and variants, with their
sizes), served by /v1/images with the key. /v1/admin/listings: a logged-in user (session cookie and
X-CSRF-Token), the listing pages' actions, with the same field rules and DMO scope. OpenAPI at /docs
(logged in)."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import mimetypes
from collections.abc import Iterator
from contextlib import ExitStack
from decimal import Decimal
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Header, HTTPException, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse

from sadie_pipeline.core import listing_fields as rules
from sadie_pipeline.core.served_images import ORIGINAL, served_name, variant_sizes
from sadie_pipeline.listings import curation
from sadie_pipeline.web import api_models as m
from sadie_pipeline.web import listing_edits as edits
from sadie_pipeline.web.auth import Reviewer, Throttle, Viewer, check_dmo, csrf_token
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.listing_search import like_pattern, search
from sadie_pipeline.web.queries import rows
from sadie_pipeline.web.routes.listings import _stored_key, listing_page_data, record_of
from sadie_pipeline.web.users import ApiKey, User, api_key

router = APIRouter()


def require_key(request: Request, x_api_key: Annotated[str | None, Header()] = None) -> ApiKey:
    """The request's API key (401 without a valid one), within its requests per minute (else 429)."""
    if not x_api_key:
        raise HTTPException(401, "an API key is required (header X-API-Key)", headers={"WWW-Authenticate": "ApiKey"})
    with connection(request) as conn:
        key = api_key(conn, x_api_key)
    if key is None:
        raise HTTPException(401, "unknown or revoked API key", headers={"WWW-Authenticate": "ApiKey"})
    throttles: dict[int, Throttle] = request.app.state.api_throttles
    throttle = throttles.get(key.id)
    if throttle is None or throttle.limit != key.requests_per_minute:
        throttle = throttles[key.id] = Throttle(key.requests_per_minute, 60.0)
    wait = throttle.take(key.id)
    if wait:
        raise HTTPException(429, f"rate limit of {key.requests_per_minute} requests per minute reached",
                            headers={"Retry-After": str(int(wait) + 1)})
    return key


def _cursor(after: int) -> str:
    return base64.urlsafe_b64encode(json.dumps({"after": after}).encode()).decode().rstrip("=")


def _after(cursor: str | None) -> int:
    if not cursor:
        return 0
    try:
        after = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))["after"]
    except (ValueError, KeyError, TypeError):
        raise HTTPException(400, "bad cursor") from None
    if not isinstance(after, int) or after < 0:
        raise HTTPException(400, "bad cursor")
    return after


def _bbox(bbox: str | None) -> dict[str, Decimal | None]:
    if not bbox:
        return {"min_lng": None, "min_lat": None, "max_lng": None, "max_lat": None}
    try:
        min_lng, min_lat, max_lng, max_lat = (Decimal(v) for v in bbox.split(","))
    except (ValueError, ArithmeticError):
        raise HTTPException(400, "bbox is min_lng,min_lat,max_lng,max_lat") from None
    if min_lng > max_lng or min_lat > max_lat:
        raise HTTPException(400, "bbox: each minimum must be at most its maximum")
    return {"min_lng": min_lng, "min_lat": min_lat, "max_lng": max_lng, "max_lat": max_lat}


_CONTACT = tuple(m.Contact.model_fields)
_LOCATION = tuple(m.Location.model_fields)


def _listings(request: Request, key: ApiKey, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Listings shaped as m.Listing (plain dicts: serialised straight to JSON, no model per row), in
    the key's DMO scope."""
    params = {**params, "dmo_id": key.dmo_id}
    with connection(request) as conn:
        found = rows(conn, "api", "listings" if key.dmo_id is None else "dmo_listings", params)
        records = rows(conn, "api", "records", {"ids": [r["id"] for r in found], "dmo_id": key.dmo_id}) \
            if found else []
    regions = {r["id"]: edits.region(r) for r in found}
    base = str(request.base_url).rstrip("/")
    by_listing: dict[int, list[dict[str, Any]]] = {}
    for r in records:
        contact = rules.served_contact({k: r["contact_name" if k == "name" else k] for k in _CONTACT},
                                       regions[r["listing_id"]])
        images = [_image(base, im) for im in r["images"]]
        by_listing.setdefault(r["listing_id"], []).append(
            {"dmo": r["dmo"], "description": r["description"], "contact": contact, "images": images,
             "hours": r["hours"]})
    return [{"id": r["id"], "name": r["name"], "category": r["category"], "updated_at": r["updated_at"],
             "location": {k: r[k] for k in _LOCATION}, "records": by_listing.get(r["id"], [])} for r in found]


def _image(base: str, image: dict[str, Any]) -> dict[str, Any]:
    """A stored image as m.Image: this API's addresses of its original and variants, with their sizes."""
    url = f"{base}/v1/images/{image['id']}/"
    return {"id": image["id"], "url": url + ORIGINAL, "width": image["width"], "height": image["height"],
            "variants": [{"name": name, "url": url + name, "width": w, "height": h}
                         for name, w, h in variant_sizes(image["width"], image["height"], image["variants"])]}


def _with_etag(request: Request, payload: Any) -> Response:
    body = orjson.dumps(payload, default=_json_default, option=orjson.OPT_SORT_KEYS | orjson.OPT_NAIVE_UTC)
    etag = 'W/"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "private, max-age=0, must-revalidate"}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def _json_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)  # coordinates keep their digits, as the API's schema (Decimal) says
    raise TypeError(type(value).__name__)


@router.get("/v1/listings", response_model=m.ListingPage, tags=["listings"])
def list_listings(request: Request, key: Annotated[ApiKey, Depends(require_key)],
                  q: Annotated[str | None, Query(description="a part of the name", max_length=200)] = None,
                  city: str | None = None, category: str | None = None,
                  bbox: Annotated[str | None, Query(description="min_lng,min_lat,max_lng,max_lat")] = None,
                  updated_since: dt.datetime | None = None, cursor: str | None = None,
                  limit: Annotated[int, Query(ge=1, le=100)] = 50) -> Response:
    """Visible canonical listings, by id, with their DMO records (contacts, hours, images)."""
    since = updated_since.astimezone(dt.UTC).replace(tzinfo=None) if updated_since and updated_since.tzinfo \
        else updated_since
    params = {"after": _after(cursor), "id": None, "name_like": like_pattern(q), "city": city or None,
              "category": category or None, "since": since, "limit": limit + 1, **_bbox(bbox)}
    found = _listings(request, key, params)
    return _with_etag(request, {"data": found[:limit],
                                "next_cursor": _cursor(found[limit - 1]["id"]) if len(found) > limit else None})


@router.get("/v1/listings/{listing_id}", response_model=m.Listing, tags=["listings"])
def get_listing(request: Request, listing_id: int, key: Annotated[ApiKey, Depends(require_key)]) -> Response:
    params = {"after": 0, "id": listing_id, "name_like": None, "city": None, "category": None, "since": None,
              "limit": 1, **_bbox(None)}
    found = _listings(request, key, params)
    if not found:
        raise HTTPException(404, f"no visible listing {listing_id}")
    return _with_etag(request, found[0])


# The app's own URL streams the stored object, rather than a presigned S3 URL: it works on the local
# folder store too, the key (and its DMO scope and rate limit) is checked on every image, and the
# listing's addresses stay the same from one request to the next, so its ETag does too.
_IMAGE_CACHE = "private, max-age=86400"  # an object's key is made from its source URL: its bytes do not change
_CHUNK = 256 * 1024


@router.get("/v1/images/{image_id}/{variant}", tags=["listings"],
            responses={200: {"content": {"image/jpeg": {}}, "description": "the stored image"}})
def image(request: Request, image_id: int, variant: str, key: Annotated[ApiKey, Depends(require_key)]) -> Response:
    """A stored image (`original`, or a variant's name such as `medium` or `thumb`) of a listing the
    key reads, from the object store."""
    if not served_name(variant):
        raise HTTPException(404, f"no image {image_id}/{variant[:40]}")
    with connection(request) as conn:
        row = next(iter(rows(conn, "api", "image", {"image": image_id, "dmo_id": key.dmo_id})), None)
    uri = None if row is None else row["canonical_url"] if variant == ORIGINAL else (row["variants"] or {}).get(variant)
    store = request.app.state.store
    object_key = _stored_key(store, uri) if uri else None
    if object_key is None:
        raise HTTPException(404, f"no image {image_id}/{variant}")
    etag = '"' + hashlib.sha256(object_key.encode()).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": _IMAGE_CACHE}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    stack = ExitStack()
    try:
        stream = stack.enter_context(store.open_read(object_key))
    except FileNotFoundError:
        stack.close()
        raise HTTPException(404, f"image {image_id}/{variant} is not in the object store") from None
    media_type = "image/jpeg" if variant != ORIGINAL else mimetypes.guess_type(object_key)[0] or "image/jpeg"
    return StreamingResponse(_chunks(stream, stack), media_type=media_type, headers=headers)


def _chunks(stream: Any, stack: ExitStack) -> Iterator[bytes]:
    with stack:
        while chunk := stream.read(_CHUNK):
            yield chunk


# --- admin: a logged-in user, the same actions as the listing pages ---------------------------------

@router.get("/v1/admin/session", tags=["admin"])
def session(request: Request, user: Viewer) -> dict[str, Any]:
    """Who is logged in, and the CSRF token the admin API's POSTs send as X-CSRF-Token."""
    return {"user": user.name, "role": user.role.label, "dmos": list(user.dmos), "csrf_token": csrf_token(request)}


@router.get("/v1/admin/listings", tags=["admin"])
def admin_search(request: Request, user: Viewer, q: str | None = None, city: str | None = None,
                 dmo: str | None = None, status: str | None = None, after: int = 0,
                 limit: Annotated[int, Query(ge=1, le=200)] = 50) -> dict[str, Any]:
    found = search(request, user, q=q, city=city, dmo=dmo, status=status, after=after, limit=limit + 1)
    return {"data": jsonable_encoder(found[:limit]), "next_after": found[limit - 1]["id"] if len(found) > limit else None}


@router.get("/v1/admin/listings/{listing_id}", tags=["admin"])
def admin_listing(request: Request, user: Viewer, listing_id: int) -> dict[str, Any]:
    """The listing page's data; each record's e-mail, phones and URLs as the rules serve them (null when
    refused), its images' http(s) addresses and thumbnails."""
    page = listing_page_data(request, user, listing_id)
    records = [{**{k: v for k, v in r.items() if k not in ("served", "images")}, **r["served"],
                "images": [{"id": im["id"], "rank": im["rank"], "url": im["href"], "thumb": im["thumb_src"]}
                           for im in r["images"]]} for r in page["records"]]
    return jsonable_encoder({**page, "records": records})


def _outcome(request: Request, listing_id: int, action) -> JSONResponse:
    """Runs an action on a listing whose page data the caller has checked (404 / 403)."""
    try:
        with connection(request) as conn:
            message, changed = action(conn)
    except curation.CurationError as exc:
        return JSONResponse(m.Outcome(ok=False, message=str(exc)).model_dump(), status_code=409)
    return JSONResponse(jsonable_encoder(m.Outcome(ok=True, message=message, changed=changed)))


def _refused(errors: dict[str, str]) -> JSONResponse:
    return JSONResponse(m.Outcome(ok=False, message=f"refused: {', '.join(errors)}; nothing saved",
                                  errors=errors).model_dump(), status_code=422)


def _editor(user: User) -> curation.Editor:
    return curation.Editor(user.name, user.id)


def _saved(changed: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return ("saved" if changed else "nothing changed"), changed


@router.post("/v1/admin/listings/{listing_id}/edit", response_model=m.Outcome, tags=["admin"],
             responses={422: {"model": m.Outcome}})
def admin_edit(request: Request, user: Reviewer, listing_id: int, edit: m.ListingEditIn) -> JSONResponse:
    page = listing_page_data(request, user, listing_id)
    edits.require_whole_listing(page)
    checked = edits.check_listing(page["listing"], edit.model_dump(exclude={"clear"}), edit.clear)
    if checked.errors:
        return _refused(checked.errors)
    return _outcome(request, listing_id,
                    lambda conn: _saved(edits.apply_listing(conn, page["listing"], checked.changes, _editor(user))))


@router.post("/v1/admin/listings/{listing_id}/records/{record_id}/edit", response_model=m.Outcome, tags=["admin"],
             responses={422: {"model": m.Outcome}})
def admin_edit_record(request: Request, user: Reviewer, listing_id: int, record_id: int,
                      edit: m.RecordEditIn) -> JSONResponse:
    page = listing_page_data(request, user, listing_id)
    try:
        record = record_of(request, user, page, record_id)
    except curation.CurationError as exc:
        return JSONResponse(m.Outcome(ok=False, message=str(exc)).model_dump(), status_code=409)
    checked = edits.check_record(page["listing"], record, edit.model_dump(exclude={"clear"}), edit.clear)
    if checked.errors:
        return _refused(checked.errors)
    return _outcome(request, listing_id, lambda conn: _saved(
        edits.apply_record(conn, listing_id, record, checked.changes, _editor(user))))


@router.post("/v1/admin/listings/{listing_id}/visibility", response_model=m.Outcome, tags=["admin"])
def admin_visibility(request: Request, user: Reviewer, listing_id: int, body: m.VisibilityIn) -> JSONResponse:
    page = listing_page_data(request, user, listing_id)

    def action(conn):
        if body.record_id is not None:
            check_dmo(user, curation.info_dmo(conn, listing_id, body.record_id))
        return edits.set_visibility(conn, page, body.visible, body.record_id, _editor(user)), None
    return _outcome(request, listing_id, action)


@router.post("/v1/admin/listings/{listing_id}/merge", response_model=m.Outcome, tags=["admin"])
def admin_merge(request: Request, user: Reviewer, listing_id: int, body: m.MergeIn) -> JSONResponse:
    edits.require_whole_listing(listing_page_data(request, user, listing_id))
    edits.require_whole_listing(listing_page_data(request, user, body.into))
    return _outcome(request, listing_id,
                    lambda conn: ("merged", curation.merge(conn, listing_id, body.into, _editor(user))))


@router.post("/v1/admin/listings/{listing_id}/unmerge", response_model=m.Outcome, tags=["admin"])
def admin_unmerge(request: Request, user: Reviewer, listing_id: int) -> JSONResponse:
    edits.require_whole_listing(listing_page_data(request, user, listing_id))
    return _outcome(request, listing_id,
                    lambda conn: (f"unmerged from {curation.unmerge(conn, listing_id, _editor(user))}", None))


@router.post("/v1/admin/records/{record_id}/restore", response_model=m.Outcome, tags=["admin"])
def admin_restore(request: Request, user: Reviewer, record_id: int) -> JSONResponse:
    with connection(request) as conn:
        deleted = rows(conn, "listings", "soft_deleted", {"dmo": None, "dmos": user.dmo_filter, "info": record_id})
    if not deleted:
        return JSONResponse(m.Outcome(ok=False, message=f"record {record_id} is not a soft delete you may restore")
                            .model_dump(), status_code=409)
    with connection(request) as conn:
        listing_id = curation.restore(conn, record_id, _editor(user))
    return JSONResponse(m.Outcome(ok=True, message=f"restored (listing {listing_id})").model_dump())


# --- OpenAPI, behind the login like every page -------------------------------------------------------

@router.get("/openapi.json", include_in_schema=False)
def openapi(request: Request, user: Viewer) -> JSONResponse:
    return JSONResponse(request.app.openapi())


@router.get("/docs", include_in_schema=False, response_class=HTMLResponse)
def docs(user: Viewer) -> HTMLResponse:
    return get_swagger_ui_html(openapi_url="/openapi.json", title="sadie API",
                               swagger_js_url="/static/vendor/swagger-ui-bundle.js",
                               swagger_css_url="/static/vendor/swagger-ui.css", swagger_favicon_url="/static/favicon.svg")

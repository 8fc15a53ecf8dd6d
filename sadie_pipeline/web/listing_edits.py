"""A person's changes to a listing, for the listing pages and the admin API alike: edits checked by
core/listing_fields.py (refused values come back as field errors, nothing stored), applied through
listings/curation.py, with the explicit clears and the phone's international form beside it; what a
user limited to some DMOs may do with a listing other DMOs share; the history made readable."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from sadie_pipeline.core import listing_fields as rules
from sadie_pipeline.core.fields import URL_FIELDS
from sadie_pipeline.listings import curation
from sadie_pipeline.web.auth import Forbidden
from sadie_pipeline.web.queries import run
from sadie_pipeline.web.users import User

LISTING_FIELDS = tuple(f.value for f in rules.ListingField)
RECORD_FIELDS = tuple(f.value for f in rules.RecordField)
_EDITABLE = frozenset({*LISTING_FIELDS, *RECORD_FIELDS, "international_phone"})
_CONTACT = ("email", "local_phone", "international_phone", *URL_FIELDS)


@dataclass(frozen=True)
class FormState:
    """An edit form sent back with what the user typed and why it was refused."""
    target: str                      # "listing", or a DMO record's id
    values: dict[str, Any]
    clear: frozenset[str] = frozenset()
    errors: dict[str, str] = field(default_factory=dict)


def region(listing: Mapping[str, Any]) -> str:
    """The listing's country: the region its phone numbers are read in."""
    return (listing.get("country") or "CA").strip().upper() or "CA"


def check_listing(listing: Mapping[str, Any], given: Mapping[str, Any], clear: Collection[str]) -> rules.CheckedEdit:
    return rules.check_edit(LISTING_FIELDS, given, clear, listing, region(listing))


def check_record(listing: Mapping[str, Any], record: Mapping[str, Any], given: Mapping[str, Any],
                 clear: Collection[str]) -> rules.CheckedEdit:
    return rules.check_edit(RECORD_FIELDS, given, clear, record, region(listing))


def _cleared(changes: Mapping[str, Any]) -> list[str]:
    return [f for f, v in changes.items() if v is None]


def apply_listing(conn: psycopg.Connection, listing: Mapping[str, Any], changes: Mapping[str, Any],
                  by: curation.Editor) -> dict[str, list[Any]]:
    """Applies checked changes (curation sets the values, this clears the cleared); returns what changed."""
    sets = {f: v for f, v in changes.items() if v is not None}
    changed = curation.edit_listing(conn, listing["id"], curation.ListingEdit(**sets), by)
    cleared = _cleared(changes)
    if cleared:
        run(conn, "listings", "clear_listing", {"listing": listing["id"], "clear": cleared, "user_id": by.user_id})
        detail = {f: [listing.get(f), None] for f in cleared}
        _log_clear(conn, listing["id"], None, detail, by)
        changed = {**changed, **detail}
    return changed


def apply_record(conn: psycopg.Connection, listing_id: int, record: Mapping[str, Any], changes: Mapping[str, Any],
                 by: curation.Editor) -> dict[str, list[Any]]:
    """Applies checked changes to one DMO record; its phone's international form follows the phone."""
    sets = {f: v for f, v in changes.items() if v is not None and f != "international_phone"}
    changed = curation.edit_info(conn, listing_id, record["id"], curation.InfoEdit(**sets), by)
    if changes.get("international_phone") is not None:
        run(conn, "listings", "set_international_phone",
            {"info": record["id"], "international_phone": changes["international_phone"]})
    cleared = _cleared(changes)
    if cleared:
        run(conn, "listings", "clear_record", {"info": record["id"], "clear": cleared, "user_id": by.user_id})
        detail = {f: [record.get(f), None] for f in cleared if f != "international_phone"}
        _log_clear(conn, listing_id, record["id"], {"dmo": record["dmo"], **detail}, by)
        changed = {**changed, **detail}
    return changed


def _log_clear(conn: psycopg.Connection, listing_id: int, info_id: int | None, detail: dict[str, Any],
               by: curation.Editor) -> None:
    run(conn, "listings", "log_clear", {"listing": listing_id, "info": info_id, "by": by.name,
                                        "detail": Jsonb(detail, dumps=lambda v: json.dumps(v, default=str))})


def saved_message(changed: Mapping[str, list[Any]]) -> str:
    if not changed:
        return "nothing changed"
    names = [f"{f} (cleared)" if v[1] is None else f for f, v in changed.items() if f != "dmo"]
    return f"saved: {', '.join(names)}; marked as edited by hand"


# --- DMO scope ------------------------------------------------------------------------------------

def shared_beyond(user: User, dmos: Collection[str]) -> bool:
    """Whether other DMOs than the user's have records of the listing (never for a user of every DMO):
    such a user then changes only its DMOs' records of it, never the listing itself."""
    return any(not user.sees_dmo(d) for d in dmos)


def require_whole_listing(page: Mapping[str, Any]) -> None:
    if page["shared"]:
        raise Forbidden(f"listing {page['listing']['id']} is shared with DMOs you are not allowed: "
                        f"edit or hide your DMO's record of it")


def set_visibility(conn: psycopg.Connection, page: Mapping[str, Any], visible: bool,
                   info_id: int | None, by: curation.Editor) -> str:
    """Shows or hides the listing, or one record; a shared listing only for the user's DMOs."""
    listing_id = page["listing"]["id"]
    word = "shown" if visible else "hidden"
    if info_id is not None or not page["shared"]:
        done = curation.set_visibility(conn, listing_id, visible, by, info_id)
        what = f"record {info_id}" if info_id else "listing"
        return f"{what} {word}" if done else f"{what} already {word}"
    mine = [r for r in page["records"] if r["info_status"] != "missing_from_import"]
    changed = [r["dmo"] for r in mine if curation.set_visibility(conn, listing_id, visible, by, r["id"])]
    dmos = ", ".join(sorted({r["dmo"] for r in mine}))
    if not changed:
        return f"already {word} for {dmos}"
    return f"{word} for {dmos} only: other DMOs share this listing"


# --- reading --------------------------------------------------------------------------------------

def served_records(records: list[dict[str, Any]], listing: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Records as shown and served: contacts the rules refuse are None (see core/listing_fields.py)
    and each image has its link (`href`, http(s) only) and its thumbnail's address (`thumb_src`)."""
    out = []
    for r in records:
        served = rules.served_contact({k: r.get(k) for k in _CONTACT}, region(listing))
        images = [{**im, "href": rules.served_url(im.get("url")),
                   "thumb_src": _thumb_src(im)} for im in r.get("images") or []]
        out.append({**r, "served": served, "images": images})
    return out


def _thumb_src(image: Mapping[str, Any]) -> str | None:
    thumb = image.get("thumb")
    if not thumb:
        return None
    return rules.served_url(thumb) or f"/listings/images/{image['id']}/thumb"  # in the object store: through the app


def readable_history(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each history row with `lines`: "field: old → new" for an edit, "key: value" for the rest."""
    return [{**r, "lines": change_lines(r.get("detail"))} for r in rows]


def change_lines(detail: Any) -> list[str]:
    if detail is None:
        return []
    if not isinstance(detail, dict):
        return [_plain(detail)]
    lines = []
    for key, value in detail.items():
        if key == "dmo":
            continue
        if key in _EDITABLE and isinstance(value, list) and len(value) == 2:
            lines.append(f"{key}: {_plain(value[0])} → {_plain(value[1])}")
        else:
            lines.append(f"{key.replace('_', ' ')}: {_plain(value)}")
    return lines


def _plain(value: Any) -> str:
    if value is None:
        return "(empty)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(_plain, value)) or "none"
    return str(value)

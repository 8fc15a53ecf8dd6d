"""What people change by hand on canonical listings (the web app's listing pages and admin API):
edits, visibility, merge and unmerge, restoring a soft delete, and matching a staged record by hand.
Each sets `manually_modified` where it changes imported data, so a later import that would change
it waits for review (resolve.sql), and each is logged in pipeline.listing_changes with who and when."""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from sadie_pipeline.listings.queries import run, sql


class CurationError(ValueError):
    """A change that cannot be made (no such listing, a merged one, ...): one line for a person."""


@dataclass(frozen=True)
class Editor:
    """Who changes: a name for the logs, and the web user's id for manually_modified_by."""
    name: str
    user_id: int | None = None


@dataclass(frozen=True)
class ListingEdit:
    """Listing-level fields (listings and its location); None leaves a field as it is."""
    name: str | None = None
    category: str | None = None
    address1: str | None = None
    city: str | None = None
    state: str | None = None
    zip: str | None = None
    lat: Decimal | None = None
    lng: Decimal | None = None


@dataclass(frozen=True)
class InfoEdit:
    """One DMO's record of the listing (listing_info and its contact_info)."""
    description: str | None = None
    email: str | None = None
    local_phone: str | None = None
    website_url: str | None = None


_LISTING_FIELDS = ("name", "category")
_LOCATION_FIELDS = ("address1", "city", "state", "zip", "lat", "lng")


def _changes(current: dict[str, Any], edit: Any) -> dict[str, list[Any]]:
    """{field: [old, new]} for the fields the edit sets to another value."""
    out = {}
    for f in fields(edit):
        new = getattr(edit, f.name)
        if new is not None and new != current.get(f.name):
            out[f.name] = [current.get(f.name), new]
    return out


def _row(conn: psycopg.Connection, name: str, params: dict[str, Any]) -> dict[str, Any] | None:
    return conn.cursor(row_factory=dict_row).execute(sql("curation", name), params).fetchone()


def _listing(conn: psycopg.Connection, listing_id: int) -> dict[str, Any]:
    row = _row(conn, "listing", {"listing": listing_id})
    if row is None:
        raise CurationError(f"no listing {listing_id}")
    return row


def _log(conn: psycopg.Connection, listing_id: int, change: str, by: Editor, detail: Any = None,
         info_id: int | None = None) -> None:
    conn.execute(sql("curation", "log"), {"listing": listing_id, "info": info_id, "change": change, "by": by.name,
                                          "detail": Jsonb(detail, dumps=_dumps) if detail is not None else None})


def _dumps(value: Any) -> str:
    import json

    return json.dumps(value, default=str)


def edit_listing(conn: psycopg.Connection, listing_id: int, edit: ListingEdit, by: Editor) -> dict[str, list[Any]]:
    """Applies the edit; returns what changed (nothing changes, and nothing is marked, when nothing differs)."""
    current = _listing(conn, listing_id)
    if current["listing_status"] == "merged":
        raise CurationError(f"listing {listing_id} is merged into {current['merged_into']}: edit that one")
    changed = _changes(current, edit)
    if not changed:
        return {}
    params = {**current, **{k: v[1] for k, v in changed.items()}, "listing": listing_id, "user_id": by.user_id}
    run(conn, "curation", "edit_listing", params)
    if any(f in changed for f in _LOCATION_FIELDS):
        run(conn, "curation", "ensure_location", params)
        run(conn, "curation", "edit_location", params)
    _log(conn, listing_id, "edit", by, changed)
    return changed


def edit_info(conn: psycopg.Connection, listing_id: int, info_id: int, edit: InfoEdit, by: Editor) -> dict[str, list[Any]]:
    current = _row(conn, "info", {"info": info_id, "listing": listing_id})
    if current is None:
        raise CurationError(f"listing {listing_id} has no DMO record {info_id}")
    changed = _changes(current, edit)
    if changed:
        params = {**current, **{k: v[1] for k, v in changed.items()}, "info": info_id, "user_id": by.user_id}
        run(conn, "curation", "edit_info", params)
        _log(conn, listing_id, "edit", by, {"dmo": current["dmo"], **changed}, info_id)
    return changed


def info_dmo(conn: psycopg.Connection, listing_id: int, info_id: int) -> str:
    """The DMO slug of a listing's record (for permission checks)."""
    current = _row(conn, "info", {"info": info_id, "listing": listing_id})
    if current is None:
        raise CurationError(f"listing {listing_id} has no DMO record {info_id}")
    return current["dmo"]


def set_visibility(conn: psycopg.Connection, listing_id: int, visible: bool, by: Editor,
                   info_id: int | None = None) -> bool:
    """Shows or hides the listing (or one DMO's record of it); False when it already was so."""
    params = {"listing": listing_id, "info": info_id, "visible": visible, "user_id": by.user_id}
    _listing(conn, listing_id)
    name = "set_info_visibility" if info_id is not None else "set_listing_visibility"
    done = conn.execute(sql("curation", name), params).fetchone() is not None
    if done:
        _log(conn, listing_id, "visibility", by, {"visible": visible}, info_id)
    return done


def restore(conn: psycopg.Connection, info_id: int, by: Editor) -> int:
    """A soft-deleted DMO record (missing from a full import) shown again, with its listing; returns the listing."""
    row = conn.execute(sql("curation", "restore"), {"info": info_id}).fetchone()
    if row is None:
        raise CurationError(f"DMO record {info_id} is not soft-deleted")
    run(conn, "curation", "restore_listing", {"listing": row[0]})
    _log(conn, row[0], "restore", by, None, info_id)
    return row[0]


def merge(conn: psycopg.Connection, listing_id: int, into_id: int, by: Editor) -> dict[str, Any]:
    """Listing `listing_id` merged into `into_id` (which survives); returns what moved."""
    if listing_id == into_id:
        raise CurationError("a listing cannot be merged into itself")
    first, second = sorted((listing_id, into_id))  # lock in id order: two merges never wait on each other
    locked = {first: _listing(conn, first), second: _listing(conn, second)}
    for lid, row in locked.items():
        if row["listing_status"] == "merged":
            raise CurationError(f"listing {lid} is already merged into {row['merged_into']}")
    params = {"listing": listing_id, "into": into_id, "by": by.name}
    merge_id, infos, bridges = conn.execute(sql("curation", "merge"), params).fetchone()
    run(conn, "curation", "mark_merged", params)
    detail = {"into": into_id, "merge": merge_id, "moved_records": infos, "moved_bridge_rows": bridges}
    _log(conn, listing_id, "merge", by, detail)
    _log(conn, into_id, "merge", by, {"from": listing_id, "merge": merge_id, "moved_records": infos})
    return detail


def unmerge(conn: psycopg.Connection, listing_id: int, by: Editor) -> int:
    """Undoes the listing's merge: what moved goes back; returns the listing it had been merged into."""
    row = _row(conn, "open_merge", {"listing": listing_id})
    if row is None:
        raise CurationError(f"listing {listing_id} is not merged")
    run(conn, "curation", "unmerge", {
        "listing": listing_id, "into": row["into_listing_id"], "infos": row["moved_info_ids"],
        "bridges": row["moved_bridge_ids"], "status": row["status_before"], "visible": row["visible_before"],
        "merge": row["id"], "by": by.name})
    _log(conn, listing_id, "unmerge", by, {"from": row["into_listing_id"], "merge": row["id"]})
    _log(conn, row["into_listing_id"], "unmerge", by, {"listing": listing_id, "merge": row["id"]})
    return row["into_listing_id"]


def force_match(conn: psycopg.Connection, row_id: int, listing_id: int, by: Editor) -> None:
    """A pending staged record matched by hand to a listing, and approved (promoted by the next promotion)."""
    if conn.execute(sql("curation", "force_match"), {"row": row_id, "listing": listing_id}).fetchone() is None:
        raise CurationError(f"staged row {row_id} is not a pending record, or listing {listing_id} does not "
                            f"exist or is merged")
    conn.execute(sql("curation", "log_decision"), {"row": row_id, "decision": "force_matched", "by": by.name})
    _log(conn, listing_id, "force_match", by, {"staged_row": row_id})


def history(conn: psycopg.Connection, listing_id: int) -> list[dict[str, Any]]:
    return conn.cursor(row_factory=dict_row).execute(sql("curation", "history"), {"listing": listing_id}).fetchall()


def archive(conn: psycopg.Connection, listing_id: int, by: Editor, reason: str | None = None) -> bool:
    """Archives the listing: hidden for every DMO (unlike hiding one DMO's record), and no import shows
    it again (migration 0048's trigger keeps it archived); False when it already was."""
    current = _listing(conn, listing_id)
    if current["listing_status"] == "merged":
        raise CurationError(f"listing {listing_id} is merged into {current['merged_into']}: archive that one")
    if conn.execute(sql("curation", "archive"), {"listing": listing_id}).fetchone() is None:
        return False
    _log(conn, listing_id, "archive", by, {"status_before": current["listing_status"],
                                           "visible_before": current["listing_visible"], "reason": reason or None})
    return True


def unarchive(conn: psycopg.Connection, listing_id: int, by: Editor) -> bool:
    """Takes the listing out of the archive, back to the status and visibility it had before it was
    archived (active and visible when that is not known); False when it is not archived."""
    current = _listing(conn, listing_id)
    if current["listing_status"] != "archived":
        return False
    before = _row(conn, "archived_from", {"listing": listing_id}) or {}
    params = {"listing": listing_id, "status": before.get("status_before") or "active",
              "visible": before.get("visible_before") if before.get("visible_before") is not None else True}
    run(conn, "curation", "unarchive", params)
    _log(conn, listing_id, "unarchive", by, {"status": params["status"], "visible": params["visible"]})
    return True

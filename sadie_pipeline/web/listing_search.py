"""Listings search shared by the listings page and the review page's force-match box: name (a part
of it, case-insensitive), city, DMO and status, paged by id."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from sadie_pipeline.web.auth import check_dmo
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.queries import rows
from sadie_pipeline.web.users import User

STATUSES = ("active", "hidden", "missing_from_import", "merged")


def like_pattern(text: str | None) -> str | None:
    """A LIKE pattern finding `text` anywhere (its own % and _ taken literally); None for nothing."""
    text = (text or "").strip().lower()
    if not text:
        return None
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def search(request: Request, user: User, q: str | None = None, city: str | None = None, dmo: str | None = None,
           status: str | None = None, after: int = 0, limit: int = 50) -> list[dict[str, Any]]:
    if dmo:
        check_dmo(user, dmo)
    params = {"name_like": like_pattern(q), "city": (city or "").strip() or None, "dmo": dmo or None,
              "status": status if status in STATUSES else None, "dmos": user.dmo_filter, "after": after,
              "limit": limit}
    with connection(request) as conn:
        return rows(conn, "listings", "search", params)

"""Listings search shared by the listings page, the review page's force-match box and the admin API:
a name search that forgives (sql/search.sql: accents, case, "&" for "and", word order and typos),
city, DMO and status, paged by id."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from sadie_pipeline.core.search_words import search_words, word_slots
from sadie_pipeline.web.auth import check_dmo
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.queries import rows
from sadie_pipeline.web.users import User

STATUSES = ("active", "hidden", "missing_from_import", "merged")
INDEXED_WORDS = 4  # the query's w1..w4: each a condition the trigram index serves
# pg_trgm's word similarity a misspelt word needs ("aubrge" ~ "auberge" is 0.5; "hotel" ~ "hostel" 0.44)
TYPO_SIMILARITY = "0.5"


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
    indexed, more = word_slots(search_words(q), INDEXED_WORDS)
    params = {**{f"w{i}": word for i, word in enumerate(indexed, start=1)}, "more": more,
              "city": (city or "").strip() or None, "dmo": dmo or None,
              "status": status if status in STATUSES else None, "dmos": user.dmo_filter, "after": after,
              "limit": limit}
    with connection(request) as conn:
        if any(indexed):
            rows(conn, "search", "typo_tolerance", {"threshold": TYPO_SIMILARITY})
        return rows(conn, "search", "search", params)

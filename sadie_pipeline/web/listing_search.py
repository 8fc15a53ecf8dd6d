"""Listings search shared by the listings page, the review page's force-match box and the admin API:
a name search that forgives (sql/search.sql: accents, case, "&" for "and", word order and typos),
city, DMO, status, category (a group takes its subtypes) and region (country, or country/state),
paged by id; and the counts by status of the same filters but status, above the list."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import Request

from sadie_pipeline.core.search_words import search_words, word_slots
from sadie_pipeline.listings.states import ListingStatus
from sadie_pipeline.web.auth import check_dmo
from sadie_pipeline.web.cache import Cache
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.queries import rows
from sadie_pipeline.web.users import User

STATUSES = tuple(s.value for s in ListingStatus)  # the status filter's choices
INDEXED_WORDS = 4  # the query's w1..w4: each a condition the trigram index serves
# pg_trgm's word similarity a misspelt word needs ("aubrge" ~ "auberge" is 0.5; "hotel" ~ "hostel" 0.44)
TYPO_SIMILARITY = "0.5"
# counts over every listing of the filters: shared a few seconds between page views of the same filters
COUNTS_TTL_S = 10.0
REGIONS_TTL_S = 60.0


def like_pattern(text: str | None) -> str | None:
    """A LIKE pattern finding `text` anywhere (its own % and _ taken literally); None for nothing."""
    text = (text or "").strip().lower()
    if not text:
        return None
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


@dataclass(frozen=True)
class Filters:
    """The listings page's filters (blank ones None); status apart, since the counts leave it out."""
    q: str | None = None
    city: str | None = None
    dmo: str | None = None
    category: str | None = None
    region: str | None = None  # "CA" (a country) or "CA/PE" (a state of it)

    @classmethod
    def of(cls, given: Mapping[str, Any]) -> Filters:
        return cls(**{k: (str(given[k]).strip() or None) if given.get(k) is not None else None
                      for k in ("q", "city", "dmo", "category", "region")})

    def params(self, user: User) -> dict[str, Any]:
        if self.dmo:
            check_dmo(user, self.dmo)
        indexed, more = word_slots(search_words(self.q), INDEXED_WORDS)
        category = (self.category or "").lower() or None
        country, _, state = (self.region or "").partition("/")
        return {**{f"w{i}": word for i, word in enumerate(indexed, start=1)}, "more": more,
                "city": self.city, "dmo": self.dmo, "dmos": user.dmo_filter, "category": category,
                # a group ("lodging") takes its subtypes ("lodging.hotel"): its own "_" and "%" literal
                "category_group": _escaped(category) + ".%" if category and "." not in category else None,
                "country": country.strip().upper()[:2] or None, "state": state.strip() or None}


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def search(request: Request, user: User, q: str | None = None, city: str | None = None, dmo: str | None = None,
           status: str | None = None, after: int = 0, limit: int = 50, category: str | None = None,
           region: str | None = None) -> list[dict[str, Any]]:
    params = {**Filters.of({"q": q, "city": city, "dmo": dmo, "category": category, "region": region}).params(user),
              "status": status if status in STATUSES else None, "after": after, "limit": limit}
    with connection(request) as conn:
        if any(params[f"w{i}"] for i in range(1, INDEXED_WORDS + 1)):
            rows(conn, "search", "typo_tolerance", {"threshold": TYPO_SIMILARITY})
        return rows(conn, "search", "search", params)


def status_counts(request: Request, user: User, filters: Filters) -> dict[str, int]:
    """The listings of the filters (all but status) by status, most first."""
    params = filters.params(user)

    def count() -> dict[str, int]:
        with connection(request) as conn:
            rows(conn, "search", "no_jit")
            if params["w1"]:
                rows(conn, "search", "typo_tolerance", {"threshold": TYPO_SIMILARITY})
            return {r["status"]: r["n"] for r in rows(conn, "search", "status_counts", params)}

    return _cache(request, "listing_counts", COUNTS_TTL_S).get((filters, user.dmos), count)


def regions(request: Request, user: User) -> list[dict[str, Any]]:
    """The region filter's choices: each country, and each state of it, with its listings."""
    def find() -> list[dict[str, Any]]:
        with connection(request) as conn:
            rows(conn, "search", "no_jit")
            found = rows(conn, "search", "regions", {"dmos": user.dmo_filter})
        choices: dict[str, dict[str, Any]] = {}
        for r in found:
            country = (r["country"] or "").strip()
            if country:
                entry = choices.setdefault(country, {"value": country, "label": country, "n": 0})
                entry["n"] += r["n"]
            if r["state"]:
                value = f"{country}/{r['state']}"
                choices[value] = {"value": value, "label": f"{country or '?'} · {r['state']}", "n": r["n"]}
        return list(choices.values())

    return _cache(request, "listing_regions", REGIONS_TTL_S).get(user.dmos, find)


def _cache(request: Request, name: str, ttl_s: float) -> Cache:
    """The app's cache of that name (made on first use: each worker process keeps its own)."""
    cache = getattr(request.app.state, name, None)
    if cache is None:
        cache = Cache(ttl_s=ttl_s)
        setattr(request.app.state, name, cache)
    return cache

"""The web app's SQL, kept in sql/*.sql beside this module (see sadie_pipeline/sql_files.py), and the
review figures every page shows (queue, header, jobs, health), all counted by one query
(review.sql's review_counts) so that they agree."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.rows import dict_row

from sadie_pipeline.sql_files import SqlFiles

if TYPE_CHECKING:
    from fastapi import Request

    from sadie_pipeline.web.users import User

SQL_DIR = Path(__file__).parent / "sql"
_FILES = SqlFiles(SQL_DIR)
load, sql, run = _FILES.load, _FILES.sql, _FILES.run


def rows(conn: psycopg.Connection, file: str, name: str, params: Mapping[str, Any] | None = None) -> list[dict]:
    """A one-statement query's rows as dicts."""
    return conn.cursor(row_factory=dict_row).execute(sql(file, name), params or {}).fetchall()


def one(conn: psycopg.Connection, file: str, name: str, params: Mapping[str, Any] | None = None) -> dict | None:
    found = rows(conn, file, name, params)
    return found[0] if found else None


@dataclass(frozen=True)
class ReviewFigures:
    """Rows sent to review: waiting for a person, decided by one, or superseded before a decision
    was applied (core/review.py ReviewState); sent is their sum."""
    waiting: int = 0
    decided: int = 0
    superseded: int = 0

    @property
    def sent(self) -> int:
        return self.waiting + self.decided + self.superseded

    def __add__(self, other: ReviewFigures) -> ReviewFigures:
        return ReviewFigures(self.waiting + other.waiting, self.decided + other.decided,
                             self.superseded + other.superseded)


def _figures(found: Iterable[dict]) -> ReviewFigures:
    return sum((ReviewFigures(r["waiting"], r["decided"], r["superseded"]) for r in found), ReviewFigures())


def review_counts(conn: psycopg.Connection, dmos: Sequence[str] | None,
                  jobs: Sequence[int] | None = None) -> list[dict]:
    """The figures per DMO and job (dmo, job_id, waiting, decided, superseded) of the DMOs given
    (None: all) and, when given, of those jobs only."""
    return rows(conn, "review", "review_counts", {"dmos": list(dmos) if dmos else None,
                                                  "jobs": list(jobs) if jobs is not None else None})


def figures_by_job(conn: psycopg.Connection, dmos: Sequence[str] | None, jobs: Sequence[int]) -> dict[int, ReviewFigures]:
    found = review_counts(conn, dmos, jobs)
    return {job: _figures(r for r in found if r["job_id"] == job) for job in jobs}


def figures_by_dmo(conn: psycopg.Connection, dmos: Sequence[str] | None) -> dict[str, ReviewFigures]:
    found = review_counts(conn, dmos)
    return {slug: _figures(r for r in found if r["dmo"] == slug) for slug in dict.fromkeys(r["dmo"] for r in found)}


def with_review_figures(conn: psycopg.Connection, dmos: Sequence[str] | None, jobs: list[dict]) -> list[dict]:
    """The jobs (rows with an id) each with its `review` figures, for jobs_table.html."""
    figures = figures_by_job(conn, dmos, [j["id"] for j in jobs])
    return [{**j, "review": figures[j["id"]]} for j in jobs]


def review_totals(conn: psycopg.Connection, dmos: Sequence[str] | None) -> ReviewFigures:
    return _figures(review_counts(conn, dmos))


def pending_count(conn: psycopg.Connection, dmos: Sequence[str] | None) -> int:
    """Rows waiting for review in these DMOs (None: all): the header's count."""
    return review_totals(conn, dmos).waiting


def nav_pending(request: Request, user: User) -> int:
    """pending_count for the signed-in user's DMOs, shared a few seconds between page views (a
    decision clears the cache, so the count after it is fresh)."""
    from sadie_pipeline.web.db import connection

    def count() -> int:
        with connection(request) as conn:
            return pending_count(conn, user.dmo_filter)

    return request.app.state.review_cache.get(("pending", user.dmos), count)

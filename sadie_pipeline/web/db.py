"""The app's connections: one psycopg pool per app (opened at start, closed at stop). A connection
taken with `connection(request)` commits when its block ends without error, as Database.connect's."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from fastapi import Request
from psycopg_pool import ConnectionPool


def open_pool(url: str, max_size: int = 10) -> ConnectionPool:
    # no prepared statements: each query is planned with its values, so "%(x)s IS NULL OR ..." filters
    # fold away and the indexes of the filters given are used
    pool = ConnectionPool(url, min_size=2, max_size=max_size, open=False, name="sadie-web",
                          kwargs={"application_name": "sadie-web", "prepare_threshold": None})
    pool.open(wait=True, timeout=30)
    return pool


@contextmanager
def connection(request: Request) -> Iterator[psycopg.Connection]:
    with request.app.state.pool.connection() as conn:
        yield conn

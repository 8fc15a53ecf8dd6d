"""The listings' SQL, kept in sql/*.sql beside this module (as dbt keeps its models). In a file,
each query follows a `-- name: NAME` line (the aiosql / yesql convention) and may hold several
statements, each ending with `;` at the end of a line. Parameters are psycopg's %(name)s; no SQL
is assembled in Python. The planner settings of the listings' bulk transactions are in planner.sql."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import psycopg

SQL_DIR = Path(__file__).parent / "sql"
_NAME = re.compile(r"^-- name: ([a-z_][a-z0-9_]*)\s*$", re.MULTILINE)
_END = re.compile(r";[ \t]*$", re.MULTILINE)


@cache
def load(file: str) -> Mapping[str, tuple[str, ...]]:
    """The queries of sql/{file}.sql by name, each as its statements."""
    text = (SQL_DIR / f"{file}.sql").read_text()
    parts = _NAME.split(text)
    queries = {}
    for name, body in zip(parts[1::2], parts[2::2]):
        statements = tuple(_without_comment_lines(s) for s in _END.split(body) if _code(s))
        if not statements or name in queries:
            raise ValueError(f"{file}.sql: query {name!r} is empty or named twice")
        queries[name] = statements
    return queries


def _without_comment_lines(text: str) -> str:
    # psycopg would read a %(name)s in a comment as a parameter
    return "\n".join(line for line in text.strip().splitlines() if not line.lstrip().startswith("--"))


def _code(text: str) -> bool:
    return any(line.strip() and not line.strip().startswith("--") for line in text.splitlines())


def sql(file: str, name: str) -> str:
    """A query of one statement."""
    [statement] = load(file)[name]
    return statement


def run(conn: psycopg.Connection, file: str, name: str, params: Mapping[str, Any] | None = None) -> psycopg.Cursor:
    """Runs a query's statements in order; returns the cursor of the last."""
    cursor = None
    for statement in load(file)[name]:
        cursor = conn.execute(statement, params or {})  # always bound: %% means %
    return cursor


def tune(conn: psycopg.Connection) -> None:
    """The planner settings of a bulk transaction (the one place they are set)."""
    run(conn, "planner", "bulk")

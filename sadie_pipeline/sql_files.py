"""SQL kept in .sql files beside the Python that runs it (as dbt keeps its models). In a file,
each query follows a `-- name: NAME` line (the aiosql / yesql convention) and may hold several
statements, each ending with `;` at the end of a line. Parameters are psycopg's %(name)s; no SQL
is assembled in Python."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import psycopg

_NAME = re.compile(r"^-- name: ([a-z_][a-z0-9_]*)\s*$", re.MULTILINE)
_END = re.compile(r";[ \t]*$", re.MULTILINE)


@cache
def load_file(path: Path) -> Mapping[str, tuple[str, ...]]:
    """The queries of one .sql file by name, each as its statements."""
    parts = _NAME.split(path.read_text())
    queries = {}
    for name, body in zip(parts[1::2], parts[2::2]):
        statements = tuple(_without_comment_lines(s) for s in _END.split(body) if _code(s))
        if not statements or name in queries:
            raise ValueError(f"{path.name}: query {name!r} is empty or named twice")
        queries[name] = statements
    return queries


def _without_comment_lines(text: str) -> str:
    # psycopg would read a %(name)s in a comment as a parameter
    return "\n".join(line for line in text.strip().splitlines() if not line.lstrip().startswith("--"))


def _code(text: str) -> bool:
    return any(line.strip() and not line.strip().startswith("--") for line in text.splitlines())


class SqlFiles:
    """The .sql files of one folder."""

    def __init__(self, folder: Path):
        self.folder = folder

    def load(self, file: str) -> Mapping[str, tuple[str, ...]]:
        return load_file(self.folder / f"{file}.sql")

    def sql(self, file: str, name: str) -> str:
        """A query of one statement."""
        [statement] = self.load(file)[name]
        return statement

    def run(self, conn: psycopg.Connection, file: str, name: str,
            params: Mapping[str, Any] | None = None) -> psycopg.Cursor:
        """Runs a query's statements in order; returns the cursor of the last."""
        cursor = None
        for statement in self.load(file)[name]:
            cursor = conn.execute(statement, params or {})  # always bound: %% means %
        return cursor

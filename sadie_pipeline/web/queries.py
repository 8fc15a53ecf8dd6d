"""The web app's SQL, kept in sql/*.sql beside this module (see sadie_pipeline/sql_files.py)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from sadie_pipeline.sql_files import SqlFiles

SQL_DIR = Path(__file__).parent / "sql"
_FILES = SqlFiles(SQL_DIR)
load, sql, run = _FILES.load, _FILES.sql, _FILES.run


def rows(conn: psycopg.Connection, file: str, name: str, params: Mapping[str, Any] | None = None) -> list[dict]:
    """A one-statement query's rows as dicts."""
    return conn.cursor(row_factory=dict_row).execute(sql(file, name), params or {}).fetchall()


def one(conn: psycopg.Connection, file: str, name: str, params: Mapping[str, Any] | None = None) -> dict | None:
    found = rows(conn, file, name, params)
    return found[0] if found else None

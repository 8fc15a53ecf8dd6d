"""The listings' SQL, kept in sql/*.sql beside this module (see sadie_pipeline/sql_files.py). The
planner settings of the listings' bulk transactions are in planner.sql."""

from __future__ import annotations

from pathlib import Path

import psycopg

from sadie_pipeline.sql_files import SqlFiles

SQL_DIR = Path(__file__).parent / "sql"
_FILES = SqlFiles(SQL_DIR)
load, sql, run = _FILES.load, _FILES.sql, _FILES.run


def tune(conn: psycopg.Connection) -> None:
    """The planner settings of a bulk transaction (the one place they are set)."""
    run(conn, "planner", "bulk")

"""The operations' SQL, kept in sql/*.sql beside this module (see sadie_pipeline/sql_files.py)."""

from __future__ import annotations

from pathlib import Path

from sadie_pipeline.sql_files import SqlFiles

SQL_DIR = Path(__file__).parent / "sql"
_FILES = SqlFiles(SQL_DIR)
load, sql, run = _FILES.load, _FILES.sql, _FILES.run

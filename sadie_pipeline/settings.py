"""Where local state lives. Read at call time, never at import time."""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SQL_DIR = PROJECT_ROOT / "sql"
SAMPLE_DIR = Path(__file__).resolve().parent / "data" / "sample"


def sadie_home() -> Path:
    """The local data folder (embedded database, local object store, Dagster instance)."""
    return Path(os.environ.get("SADIE_HOME", ".sadie")).resolve()


def env(name: str) -> str | None:
    """An environment variable's value, None when unset or blank (read at call time)."""
    return os.environ.get(name, "").strip() or None

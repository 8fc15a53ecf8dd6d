"""Where local state lives. Read at call time, never at import time."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
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


def env_count(name: str, default: int) -> int:
    """A positive whole number from the environment (read at call time), default when unset."""
    value = env(name)
    if value is None:
        return default
    if int(value) < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")
    return int(value)


def listings_fast_paths() -> bool:
    """The one switch of the listings' fast paths, which must never change a result: records
    unchanged since the last import staged thin, records still under review copied, a file
    delivered again derived from its earlier raw files, and bulk inserts whose foreign keys are
    checked per batch instead of per row. SADIE_LISTINGS_FAST_PATHS=off turns them all off."""
    return (env("SADIE_LISTINGS_FAST_PATHS") or "on").lower() not in ("off", "0", "false", "no")


@contextmanager
def environ(values: Mapping[str, str]) -> Iterator[None]:
    """`values` set in os.environ for the block, the previous values (or their absence) back afterwards."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

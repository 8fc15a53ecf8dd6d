"""The local Dagster instance: DAGSTER_HOME under the data folder unless set, SQLite storage by
default, PostgreSQL (dagster-postgres) when SADIE_DAGSTER_PG_URL is set."""

from __future__ import annotations

import os
from pathlib import Path

from sadie_pipeline.settings import sadie_home

_LOCAL_YAML = """# Written by sadie for local use; see dagster.yaml at the project root for production.
telemetry:
  enabled: false
"""

_POSTGRES_YAML = """storage:
  postgres:
    postgres_url:
      env: SADIE_DAGSTER_PG_URL
"""


def ensure_dagster_home() -> Path:
    home = Path(os.environ.get("DAGSTER_HOME") or sadie_home() / "dagster")
    home.mkdir(parents=True, exist_ok=True)
    os.environ["DAGSTER_HOME"] = str(home)
    config = home / "dagster.yaml"
    if not config.exists():
        text = _LOCAL_YAML + (_POSTGRES_YAML if os.environ.get("SADIE_DAGSTER_PG_URL") else "")
        config.write_text(text)
    return home

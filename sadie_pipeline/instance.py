"""The local Dagster instance: DAGSTER_HOME under the data folder unless set, SQLite storage by
default, PostgreSQL (dagster-postgres) when SADIE_DAGSTER_PG_URL is set."""

from __future__ import annotations

import os
from pathlib import Path

from sadie_pipeline.settings import sadie_home

MARKER = "# Written by sadie; edit freely, and delete this line to keep your edits."
_LOCAL_YAML = MARKER + """
telemetry:
  enabled: false
concurrency:
  pools:
    default_limit: 1   # one step at a time per external-service pool (serper, websites, llm) across runs
  runs:
    tag_concurrency_limits:
      - key: "dagster/partition"   # one run per DMO (or region) at a time: imports apply in arrival order
        value:
          applyLimitPerUniqueValue: true
        limit: 1
"""

# dagster-postgres on SQLAlchemy 2.1 wants the driver in the URL: postgresql+psycopg2://...
_POSTGRES_YAML = """storage:
  postgres:
    postgres_url:
      env: SADIE_DAGSTER_PG_URL
"""


def ensure_dagster_home() -> Path:
    """Sets DAGSTER_HOME (when unset) and writes its dagster.yaml to match the environment,
    unless a person took the file over (removed the marker line)."""
    home = Path(os.environ.get("DAGSTER_HOME") or sadie_home() / "dagster")
    home.mkdir(parents=True, exist_ok=True)
    os.environ["DAGSTER_HOME"] = str(home)
    config = home / "dagster.yaml"
    if not config.exists() or config.read_text().startswith(MARKER):
        text = _LOCAL_YAML + (_POSTGRES_YAML if os.environ.get("SADIE_DAGSTER_PG_URL") else "")
        if not config.exists() or config.read_text() != text:
            config.write_text(text)
    return home

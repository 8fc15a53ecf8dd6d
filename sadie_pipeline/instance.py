"""The local Dagster instance: DAGSTER_HOME under the data folder unless set, its dagster.yaml
copied from the project's top-level dagster.yaml, with PostgreSQL storage (dagster-postgres)
instead of SQLite when SADIE_DAGSTER_PG_URL is set."""

from __future__ import annotations

import os
from pathlib import Path

from sadie_pipeline.settings import PROJECT_ROOT, sadie_home

MARKER = "# Written by sadie; edit freely, and delete this line to keep your edits."
LOCAL_CONFIG = PROJECT_ROOT / "dagster.yaml"

# dagster-postgres on SQLAlchemy 2.1 wants the driver in the URL: postgresql+psycopg2://...
_POSTGRES_STORAGE = """storage:
  postgres:
    postgres_url:
      env: SADIE_DAGSTER_PG_URL
"""


def local_instance_yaml(postgres: bool) -> str:
    """The project's dagster.yaml behind the marker line, with PostgreSQL storage when asked
    (the project's file has no storage block: SQLite under DAGSTER_HOME)."""
    text = LOCAL_CONFIG.read_text()
    return f"{MARKER}\n{text}" + (f"\n{_POSTGRES_STORAGE}" if postgres else "")


def ensure_dagster_home() -> Path:
    """Sets DAGSTER_HOME (when unset) and writes its dagster.yaml to match the environment,
    unless a person took the file over (removed the marker line)."""
    home = Path(os.environ.get("DAGSTER_HOME") or sadie_home() / "dagster")
    home.mkdir(parents=True, exist_ok=True)
    os.environ["DAGSTER_HOME"] = str(home)
    config = home / "dagster.yaml"
    # Installed without the project folder (a wheel), there is no template: Dagster's defaults apply.
    if not LOCAL_CONFIG.exists() or (config.exists() and not config.read_text().startswith(MARKER)):
        return home
    text = local_instance_yaml(postgres=bool(os.environ.get("SADIE_DAGSTER_PG_URL")))
    if not config.exists() or config.read_text() != text:
        config.write_text(text)
    return home


def create_instance_storage(home: Path | str | None = None) -> None:
    """Creates the instance's storage in this one process. A fresh SQLite instance opened by the
    webserver, the daemon and its code server at once can be stamped twice ("more than one head
    present", dagster issue #27390): `make dev` and the tests create it first."""
    from dagster import DagsterInstance

    instance = DagsterInstance.from_config(str(home)) if home else DagsterInstance.get()
    instance.dispose()

"""PostgreSQL: the configured server, or an embedded one (pgserver) under the local data folder."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from dagster import ConfigurableResource
from pydantic import Field

DEFAULT_HOME = ".sadie"


def embedded_database_url(home: str | Path = DEFAULT_HOME) -> str:
    """Starts (or reuses) the embedded server under ``{home}/pg``; it keeps running for later commands."""
    import warnings

    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset; harmless here
        warnings.simplefilter("ignore")
        import pgserver

    data_dir = Path(home).expanduser().resolve() / "pg"
    data_dir.mkdir(parents=True, exist_ok=True)
    return pgserver.get_server(str(data_dir), cleanup_mode=None).get_uri()


def resolve_database_url(url: str | None, home: str | Path = DEFAULT_HOME) -> str:
    return (url or "").strip() or embedded_database_url(home)


def to_sqlalchemy_url(url: str, driver: str = "psycopg") -> str:
    """postgresql://... as SQLAlchemy wants it (dagster-postgres needs driver psycopg2)."""
    scheme, _, rest = url.partition("://")
    return f"postgresql+{driver}://{rest}" if scheme in ("postgres", "postgresql") else url


class Database(ConfigurableResource):
    """The system of record: the server at `url`, else the embedded server under `home`
    (the definitions set them from SADIE_DATABASE_URL and SADIE_HOME)."""

    url: str | None = Field(default=None, description="PostgreSQL URL; None: the embedded server under home")
    home: str = Field(default=DEFAULT_HOME, description="the local data folder; the embedded server is {home}/pg")

    def resolved_url(self) -> str:
        return resolve_database_url(self.url, self.home)

    @contextmanager
    def connect(self, actor: str | None = None) -> Iterator[psycopg.Connection]:
        """A connection whose transaction commits when the block ends without error. `actor`
        (a run, a command) is what the audit trigger records as `changed_by` for every
        transaction of this connection."""
        with psycopg.connect(self.resolved_url()) as conn:
            if actor is not None:
                conn.execute("SELECT set_config('sadie.actor', %s, false)", (actor,))
            yield conn

    def analyze(self, *tables: str) -> None:
        """Fresh planner statistics after a bulk change (a stage that moves 100k rows' status
        would otherwise leave the next stage planning for the old distribution)."""
        with psycopg.connect(self.resolved_url(), autocommit=True) as conn:
            for table in tables:
                conn.execute(f"ANALYZE {table}")

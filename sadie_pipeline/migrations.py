"""Applies the ordered SQL migrations in sql/ with yoyo, which records them in a table."""

from __future__ import annotations

from yoyo import get_backend, read_migrations

from sadie_pipeline.resources.database import to_sqlalchemy_url
from sadie_pipeline.settings import SQL_DIR


def upgrade(database_url: str) -> list[str]:
    """Applies what is not yet applied; returns the ids applied now (empty when up to date)."""
    backend = get_backend(to_sqlalchemy_url(database_url), migration_table="_sadie_migrations")
    migrations = read_migrations(str(SQL_DIR))
    with backend.lock():
        pending = backend.to_apply(migrations)
        backend.apply_migrations(pending)
    return [m.id for m in pending]

"""Scratch databases for the benchmarks, on SADIE_BENCH_PG_URL's server (an admin URL; default
postgresql://postgres@127.0.0.1:5432/postgres): created under a name of their own, migrated, dropped."""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit


def admin_url() -> str:
    return os.environ.get("SADIE_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def fresh_database(prefix: str, migrate: bool = True, admin: str | None = None) -> str:
    """A new database named `prefix` and a random suffix, migrated unless told not, on `admin`'s
    server (admin_url by default): its URL (the admin URL's query kept)."""
    import psycopg

    admin = admin or admin_url()
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = urlsplit(admin)._replace(path=f"/{name}").geturl()
    if migrate:
        from sadie_pipeline.migrations import upgrade  # (imported late: a benchmark may choose the code)

        upgrade(url)
    return url


def drop_database(url: str, admin: str | None = None) -> None:
    import psycopg

    with psycopg.connect(admin or admin_url(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{urlsplit(url).path.lstrip("/")}" WITH (FORCE)')

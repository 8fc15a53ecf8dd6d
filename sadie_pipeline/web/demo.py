"""The demo's admin for the web app (`make demo` prints it; `make dev` serves the app)."""

from __future__ import annotations

import secrets

from sadie_pipeline.resources.database import Database
from sadie_pipeline.web.users import add_user

DEMO_ADMIN = "demo-admin"


def demo_admin(database: Database, port: int = 8080) -> str:
    """Creates (or resets) the demo admin with a fresh password; returns the line that tells it."""
    password = secrets.token_urlsafe(9)
    with database.connect() as conn:
        add_user(conn, DEMO_ADMIN, password, "admin")
    return (f"\nReview and operations app (make dev): http://127.0.0.1:{port}/ "
            f"- log in as {DEMO_ADMIN}, password {password}")

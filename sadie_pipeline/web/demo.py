"""The demo's people for the web app (`make demo` prints them; `make dev` serves the app): an admin,
a salesperson, and an API key for one DMO's app."""

from __future__ import annotations

import secrets

from sadie_pipeline.resources.database import Database
from sadie_pipeline.web.users import add_user, replace_api_key

DEMO_ADMIN = "demo-admin"
DEMO_SALES = "demo-sales"
DEMO_KEY = "demo-app"


def demo_admin(database: Database, port: int = 8080, key_dmo: str | None = "visit-pei") -> str:
    """Creates (or resets) the demo admin, the demo salesperson and the demo app's key (a new key on
    every run replaces the old one); returns the lines that tell them."""
    admin, sales = secrets.token_urlsafe(9), secrets.token_urlsafe(9)
    with database.connect() as conn:
        add_user(conn, DEMO_ADMIN, admin, "admin")
        add_user(conn, DEMO_SALES, sales, "sales")
        key = replace_api_key(conn, DEMO_KEY, dmo=key_dmo)
    scope = f"DMO {key_dmo}" if key_dmo else "every DMO"
    return (f"\nReview and operations app (make dev): http://127.0.0.1:{port}/ "
            f"- log in as {DEMO_ADMIN}, password {admin}"
            f"\n  sales (leads before the launch): {DEMO_SALES}, password {sales}"
            f"\n  API key of the app of {scope}: {key} "
            f"(curl -H 'X-API-Key: {key}' http://127.0.0.1:{port}/v1/listings)")

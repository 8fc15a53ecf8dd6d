"""The app's audit trail: every action a person takes in the app that no table of its own records
(pipeline.web_audit: who, what, on which target, with what detail)."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from sadie_pipeline.web.queries import rows, sql
from sadie_pipeline.web.users import User


def audit(conn: psycopg.Connection, user: User | str, action: str, target: str,
          detail: dict[str, Any] | None = None) -> None:
    """Records the action in the caller's transaction: it stands or falls with the change itself."""
    name = user if isinstance(user, str) else user.name
    conn.execute(sql("audit", "add"), {"user": name, "action": action, "target": target,
                                       "detail": Jsonb(detail or {})})


def trail(conn: psycopg.Connection, target: str, limit: int = 50) -> list[dict[str, Any]]:
    """The newest actions on a target (say 'dmo:coast-guide', 'job:12', 'hotel:7')."""
    return rows(conn, "audit", "of_target", {"target": target, "limit": limit})

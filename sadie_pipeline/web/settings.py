"""The web app's settings, read once from the environment when the app is built (typed, so a bad
value fails at start, not on the first request)."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from sadie_pipeline.settings import env, env_count, sadie_home

DEFAULT_DAGSTER_URL = "http://127.0.0.1:3000"  # what `dagster dev` (make dev) serves


@dataclass(frozen=True)
class WebSettings:
    secret_key: str
    session_minutes: int = 480
    auth_header: str | None = None          # trusted-header mode: the SSO proxy's user header
    dagster_url: str = DEFAULT_DAGSTER_URL
    upload_max_bytes: int = 50 * 1024 * 1024
    secure_cookies: bool = False            # set behind HTTPS: the cookie is then sent over HTTPS only
    login_attempts: int = 5                 # failed logins per user and address per window
    login_window_s: int = 300
    page_size: int = 50

    @classmethod
    def from_env(cls) -> WebSettings:
        return cls(
            secret_key=env("SADIE_WEB_SECRET") or _local_secret(),
            session_minutes=env_count("SADIE_WEB_SESSION_MINUTES", 480),
            auth_header=env("SADIE_WEB_AUTH_HEADER"),
            dagster_url=(env("SADIE_DAGSTER_URL") or DEFAULT_DAGSTER_URL).rstrip("/"),
            upload_max_bytes=env_count("SADIE_WEB_UPLOAD_MAX_MB", 50) * 1024 * 1024,
            secure_cookies=(env("SADIE_WEB_SECURE_COOKIES") or "").lower() in ("1", "true", "yes", "on"),
            login_attempts=env_count("SADIE_WEB_LOGIN_ATTEMPTS", 5),
        )


def _local_secret() -> str:
    """Without SADIE_WEB_SECRET, a random key kept under SADIE_HOME (readable by its owner only), so
    sessions survive a restart of `sadie web`."""
    path: Path = sadie_home() / "web-secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_urlsafe(48))
    return path.read_text().strip()

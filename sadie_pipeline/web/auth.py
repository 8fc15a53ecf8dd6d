"""Sessions, CSRF, login throttling, permissions and one-time messages. The session is a signed
cookie (itsdangerous: user id, its session version, CSRF token, issue time, a pending message),
HttpOnly and SameSite=Lax, refused once older than the session length; every request re-reads its
user, so a removed user, or one whose password or access changed since (a newer session version),
is out at once. Every state-changing request must carry the session's CSRF token (form field
csrf_token or header X-CSRF-Token)."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from itsdangerous import BadSignature, URLSafeTimedSerializer

from sadie_pipeline.web.db import connection
from sadie_pipeline.web.settings import WebSettings
from sadie_pipeline.web.users import Role, User, get_user, user_named

COOKIE = "sadie_session"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class LoginRequired(Exception):
    """No user: pages redirect to /login, the API answers 401."""


class Forbidden(Exception):
    """A user whose role or DMOs do not allow the request: 403."""


class SessionCodec:
    def __init__(self, settings: WebSettings):
        self._serializer = URLSafeTimedSerializer(settings.secret_key, salt="sadie-web-session")
        self.max_age = settings.session_minutes * 60

    def load(self, cookie: str | None) -> dict[str, Any] | None:
        if not cookie:
            return None
        try:  # an expired, tampered or foreign cookie is no session
            data = self._serializer.loads(cookie, max_age=self.max_age)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("c"), str):
            return None
        # re-signed when a message comes or goes: the issue time, not the signature's, ends it
        return data if time.time() - data.get("i", 0) < self.max_age else None

    def dump(self, session: dict[str, Any]) -> str:
        return self._serializer.dumps(session)


def new_session(user: User | None = None) -> dict[str, Any]:
    session = {"u": None, "c": secrets.token_urlsafe(24), "i": int(time.time())}
    if user is not None:
        session.update(u=user.id, v=user.session_version)
    return session


def session_of(request: Request) -> dict[str, Any]:
    return request.state.session


def csrf_token(request: Request) -> str:
    return session_of(request)["c"]


def start_session(request: Request, user: User | None) -> None:
    """A fresh session (new CSRF token) at login and logout: no token outlives its user's login."""
    request.state.session = new_session(user)
    request.state.session_changed = True


def set_flash(request: Request, message: str) -> None:
    """A message for the next page this browser renders, kept in its signed session: a link cannot
    put words in the app's mouth, and a reload does not show it again."""
    session_of(request)["f"] = message[:500]
    request.state.session_changed = True


def take_flash(request: Request) -> str | None:
    """The pending message, removed from the session (shown once)."""
    message = session_of(request).pop("f", None)
    if message is not None:
        request.state.session_changed = True
    return message if isinstance(message, str) else None


async def csrf_protect(request: Request) -> None:
    """App-wide dependency: a POST (or any unsafe method) without the session's token gets 403."""
    if request.method in SAFE_METHODS:
        return
    token = request.headers.get("x-csrf-token")
    if token is None and request.headers.get("content-type", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")):
        token = (await request.form()).get("csrf_token")
    if not isinstance(token, str) or not hmac.compare_digest(token, csrf_token(request)):
        raise Forbidden("missing or invalid CSRF token")


def current_user(request: Request) -> User | None:
    """The trusted header's user (SADIE_WEB_AUTH_HEADER, behind an SSO proxy), else the session's."""
    if not hasattr(request.state, "user"):
        request.state.user = _resolve_user(request)
    return request.state.user


def _resolve_user(request: Request) -> User | None:
    settings: WebSettings = request.app.state.settings
    header = request.headers.get(settings.auth_header) if settings.auth_header else None
    user_id = session_of(request).get("u")
    if not header and user_id is None:
        return None
    with connection(request) as conn:
        if header:
            return user_named(conn, header.strip())
        user = get_user(conn, user_id)
    # a session from before the user's password or access changed is over
    return user if user is not None and session_of(request).get("v") == user.session_version else None


def require(role: Role) -> Callable[[Request], User]:
    def dependency(request: Request) -> User:
        user = current_user(request)
        if user is None:
            raise LoginRequired()
        if not user.can(role):
            raise Forbidden(f"this needs the {role.label} role; you are {user.role.label}")
        return user
    return dependency


Viewer = Annotated[User, Depends(require(Role.VIEWER))]
Reviewer = Annotated[User, Depends(require(Role.REVIEWER))]
Admin = Annotated[User, Depends(require(Role.ADMIN))]
Sales = Annotated[User, Depends(require(Role.SALES))]  # acts on leads: sales or admin


def _lead_reader(request: Request) -> User:
    user = current_user(request)
    if user is None:
        raise LoginRequired()
    if not user.sees_leads:
        raise Forbidden("the leads pages need the sales role, or the hotels grant for a user limited to some DMOs")
    return user


LeadReader = Annotated[User, Depends(_lead_reader)]  # reads leads and hotel pages


def _signed_in(request: Request) -> User:
    user = current_user(request)
    if user is None:
        raise LoginRequired()
    return user


SignedIn = Annotated[User, Depends(_signed_in)]  # pages every role reads (spend)


def check_dmo(user: User, slug: str) -> None:
    if not user.sees_dmo(slug):
        raise Forbidden(f"you are not allowed DMO {slug!r}")


HOTEL_PAGES = "/hotels"


def hotel_grant(request: Request) -> None:
    """App-wide dependency: the hotel pages need a user of every DMO, or one granted them."""
    path = request.url.path
    if path != HOTEL_PAGES and not path.startswith(HOTEL_PAGES + "/"):
        return
    user = current_user(request)
    if user is None:
        raise LoginRequired()
    if not (user.sees_hotels or user.role is Role.SALES):
        raise Forbidden("the hotel pages need the hotels grant for a user limited to some DMOs")


class Throttle:
    """At most `limit` events per key within `window_s` seconds (in this process): failed logins
    per (address, name) and per address, API requests per key."""

    def __init__(self, limit: int, window_s: float):
        self.limit, self.window_s = limit, window_s
        self._events: dict[Any, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def wait_s(self, key: Any) -> float:
        """0 when the key may go on, else the seconds until it may."""
        with self._lock:
            events = self._expire(key, time.monotonic())
            return 0.0 if len(events) < self.limit else max(0.0, events[0] + self.window_s - time.monotonic())

    def record(self, key: Any) -> None:
        with self._lock:
            self._expire(key, time.monotonic()).append(time.monotonic())

    def take(self, key: Any) -> float:
        """Records an event when allowed; returns 0, or the seconds to wait."""
        with self._lock:
            now = time.monotonic()
            events = self._expire(key, now)
            if len(events) >= self.limit:
                return max(0.001, events[0] + self.window_s - now)
            events.append(now)
            return 0.0

    def clear(self, key: Any) -> None:
        with self._lock:
            self._events.pop(key, None)

    def _expire(self, key: Any, now: float) -> deque[float]:
        events = self._events[key]
        while events and events[0] <= now - self.window_s:
            events.popleft()
        return events

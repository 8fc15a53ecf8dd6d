"""Rendering: Jinja2 templates (autoescaped: a name such as <script> shows as text) with what every
page needs (the user, the CSRF token, the navigation the user may use, the one-time message a
redirect left in the session)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from sadie_pipeline.web.auth import HOTEL_PAGES, csrf_token, current_user, set_flash, take_flash
from sadie_pipeline.web.dagster_runs import run_page
from sadie_pipeline.web.queries import nav_pending
from sadie_pipeline.web.users import Role, User

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))

NAV = [("Leads", "/leads"), ("Review", "/review"), ("Upload", "/upload"), ("Sources", "/sources"),
       ("Jobs", "/jobs"), ("Files", "/files"), ("Listings", "/listings"), ("Images", "/images"),
       ("Duplicates", "/duplicates"), ("Bridge", "/bridge"), ("Hotel pairs", "/hotels/reviews"),
       ("Dead letters", "/deadletters"), ("Health", "/health"), ("Spend", "/spend"), ("Users", "/users")]
_NEEDS = {"/upload": Role.REVIEWER, "/users": Role.ADMIN}  # the rest: every listings user


def _may_open(user: User, href: str) -> bool:
    if href == "/leads":
        return user.sees_leads
    if href == "/spend":
        return True  # every role: spend is everyone's
    if href.startswith(HOTEL_PAGES) and not user.sees_hotels:
        return False
    return user.can(_NEEDS.get(href, Role.VIEWER))


def nav_for(user: User | None) -> list[tuple[str, str]]:
    """The menu entries the user may open: no Upload for a viewer, no Users but for an admin, no
    hotel pages for a user limited to some DMOs without the hotels grant, only leads and spend for
    sales."""
    if user is None:
        return []
    return [(label, href) for label, href in NAV if _may_open(user, href)]


def _query(params: dict[str, Any], **changes: Any) -> str:
    """The page's query string with some parameters changed (None drops one)."""
    merged = {**params, **changes}
    return "?" + urlencode({k: v for k, v in merged.items() if v not in (None, "")}, doseq=True)


def _http_url(value: object) -> str | None:
    """A link target from imported data only when it is http(s): never javascript: or data:."""
    return value if isinstance(value, str) and value.strip().lower().startswith(("http://", "https://")) else None


TEMPLATES.env.globals.update(Role=Role, query=_query)
TEMPLATES.env.filters["http_url"] = _http_url


def render(request: Request, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    user = current_user(request)
    # an htmx fragment has no banner: the message waits for the next whole page
    flash = None if request.headers.get("hx-request") else take_flash(request)
    return TEMPLATES.TemplateResponse(request, template, {
        "user": user, "nav": nav_for(user), "csrf_token": csrf_token(request), "path": request.url.path,
        "params": dict(request.query_params), "run_link": run_link(request), "flash": flash,
        "nav_pending": nav_pending(request, user) if user and user.can(Role.VIEWER) else None, **context},
        status_code=status_code)


def run_link(request: Request) -> str | None:
    """The Dagster UI page of the run a page was sent back with (?run=ID): a run or backfill id,
    never a URL."""
    return run_page(request.app.state.settings.dagster_url, request.query_params.get("run", ""))


class FlashUrl(str):
    """A URL to redirect to, carrying the message its page shows once (flash_url)."""
    message: str


def flash_url(url: str, message: str) -> FlashUrl:
    """`url` with a one-time message for the page it leads to: `redirect` keeps the message in the
    session, never in the URL (where a link could forge it and a reload would repeat it)."""
    flashed = FlashUrl(url)
    flashed.message = message
    return flashed


def redirect(url: str, request: Request | None = None) -> RedirectResponse:
    """303 after a POST: the browser GETs the page it lands on (htmx follows HX-Redirect too)."""
    if isinstance(url, FlashUrl):
        if request is None:
            raise TypeError("redirect(flash_url(...)) needs the request: the message is kept in its session")
        set_flash(request, url.message)
    response = RedirectResponse(str(url), status_code=303)
    if request is not None and request.headers.get("hx-request"):
        response.headers["HX-Redirect"] = str(url)
    return response

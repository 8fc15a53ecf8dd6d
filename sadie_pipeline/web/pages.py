"""Rendering: Jinja2 templates (autoescaped: a name such as <script> shows as text) with what every
page needs (the user, the CSRF token, the navigation)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from sadie_pipeline.web.auth import csrf_token, current_user
from sadie_pipeline.web.users import Role

_RUN_ID = re.compile(r"[0-9a-f-]{8,64}")
TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))

NAV = [("Review", "/review"), ("Upload", "/upload"), ("Sources", "/sources"), ("Jobs", "/jobs"),
       ("Listings", "/listings"), ("Duplicates", "/duplicates"), ("Bridge", "/bridge"),
       ("Hotel pairs", "/hotels/reviews"), ("Dead letters", "/deadletters"), ("Health", "/health")]


def _query(params: dict[str, Any], **changes: Any) -> str:
    """The page's query string with some parameters changed (None drops one)."""
    merged = {**params, **changes}
    return "?" + urlencode({k: v for k, v in merged.items() if v not in (None, "")}, doseq=True)


def _http_url(value: object) -> str | None:
    """A link target from imported data only when it is http(s): never javascript: or data:."""
    return value if isinstance(value, str) and value.strip().lower().startswith(("http://", "https://")) else None


TEMPLATES.env.globals.update(nav=NAV, Role=Role, query=_query)
TEMPLATES.env.filters["http_url"] = _http_url


def render(request: Request, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    user = current_user(request)
    return TEMPLATES.TemplateResponse(request, template, {
        "user": user, "csrf_token": csrf_token(request), "path": request.url.path,
        "params": dict(request.query_params), "run_link": run_link(request), **context}, status_code=status_code)


def run_link(request: Request) -> str | None:
    """The Dagster UI page of the run a page was sent back with (?run=ID): a run id, never a URL."""
    run_id = request.query_params.get("run", "")
    return f"{request.app.state.settings.dagster_url}/runs/{run_id}" if _RUN_ID.fullmatch(run_id) else None


def redirect(url: str, request: Request | None = None) -> RedirectResponse:
    """303 after a POST: the browser GETs the page it lands on (htmx follows HX-Redirect too)."""
    response = RedirectResponse(url, status_code=303)
    if request is not None and request.headers.get("hx-request"):
        response.headers["HX-Redirect"] = url
    return response


def flash_url(url: str, message: str) -> str:
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}{urlencode({'msg': message})}"

"""Login and logout (form: username, password, csrf_token), throttled per name and address, and the
admin's users page (a blank password keeps a user's password: a change of role needs none)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.core.passwords import MIN_LENGTH
from sadie_pipeline.web.audit import audit
from sadie_pipeline.web.auth import Admin, SignedIn, start_session
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.pages import flash_url, redirect, render
from sadie_pipeline.web.users import Grant, Role, UserError, add_user, authenticate, list_users, remove_user

router = APIRouter(include_in_schema=False)


def _next_url(value: str | None) -> str:
    """Only a path of this site: never another host (//evil, https://...)."""
    if value and value.startswith("/") and not value.startswith("//") and "\\" not in value:
        return value
    return "/"


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str | None = None) -> Response:
    return render(request, "login.html", next=_next_url(next), error=None)


@router.post("/login")
def login(request: Request, username: Annotated[str, Form(max_length=200)],
          password: Annotated[str, Form(max_length=1000)], next: Annotated[str | None, Form()] = None) -> Response:
    app = request.app.state
    address = request.client.host if request.client else "?"
    key = (address, username.casefold())
    wait = max(app.login_throttle.wait_s(key), app.address_throttle.wait_s(address))
    if wait:
        return render(request, "login.html", status_code=429, next=_next_url(next),
                      error=f"too many failed logins: try again in {int(wait) + 1} s")
    with connection(request) as conn:
        user = authenticate(conn, username, password)
    if user is None:
        app.login_throttle.record(key)
        app.address_throttle.record(address)
        return render(request, "login.html", status_code=401, next=_next_url(next), error="wrong name or password")
    app.login_throttle.clear(key)
    start_session(request, user)
    return redirect(_next_url(next), request)


@router.post("/logout")
def logout(request: Request) -> Response:
    start_session(request, None)
    return redirect("/login", request)


@router.get("/")
def home(user: SignedIn) -> Response:
    return redirect("/leads" if user.role is Role.SALES else "/review")


@router.get("/users", response_class=HTMLResponse)
def users_page(request: Request, user: Admin) -> Response:
    with connection(request) as conn:
        users = list_users(conn)
    return render(request, "users.html", users=users, grants=list(Grant), min_length=MIN_LENGTH)


@router.post("/users")
def users_add(request: Request, user: Admin, name: Annotated[str, Form(max_length=100)],
              role: Annotated[str, Form(max_length=20)], password: Annotated[str, Form(max_length=2000)] = "",
              dmos: Annotated[str, Form(max_length=2000)] = "",
              grants: Annotated[list[str] | None, Form()] = None) -> Response:
    name = name.strip()
    try:
        with connection(request) as conn:
            saved = add_user(conn, name, password or None, role, [d for d in dmos.replace(",", " ").split() if d],
                             grants or ())
            # in the change's transaction; whether a password was set, never the password itself
            audit(conn, user, "add user", f"user:{saved.name}",
                  {"role": saved.role.label, "dmos": list(saved.dmos),
                   "grants": sorted(g.value for g in saved.grants), "password_set": bool(password)})
    except UserError as exc:
        return redirect(flash_url("/users", str(exc)), request)
    if saved.id == user.id:  # the admin's own change ends its other sessions, not this one
        start_session(request, saved)
    kept = " (password kept)" if not password else ""
    return redirect(flash_url("/users", f"user {name} saved{kept}"), request)


@router.post("/users/{name}/remove")
def users_remove(request: Request, user: Admin, name: str,
                 confirm: Annotated[str, Form(max_length=200)] = "") -> Response:
    if name == user.name:
        return redirect(flash_url("/users", "you cannot remove yourself"), request)
    if confirm.strip() != name:  # a removal cannot be undone: the admin types the name, without JavaScript too
        return redirect(flash_url("/users", f"user {name} not removed: type the name {name} to confirm"), request)
    try:
        with connection(request) as conn:
            remove_user(conn, name)
            audit(conn, user, "remove user", f"user:{name}")
    except UserError as exc:
        return redirect(flash_url("/users", str(exc)), request)
    return redirect(flash_url("/users", f"user {name} removed"), request)

"""`sadie web`, `sadie user add|list|remove` and `sadie apikey add|list|revoke`: the review and
operations web app and who may use it (registered on cli.py's main group)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click


@contextmanager
def _conn() -> Iterator[Any]:
    """A connection on the migrated database; a person's mistake ends the command with one line."""
    from sadie_pipeline.cli import _database
    from sadie_pipeline.migrations import upgrade
    from sadie_pipeline.web.users import UserError

    database = _database()
    upgrade(database.resolved_url())
    try:
        with database.connect() as conn:
            yield conn
    except UserError as exc:
        raise click.ClickException(str(exc)) from exc


@click.command("web")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8080, type=int, show_default=True, help="port to listen on")
@click.option("--workers", default=1, type=click.IntRange(1, 32), show_default=True,
              help="worker processes (login and API rate limits are counted per process)")
def web(host: str, port: int, workers: int) -> None:
    """Serve the review and operations web app (and the /v1 API) until Ctrl-C."""
    import uvicorn

    from sadie_pipeline.cli import _database
    from sadie_pipeline.migrations import upgrade
    from sadie_pipeline.web.settings import WebSettings

    upgrade(_database().resolved_url())
    WebSettings.from_env()  # a bad setting (or no secret where one must be made) stops here, not in a worker
    click.echo(f"sadie web: http://{host}:{port}/ (the API's documentation at /docs)")
    uvicorn.run("sadie_pipeline.web.app:create_app", factory=True, host=host, port=port, workers=workers,
                log_level="warning", proxy_headers=False)


@click.group("user")
def user() -> None:
    """People who may use the web app: viewer (reads), reviewer (decides, uploads), admin (configs, users)."""


@user.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(["viewer", "reviewer", "admin", "sales"]), required=True,
              help="viewer reads; reviewer also decides and uploads; admin also edits configs and users; "
                   "sales sees and decides leads, nothing of the listings side.")
@click.option("--dmo", "dmos", multiple=True, help="Limit the user to this DMO (repeat for several); none: all.")
def user_add(name: str, role: str, dmos: tuple[str, ...]) -> None:
    """Create NAME (or replace its password, role and DMOs); the password is read from stdin."""
    from sadie_pipeline.web.users import add_user

    password = _read_password(name)
    with _conn() as conn:
        added = add_user(conn, name, password, role, dmos)
    click.echo(f"user {added.name}: {added.role.label}" + (f" of {', '.join(added.dmos)}" if added.dmos else ""))


def _read_password(name: str) -> str:
    if sys.stdin.isatty():
        return click.prompt(f"password for {name}", hide_input=True, confirmation_prompt=True)
    line = sys.stdin.readline()
    password = line[:-1] if line.endswith("\n") else line
    if not password:
        raise click.ClickException("no password on stdin (echo PASSWORD | sadie user add ...)")
    return password


@user.command("list")
def user_list() -> None:
    """The users with their roles and the DMOs they are limited to."""
    from sadie_pipeline.web.users import list_users

    with _conn() as conn:
        for u in list_users(conn):
            click.echo(f"{u['name']:<24} {u['role']:<9} {', '.join(u['dmos']) or 'all DMOs'}")


@user.command("remove")
@click.argument("name")
def user_remove(name: str) -> None:
    """Remove NAME; their open sessions end with it."""
    from sadie_pipeline.web.users import remove_user

    with _conn() as conn:
        remove_user(conn, name)
    click.echo(f"user {name} removed")


@click.group("apikey")
def apikey() -> None:
    """Keys of the read-only listings API (/v1/listings, header X-API-Key)."""


@apikey.command("add")
@click.argument("name")
@click.option("--per-minute", default=600, type=click.IntRange(1), show_default=True, help="requests per minute")
@click.option("--dmo", default=None, help="The DMO (slug) whose listings the key reads; none: every DMO's.")
def apikey_add(name: str, per_minute: int, dmo: str | None) -> None:
    """Create a key for NAME and print it (once: only its digest is stored)."""
    from sadie_pipeline.web.users import add_api_key

    with _conn() as conn:
        key = add_api_key(conn, name, per_minute, dmo=dmo)
    click.echo(key)


@apikey.command("list")
def apikey_list() -> None:
    """The API keys with their rate limits, live or revoked."""
    from sadie_pipeline.web.users import list_api_keys

    with _conn() as conn:
        for k in list_api_keys(conn):
            state = f"revoked {k['revoked_at']:%Y-%m-%d}" if k["revoked_at"] else "live"
            click.echo(f"{k['name']:<24} {k['requests_per_minute']:>6}/min  {state:<16} {k['dmo'] or 'all DMOs'}")


@apikey.command("revoke")
@click.argument("name")
def apikey_revoke(name: str) -> None:
    """Revoke NAME's key: its requests get 401 from now on."""
    from sadie_pipeline.web.users import revoke_api_key

    with _conn() as conn:
        revoke_api_key(conn, name)
    click.echo(f"API key {name} revoked")


COMMANDS = (web, user, apikey)

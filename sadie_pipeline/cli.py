"""`sadie`: what a person does that Dagster does not (database, DMOs, imports, review, demo)."""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from sadie_pipeline.cli_hotels import hotel_engines, hotel_review
from sadie_pipeline.cli_hybrid import scrape_prospects_cmd, sync
from sadie_pipeline.cli_operations import deadletters
from sadie_pipeline.cli_runs import import_progress, listings, market_run
from sadie_pipeline.cli_web import apikey, user, web
from sadie_pipeline.instance import ensure_dagster_home

if TYPE_CHECKING:
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore


# Dagster is imported when a command runs, not with this module: a spawned worker of a stage the
# command runs imports the command's script again.
def _database() -> Database:
    from sadie_pipeline.resource_defs import configured, resolved

    return resolved(configured("database"))  # its settings from the environment, as the definitions'


def _store() -> ObjectStore:
    from sadie_pipeline.resource_defs import configured, resolved

    return resolved(configured("object_store"))


class _Lines(click.ClickException):
    """Problems already phrased one to a line (FILE:LINE:COLUMN: ...): shown as they are."""

    def show(self, file: Any = None) -> None:
        click.echo(self.message, file=file, err=file is None)


class _Sadie(click.Group):
    """Mistakes a person can fix (a DMO that does not exist, a bad slug or config, a database out of
    reach) end the command with one line each and status 1; anything else is a bug: traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        import psycopg

        from sadie_pipeline.core.config import ConfigError
        from sadie_pipeline.listings.repository import BadSlugError, UnknownDmoError

        try:
            return super().invoke(ctx)
        except (UnknownDmoError, BadSlugError) as exc:
            raise click.ClickException(str(exc)) from exc
        except ConfigError as exc:
            raise _Lines(str(exc)) from exc
        except psycopg.OperationalError as exc:
            if not _while_connecting(exc):
                raise
            raise click.ClickException(_unreachable(exc)) from exc


def _while_connecting(exc: BaseException) -> bool:
    """Raised by psycopg's connect (directly or under yoyo), not by a query on a live connection."""
    import traceback

    return any(frame.f_code.co_name == "connect" and Path(frame.f_code.co_filename).parts[-2:] == (
        "psycopg", "connection.py") for frame, _ in traceback.walk_tb(exc.__traceback__))


def _unreachable(exc: BaseException) -> str:
    from psycopg.conninfo import conninfo_to_dict

    from sadie_pipeline.core.errors import first_line

    info = conninfo_to_dict(_database().resolved_url())
    where = f"{info.get('host') or 'localhost'}:{info.get('port') or 5432}"
    first = first_line(exc)
    if "Connection refused" in first:
        return f"cannot reach the database at {where} (connection refused)"
    reason = re.sub(r'^(connection failed: )?connection to server (at|on) .*? failed: ', "", first)
    return f"cannot reach the database at {where} ({' '.join(reason.split())})"


def _load_env_file() -> None:
    """The `.env` of the working directory, as `dagster dev` and the webserver load it (its values
    win over the environment's): the CLI then sees the same settings as the UI."""
    from dotenv import dotenv_values

    env_file = Path.cwd() / ".env"
    if env_file.is_file():
        os.environ.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})


def _known_dmo(command: Any) -> Any:
    """Checks that the command's SLUG names a DMO before it runs (a job run would first register
    a partition for any slug)."""
    @functools.wraps(command)
    def checked(**params: Any) -> Any:
        from sadie_pipeline.listings.repository import get_dmo
        from sadie_pipeline.migrations import upgrade

        database = _database()
        upgrade(database.resolved_url())
        with database.connect() as conn:
            get_dmo(conn, params["slug"])
        return command(**params)

    return checked


@click.group(cls=_Sadie, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sadie_pipeline", prog_name="sadie")
def main() -> None:
    """sadie_pipeline: tourism listings and hotel leads on Dagster."""
    from sadie_pipeline.dagster_warnings import silence_known_dagster_warnings

    _load_env_file()
    silence_known_dagster_warnings()  # they would cut through a progress bar
    ensure_dagster_home()


# --- database -------------------------------------------------------------------------------

@main.group()
def db() -> None:
    """The PostgreSQL database."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply the migrations in sql/ that are not applied yet, and create the Dagster instance's storage."""
    from sadie_pipeline.instance import create_instance_storage
    from sadie_pipeline.migrations import upgrade

    applied = upgrade(_database().resolved_url())
    click.echo(f"applied {', '.join(applied)}" if applied else "database is up to date")
    create_instance_storage()  # before `make dev` starts the webserver and the daemon at once


@db.command("url")
def db_url() -> None:
    """Print the database URL in use (the embedded server's when none is configured)."""
    click.echo(_database().resolved_url())


# --- DMOs -----------------------------------------------------------------------------------

@main.group()
def dmo() -> None:
    """DMOs (data sources) and their import configs."""


@dmo.command("add")
@click.argument("slug")
@click.option("--name", required=True, help="Display name of the DMO.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Import config JSON.")
def dmo_add(slug: str, name: str, config_file: str | None) -> None:
    """Create (or update) a DMO and its import config, and register its `dmo` partition."""
    from sadie_pipeline.core.config import load_config_file
    from sadie_pipeline.listings.repository import check_slug

    check_slug(slug)  # before the database: a slug names folders and keys too
    config = load_config_file(config_file) if config_file else {}
    added = add_dmo(slug, name, config)
    click.echo(f"DMO {added.slug} (id {added.id}) ready; partition '{slug}' registered")


@dmo.command("validate")
@click.argument("file", type=click.Path(dir_okay=False))
def dmo_validate(file: str) -> None:
    """Check an import config file: FILE: ok, or each problem as FILE:LINE:COLUMN: key: what is wrong."""
    from sadie_pipeline.core.config import load_config_file

    load_config_file(file)
    click.echo(f"{file}: ok")


def add_dmo(slug: str, name: str, config: dict[str, Any]):
    from dagster import DagsterInstance

    from sadie_pipeline.listings.repository import upsert_dmo
    from sadie_pipeline.migrations import upgrade
    from sadie_pipeline.partitions import DMO_PARTITIONS_NAME

    database = _database()
    upgrade(database.resolved_url())
    with database.connect() as conn:
        added = upsert_dmo(conn, slug, name, config)
    instance = DagsterInstance.get()
    if not instance.has_dynamic_partition(DMO_PARTITIONS_NAME, slug):
        instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, [slug])
    return added


@dmo.command("list")
def dmo_list() -> None:
    """The DMOs with their source type, config version, live listings and next scheduled run."""
    import datetime as dt

    from sadie_pipeline.core.schedules import next_run
    from sadie_pipeline.listings.repository import list_dmos

    with _database().connect() as conn:
        rows = list_dmos(conn)
    if not rows:
        click.echo("no DMOs yet: sadie dmo add SLUG --name NAME --config FILE.json")
    now = dt.datetime.now(dt.UTC)
    for r in rows:
        schedule = r["schedule"] or "manual"
        upcoming = next_run(schedule, now) if schedule != "manual" else None
        when = f"next run {upcoming:%Y-%m-%d %H:%M} UTC ({schedule})" if upcoming else "manual"
        click.echo(f"{r['slug']:<28} {r['name']:<32} {r['source_type'] or 'csv':<12} config v{r['config_version']}  "
                   f"{r['live_listings']} live listings  {when}")


# --- hotel markets --------------------------------------------------------------------------

@main.group()
def market() -> None:
    """Regions and the cities to discover hotels in."""


@market.command("add")
@click.argument("region")
@click.argument("cities", nargs=-1, required=True)
def market_add(region: str, cities: tuple[str, ...]) -> None:
    """Add cities to discover in REGION (ISO 3166-2, e.g. US-FL)."""
    from sadie_pipeline.hotels.markets import add_market
    from sadie_pipeline.migrations import upgrade
    from sadie_pipeline.regions import UnknownRegionError

    database = _database()
    upgrade(database.resolved_url())
    try:
        with database.connect() as conn:
            active = add_market(conn, region, cities)
    except UnknownRegionError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"{region.upper()}: {', '.join(active)}")


@market.command("list")
def market_list() -> None:
    """The active markets: each region and its cities."""
    from sadie_pipeline.hotels.markets import list_markets

    with _database().connect() as conn:
        markets = list_markets(conn)
    if not markets:
        click.echo('no markets yet: sadie market add US-FL Miami Orlando "Key West"')
    for region, cities in markets.items():
        click.echo(f"{region}: {', '.join(cities)}")


market.add_command(market_run)


# --- hotels ---------------------------------------------------------------------------------

@main.group()
def hotel() -> None:
    """Hotel leads: look into one hotel; decide the entity pairs waiting for review."""


hotel.add_command(hotel_review)
hotel.add_command(hotel_engines)
main.add_command(deadletters)
main.add_command(listings)
main.add_command(web)
main.add_command(user)
main.add_command(apikey)
main.add_command(scrape_prospects_cmd)  # the hybrid scenario (issue 35): cli_hybrid.py
main.add_command(sync)


@hotel.command("explain")
@click.argument("hotel_id", type=int)
@click.option("--field", "fields", multiple=True, help="Only these golden fields (repeatable), e.g. --field email.")
def hotel_explain(hotel_id: int, fields: tuple[str, ...]) -> None:
    """Why HOTEL_ID's golden record holds each value: every source's value, confidence and URL."""
    from sadie_pipeline.hotels.explain import explain_hotel

    with _database().connect() as conn:
        try:
            lines = explain_hotel(conn, hotel_id, fields)
        except LookupError as exc:
            raise click.ClickException(str(exc)) from exc
    click.echo("\n".join(lines))


# --- import ---------------------------------------------------------------------------------

@main.command("import")
@click.argument("slug")
@click.argument("file", type=click.Path(exists=True, dir_okay=False), required=False)
@_known_dmo
@click.option("--no-promote", is_flag=True, help="Stop after staging; promote later with review decisions.")
def import_cmd(slug: str, file: str | None, no_promote: bool) -> None:
    """Put FILE in the DMO's inbox and run import, stage and promote for that partition; without
    FILE, pull the DMO's configured source (import.source_type and url) now."""
    import uuid

    from sadie_pipeline.listings.runs import import_file, pull_now, summary_line

    database, run_id = _database(), str(uuid.uuid4())
    if file is None:
        _check_pulled(database, slug)
    with import_progress(database, slug, run_id, promote=not no_promote):
        outcome = (import_file(database, _store(), slug, Path(file), promote=not no_promote, run_id=run_id)
                   if file else pull_now(database, slug, promote=not no_promote, run_id=run_id))
    if outcome["summary"].get("records_read"):  # nothing to summarise when the file could not be read
        click.echo(summary_line(slug, outcome))
    if outcome["failure"]:
        click.echo(f"error: {outcome['failure']}", err=True)
        sys.exit(1)


def _check_pulled(database: Database, slug: str) -> None:
    from sadie_pipeline.listings.repository import get_dmo
    from sadie_pipeline.listings.sources.pull import current_config, is_pulled

    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
    config = current_config(database, dmo)
    if not is_pulled(config):
        raise click.ClickException(f"{slug}'s source ({config['import']['source_type']}) has no url to pull from: "
                                   f"give a FILE (sadie import {slug} FILE)")


# --- review ---------------------------------------------------------------------------------

@main.group()
def review() -> None:
    """Staged changes waiting for a person: deletions, duplicates, unsure matches, hand-edited listings."""


@review.command("list")
@click.argument("slug", required=False)
def review_list(slug: str | None) -> None:
    """Staged rows waiting for a person (of one DMO with SLUG), with the reason and the match."""
    from sadie_pipeline.listings.review import list_pending

    with _database().connect() as conn:
        rows = list_pending(conn, slug)
    from sadie_pipeline.core.places import describe

    for r in rows:
        click.echo(f"{r['id']:>8}  {r['dmo']:<20} {r['action']:<10} {(r['name'] or '')[:36]:<36} "
                   f"{(r['city'] or '')[:16]:<16} {r['review_reason']}")
        if r.get("match_explanation"):
            click.echo(f"{'':>10}why: {describe(r['match_explanation'])}")
    click.echo(f"{len(rows)} waiting for review")


@review.command("approve")
@click.argument("ids", nargs=-1, type=int)
@click.option("--all", "all_slug", metavar="SLUG", help="Approve everything pending for this DMO.")
def review_approve(ids: tuple[int, ...], all_slug: str | None) -> None:
    """Approve staged rows; run promotion (sadie promote SLUG, or the UI) to apply them."""
    from sadie_pipeline.listings.review import approve, approve_all, why_undecided

    if not ids and not all_slug:
        raise click.UsageError("give staged row ids or --all SLUG")
    with _database().connect() as conn:
        done = approve_all(conn, all_slug) if all_slug else approve(conn, ids)
        refused = why_undecided(conn, [i for i in ids if i not in done])
    _decided("approved", done, refused)


@review.command("reject")
@click.argument("ids", nargs=-1, type=int, required=True)
def review_reject(ids: tuple[int, ...]) -> None:
    """Reject staged rows IDS: a rejected fuzzy match or near duplicate becomes a listing of its
    own; any other rejected change is dropped. The next promotion applies it."""
    from sadie_pipeline.listings.review import reject, why_undecided

    with _database().connect() as conn:
        done = reject(conn, ids)
        refused = why_undecided(conn, [i for i in ids if i not in done])
    _decided("rejected", done, refused)


def _decided(verb: str, done: list[int], refused: dict[int, str]) -> None:
    """The count decided, then one line per id left alone (status 1: not everything asked was done)."""
    if done or not refused:
        click.echo(f"{verb} {len(done)}")
    for row_id, reason in refused.items():
        click.echo(f"{row_id}: {reason}", err=True)
    if refused:
        sys.exit(1)


@main.command("promote")
@click.argument("slug")
@_known_dmo
@click.option("--accept-errors", is_flag=True,
              help="Promote staged jobs whose stage failed its error-rate check too (recorded on the job).")
def promote_cmd(slug: str, accept_errors: bool) -> None:
    """Run listing_promotion for a DMO (applies approved review decisions)."""
    import getpass

    from sadie_pipeline.listings.runs import blocked_jobs, run_job

    config = {"accept_errors": True, "accepted_by": f"{getpass.getuser()} (sadie promote)"} if accept_errors else {}
    failure = run_job("listing_promote_job", slug, {"ops": {"listing_promotion": {"config": config}}})
    if failure:
        raise click.ClickException(failure)
    from sadie_pipeline.listings.promote import live_listing_count
    from sadie_pipeline.listings.repository import get_dmo

    database = _database()
    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
        blocked = blocked_jobs(database, dmo)
        if blocked:  # one line, as every error a person can act on (not "promoted" first)
            raise click.ClickException(blocked)
        click.echo(f"{slug}: promoted; {live_listing_count(conn, dmo)} listings now live")


@main.group()
def sandbox() -> None:
    """The local stand-in for every external service (tests, the demo, benchmarks)."""


@sandbox.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8765, type=click.IntRange(0, 65535), show_default=True, envvar="SADIE_SANDBOX_PORT",
              help="port of the HTTP services (SADIE_SANDBOX_PORT; the demo DMOs' sources are there)")
@click.option("--dns-port", default=8753, type=click.IntRange(0, 65535), show_default=True,
              help="port of the DNS service (UDP; 0 = any free port)")
def sandbox_serve(host: str, port: int, dns_port: int) -> None:
    """Serve the sandbox until Ctrl-C; prints the base URLs to point the clients at."""
    from sadie_pipeline.sandbox.__main__ import serve

    try:
        serve(host, port, dns_port=dns_port)
    except OSError as exc:  # a port in use: say which, not a traceback
        raise click.ClickException(f"the sandbox cannot listen on {host}:{port} or DNS port {dns_port}: "
                                   f"{exc.strerror or exc}") from exc


@main.command("demo")
@click.option("--reset/--no-reset", default=True, help="Start from empty tables (embedded database only).")
def demo_cmd(reset: bool) -> None:
    """Run the listings pipeline on the bundled sample DMOs and print what it did."""
    from sadie_pipeline.demo import run_demo

    run_demo(reset=reset, echo=click.echo)


if __name__ == "__main__":
    main()

"""`sadie`: what a person does that Dagster does not (database, DMOs, imports, review, demo)."""

from __future__ import annotations

import datetime as dt
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import click

from sadie_pipeline.instance import ensure_dagster_home
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore


def _database() -> Database:
    return Database()


def _store() -> ObjectStore:
    return ObjectStore()


@click.group()
def main() -> None:
    """sadie_pipeline: tourism listings and hotel leads on Dagster."""
    from dagster import BetaWarning

    # BackfillPolicy is "beta" in Dagster 1.13: said once per asset, it would bury the output
    warnings.filterwarnings("ignore", category=BetaWarning)
    ensure_dagster_home()


# --- database -------------------------------------------------------------------------------

@main.group()
def db() -> None:
    """The PostgreSQL database."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply the migrations in sql/ that are not applied yet."""
    from sadie_pipeline.migrations import upgrade

    applied = upgrade(_database().resolved_url())
    click.echo(f"applied {', '.join(applied)}" if applied else "database is up to date")


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
@click.option("--config", "config_file", type=click.Path(exists=True, dir_okay=False), help="Import config JSON.")
def dmo_add(slug: str, name: str, config_file: str | None) -> None:
    """Create (or update) a DMO and its import config, and register its `dmo` partition."""
    from sadie_pipeline.core.config import ConfigError

    config = json.loads(Path(config_file).read_text()) if config_file else {}
    try:
        added = add_dmo(slug, name, config)
    except ConfigError as exc:
        raise click.ClickException(f"bad config: {exc}") from exc
    click.echo(f"DMO {added.slug} (id {added.id}) ready; partition '{slug}' registered")


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
    """The DMOs with their config version and live listings."""
    from sadie_pipeline.listings.repository import list_dmos

    with _database().connect() as conn:
        rows = list_dmos(conn)
    if not rows:
        click.echo("no DMOs yet: sadie dmo add SLUG --name NAME --config FILE.json")
    for r in rows:
        click.echo(f"{r['slug']:<28} {r['name']:<32} config v{r['config_version']}  {r['live_listings']} live listings")


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
    from sadie_pipeline.hotels.markets import list_markets

    with _database().connect() as conn:
        markets = list_markets(conn)
    if not markets:
        click.echo('no markets yet: sadie market add US-FL Miami Orlando "Key West"')
    for region, cities in markets.items():
        click.echo(f"{region}: {', '.join(cities)}")


@market.command("run")
@click.argument("regions", nargs=-1, required=True)
@click.option("--city", "cities", multiple=True, help="Only these cities (repeatable).")
def market_run(regions: tuple[str, ...], cities: tuple[str, ...]) -> None:
    """Run hotel_leads_job (discovery to export) for REGIONS and print per city."""
    from dagster import DagsterInstance

    from sadie_pipeline.definitions import defs
    from sadie_pipeline.hotels.summary import city_summary
    from sadie_pipeline.partitions import range_tags, region_ranges
    from sadie_pipeline.regions import UnknownRegionError, check_region

    try:
        keys = [check_region(r) for r in regions]
    except UnknownRegionError as exc:
        raise click.ClickException(str(exc)) from exc
    config: dict[str, Any] = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
    if cities:
        layer_assets = ("hotel_discovery", "hotel_websites", "booking_engine_detection", "room_counts",
                        "attraction_proximity", "hotel_research", "rdap_owner", "dns_email_provider",
                        "website_contacts", "email_verification", "golden_hotels", "lead_scores",
                        "launched_leads", "lead_exports")
        config["ops"] = {name: {"config": {"cities": list(cities)}} for name in layer_assets}
    job = defs.resolve_job_def("hotel_leads_job")
    # one run per stretch of consecutive regions (US-FL US-GA is one run), as a UI backfill does
    failed = []
    for first, last in region_ranges(keys):
        result = job.execute_in_process(run_config=config, instance=DagsterInstance.get(),
                                        tags=range_tags(first, last), raise_on_error=False)
        if not result.success:
            failed.append(first if first == last else f"{first}..{last}")
    with _database().connect() as conn:
        for key in keys:
            for r in city_summary(conn, key):
                click.echo(f"{key} {r['city']}: {r['hotels']} hotels, {r['merged_duplicates']} merged, "
                           f"tier 1: {r['tier1']}, tier 2: {r['tier2']}, {r['dead_ends']} dead ends, "
                           f"{r['enriched']} enriched, {r['scored']} scored, {r['launched']} launched, "
                           f"{r['exported']} exported, {r['dead_letters']} dead letters")
    if failed:
        raise click.ClickException(f"run failed for {', '.join(failed)}; see it in the Dagster UI")


# --- hotels ---------------------------------------------------------------------------------

@main.group()
def hotel() -> None:
    """Hotel leads: look into one hotel."""


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
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--no-promote", is_flag=True, help="Stop after staging; promote later with review decisions.")
def import_cmd(slug: str, file: str, no_promote: bool) -> None:
    """Put FILE in the DMO's inbox and run import, stage and promote for that partition."""
    outcome = import_file(slug, Path(file), promote=not no_promote)
    if outcome["summary"].get("records_read"):  # nothing to summarise when the file could not be read
        _print_summary(slug, outcome)
    if outcome["failure"]:
        click.echo(f"error: {outcome['failure']}", err=True)
        sys.exit(1)


def import_file(slug: str, path: Path, promote: bool = True) -> dict[str, Any]:
    """Runs the import job in-process on the persistent Dagster instance (the run shows in the UI)."""
    from sadie_pipeline.listings.importer import inbox_prefix
    from sadie_pipeline.listings.promote import job_summary, live_listing_count
    from sadie_pipeline.listings.repository import get_dmo
    from sadie_pipeline.migrations import upgrade

    database, store = _database(), _store()
    upgrade(database.resolved_url())
    with database.connect() as conn:
        dmo_row = get_dmo(conn, slug)
    key = f"{inbox_prefix(slug)}{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%S%f}-{path.name}"
    store.put_file(key, path)
    failure = run_job("listing_import_job" if promote else "listing_stage_job", slug,
                      {"ops": {"listing_raw_files": {"config": {"inbox_key": key}}}})
    with database.connect() as conn:
        row = conn.execute("SELECT id FROM pipeline.jobs WHERE dmo_id = %s AND source_key = %s",
                           (dmo_row.id, key)).fetchone()
        summary = job_summary(conn, row[0]) if row else {}
        live = live_listing_count(conn, dmo_row)
    return {"job_id": row[0] if row else None, "summary": summary, "live": live, "failure": failure}


def run_job(job_name: str, slug: str, run_config: dict[str, Any] | None = None) -> str | None:
    """Executes a job for one DMO partition; returns the failure reason, or None when it succeeded."""
    from dagster import DagsterEventType, DagsterInstance

    from sadie_pipeline.definitions import defs
    from sadie_pipeline.partitions import DMO_PARTITIONS_NAME

    instance = DagsterInstance.get()
    if not instance.has_dynamic_partition(DMO_PARTITIONS_NAME, slug):
        instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, [slug])
    quiet = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
    result = defs.resolve_job_def(job_name).execute_in_process(
        run_config={**quiet, **(run_config or {})}, instance=instance, partition_key=slug, raise_on_error=False)
    if result.success:
        return None
    for event in result.all_events:
        if event.event_type == DagsterEventType.ASSET_CHECK_EVALUATION:
            evaluation = event.event_specific_data
            if not evaluation.passed:
                meta = {k: v.value for k, v in evaluation.metadata.items()}
                return (f"stage check {evaluation.check_name} failed: error rate {meta.get('error_rate')} over "
                        f"{meta.get('max_error_rate')}; promotion was not run")
        if event.event_type == DagsterEventType.STEP_FAILURE:
            data = event.step_failure_data
            if data.user_failure_data and data.user_failure_data.description:
                return data.user_failure_data.description
            return data.error.message.strip().splitlines()[-1] if data.error else "step failed"
    return "run failed"


def _print_summary(slug: str, outcome: dict[str, Any]) -> None:
    s = outcome["summary"]
    if not s:
        return
    click.echo(
        f"{slug}: job {outcome['job_id']}: {s['records_read'] or 0} read; {s['inserted']} inserted, "
        f"{s['updated']} updated, {s['unchanged']} unchanged, {s['duplicate']} duplicate, {s['deleted']} deleted, "
        f"{s['needing_review']} needing review, {s['errors']} errors; {outcome['live']} listings now live"
    )


# --- review ---------------------------------------------------------------------------------

@main.group()
def review() -> None:
    """Staged changes waiting for a person: deletions, duplicates, unsure matches, hand-edited listings."""


@review.command("list")
@click.argument("slug", required=False)
def review_list(slug: str | None) -> None:
    from sadie_pipeline.listings.review import list_pending

    with _database().connect() as conn:
        rows = list_pending(conn, slug)
    for r in rows:
        click.echo(f"{r['id']:>8}  {r['dmo']:<20} {r['action']:<10} {(r['name'] or '')[:36]:<36} "
                   f"{(r['city'] or '')[:16]:<16} {r['review_reason']}")
    click.echo(f"{len(rows)} waiting for review")


@review.command("approve")
@click.argument("ids", nargs=-1, type=int)
@click.option("--all", "all_slug", metavar="SLUG", help="Approve everything pending for this DMO.")
def review_approve(ids: tuple[int, ...], all_slug: str | None) -> None:
    """Approve staged rows; run promotion (sadie promote SLUG, or the UI) to apply them."""
    from sadie_pipeline.listings.review import approve, approve_all

    if not ids and not all_slug:
        raise click.UsageError("give staged row ids or --all SLUG")
    with _database().connect() as conn:
        done = approve_all(conn, all_slug) if all_slug else approve(conn, ids)
    click.echo(f"approved {len(done)}")


@review.command("reject")
@click.argument("ids", nargs=-1, type=int, required=True)
def review_reject(ids: tuple[int, ...]) -> None:
    from sadie_pipeline.listings.review import reject

    with _database().connect() as conn:
        done = reject(conn, ids)
    click.echo(f"rejected {len(done)}")


@main.command("promote")
@click.argument("slug")
def promote_cmd(slug: str) -> None:
    """Run listing_promotion for a DMO (applies approved review decisions)."""
    failure = run_job("listing_promote_job", slug)
    if failure:
        raise click.ClickException(failure)
    from sadie_pipeline.listings.promote import live_listing_count
    from sadie_pipeline.listings.repository import get_dmo

    with _database().connect() as conn:
        click.echo(f"{slug}: promoted; {live_listing_count(conn, get_dmo(conn, slug))} listings now live")


@main.group()
def sandbox() -> None:
    """The local stand-in for every external service (tests, the demo, benchmarks)."""


@sandbox.command("serve")
@click.option("--host", default="127.0.0.1")
@click.option("--port", default=8765, type=int)
@click.option("--dns-port", default=8753, type=int)
def sandbox_serve(host: str, port: int, dns_port: int) -> None:
    """Serve the sandbox until Ctrl-C; prints the base URLs to point the clients at."""
    from sadie_pipeline.sandbox.__main__ import serve

    serve(host, port, dns_port=dns_port)


@main.command("demo")
@click.option("--reset/--no-reset", default=True, help="Start from empty tables (embedded database only).")
def demo_cmd(reset: bool) -> None:
    """Run the listings pipeline on the bundled sample DMOs and print what it did."""
    from sadie_pipeline.demo import run_demo

    run_demo(reset=reset, echo=click.echo)

"""`sadie market run` and `sadie listings run`: work on many partitions at once. With a Dagster
daemon running on the instance (its heartbeats, backfills.py) each becomes a backfill, listed on
the UI's Backfills page and run by the daemon through the run queue, and the command follows it;
without one (or with --in-process) it runs here. Either way a progress bar shows on a terminal."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from dagster import DagsterInstance

    from sadie_pipeline.backfills import BackfillOutcome
    from sadie_pipeline.progress import RunProgress
    from sadie_pipeline.resources.database import Database

# The hotel assets that take `cities` in their run config (--city)
CITY_ASSETS = ("hotel_discovery", "licence_discovery", "crawl_discovery", "hotel_websites", "booking_engine_detection", "room_counts",
               "attraction_proximity", "hotel_research", "rdap_owner", "dns_email_provider",
               "website_contacts", "email_verification", "golden_hotels", "lead_scores",
               "launched_leads", "lead_exports")
LISTING_RUN_ASSETS = ("listing_stage", "listing_promotion")
MAX_TITLE = 100  # Dagster's limit on a backfill's title

_in_process = click.option("--in-process", is_flag=True,
                           help="Run in this process even when a Dagster daemon is running (no backfill).")
_no_wait = click.option("--no-wait", is_flag=True,
                        help="With a daemon: submit the backfill, print its id and return without following it.")


def _database() -> Database:
    from sadie_pipeline.cli import _database  # the command group's: one way to the database

    return _database()


def _instance_and_daemon(in_process: bool) -> tuple[DagsterInstance, bool]:
    from dagster import DagsterInstance

    from sadie_pipeline.backfills import daemon_running

    instance = DagsterInstance.get()
    return instance, not in_process and daemon_running(instance)


def _title(command: str, keys: list[str]) -> str:
    title = f"sadie {command} {' '.join(keys)}"
    return title if len(title) <= MAX_TITLE else title[:MAX_TITLE - 3] + "..."


def _follow_backfill(instance: DagsterInstance, backfill_id: str, total: int, label: str,
                     figures: Callable[[], str] | None, no_wait: bool) -> BackfillOutcome | None:
    """Prints where the backfill is, then (unless no_wait) waits for it under a progress bar."""
    from sadie_pipeline.backfills import DaemonStoppedError, backfill_run_ids, backfill_url, wait_for_backfill
    from sadie_pipeline.progress import RunProgress

    click.echo(f"backfill {backfill_id} submitted to the Dagster daemon: {backfill_url(backfill_id)}")
    if no_wait:
        return None
    try:
        with RunProgress(instance, total, label, figures=figures, runs=lambda: backfill_run_ids(instance, backfill_id)):
            return wait_for_backfill(instance, backfill_id)
    except DaemonStoppedError as exc:
        raise click.ClickException(str(exc)) from exc


# --- market run -------------------------------------------------------------------------------

@click.command("run")
@click.argument("regions", nargs=-1, required=True)
@click.option("--city", "cities", multiple=True, help="Only these cities (repeatable).")
@_in_process
@_no_wait
def market_run(regions: tuple[str, ...], cities: tuple[str, ...], in_process: bool, no_wait: bool) -> None:
    """Run hotel_leads_job (discovery to export) for REGIONS and print per city. Consecutive regions
    are one run. With a Dagster daemon running: a backfill that the daemon runs."""
    from sadie_pipeline.regions import UnknownRegionError, check_region

    try:
        keys = [check_region(r) for r in regions]
    except UnknownRegionError as exc:
        raise click.ClickException(str(exc)) from exc
    ops = {"ops": {name: {"config": {"cities": list(cities)}} for name in CITY_ASSETS}} if cities else {}
    instance, use_daemon = _instance_and_daemon(in_process)
    database = _database()
    total = len(_hotel_assets()) * len(keys)
    label = f"{' '.join(keys) if len(keys) < 4 else f'{len(keys)} regions'}"

    def figures() -> str:
        from sadie_pipeline.hotels.summary import hotels_progress

        with database.connect() as conn:
            return hotels_progress(conn, keys)

    if use_daemon:
        outcome = _market_backfill(instance, keys, ops, total, label, figures, no_wait)
        if outcome is None:
            return
        problem = outcome.problem()
    else:
        failed = _market_in_process(instance, keys, ops, total, label, figures)
        problem = f"run failed for {', '.join(failed)}; see it in the Dagster UI" if failed else None
    _print_cities(database, keys)
    if problem:
        raise click.ClickException(problem)


def _hotel_assets() -> list[str]:
    """The assets of hotel_leads_job (its group), which a backfill of regions materialises."""
    from dagster import AssetSelection

    from sadie_pipeline.definitions import defs

    return sorted(k.to_user_string() for k in AssetSelection.groups("hotel_leads").resolve(defs.resolve_asset_graph()))


def _market_backfill(instance: DagsterInstance, keys: list[str], ops: dict[str, Any], total: int, label: str,
                     figures: Callable[[], str], no_wait: bool) -> BackfillOutcome | None:
    """How the backfill ended; None when not waited for."""
    from sadie_pipeline.backfills import submit_asset_backfill
    from sadie_pipeline.definitions import defs

    # the job's tags (external services) too: the production queue limits runs by them
    tags = {**defs.resolve_job_def("hotel_leads_job").tags, "sadie/command": "market run"}
    backfill_id = submit_asset_backfill(instance, _hotel_assets(), keys, title=_title("market run", keys), tags=tags,
                                        run_config=ops or None)
    return _follow_backfill(instance, backfill_id, total, label, figures, no_wait)


def _market_in_process(instance: DagsterInstance, keys: list[str], ops: dict[str, Any], total: int, label: str,
                       figures: Callable[[], str]) -> list[str]:
    from sadie_pipeline.definitions import build_defs
    from sadie_pipeline.partitions import range_tags, region_ranges
    from sadie_pipeline.progress import RunProgress

    config = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}, **ops}
    job = build_defs().resolve_job_def("hotel_leads_job")  # its resources set from the environment as it is now
    failed = []
    with RunProgress(instance, total, label, figures=figures) as progress:
        # one run per stretch of consecutive regions (US-FL US-GA is one run), as a backfill does
        for first, last in region_ranges(keys):
            run_id = str(uuid.uuid4())
            progress.follow(run_id)
            result = job.execute_in_process(run_config=config, instance=instance, tags=range_tags(first, last),
                                            raise_on_error=False, run_id=run_id)
            if not result.success:
                failed.append(first if first == last else f"{first}..{last}")
    return failed


def _print_cities(database: Database, keys: list[str]) -> None:
    from sadie_pipeline.hotels.summary import city_summary

    with database.connect() as conn:
        for key in keys:
            for r in city_summary(conn, key):
                click.echo(f"{key} {r['city']}: {r['hotels']} hotels, {r['merged_duplicates']} merged, "
                           f"tier 1: {r['tier1']}, tier 2: {r['tier2']}, {r['dead_ends']} dead ends, "
                           f"{r['enriched']} enriched, {r['scored']} scored, {r['launched']} launched, "
                           f"{r['exported']} exported, {r['dead_letters']} dead letters")


# --- listings run -----------------------------------------------------------------------------

@click.group()
def listings() -> None:
    """Listings of several DMOs at once."""


@listings.command("run")
@click.argument("more", nargs=-1, metavar="[SLUG]...")
@click.option("--dmo", "dmos", multiple=True, metavar="SLUG",
              help="A DMO to run; the slugs after it count too: --dmo visit-pei charlottetown-eats.")
@_in_process
@_no_wait
def listings_run(more: tuple[str, ...], dmos: tuple[str, ...], in_process: bool, no_wait: bool) -> None:
    """Stage and promote the DMOs' latest imports (listing_stage and listing_promotion, one run per
    DMO): imports not staged yet, up to the newest, are staged; every staged job is promoted, review
    decisions applied. With a Dagster daemon running: a backfill that the daemon runs."""
    slugs = list(dict.fromkeys((*dmos, *more)))
    if not slugs:
        raise click.ClickException("name the DMOs: sadie listings run --dmo SLUG [SLUG ...]")
    database = _database()
    _check_imported(database, slugs)
    instance, use_daemon = _instance_and_daemon(in_process)
    _register_partitions(instance, slugs)
    total, label = len(LISTING_RUN_ASSETS) * len(slugs), " ".join(slugs) if len(slugs) < 4 else f"{len(slugs)} DMOs"
    if use_daemon:
        from sadie_pipeline.backfills import backfill_run_ids, submit_asset_backfill

        backfill_id = submit_asset_backfill(instance, LISTING_RUN_ASSETS, slugs, title=_title("listings run", slugs),
                                            tags={"sadie/command": "listings run"})
        outcome = _follow_backfill(instance, backfill_id, total, label, None, no_wait)
        if outcome is None:
            return
        problem, run_ids = outcome.problem(), backfill_run_ids(instance, backfill_id)
    else:
        failures, run_ids = _listings_in_process(instance, slugs, total, label)
        problem = "; ".join(failures) or None
    _print_work(database, instance, slugs, run_ids)
    if problem:
        raise click.ClickException(problem)


def _check_imported(database: Database, slugs: list[str]) -> None:
    """Every DMO exists (else one line, from the command group) and has imported something."""
    from sadie_pipeline.listings.runs import latest_import
    from sadie_pipeline.migrations import upgrade

    upgrade(database.resolved_url())
    never = [slug for slug in slugs if latest_import(database, slug)["job_id"] is None]
    if never:
        raise click.ClickException(f"nothing imported yet for {', '.join(never)}: sadie import SLUG FILE")


def _register_partitions(instance: DagsterInstance, slugs: list[str]) -> None:
    from sadie_pipeline.partitions import DMO_PARTITIONS_NAME

    missing = [s for s in slugs if not instance.has_dynamic_partition(DMO_PARTITIONS_NAME, s)]
    if missing:
        instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, missing)


def _listings_in_process(instance: DagsterInstance, slugs: list[str], total: int,
                         label: str) -> tuple[list[str], list[str]]:
    """The failures, and the runs' ids."""
    from sadie_pipeline.listings.runs import run_job
    from sadie_pipeline.progress import RunProgress

    failures, run_ids = [], []
    with RunProgress(instance, total, label) as progress:
        for slug in slugs:
            run_id = str(uuid.uuid4())
            run_ids.append(run_id)
            progress.follow(run_id)
            failure = run_job("listing_import_job", slug, assets=LISTING_RUN_ASSETS, run_id=run_id)
            if failure:
                failures.append(f"{slug}: {failure}")
    return failures, run_ids


def _print_work(database: Database, instance: DagsterInstance, slugs: list[str], run_ids: list[str]) -> None:
    """A line per DMO on what its run did (not the figures of an older job when it had nothing to do);
    none for a DMO whose run failed before its stage (the failure says why)."""
    from sadie_pipeline.listings.runs import runs_work, work_line

    work = runs_work(instance, run_ids)
    for slug in slugs:
        if slug in work:
            click.echo(work_line(database, slug, work[slug]))


# --- import's progress --------------------------------------------------------------------------

def import_progress(database: Database, slug: str, run_id: str, promote: bool) -> RunProgress:
    """The bar of `sadie import`: records read and staged by its run, and the asset it is on."""
    from dagster import DagsterInstance

    from sadie_pipeline.listings.runs import records_progress
    from sadie_pipeline.progress import RunProgress

    progress = RunProgress(DagsterInstance.get(), 3 if promote else 2, f"importing {slug}",
                           figures=lambda: records_progress(database, run_id))
    progress.follow(run_id)
    return progress

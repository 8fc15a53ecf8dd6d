"""`sadie scrape-prospects` and `sadie sync pull`: the hybrid scenario's two commands on a person's
machine (issue 35; registered on cli.py's main group). The cloud side is hybrid/definitions.py."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

DEFAULT_DEST = "enriched"


@contextmanager
def _friendly() -> Iterator[None]:
    """A person's setting or a service out of reach ends the command with one line, status 1."""
    from botocore.exceptions import BotoCoreError, ClientError

    from sadie_pipeline.core.errors import first_line
    from sadie_pipeline.hybrid.queue import QueueNotConfigured
    from sadie_pipeline.regions import UnknownRegionError

    try:
        yield
    except (QueueNotConfigured, UnknownRegionError) as exc:
        raise click.ClickException(str(exc)) from exc
    except (BotoCoreError, ClientError) as exc:
        raise click.ClickException(f"the queue or the object store refused or is out of reach: {first_line(exc)}") from exc


def _cities(region: str, given: tuple[str, ...]) -> list[str]:
    if given:
        return list(dict.fromkeys(c.strip() for c in given if c.strip()))
    from sadie_pipeline.cli import _database
    from sadie_pipeline.hotels.markets import market_cities

    with _database().connect() as conn:
        cities = market_cities(conn, region)
    if not cities:
        raise click.ClickException(f"{region} has no market cities: give --city CITY, or sadie market add {region} CITY ...")
    return cities


def _bar(length: int, label: str) -> Any:
    """A progress bar on stderr when it is a terminal (piped output keeps only the result lines)."""
    from contextlib import nullcontext

    if not sys.stderr.isatty():
        return nullcontext(None)
    return click.progressbar(length=length, label=label, file=sys.stderr, width=24, show_eta=False,
                             item_show_func=lambda text: text)


@click.command("scrape-prospects")
@click.argument("region")
@click.option("--city", "cities", multiple=True, help="A city to search (repeatable); default: REGION's market cities.")
@click.option("--target", type=click.Choice(["cloud", "local"]), default="cloud", show_default=True,
              help="cloud: each prospect to the queue (SADIE_HYBRID_QUEUE_URL) for the cloud workers; "
                   "local: enrich here, now.")
def scrape_prospects_cmd(region: str, cities: tuple[str, ...], target: str) -> None:
    """Discover REGION's hotels on this machine (Serper places, as hotel_discovery) and send each one
    with a website to the enrichment queue, or enrich it here. Results: enriched/{region}/{domain}.json
    and .md in the object store (sadie sync pull brings the cloud's back)."""
    from sadie_pipeline.core.hybrid import Target
    from sadie_pipeline.hybrid.queue import QueueNotConfigured, plain_queue
    from sadie_pipeline.hybrid.scrape import scrape_prospects
    from sadie_pipeline.regions import check_region
    from sadie_pipeline.resource_defs import configured, resolved

    with _friendly():
        region, chosen = check_region(region), Target(target)
        serper = resolved(configured("serper"))
        if not serper.configured():
            raise click.ClickException(serper.not_configured_message())
        queue = plain_queue() if chosen is Target.CLOUD else None
        if queue is not None and not queue.configured():
            raise QueueNotConfigured(queue.not_configured_message())
        names = _cities(region, cities)
        store = resolved(configured("object_store"))
        fetcher = resolved(configured("website_fetcher")) if chosen is Target.LOCAL else None
        with _bar(len(names), f"{region} {chosen.value}") as bar:
            report = scrape_prospects(serper, store, region, names, chosen, queue=queue, fetcher=fetcher,
                                      on_city=lambda city: bar.update(1, city) if bar else None)
    click.echo(f"{region}: {len(names)} cities, {report.places} places, {report.prospects} prospects "
               f"({report.without_website} without a website, {report.duplicates} found again in another city)")
    if chosen is Target.CLOUD:
        click.echo(f"sent {report.sent} messages in {report.send_requests} batch request(s)"
                   + (f"; {report.send_failed} refused" if report.send_failed else ""))
    else:
        click.echo("enriched here: " + ", ".join(f"{n} {k}" for k, n in sorted(report.outcomes.items()))
                   + f"; results under {store.uri('enriched/' + region)}")
    for failure in report.failures[:20]:
        click.echo(f"  failed: {failure}", err=True)
    if report.failures and not report.prospects:
        sys.exit(1)


@click.group("sync")
def sync() -> None:
    """The cloud's enriched results, brought to this machine."""


@sync.command("pull")
@click.argument("region", required=False)
@click.option("--dest", type=click.Path(file_okay=False), default=DEFAULT_DEST, show_default=True,
              help="Local folder: DEST/{region}/{domain}.json and .md; DEST/.sadie-sync.json remembers the pulls.")
@click.option("--db/--no-db", "load_db", default=True,
              help="Load into sadie_gtm.hybrid_results when SADIE_DATABASE_URL is set (default).")
def sync_pull(region: str | None, dest: str, load_db: bool) -> None:
    """Download the enriched results new since the last pull into DEST (of REGION, or all)."""
    import os

    from sadie_pipeline.hybrid.sync import index_keys, pull
    from sadie_pipeline.regions import check_region
    from sadie_pipeline.resource_defs import configured, resolved

    with _friendly():
        region = check_region(region) if region else None
        store = resolved(configured("object_store"))
        database = None
        if load_db and os.environ.get("SADIE_DATABASE_URL", "").strip():
            from sadie_pipeline.migrations import upgrade

            database = resolved(configured("database"))
            upgrade(database.resolved_url())
        keys = index_keys(store)
        with _bar(len(keys), "pulling") as bar:
            report = pull(store, Path(dest), region, database=database, keys=keys,
                          on_key=lambda: bar.update(1) if bar else None)
    since = f" since {report.last_pull}" if report.last_pull else ""
    click.echo(f"{report.new} new results{since} of {report.indexed} indexed"
               + (f" ({', '.join(f'{r}: {n}' for r, n in sorted(report.by_region.items()))})" if report.by_region else "")
               + f" -> {dest}" + (f"; {report.loaded} loaded into sadie_gtm.hybrid_results" if report.loaded else ""))

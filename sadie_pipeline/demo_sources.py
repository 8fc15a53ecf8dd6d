"""`make demo`, one DMO per source type: a small sample DMO of each kind of source (a CSV, a
workbook and a JSON file dropped in the inbox; a WordPress site, a Drupal site, a partner API, a
GeoJSON extract and two scraped sites pulled over HTTP), imported and promoted, then geocoded and
its images processed, all against the bundled sandbox, with one line per DMO.

The DMOs' configs and files are in data/sample/source-types/ (its README says what each one
shows). They name the sandbox as `{sandbox}`, which the demo fills in before it registers a config
or drops a file. The sandbox listens on SADIE_SANDBOX_PORT (8765), the port `make dev` serves it
on, so the pulled DMOs can be pulled again after the demo (0 picks a free port: tests).

    results = run_source_types_demo(database, store, echo)   # {slug: DemoResult}
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sadie_pipeline.core.errors import first_line
from sadie_pipeline.listings.sources.scrape import CHROMIUM
from sadie_pipeline.listings.sources.scrape import chromium_executable as chromium  # the scrape connector's own lookup
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.settings import SAMPLE_DIR, environ

SOURCES_DIR = SAMPLE_DIR / "source-types"
PLACEHOLDER = "{sandbox}"
PARTNER_KEY_ENV = "SADIE_DEMO_PARTNER_API_KEY"  # the variable demo-partner.config.json names for its key


@dataclass(frozen=True)
class DemoDmo:
    slug: str
    name: str
    sample: str | None = None  # the file dropped in its inbox; None: a pulled source
    javascript: bool = False   # its pages are rendered in Chromium

    @property
    def config_file(self) -> Path:
        return SOURCES_DIR / f"{self.slug}.config.json"


DEMO_DMOS = (
    DemoDmo("demo-csv", "Demo CSV export", "demo-csv.csv"),
    DemoDmo("demo-xlsx", "Demo spreadsheet", "demo-xlsx.xlsx"),  # written from demo-xlsx.rows.json
    DemoDmo("demo-json", "Demo JSON feed", "demo-json.json"),
    DemoDmo("demo-wordpress", "Demo WordPress site"),
    DemoDmo("demo-drupal", "Demo Drupal site"),
    DemoDmo("demo-partner", "Demo partner API"),
    DemoDmo("demo-poi", "Demo POI extract"),
    DemoDmo("demo-scrape", "Demo website"),
    DemoDmo("demo-scrape-js", "Demo JavaScript website", javascript=True),
)


@dataclass
class DemoResult:
    """What became of one demo DMO: its job's figures, then its geocodes and images by status."""
    slug: str
    source: str                      # "wordpress", "scrape, javascript"
    summary: dict[str, Any] = field(default_factory=dict)
    approved: int = 0
    live: int = 0
    from_source: int = 0             # locations that came with the source's coordinates
    geocodes: dict[str, int] = field(default_factory=dict)
    images: dict[str, int] = field(default_factory=dict)
    failure: str | None = None
    skipped: str | None = None

    def line(self) -> str:
        head = f"  {self.slug} ({self.source}): "
        if self.skipped:
            return head + f"skipped: {self.skipped}"
        if self.failure:
            return head + f"failed: {self.failure}"
        return head + "; ".join([self._records(), f"promoted {self.live}", self._geocoded(), self._images()])

    def _records(self) -> str:
        s = self.summary
        text = f"{s.get('records_read') or 0} records, {s.get('inserted') or 0} new, {s.get('errors') or 0} errors"
        return text + (f", {self.approved} approved in review" if self.approved else "")

    def _geocoded(self) -> str:
        g = self.geocodes
        failed = {"not found": g.get("zero_results", 0), "only approximate": g.get("approximate", 0),
                  "without a street address": g.get("no_address", 0), "call failed": g.get("failed", 0)}
        total = sum(failed.values())
        why = ": " + ", ".join(f"{n} {reason}" for reason, n in failed.items() if n) if total else ""
        text = f"geocoded {g.get('geocoded', 0)} ({total} failed{why})"
        return text + (f", {self.from_source} with the source's coordinates" if self.from_source else "")

    def _images(self) -> str:
        i = self.images
        duplicates = i.get("duplicate", 0)
        text = (f"images {i.get('ok', 0)} stored, {duplicates} near-duplicate{'' if duplicates == 1 else 's'} "
                f"dropped, {i.get('failed', 0)} failed")
        return text + (f", {i['pending']} not processed" if i.get("pending") else "")


def run_source_types_demo(database: Database, store: ObjectStore,
                          echo: Callable[[str], None]) -> dict[str, DemoResult]:
    """Registers, imports, promotes and enriches each demo DMO on a sandbox of its own; a DMO
    that fails prints its one line and the others go on."""
    from sadie_pipeline.sandbox import Sandbox
    from sadie_pipeline.sandbox.env import PORT_ENV, stable_port

    echo("\n== one DMO per source type (on the bundled sandbox) ==")
    # Decision (issue "Runs only when there is work"): the pulled DMOs keep working after the demo
    # because the sandbox has one stable address, which `make dev` serves too, rather than being
    # paused as demo-only: a data engineer expects to pull a demo DMO again from the UI.
    try:
        port = stable_port()
    except ValueError as exc:
        echo(f"  skipped: {exc}")
        return {}
    try:
        sb = Sandbox(seed=7, port=port).start()
    except Exception as exc:  # a port in use, or none to open: the rest of the demo goes on
        echo(f"  skipped: the sandbox did not start on port {port} ({first_line(exc)}); a `make dev` running "
             f"serves it there: stop it, or set {PORT_ENV} to a free port for both make demo and make dev")
        return {}
    results: dict[str, DemoResult] = {}
    try:
        with sandbox_environment(sb), tempfile.TemporaryDirectory(prefix="sadie-demo-") as tmp:
            for dmo in DEMO_DMOS:
                started = time.monotonic()
                results[dmo.slug] = result = run_one(database, store, dmo, sb.url, Path(tmp))
                took = f" ({time.monotonic() - started:.1f} s)" if os.environ.get("SADIE_DEMO_TIMINGS") else ""
                echo(result.line() + took)
    finally:
        sb.stop()
    return results


def sandbox_environment(sb: Any) -> AbstractContextManager[None]:
    """The variables the listings' services read, pointed at the sandbox (its geocoding service;
    images need none: their URLs are absolute), and the partner API's key; restored afterwards."""
    from sadie_pipeline.listings.geocoder import ENV_FIELDS

    settings = {k: v for k, v in sb.client_env().items() if k in ENV_FIELDS.values()}
    settings[PARTNER_KEY_ENV] = "demo-partner-key"  # the sandbox's partner API takes any key
    return environ(settings)


def source_label(config: dict[str, Any]) -> str:
    section = config.get("import", {})
    javascript = (section.get("selectors") or {}).get("javascript")
    return section.get("source_type", "csv") + (", javascript" if javascript else "")


def run_one(database: Database, store: ObjectStore, dmo: DemoDmo, sandbox_url: str, tmp: Path) -> DemoResult:
    """One DMO from its config to its images; whatever goes wrong ends up in its result's line."""
    result = DemoResult(dmo.slug, "source type unknown")
    try:
        config = json.loads(dmo.config_file.read_text(encoding="utf-8").replace(PLACEHOLDER, sandbox_url))
        result.source = source_label(config)
        if dmo.javascript and chromium() is None:
            result.skipped = (f"no Chromium at {CHROMIUM} to render its pages "
                              "(apt-get install chromium, or set SADIE_CHROMIUM to one)")
            return result
        import_and_promote(database, store, dmo, config, sandbox_url, tmp, result)
        if result.failure is None:
            enrich(database, dmo.slug, result)
    except Exception as exc:  # the demo goes on to the next DMO
        result.failure = first_line(exc)
    return result


def import_and_promote(database: Database, store: ObjectStore, dmo: DemoDmo, config: dict[str, Any],
                       sandbox_url: str, tmp: Path, result: DemoResult) -> None:
    """Registers the DMO, drops its file in the inbox or pulls its source, then approves what the
    stage held for review and promotes again, as a reviewer would (the demo's first half does too)."""
    from sadie_pipeline.cli import add_dmo
    from sadie_pipeline.listings.review import approve_all
    from sadie_pipeline.listings.runs import import_file, pull_now, run_job

    add_dmo(dmo.slug, dmo.name, config)
    if dmo.sample:
        outcome = import_file(database, store, dmo.slug, write_sample(dmo.sample, sandbox_url, tmp))
    else:
        outcome = pull_now(database, dmo.slug)
    result.summary, result.live = outcome["summary"], outcome["live"]
    if outcome["failure"]:
        result.failure = outcome["failure"]
        return
    if result.summary.get("needing_review"):
        with database.connect() as conn:
            result.approved = len(approve_all(conn, dmo.slug, decided_by="demo"))
        result.failure = run_job("listing_promote_job", dmo.slug)


def write_sample(name: str, sandbox_url: str, tmp: Path) -> Path:
    """The DMO's sample file with the sandbox's address filled in; the workbook is written here
    from its rows (a binary file cannot carry the placeholder)."""
    path = tmp / name
    if name.endswith(".xlsx"):
        rows = json.loads((SOURCES_DIR / name.replace(".xlsx", ".rows.json")).read_text(encoding="utf-8"))
        with path.open("wb") as fh:
            write_workbook(fh, [[fill(v, sandbox_url) for v in row] for row in rows])
    else:
        text = (SOURCES_DIR / name).read_text(encoding="utf-8")
        path.write_text(text.replace(PLACEHOLDER, sandbox_url), encoding="utf-8")
    return path


def fill(value: Any, sandbox_url: str) -> Any:
    return value.replace(PLACEHOLDER, sandbox_url) if isinstance(value, str) else value


def write_workbook(fh: Any, rows: list[list[Any]]) -> None:
    """One sheet of text and number cells, the first row the header (core/xlsx.py's writer)."""
    from sadie_pipeline.core.xlsx import Style, XlsxPackage, column_letter, text_cell

    stamp = dt.datetime(2026, 1, 12, 9, 0)
    with XlsxPackage(fh, ["Listings"], title="Demo listings", creator="sadie demo", timestamp=stamp) as package:
        with package.sheet([24] * len(rows[0])) as sheet:
            for index, row in enumerate(rows):
                n = sheet.next_row
                cells = []
                for col, value in enumerate(row, 1):
                    ref = f"{column_letter(col)}{n}"
                    if isinstance(value, int | float):
                        cells.append(f'<c r="{ref}"><v>{value}</v></c>')
                    elif value:
                        cells.append(text_cell(ref, str(value), Style.HEADER if index == 0 else Style.DEFAULT))
                sheet.add_row("".join(cells))


def enrich(database: Database, slug: str, result: DemoResult) -> None:
    """The DMO's geocodes and images (listing_enrichment_job, which the enrichment sensor starts
    after each promotion when the daemon runs), then where its locations and images stand."""
    from sadie_pipeline.listings import geocodes, images
    from sadie_pipeline.listings.promote import live_listing_count
    from sadie_pipeline.listings.queries import sql
    from sadie_pipeline.listings.repository import get_dmo
    from sadie_pipeline.listings.runs import run_job

    result.failure = run_job("listing_enrichment_job", slug)
    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
        result.live = live_listing_count(conn, dmo)
        result.from_source = conn.execute(sql("geocodes", "located_by_source"), {"dmo": dmo.id}).fetchone()[0]
    result.geocodes = geocodes.status_counts(database, dmo)
    result.images = images.status_counts(database, dmo)


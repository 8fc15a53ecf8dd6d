"""What starts the hotel side without a person: a CSV hotel list dropped in the region's inbox, the
weekly discovery of every market, and DMO promotions that add or change lodging or attractions
in a region. Each requests a run of one region; the assets' automation conditions
(hotels/automation.py) take it on to scores."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import psycopg
from dagster import (
    DefaultScheduleStatus,
    DefaultSensorStatus,
    RunRequest,
    ScheduleEvaluationContext,
    SensorEvaluationContext,
    SensorResult,
    SkipReason,
    schedule,
    sensor,
)

from sadie_pipeline.core.categories import CategoryGroup
from sadie_pipeline.core.hotel_status import DETECTED_OR_ENRICHED
from sadie_pipeline.hotels import queries
from sadie_pipeline.hotels.enrichment.proximity import ATTRACTION_GROUPS
from sadie_pipeline.hotels.jobs import attraction_proximity_job, crawl_discovery_job, hotel_discovery_job
from sadie_pipeline.hotels.markets import list_markets
from sadie_pipeline.hotels.schedules import _tick_date
from sadie_pipeline.regions import REGIONS
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore

HOTEL_INBOX = "inbox/hotels/"
EPOCH = "1970-01-01 00:00:00"


# --- CSV hotel lists --------------------------------------------------------------------------

def inbox_files(keys: Iterable[str]) -> dict[str, list[str]]:
    """Keys under inbox/hotels/{region}/ by region; folders of no known region are left out."""
    by_region: dict[str, list[str]] = {}
    for key in keys:
        rest = key[len(HOTEL_INBOX):] if key.startswith(HOTEL_INBOX) else ""
        region, _, name = rest.partition("/")
        if region in REGIONS and name and not name.endswith("/"):
            by_region.setdefault(region, []).append(key)
    return {r: sorted(k) for r, k in sorted(by_region.items())}


def _run_key(prefix: str, region: str, keys: Iterable[str]) -> str:
    digest = hashlib.sha1("\n".join(sorted(keys)).encode()).hexdigest()[:16]
    return f"{prefix}-{region}-{digest}"


def inbox_requests(files: Mapping[str, list[str]], seen: Mapping[str, list[str]],
                   markets: Mapping[str, list[str]]) -> tuple[list[RunRequest], dict[str, list[str]], list[str]]:
    """One discovery run per region with new files, the next cursor, and the regions whose files
    wait. Discovery reads every file of the region, so several new files make one run. A region
    without market cities would read nothing (discovery keeps only rows of market cities): its
    files stay new until `sadie market add` gives it some."""
    requests, waiting = [], []
    cursor: dict[str, list[str]] = {}
    for region, keys in files.items():
        known = set(seen.get(region, []))
        new = [k for k in keys if k not in known]
        if new and not markets.get(region):
            waiting.append(region)
        elif new:
            requests.append(RunRequest(run_key=_run_key("hotel-inbox", region, new), partition_key=region,
                                       tags={"sadie/trigger": "hotel_inbox", "sadie/inbox_files": str(len(new))}))
            known.update(new)
        # Only keys still in the inbox: a list removed and dropped again counts as new.
        if kept := sorted(known.intersection(keys)):
            cursor[region] = kept
    return requests, cursor, waiting


@sensor(job=hotel_discovery_job, minimum_interval_seconds=30, default_status=DefaultSensorStatus.RUNNING,
        description="A new CSV hotel list under inbox/hotels/{region}/: discovery of that region (each file once).")
def hotel_inbox_sensor(context: SensorEvaluationContext, database: Database,
                       object_store: ObjectStore) -> SensorResult:
    seen: dict[str, list[str]] = json.loads(context.cursor) if context.cursor else {}
    files = inbox_files(object_store.list_keys(HOTEL_INBOX))
    with database.connect() as conn:
        markets = list_markets(conn)
    requests, cursor, waiting = inbox_requests(files, seen, markets)
    skip = None
    if waiting:
        skip = f"lists waiting for market cities (sadie market add REGION CITY ...): {', '.join(waiting)}"
        context.log.info(skip)
    return SensorResult(run_requests=requests, cursor=json.dumps(cursor, sort_keys=True),
                        skip_reason=None if requests else skip or "no new hotel lists")


# --- weekly discovery ---------------------------------------------------------------------------

def weekly_markets_schedule(timezone: str, *, name: str, cron: str, job, run_key: str, description: str):
    """A schedule (stopped until someone starts it: each run can add many hotels to resolve and
    enrich) that runs `job` for every region with active market cities, once per ISO week."""

    @schedule(name=name, cron_schedule=cron, job=job, execution_timezone=timezone,
              default_status=DefaultScheduleStatus.STOPPED, description=description)
    def _weekly(context: ScheduleEvaluationContext, database: Database):
        with database.connect() as conn:
            regions = sorted(list_markets(conn))
        if not regions:
            return SkipReason("no markets (sadie market add REGION CITY ...)")
        week = _tick_date(context, "%G-W%V")
        return [RunRequest(run_key=f"{run_key}-{week}-{region}", partition_key=region,
                           tags={"sadie/trigger": name.removesuffix("_schedule")}) for region in regions]

    return _weekly


def build_discovery_schedule(timezone: str):
    """Mondays 04:00: Serper, DMO and CSV discovery (each tick spends Serper queries for every market city)."""
    return weekly_markets_schedule(
        timezone, name="weekly_discovery_schedule", cron="0 4 * * 1", job=hotel_discovery_job, run_key="discover",
        description="Mondays 04:00: discovery of every region with active market cities; "
                    "automation carries new hotels on to scores.")


def build_crawl_discovery_schedule(timezone: str):
    """Saturdays 03:00: Common Crawl discovery. Common Crawl publishes a crawl about monthly, so a
    weekly tick finds a new one within days; a tick on a crawl already scanned reads nothing
    (sql/0043_crawl_discovery.sql) but resumes a scan a failure or a kill left partial."""
    return weekly_markets_schedule(
        timezone, name="weekly_crawl_discovery_schedule", cron="0 3 * * 6", job=crawl_discovery_job,
        run_key="crawl-discovery",
        description="Saturdays 03:00: Common Crawl discovery of every region with market cities "
                    "(a crawl scanned once is not scanned again).")


# --- DMO promotions -----------------------------------------------------------------------------

@dataclass(frozen=True)
class PromotedRegion:
    region: str
    lodging: int
    attractions: int


def promotions_since(conn: psycopg.Connection, since: str) -> tuple[str | None, list[PromotedRegion]]:
    """The newest promotion time after `since` (None: no promotion since) and, per region, the
    lodging and attraction listings those promotions added or changed (intake.sql)."""
    [upto] = conn.execute(queries.sql("intake", "promotions_upto"), {"since": since}).fetchone()
    if upto is None:
        return None, []
    rows = conn.execute(queries.sql("intake", "promoted_by_region"), {
        "since": since, "upto": upto, "regions": list(REGIONS), "lodging": CategoryGroup.LODGING.value,
        "attraction": ATTRACTION_GROUPS,
        "proximity_statuses": list(DETECTED_OR_ENRICHED)}).fetchall()
    return upto, [PromotedRegion(*r) for r in rows]


def promotion_requests(upto: str, regions: Iterable[PromotedRegion]) -> list[RunRequest]:
    """Discovery where lodging changed; the proximity layer again (force_refresh: the nearest
    attraction may be a new one) where attractions changed."""
    requests = []
    for p in regions:
        tags = {"sadie/trigger": "dmo_promotion", "sadie/promoted_upto": upto}
        if p.lodging:
            requests.append(RunRequest(run_key=f"promotion-lodging-{p.region}-{upto}", partition_key=p.region,
                                       job_name=hotel_discovery_job.name, tags=tags))
        if p.attractions:
            requests.append(RunRequest(
                run_key=f"promotion-attractions-{p.region}-{upto}", partition_key=p.region,
                job_name=attraction_proximity_job.name, tags=tags,
                run_config={"ops": {"attraction_proximity": {"config": {"force_refresh": True}}}}))
    return requests


@sensor(jobs=[hotel_discovery_job, attraction_proximity_job], minimum_interval_seconds=60,
        default_status=DefaultSensorStatus.RUNNING,
        description="DMO promotions that add or change lodging (in a market city) or attractions (near "
                    "detected hotels): discovery or the proximity layer of that region.")
def dmo_promotion_sensor(context: SensorEvaluationContext, database: Database) -> SensorResult:
    if context.cursor is None:
        # The first tick only takes its bearings: earlier promotions went through the pipeline as
        # it was run by hand, and re-discovering every market at once would spend Serper for nothing.
        with database.connect() as conn:
            [upto] = conn.execute(queries.sql("intake", "promotions_upto"), {"since": EPOCH}).fetchone()
        return SensorResult(skip_reason="first tick: promotions from now on", cursor=upto or EPOCH)
    with database.connect() as conn:
        upto, regions = promotions_since(conn, context.cursor)
    if upto is None:
        return SensorResult(skip_reason="no promotion since the last tick", cursor=context.cursor)
    requests = promotion_requests(upto, regions)
    return SensorResult(run_requests=requests, cursor=upto,
                        skip_reason=None if requests else "promotions touched no market lodging or attractions")

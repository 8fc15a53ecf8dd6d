"""Common Crawl discovery's weekly calendar: Common Crawl publishes a crawl about monthly, so a
weekly tick finds a new crawl within days; a tick on a crawl already scanned reads nothing (the
queries finished in that crawl are skipped, sql/0043_crawl_discovery.sql) but resumes a scan a
failure or a kill left partial."""

from __future__ import annotations

from dagster import (
    AssetSelection,
    DefaultScheduleStatus,
    RunRequest,
    ScheduleEvaluationContext,
    SkipReason,
    define_asset_job,
    schedule,
)

from sadie_pipeline.hotels.markets import list_markets
from sadie_pipeline.hotels.schedules import _tick_date
from sadie_pipeline.resources.database import Database

crawl_discovery_job = define_asset_job(
    "crawl_discovery_job", selection=AssetSelection.assets("crawl_discovery"),
    description="Common Crawl discovery of the selected regions: lodging home pages and booking-engine client "
                "pages of the newest crawl, as crawl and engine_client source records.",
)


def build_crawl_discovery_schedule(timezone: str):
    """Saturdays 03:00: every region with market cities. Stopped until someone starts it, like the
    other discovery schedules: each run can add many hotels to resolve and enrich."""

    @schedule(cron_schedule="0 3 * * 6", job=crawl_discovery_job, execution_timezone=timezone,
              default_status=DefaultScheduleStatus.STOPPED,
              description="Saturdays 03:00: Common Crawl discovery of every region with market cities "
                          "(a crawl scanned once is not scanned again).")
    def weekly_crawl_discovery_schedule(context: ScheduleEvaluationContext, database: Database):
        with database.connect() as conn:
            regions = sorted(list_markets(conn))
        if not regions:
            return SkipReason("no markets (sadie market add REGION CITY ...)")
        week = _tick_date(context, "%G-W%V")
        return [RunRequest(run_key=f"crawl-discovery-{week}-{region}", partition_key=region,
                           tags={"sadie/trigger": "weekly_crawl_discovery"}) for region in regions]

    return weekly_crawl_discovery_schedule

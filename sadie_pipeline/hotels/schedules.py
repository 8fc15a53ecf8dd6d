"""Schedules of the hotel-lead pipeline: the daily launch at 06:00, re-enrichment of stale layers,
and the health figures. Each schedule asks the database which regions have work and requests one
run per such region; a region without work gets no run."""

from __future__ import annotations

import datetime as dt

from dagster import RunConfig, RunRequest, ScheduleEvaluationContext, SkipReason, schedule

from sadie_pipeline.core.hotel_status import DETECTED_OR_LATER, HotelStatus
from sadie_pipeline.hotels.jobs import ENRICHMENT_LAYER_ASSETS, lead_launch_job, pipeline_health_job, reenrichment_job
from sadie_pipeline.resources.database import Database
from sadie_pipeline.settings import env

DEFAULT_TIMEZONE = "America/New_York"
DEFAULT_REENRICH_AFTER_DAYS = 90


def schedule_timezone() -> str:
    """The time zone of the daily schedules: SADIE_SCHEDULE_TIMEZONE (read when the code location
    loads, since Dagster needs it with the definitions), default America/New_York."""
    return env("SADIE_SCHEDULE_TIMEZONE") or DEFAULT_TIMEZONE


def reenrich_after_days() -> int:
    """How old a layer may get before the re-enrichment pass runs it again (read at each tick)."""
    return int(env("SADIE_REENRICH_AFTER_DAYS") or DEFAULT_REENRICH_AFTER_DAYS)


def _tick_date(context: ScheduleEvaluationContext, fmt: str = "%Y-%m-%d") -> str:
    try:
        moment = context.scheduled_execution_time
    except Exception:  # a context built without a tick time (a manual evaluation)
        moment = None
    moment = moment or dt.datetime.now(dt.UTC)
    return moment.strftime(fmt)


def regions_to_launch(database: Database) -> list[str]:
    with database.connect() as conn:
        return [r[0] for r in conn.execute(
            "SELECT DISTINCT region FROM sadie_gtm.hotels WHERE status = %s ORDER BY region", (HotelStatus.SCORED,))]


def regions_with_stale_layers(database: Database, days: int) -> list[str]:
    with database.connect() as conn:
        return [r[0] for r in conn.execute(
            """SELECT DISTINCT h.region FROM sadie_gtm.hotels h
                 JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id
                 CROSS JOIN LATERAL jsonb_each_text(e.layer_updated_at) AS l(layer, at)
                WHERE h.status = ANY(%s) AND l.at::timestamptz < now() - make_interval(days => %s)
                ORDER BY h.region""", (list(DETECTED_OR_LATER), days))]


def build_schedules(timezone: str) -> list:
    @schedule(cron_schedule="0 6 * * *", job=lead_launch_job, execution_timezone=timezone,
              description="06:00 daily: launch the scored hotels of every region that has some.")
    def daily_launch_schedule(context: ScheduleEvaluationContext, database: Database):
        regions = regions_to_launch(database)
        if not regions:
            return SkipReason("no scored hotels waiting for launch")
        day = _tick_date(context)
        return [RunRequest(run_key=f"launch-{day}-{region}", partition_key=region) for region in regions]

    @schedule(cron_schedule="0 2 * * 0", job=reenrichment_job, execution_timezone=timezone,
              description="Sundays 02:00: run enrichment layers older than SADIE_REENRICH_AFTER_DAYS again "
                          "(force refresh), then golden records and scores.")
    def reenrichment_schedule(context: ScheduleEvaluationContext, database: Database):
        days = reenrich_after_days()
        regions = regions_with_stale_layers(database, days)
        if not regions:
            return SkipReason(f"no enrichment layer older than {days} days")
        layer_config = {"force_refresh": True, "stale_after_days": days}
        run_config = RunConfig(ops={name: {"config": layer_config} for name in ENRICHMENT_LAYER_ASSETS})
        day = _tick_date(context)
        return [RunRequest(run_key=f"reenrich-{day}-{region}", partition_key=region, run_config=run_config,
                           tags={"sadie/stale_after_days": str(days)}) for region in regions]

    @schedule(cron_schedule="0 * * * *", job=pipeline_health_job, execution_timezone=timezone,
              description="Hourly: the pipeline health figures.")
    def pipeline_health_schedule(context: ScheduleEvaluationContext):
        return RunRequest(run_key=f"health-{_tick_date(context, '%Y%m%d%H')}")

    return [daily_launch_schedule, reenrichment_schedule, pipeline_health_schedule]

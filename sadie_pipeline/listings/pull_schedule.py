"""Pulled sources on their DMO's own schedule (config `import.schedule`): one sensor reads every
DMO's schedule from the database at each tick, so changing a schedule needs no deploy, and asks
for one import run per due tick. The run key names the DMO and the tick: Dagster starts each key
once, so a tick is pulled once however often the sensor looks, and after downtime only the
latest missed tick is pulled, not every one. A scheduled DMO it cannot pull (a config saved before
the config check refused a schedule on a source with nothing to pull) is skipped, and said in the
log once, not at every tick."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from dagster import DefaultSensorStatus, RunRequest, SensorEvaluationContext, SkipReason, sensor

from sadie_pipeline.core.config import ConfigError, merge_config
from sadie_pipeline.core.schedules import ScheduleError, latest_due
from sadie_pipeline.listings.jobs import listing_import_job
from sadie_pipeline.listings.queries import sql
from sadie_pipeline.listings.sources.pull import is_pulled
from sadie_pipeline.partitions import DMO_PARTITIONS_NAME
from sadie_pipeline.resources.database import Database


def due_pulls(rows: list[tuple[str, str, dict[str, Any]]], now: dt.datetime,
              partitions: set[str]) -> tuple[list[RunRequest], list[str]]:
    """(the run requests of the DMOs whose latest tick is due, the DMOs skipped and why)."""
    requests, skipped = [], []
    for slug, schedule, params in rows:
        try:
            # checked as a new config: one saved before a check existed (a schedule on a source with
            # nothing to pull, which the config now refuses) is skipped with the check's message
            config, tick = merge_config(params), latest_due(schedule, now)
        except (ConfigError, ScheduleError) as exc:
            skipped.append(f"{slug}: {str(exc).splitlines()[0]}")
            continue
        if slug not in partitions or tick is None:
            continue
        if not is_pulled(config):  # only a config edited in the database by hand gets here
            skipped.append(f"{slug}: source {config['import']['source_type']} has no url to pull (files come by the inbox)")
            continue
        requests.append(RunRequest(run_key=f"pull:{slug}:{tick.isoformat()}", partition_key=slug,
                                   tags={"sadie/trigger": "schedule", "sadie/schedule": schedule,
                                         "sadie/tick": tick.isoformat()}))
    return requests, skipped


def newly_skipped(skipped: list[str], cursor: str | None) -> list[str]:
    """The skips not told at an earlier tick (the cursor holds those of the last tick): a DMO that
    cannot be pulled is told once, not every minute, and again if it comes back after a fix."""
    told = set(json.loads(cursor)) if cursor else set()
    return [reason for reason in skipped if reason not in told]


@sensor(job=listing_import_job, minimum_interval_seconds=60, default_status=DefaultSensorStatus.RUNNING,
        description="Pulls each DMO whose source is pulled (WordPress, Drupal, partner API, POI, scrape) at "
                    "its import.schedule: manual, hourly, daily 03:00, weekly Mondays 03:00 or a cron, UTC.")
def dmo_pull_sensor(context: SensorEvaluationContext, database: Database) -> list[RunRequest] | SkipReason:
    """Pulls each scheduled DMO's source at its schedule's ticks (manual, hourly, daily, weekly or
    a cron string, UTC)."""
    with database.connect() as conn:
        rows = conn.execute(sql("dmos", "scheduled")).fetchall()
    partitions = set(context.instance.get_dynamic_partitions(DMO_PARTITIONS_NAME))
    requests, skipped = due_pulls(rows, dt.datetime.now(dt.UTC), partitions)
    for reason in newly_skipped(skipped, context.cursor):
        context.log.warning(f"not pulled until its config is saved again: {reason}")
    context.update_cursor(json.dumps(sorted(skipped)))
    if requests:
        return requests
    cannot = f", {len(skipped)} that cannot be pulled: {', '.join(r.split(':')[0] for r in skipped)}" if skipped else ""
    return SkipReason(f"no scheduled pull source due ({len(rows)} DMOs on a schedule{cannot})")

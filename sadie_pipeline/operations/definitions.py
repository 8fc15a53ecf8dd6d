"""The operations' Dagster definitions: the retention job and its daily schedule, and the dead
letter alert. Their resources (database, object_store, slack) are the code location's."""

from dagster import Definitions

from sadie_pipeline.hotels.schedules import schedule_timezone
from sadie_pipeline.operations.alerts import dead_letter_alert_sensor
from sadie_pipeline.operations.health_alerts import build_health_schedules, health_alerts_job, health_digest_job
from sadie_pipeline.operations.retention import build_retention_schedule, retention_job


def build_defs() -> Definitions:
    """The operations' definitions, their schedule in SADIE_SCHEDULE_TIMEZONE as it is now."""
    return Definitions(
        jobs=[retention_job, health_alerts_job, health_digest_job],
        schedules=[build_retention_schedule(schedule_timezone()), *build_health_schedules(schedule_timezone())],
        sensors=[dead_letter_alert_sensor],
    )


defs = build_defs()

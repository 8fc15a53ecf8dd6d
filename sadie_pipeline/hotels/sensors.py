"""Sensors of the hotel-lead pipeline: the export follows each successful launch, and every
failed run of the code location is announced in Slack."""

from __future__ import annotations

from dagster import (
    DagsterRunStatus,
    RunFailureSensorContext,
    RunRequest,
    RunStatusSensorContext,
    SkipReason,
    run_failure_sensor,
    run_status_sensor,
)

from sadie_pipeline.hotels.jobs import lead_export_job, lead_launch_job
from sadie_pipeline.resources.slack import SlackResource

PARTITION_TAG = "dagster/partition"
MAX_ERROR_CHARS = 500


@run_status_sensor(run_status=DagsterRunStatus.SUCCESS, monitored_jobs=[lead_launch_job], request_job=lead_export_job,
                   description="After each successful launch run: export the same region.")
def export_after_launch_sensor(context: RunStatusSensorContext):
    run = context.dagster_run
    region = run.tags.get(PARTITION_TAG)
    if not region:
        return SkipReason(f"launch run {run.run_id} has no single region")
    launch_config = (run.run_config or {}).get("ops", {}).get("launched_leads", {}).get("config", {})
    if launch_config.get("dry_run"):
        return SkipReason(f"launch run {run.run_id} was a dry run")
    return RunRequest(run_key=f"export-after-{run.run_id}", partition_key=region,
                      tags={"sadie/after_launch_run": run.run_id})


def failure_message(context: RunFailureSensorContext) -> str:
    run = context.dagster_run
    partition = run.tags.get(PARTITION_TAG)
    error = context.failure_event.message or ""
    if len(error) > MAX_ERROR_CHARS:
        error = error[: MAX_ERROR_CHARS - 1] + "…"
    where = f" for {partition}" if partition else ""
    return f":rotating_light: Run `{run.run_id[:8]}` of *{run.job_name}*{where} failed: {error}"


@run_failure_sensor(description="Posts every failed run of this code location to Slack.",
                    monitor_all_code_locations=False)
def slack_on_run_failure(context: RunFailureSensorContext, slack: SlackResource):
    if not slack.configured():
        return SkipReason(slack.not_configured_message())
    slack.post(failure_message(context))

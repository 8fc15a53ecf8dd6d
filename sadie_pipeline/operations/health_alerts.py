"""Health alerts in Slack, beside the run-failure and dead-letter alerts: a service past its quota
share, a DMO's unusual import, a region's enrichment error rate jumping (rules: core/alert_rules.py),
checked hourly; and the daily health digest (seed 001's health query per region, yesterday's spend).

Each alert is posted at most once per (kind, subject, UTC day): its pipeline.alerts_sent row is
written in the transaction that posts it, so a failed post leaves no row and the next check tries
again, and a second check of the day posts nothing new. Without Slack configured nothing is
recorded either (the op says why in its metadata)."""

# No `from __future__ import annotations`: @op reads its config class from the real annotation.
import datetime as dt
from collections.abc import Sequence

import psycopg
from dagster import (
    Config,
    DefaultScheduleStatus,
    OpExecutionContext,
    Output,
    RunRequest,
    ScheduleEvaluationContext,
    job,
    op,
    schedule,
)
from pydantic import Field

from sadie_pipeline.core.alert_rules import (
    MIN_HISTORY,
    Alert,
    AlertKind,
    digest_message,
    enrichment_alert,
    import_alerts,
    quota_alerts,
)
from sadie_pipeline.core.spend import SpendConfig
from sadie_pipeline.hotels.health import pipeline_health
from sadie_pipeline.operations.queries import sql
from sadie_pipeline.operations.spend import load_spend_config, usage_on
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.slack import SlackResource

IMPORT_HISTORY = 30  # earlier imports of a DMO its latest is compared with


def _rows(conn: psycopg.Connection, name: str, params: dict) -> list[dict]:
    cur = conn.execute(sql("health_alerts", name), params)
    names = [d.name for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def collect_alerts(conn: psycopg.Connection, day: dt.date, config: SpendConfig) -> list[Alert]:
    """Every alert the day's figures raise (posted or not yet)."""
    calls = {r["service"]: int(r["calls"]) for r in _rows(conn, "calls_on", {"day": day})}
    alerts = quota_alerts(calls, config)
    by_dmo: dict[str, list[dict]] = {}
    for r in _rows(conn, "recent_imports", {"history": max(IMPORT_HISTORY, MIN_HISTORY + 1)}):
        by_dmo.setdefault(r["dmo"], []).append(r)
    for dmo, jobs in sorted(by_dmo.items()):
        alerts += import_alerts(dmo, jobs)
    for r in _rows(conn, "enrichment_errors", {"day": day}):
        found = enrichment_alert(r["region"], r["today_errors"] or 0, r["today_total"] or 0,
                                 r["trailing_errors"], r["trailing_total"])
        alerts += [found] if found else []
    return alerts


def post_once(conn: psycopg.Connection, slack: SlackResource, alerts: Sequence[Alert], day: dt.date) -> list[Alert]:
    """Posts the alerts not yet posted today; the ones posted now."""
    posted = []
    conn.commit()  # each alert its own transaction: one failed post keeps those posted before it
    for alert in alerts:
        with conn.transaction():  # the row stays only when Slack took the message
            claimed = conn.execute(sql("health_alerts", "claim_alert"), {
                "kind": alert.kind.value, "subject": alert.subject, "day": day, "message": alert.message}).fetchone()
            if claimed:
                slack.post(alert.message)
                posted.append(alert)
    return posted


def health_digest(conn: psycopg.Connection, day: dt.date) -> str:
    """The digest's text for `day`: health per region now, the day before's spend."""
    regions = [r["region"] for r in _rows(conn, "hotel_regions", {})]
    by_region = {region: pipeline_health(conn, [region]) for region in regions}
    return digest_message(day, by_region, usage_on(conn, day - dt.timedelta(days=1)))


def _today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


class HealthAlertsConfig(Config):
    day: str | None = Field(default=None, description="YYYY-MM-DD (UTC) to judge; None: today")


def _day(config: HealthAlertsConfig) -> dt.date:
    return dt.date.fromisoformat(config.day) if config.day else _today()


@op(description="Posts to Slack, once per kind, subject and day: a service past its quota share, a DMO's "
                "unusual share of duplicates or deletions, a region's enrichment error rate jumping.")
def health_alerts_op(context: OpExecutionContext, config: HealthAlertsConfig, database: Database,
                     slack: SlackResource):
    day = _day(config)
    with database.connect(actor="health_alerts") as conn:
        alerts = collect_alerts(conn, day, load_spend_config())
        if not slack.configured():
            context.log.info(slack.not_configured_message())
            return Output(len(alerts), metadata={"alerts": len(alerts), "posted": 0,
                                                 "skipped": slack.not_configured_message()})
        posted = post_once(conn, slack, alerts, day)
    return Output(len(posted), metadata={"alerts": len(alerts), "posted": len(posted),
                                         "posted_subjects": ", ".join(f"{a.kind}:{a.subject}" for a in posted)})


@op(description="Posts the daily health digest (seed 001's health query per region, yesterday's spend) to Slack.")
def health_digest_op(context: OpExecutionContext, config: HealthAlertsConfig, database: Database,
                     slack: SlackResource):
    day = _day(config)
    with database.connect(actor="health_digest") as conn:
        text = health_digest(conn, day)
        if not slack.configured():
            return Output(0, metadata={"posted": 0, "skipped": slack.not_configured_message()})
        posted = post_once(conn, slack, [Alert(AlertKind.DIGEST, "all", text)], day)
    return Output(len(posted), metadata={"posted": len(posted), "digest": text})


@job(description="Health alerts to Slack: quota share, unusual imports, enrichment error rate jumps.")
def health_alerts_job():
    health_alerts_op()


@job(description="The daily health digest to Slack.")
def health_digest_job():
    health_digest_op()


def build_health_schedules(timezone: str) -> list:
    # they post to Slack: opt in, like every schedule that deletes or sends
    @schedule(cron_schedule="15 * * * *", job=health_alerts_job, execution_timezone=timezone,
              default_status=DefaultScheduleStatus.STOPPED,
              description="Hourly, once turned on: health alerts to Slack (each once per day).")
    def health_alerts_schedule(context: ScheduleEvaluationContext):
        return RunRequest()

    @schedule(cron_schedule="0 7 * * *", job=health_digest_job, execution_timezone=timezone,
              default_status=DefaultScheduleStatus.STOPPED,
              description="07:00 daily, once turned on: the health digest to Slack.")
    def health_digest_schedule(context: ScheduleEvaluationContext):
        try:
            day = (context.scheduled_execution_time or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).date()
        except Exception:  # a context built without a tick time (a manual evaluation)
            day = _today()
        return RunRequest(run_key=f"health-digest-{day.isoformat()}",
                          run_config={"ops": {"health_digest_op": {"config": {"day": day.isoformat()}}}})

    return [health_alerts_schedule, health_digest_schedule]

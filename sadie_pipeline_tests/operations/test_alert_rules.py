"""Health alerts on the sandbox's Slack: a service past its quota share, a DMO's unusual import, a
region's enrichment error rate jumping; each posted once per day and none on ordinary data; and the
daily health digest (seed 001's health query)."""

from __future__ import annotations

import datetime as dt

import pytest
from dagster import RunConfig

from sadie_pipeline.core.alert_rules import AlertKind, enrichment_alert, import_alerts, quota_alerts, unusual
from sadie_pipeline.core.spend import SpendConfig
from sadie_pipeline.definitions import defs
from sadie_pipeline.operations.health_alerts import HealthAlertsConfig, health_alerts_job, health_digest_job
from sadie_pipeline.resource_defs import configured
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline_tests.hotels.leads_data import add_hotel


def _jobs(*shares: float, total: int = 100, column: str = "records_duplicates") -> list[dict]:
    """Imports newest first, each with `share` of its records in `column`."""
    return [{"job_id": 10 - i, "records_total": total, "records_duplicates": 0, "records_deleted": 0,
             column: round(s * total)} for i, s in enumerate(shares)]


def test_the_rules():
    assert unusual(0.25, 0.0) and not unusual(0.15, 0.0)  # from nothing: the 20-point floor
    assert unusual(0.61, 0.3) and not unusual(0.59, 0.3)  # from 30 %: twice the usual
    assert [a.kind for a in import_alerts("pei", _jobs(0.5, 0.05, 0.04, 0.06))] == [AlertKind.IMPORT_DUPLICATES]
    assert [a.kind for a in import_alerts("pei", _jobs(0.4, 0.0, 0.0, 0.01, column="records_deleted"))] == \
        [AlertKind.IMPORT_DELETIONS]
    assert import_alerts("pei", _jobs(0.5, 0.05, 0.04)) == []  # too few imports to know what is usual
    assert import_alerts("pei", _jobs(0.08, 0.05, 0.04, 0.06)) == []
    assert enrichment_alert("US-GA", 6, 12, 1, 50) is not None
    assert enrichment_alert("US-GA", 6, 9, 1, 50) is None  # too few items today
    assert enrichment_alert("US-GA", 3, 12, 10, 50) is None  # 25 % against 20 %: no jump
    config = SpendConfig(daily_quotas={"serper": 100}, quota_alert_share=0.8)
    [alert] = quota_alerts({"serper": 80, "groq": 5000, "rdap": 3}, config)
    assert alert.subject == "serper" and "80 of its 100" in alert.message


def _slack_env(sb: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in sb.client_env().items():
        monkeypatch.setenv(name, value)


def _imports(conn, dmo: str, *shares: float) -> None:
    """`dmo`'s imports, oldest first, each with `share` duplicates of 100 records."""
    dmo_id = conn.execute("INSERT INTO public.dmos (slug, name) VALUES (%s, %s) RETURNING id", (dmo, dmo)).fetchone()[0]
    for n, share in enumerate(shares):
        job = conn.execute("INSERT INTO pipeline.jobs (dmo_id, status, stage, source_key) "
                           "VALUES (%s, 'succeeded', 'promoted', %s) RETURNING id", (dmo_id, f"inbox/{n}.csv")).fetchone()[0]
        conn.execute("INSERT INTO pipeline.job_results (job_id, records_total, records_duplicates, records_deleted) "
                     "VALUES (%s, 100, %s, 1)", (job, round(share * 100)))


def _enrichment(conn, region: str, failing_today: int) -> None:
    """12 hotels of the region enriched three days ago (one failure then) and today, with
    `failing_today` of them failing a layer today."""
    hotels = [add_hotel(conn, f"{region} Hotel {n}", region=region) for n in range(12)]
    conn.execute("UPDATE sadie_gtm.hotel_owner_enrichment SET updated_at = now() - interval '3 days' "
                 "WHERE hotel_id = ANY(%s)", (hotels[:10],))
    conn.execute("INSERT INTO pipeline.dead_letters (item_key, layer, error_class, attempts, last_failed_at) "
                 "VALUES (%s, 'rdap_owner', 'transient', 3, now() - interval '3 days')", (f"hotel:{hotels[11]}",))
    for hotel in hotels[:failing_today]:
        conn.execute("INSERT INTO pipeline.dead_letters (item_key, layer, error_class, attempts) "
                     "VALUES (%s, 'room_counts', 'transient', 3)", (f"hotel:{hotel}",))


def _run(job, database, **config):
    result = job.execute_in_process(resources={"database": database, "slack": configured("slack")},
                                    run_config=RunConfig(ops={job.nodes[0].name: HealthAlertsConfig(**config)}))
    assert result.success
    return result


def test_each_alert_fires_once_a_day(database, sb: Sandbox, monkeypatch):
    _slack_env(sb, monkeypatch)
    assert defs.get_job_def("health_alerts_job") and defs.get_schedule_def("health_digest_schedule")
    today = dt.datetime.now(dt.UTC).date()
    with database.connect() as conn:
        conn.execute("INSERT INTO pipeline.service_usage (day, service, calls) VALUES (%s, 'serper', 2100), "
                     "(%s, 'groq', 10)", (today, today))  # 84 % of serper's 2500
        _imports(conn, "visit-pei", 0.05, 0.04, 0.06, 0.55)
        _imports(conn, "visit-sc", 0.05, 0.04, 0.06, 0.07)
        _enrichment(conn, "US-GA", failing_today=9)
        _enrichment(conn, "US-FL", failing_today=1)

    _run(health_alerts_job, database)
    texts = [m["text"] for m in sb.inspect("slack")["messages"]]
    assert len(texts) == 3, texts
    assert any("*serper* used 2,100 of its 2,500" in t for t in texts)
    assert any("*visit-pei*" in t and "55% duplicates" in t for t in texts)
    assert any("*US-GA*" in t and "enrichment error rate" in t for t in texts)
    assert not any("visit-sc" in t or "US-FL" in t or "groq" in t for t in texts)

    with database.connect() as conn:  # more calls the same day: already announced
        conn.execute("UPDATE pipeline.service_usage SET calls = 2400 WHERE service = 'serper'")
    _run(health_alerts_job, database)
    assert len(sb.inspect("slack")["messages"]) == 3
    with database.connect() as conn:
        sent = conn.execute("SELECT kind, subject, day FROM pipeline.alerts_sent ORDER BY kind").fetchall()
    assert sent == [("enrichment_errors", "US-GA", today), ("import_duplicates", "visit-pei", today),
                    ("quota", "serper", today)]

    _run(health_digest_job, database)
    _run(health_digest_job, database)  # once a day
    messages = sb.inspect("slack")["messages"]
    assert len(messages) == 4
    digest = messages[-1]["text"]
    assert digest.startswith(f":bar_chart: *Pipeline health, {today.isoformat()}*")
    assert "*US-FL*: 12 complete" in digest and "*US-GA*" in digest and "open dead letters" in digest


def test_ordinary_data_raises_no_alert(database, sb: Sandbox, monkeypatch):
    _slack_env(sb, monkeypatch)
    today = dt.datetime.now(dt.UTC).date()
    with database.connect() as conn:
        conn.execute("INSERT INTO pipeline.service_usage (day, service, calls) VALUES (%s, 'serper', 1500)", (today,))
        _imports(conn, "visit-pei", 0.05, 0.04, 0.06, 0.08)
        _enrichment(conn, "US-FL", failing_today=1)
    result = _run(health_alerts_job, database)
    assert sb.inspect("slack")["messages"] == []
    [materialized] = [e for e in result.all_events if e.event_type_value == "STEP_OUTPUT"]
    assert materialized.event_specific_data.metadata["alerts"].value == 0


def test_without_slack_nothing_is_recorded(database, monkeypatch):
    monkeypatch.delenv("SADIE_SLACK_BOT_TOKEN", raising=False)
    with database.connect() as conn:
        conn.execute("INSERT INTO pipeline.service_usage (day, service, calls) VALUES (current_date, 'serper', 2500)")
    _run(health_alerts_job, database)
    with database.connect() as conn:  # announced once Slack is configured
        assert conn.execute("SELECT count(*) FROM pipeline.alerts_sent").fetchone()[0] == 0


def test_the_digest_schedule_runs_once_a_day():
    from dagster import build_schedule_context

    schedule = defs.get_schedule_def("health_digest_schedule")
    moment = dt.datetime(2026, 11, 29, 7, 0, tzinfo=dt.UTC)
    [request] = list(schedule.evaluate_tick(build_schedule_context(scheduled_execution_time=moment)).run_requests)
    assert request.run_key == "health-digest-2026-11-29"
    assert request.run_config["ops"]["health_digest_op"]["config"]["day"] == "2026-11-29"

"""The hotel pipeline left alone: the daily launch schedule, the export after each launch, the
re-enrichment of stale layers, the health figures, and failed runs announced in Slack."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from dagster import (
    DagsterEventType,
    RunRequest,
    SkipReason,
    build_run_status_sensor_context,
    build_schedule_context,
    job,
    materialize,
    op,
)

from sadie_pipeline.core.enrichment.layers import LAYER_ROOM_COUNT
from sadie_pipeline.core.hotel_status import ENRICHED_OR_LATER, HotelStatus
from sadie_pipeline.definitions import defs
from sadie_pipeline.hotels.enrichment.common import LayerConfig, hotels_needing
from sadie_pipeline.hotels.lead_assets import pipeline_health
from sadie_pipeline.hotels.schedules import DEFAULT_TIMEZONE
from sadie_pipeline.hotels.sensors import export_after_launch_sensor, slack_on_run_failure
from sadie_pipeline.io_managers import POSTGRES_IO_MANAGER, PostgresPandasIOManager, io_manager_resources
from sadie_pipeline.resource_defs import configured
from sadie_pipeline_tests.hotels.leads_data import add_hotel

SIX_AM = dt.datetime(2026, 11, 26, 6, 0, tzinfo=dt.timezone(dt.timedelta(hours=-5)))


def _schedule(name):
    return defs.get_schedule_def(name)


def test_daily_launch_runs_at_six_for_each_region_with_scored_hotels(database):
    schedule = _schedule("daily_launch_schedule")
    assert schedule.cron_schedule == "0 6 * * *" and schedule.execution_timezone == DEFAULT_TIMEZONE
    context = build_schedule_context(resources={"database": database}, scheduled_execution_time=SIX_AM)
    assert isinstance(schedule(context), SkipReason)
    with database.connect() as conn:
        add_hotel(conn, "Scored Inn", status=HotelStatus.SCORED)
        add_hotel(conn, "Georgia Scored", region="US-GA", city="Savannah", status=HotelStatus.SCORED)
        add_hotel(conn, "Already Live", region="US-NY", city="Albany", status=HotelStatus.LIVE)
    requests = schedule(build_schedule_context(resources={"database": database}, scheduled_execution_time=SIX_AM))
    assert [(r.partition_key, r.run_key) for r in requests] == [
        ("US-FL", "launch-2026-11-26-US-FL"), ("US-GA", "launch-2026-11-26-US-GA")]


def test_reenrichment_refreshes_only_layers_older_than_the_configured_age(database, monkeypatch):
    monkeypatch.setenv("SADIE_REENRICH_AFTER_DAYS", "30")
    with database.connect() as conn:
        fresh = add_hotel(conn, "Fresh Inn")
        stale = add_hotel(conn, "Stale Inn")
        old = (dt.datetime.now(dt.UTC) - dt.timedelta(days=45)).isoformat()
        conn.execute("""UPDATE sadie_gtm.hotel_owner_enrichment
                           SET layer_updated_at = layer_updated_at || jsonb_build_object('room_counts', %s::text)
                         WHERE hotel_id = %s""", (old, stale))
        conn.execute("UPDATE sadie_gtm.hotel_owner_enrichment SET layer_updated_at = %s WHERE hotel_id = %s",
                     (json.dumps({"room_counts": dt.datetime.now(dt.UTC).isoformat()}), fresh))
    [request] = _schedule("reenrichment_schedule")(build_schedule_context(resources={"database": database}))
    assert isinstance(request, RunRequest) and request.partition_key == "US-FL"
    layer_config = request.run_config["ops"]["room_counts"]["config"]
    assert layer_config == {"force_refresh": True, "stale_after_days": 30}
    with database.connect() as conn:
        picked = hotels_needing(conn, "US-FL", LAYER_ROOM_COUNT, LayerConfig(**layer_config))
        everyone = hotels_needing(conn, "US-FL", LAYER_ROOM_COUNT, LayerConfig(force_refresh=True))
        nothing = hotels_needing(conn, "US-FL", LAYER_ROOM_COUNT, LayerConfig())
    assert [h["id"] for h in picked] == [stale]
    assert sorted(h["id"] for h in everyone) == sorted([fresh, stale]) and nothing == []


def _launch_run(instance, database, dry_run=False):
    launch_job = defs.resolve_job_def("lead_launch_job")
    result = launch_job.execute_in_process(
        instance=instance, partition_key="US-FL",
        resources={"database": database, POSTGRES_IO_MANAGER: PostgresPandasIOManager(database=database)},
        run_config={"ops": {"launched_leads": {"config": {"dry_run": dry_run}}}})
    assert result.success
    return result


def test_the_export_follows_each_successful_launch(database, instance):
    result = _launch_run(instance, database)
    context = build_run_status_sensor_context(
        sensor_name="export_after_launch_sensor", dagster_instance=instance, dagster_run=result.dagster_run,
        dagster_event=result.get_run_success_event())
    request = export_after_launch_sensor(context)
    assert isinstance(request, RunRequest) and request.partition_key == "US-FL"
    assert request.run_key == f"export-after-{result.run_id}"

    dry = _launch_run(instance, database, dry_run=True)
    context = build_run_status_sensor_context(
        sensor_name="export_after_launch_sensor", dagster_instance=instance, dagster_run=dry.dagster_run,
        dagster_event=dry.get_run_success_event())
    assert isinstance(export_after_launch_sensor(context), SkipReason)


@op
def fails():
    raise RuntimeError("the hotel site refused us")


@job
def failing_job():
    fails()


def test_a_failed_run_is_announced_in_slack(instance, sb, monkeypatch):
    for name, value in sb.client_env().items():
        monkeypatch.setenv(name, value)
    result = failing_job.execute_in_process(instance=instance, raise_on_error=False)
    failure = next(e for e in result.all_events if e.event_type == DagsterEventType.RUN_FAILURE)
    context = build_run_status_sensor_context(
        sensor_name="slack_on_run_failure", dagster_instance=instance, dagster_run=result.dagster_run,
        dagster_event=failure, resources={"slack": configured("slack")}).for_run_failure()
    slack_on_run_failure(context)
    [message] = sb.inspect("slack")["messages"]
    assert "failing_job" in message["text"] and result.run_id[:8] in message["text"]
    assert "xoxb" not in message["text"]


def test_without_slack_the_failure_sensor_says_so(instance, monkeypatch):
    monkeypatch.delenv("SADIE_SLACK_BOT_TOKEN", raising=False)
    result = failing_job.execute_in_process(instance=instance, raise_on_error=False)
    failure = next(e for e in result.all_events if e.event_type == DagsterEventType.RUN_FAILURE)
    context = build_run_status_sensor_context(
        sensor_name="slack_on_run_failure", dagster_instance=instance, dagster_run=result.dagster_run,
        dagster_event=failure, resources={"slack": configured("slack")}).for_run_failure()
    skipped = slack_on_run_failure(context)
    assert isinstance(skipped, SkipReason) and "SADIE_SLACK_BOT_TOKEN" in skipped.skip_message


@pytest.mark.parametrize("status, stage", [(HotelStatus.SCORED, "scored"), (HotelStatus.LIVE, "launched"),
                                           (HotelStatus.EXPORTED, "exported"),
                                           (HotelStatus.NO_BOOKING_ENGINE, "no_booking_engine")])
def test_pipeline_health_reports_figures_the_ui_can_plot(database, local_object_store, instance, status, stage):
    with database.connect() as conn:
        add_hotel(conn, "Figures Inn", status=status, people=[{"full_name": "Ann Lee", "email": "ann@f.com",
                                                               "email_verified": True}])
        add_hotel(conn, "Second Inn", status=HotelStatus.ENRICHED)
    result = materialize([pipeline_health], instance=instance,
                         resources={"database": database, **io_manager_resources(database, local_object_store)})
    [event] = result.asset_materializations_for_node("pipeline_health")
    stored = json.loads(local_object_store.get_bytes("assets/pipeline_health.json"))   # the value, as JSON
    assert stored["stages"][stage] == 1 and stored["health"]["verified_emails"] == 1
    figures = {k: v.value for k, v in event.metadata.items() if k != "path"}  # "path": where the IO manager put it
    assert figures[f"stage_{stage}"] == 1 and figures["hotels"] == 2
    assert figures["verified_emails"] == 1 and figures["hotels_with_contacts"] == 1
    assert figures["has_room_count"] == 2 and figures["complete"] == (2 if status in ENRICHED_OR_LATER else 1)
    assert all(isinstance(v, (int, float)) for v in figures.values())

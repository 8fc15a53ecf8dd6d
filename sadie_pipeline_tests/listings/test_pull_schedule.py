"""Pulled sources on their DMO's schedule: the config's check, the next run, and the pull sensor's
run requests against the real database (a schedule changed in the database needs no deploy)."""

from __future__ import annotations

import datetime as dt

import pytest
from dagster import SkipReason, build_sensor_context

from sadie_pipeline.core.config import ConfigError, merge_config
from sadie_pipeline.core.schedules import latest_due, next_run
from sadie_pipeline.listings.pull_schedule import dmo_pull_sensor, due_pulls
from sadie_pipeline.listings.repository import upsert_dmo
from sadie_pipeline_tests.listings.helpers import register

NOW = dt.datetime(2026, 11, 27, 8, 30, tzinfo=dt.UTC)
WORDPRESS = {"source_type": "wordpress", "url": "http://127.0.0.1:9/wp-json/wp/v2/listing"}


@pytest.mark.parametrize(("schedule", "after", "due"), [
    ("hourly", "2026-11-27T09:00:00+00:00", "2026-11-27T08:00:00+00:00"),
    ("daily", "2026-11-28T03:00:00+00:00", "2026-11-27T03:00:00+00:00"),
    ("weekly", "2026-11-30T03:00:00+00:00", "2026-11-23T03:00:00+00:00"),
    ("*/20 * * * *", "2026-11-27T08:40:00+00:00", "2026-11-27T08:20:00+00:00"),
])
def test_next_run_and_latest_due_tick(schedule, after, due):
    assert next_run(schedule, NOW).isoformat() == after
    assert latest_due(schedule, NOW).isoformat() == due
    assert next_run("manual", NOW) is None and latest_due("manual", NOW) is None


@pytest.mark.parametrize("bad", ["sometimes", "0 3 * *", "61 * * * *"])
def test_a_bad_schedule_is_named_in_the_config(bad):
    with pytest.raises(ConfigError, match=r"^import.schedule: should be manual, hourly, daily, weekly or a cron"):
        merge_config({"import": {**WORDPRESS, "schedule": bad}})


def test_due_pulls_only_for_pulled_sources_on_a_schedule():
    rows = [("wp", "hourly", {"import": WORDPRESS}),
            ("files", "daily", {"import": {"source_type": "csv"}}),           # files come by the inbox
            ("feed", "daily", {"import": {"source_type": "jsonl", "url": "http://127.0.0.1:9/feed.jsonl"}}),
            ("gone", "hourly", {"import": WORDPRESS})]                        # no partition (yet)
    requests, skipped = due_pulls(rows, NOW, {"wp", "files", "feed"})
    assert [(r.partition_key, r.run_key) for r in requests] == [
        ("wp", "pull:wp:2026-11-27T08:00:00+00:00"), ("feed", "pull:feed:2026-11-27T03:00:00+00:00")]
    assert skipped == ["files: source csv has no url to pull (files come by the inbox)"]


def test_the_sensor_reads_schedules_from_the_database(database, instance):
    context = build_sensor_context(instance=instance, resources={"database": database})
    register(database, instance, "wp-dmo", {"import": {**WORDPRESS, "schedule": "hourly"}})
    register(database, instance, "manual-dmo", {"import": WORDPRESS})
    [request] = dmo_pull_sensor(context)
    assert request.partition_key == "wp-dmo" and request.run_key.startswith("pull:wp-dmo:")
    assert request.tags["sadie/schedule"] == "hourly"

    # a schedule changed in the database takes effect at the next tick, without a deploy
    with database.connect() as conn:
        upsert_dmo(conn, "wp-dmo", "Wp Dmo", {"import": {**WORDPRESS, "schedule": "manual"}})
    assert isinstance(dmo_pull_sensor(context), SkipReason)
    with database.connect() as conn:
        upsert_dmo(conn, "manual-dmo", "Manual Dmo", {"import": {**WORDPRESS}, "schedule": "*/5 * * * *"})
    [request] = dmo_pull_sensor(context)     # the older top-level `schedule` still counts
    assert request.partition_key == "manual-dmo"

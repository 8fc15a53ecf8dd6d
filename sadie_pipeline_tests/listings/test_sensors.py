"""Sensors, evaluated with build_sensor_context against the real database and object store."""

from __future__ import annotations

import json

from dagster import build_sensor_context

from sadie_pipeline.listings.sensors import dmo_inbox_sensor, dmo_partitions_sensor
from sadie_pipeline_tests.listings.helpers import drop_in_inbox, import_file, register, sample


def _tick(instance, database, store, cursor=None):
    context = build_sensor_context(instance=instance, cursor=cursor,
                                   resources={"database": database, "object_store": store})
    return dmo_inbox_sensor(context)


def test_one_run_per_new_inbox_file_and_never_twice(database, local_object_store, instance):
    register(database, instance, "visit-pei")
    key = drop_in_inbox(local_object_store, "visit-pei", sample("visit-pei.csv"))

    first = _tick(instance, database, local_object_store)
    [request] = first.run_requests
    assert request.partition_key == "visit-pei" and request.run_key == key
    assert request.run_config["ops"]["listing_raw_files"]["config"]["inbox_key"] == key

    again = _tick(instance, database, local_object_store, cursor=first.cursor)
    assert again.run_requests == []


def test_files_imported_elsewhere_are_not_requested(database, local_object_store, instance):
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))  # e.g. by `sadie import`
    result = _tick(instance, database, local_object_store)
    assert result.run_requests == []
    assert json.loads(result.cursor) == {"visit-pei": []}

    newer = drop_in_inbox(local_object_store, "visit-pei", sample("visit-pei.revision.csv"))
    assert [r.run_key for r in _tick(instance, database, local_object_store, result.cursor).run_requests] == [newer]


def test_dmos_without_a_partition_get_one(database, local_object_store, instance):
    register(database, instance, "visit-pei")
    with database.connect() as conn:
        conn.execute("INSERT INTO public.dmos (slug, name) VALUES ('made-in-admin-app', 'Admin App DMO')")
    context = build_sensor_context(instance=instance, resources={"database": database})
    result = dmo_partitions_sensor(context)
    [request] = result.dynamic_partitions_requests
    assert request.partitions_def_name == "dmo" and list(request.partition_keys) == ["made-in-admin-app"]

"""Sensors: register DMO partitions, and start one import run per new inbox file."""


import json

from dagster import (
    AddDynamicPartitionsRequest,
    DefaultSensorStatus,
    RunRequest,
    SensorEvaluationContext,
    SensorResult,
    SkipReason,
    sensor,
)

from sadie_pipeline.listings.importer import pending_inbox_keys
from sadie_pipeline.listings.jobs import listing_import_job
from sadie_pipeline.listings.repository import Dmo
from sadie_pipeline.partitions import DMO_PARTITIONS_NAME
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore


@sensor(minimum_interval_seconds=60, default_status=DefaultSensorStatus.RUNNING,
        description="Adds a dmo partition for every DMO in public.dmos that has none (one added in the web app).")
def dmo_partitions_sensor(context: SensorEvaluationContext, database: Database) -> SensorResult | SkipReason:
    """Adds a `dmo` partition for every DMO in public.dmos that has none (e.g. created by the admin app)."""
    with database.connect() as conn:
        slugs = [r[0] for r in conn.execute("SELECT slug FROM public.dmos ORDER BY slug")]
    known = set(context.instance.get_dynamic_partitions(DMO_PARTITIONS_NAME))
    missing = [s for s in slugs if s not in known]
    if not missing:
        return SkipReason("every DMO has its partition")
    return SensorResult(dynamic_partitions_requests=[AddDynamicPartitionsRequest(DMO_PARTITIONS_NAME, missing)])


@sensor(job=listing_import_job, minimum_interval_seconds=30, default_status=DefaultSensorStatus.RUNNING,
        description="One import run per new file under inbox/{dmo}/ in the object store; a file already "
                    "imported (say by `sadie import`) is skipped, so each file is imported once.")
def dmo_inbox_sensor(context: SensorEvaluationContext, database: Database, object_store: ObjectStore) -> SensorResult:
    """One run per new file under inbox/{dmo}/. The run key is the file's key, and files a job has
    already imported (say through `sadie import`) are skipped, so each file is imported once."""
    requested: dict[str, list[str]] = json.loads(context.cursor) if context.cursor else {}
    partitions = set(context.instance.get_dynamic_partitions(DMO_PARTITIONS_NAME))
    with database.connect() as conn:
        # an inactive DMO's files wait in the inbox until it is active again
        dmos = [Dmo(*r) for r in conn.execute(
            "SELECT id, slug, name, source_type FROM public.dmos WHERE active ORDER BY slug")]
    run_requests = []
    cursor: dict[str, list[str]] = {}
    for dmo in dmos:
        if dmo.slug not in partitions:
            continue
        pending = pending_inbox_keys(database, object_store, dmo)
        seen = set(requested.get(dmo.slug, []))
        for key in pending:
            if key not in seen:
                run_requests.append(RunRequest(
                    run_key=key,
                    partition_key=dmo.slug,
                    run_config={"ops": {"listing_raw_files": {"config": {"inbox_key": key}}}},
                    tags={"sadie/inbox_key": key},
                ))
        # Keep only keys still pending: the cursor stays small however many files pass through.
        cursor[dmo.slug] = sorted(seen.union(pending).intersection(pending))
    return SensorResult(run_requests=run_requests, cursor=json.dumps(cursor))

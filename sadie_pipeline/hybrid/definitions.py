"""The cloud side in Dagster: `hybrid_queue_sensor` long-polls the prospects queue and launches
`hybrid_enrichment_job` runs, one per region (the region partitions) and at most `run_size`
messages each, with the messages' bodies and receipt handles in the run config; the run enriches
each domain (hybrid/enrich.py) and deletes its message. Each tick also moves the dead-letter queue's
messages into pipeline.dead_letters (layer `hybrid_enrichment`).

The sensor runs by default when a queue is configured where the definitions load
(SADIE_HYBRID_QUEUE_URL set: the cloud deployment, deploy/hybrid.yaml); without one it is stopped
(a laptop's `make dev` has no queue, and a running sensor would only say so every tick)."""

import hashlib
import os
from collections import defaultdict
from collections.abc import Sequence

from dagster import (
    Config,
    DagsterRunStatus,
    DefaultSensorStatus,
    Definitions,
    OpExecutionContext,
    Output,
    RunRequest,
    RunsFilter,
    SensorDefinition,
    SensorEvaluationContext,
    SensorResult,
    SkipReason,
    job,
    op,
    sensor,
)
from pydantic import Field

from sadie_pipeline.core.errors import ErrorClass, first_line
from sadie_pipeline.core.hybrid import LAYER, Outcome, parse_body
from sadie_pipeline.hybrid.enrich import process_messages
from sadie_pipeline.hybrid.queue import QUEUE_URL_ENV, HybridQueue, Received, hybrid_queue_resource
from sadie_pipeline.metadata import table_preview, table_schema
from sadie_pipeline.partitions import region_partitions
from sadie_pipeline.regions import REGIONS
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.outcomes import ItemOutcome, record_dead_letters
from sadie_pipeline.resources.web import WebsiteFetcher

JOB = "hybrid_enrichment_job"
INTERVAL_ENV = "SADIE_HYBRID_SENSOR_INTERVAL_S"
MAX_RUNS_ENV = "SADIE_HYBRID_MAX_RUNS"
UNFINISHED = [DagsterRunStatus.QUEUED, DagsterRunStatus.NOT_STARTED, DagsterRunStatus.STARTING,
              DagsterRunStatus.STARTED]
_PREVIEW = table_schema(("domain", "string"), ("region", "string"), ("outcome", "string"), ("state", "string"),
                        ("engine", "string"), ("error", "string"))


class QueuedMessage(Config):
    message_id: str
    receipt: str
    body: str
    receive_count: int = 1


class HybridEnrichmentConfig(Config):
    messages: list[QueuedMessage] = Field(default_factory=list)
    """The messages the sensor received for this run (their receipts delete them when done)."""
    max_age_days: float = Field(default=30.0, gt=0)
    """A domain indexed less than this long ago is skipped."""


@op(name="hybrid_enrichment", tags={"kind": "sqs"})
def hybrid_enrichment(context: OpExecutionContext, config: HybridEnrichmentConfig, hybrid_queue: HybridQueue,
                      website_fetcher: WebsiteFetcher, object_store: ObjectStore, database: Database) -> Output:
    """Each received prospect: index fresh -> skipped; else fetched, detected, written to
    enriched/{region}/{domain}.json + .md, indexed; then its message deleted. A failed domain's
    message is left to come back (after max_receive_count, the dead-letter queue)."""
    import datetime as dt

    received = [Received(m.message_id, m.receipt, m.body, m.receive_count) for m in config.messages]
    report = process_messages(hybrid_queue, website_fetcher, object_store, received,
                              max_age=dt.timedelta(days=config.max_age_days))
    done = [ItemOutcome(f"domain:{r.domain}", "ok") for r in report.results if r.outcome is not Outcome.FAILED]
    with database.connect() as conn:
        resolved = record_dead_letters(conn, LAYER, done)["resolved"]  # a domain done now ends its dead letter
    counts = report.counts()
    for r in report.results:
        if r.outcome is Outcome.FAILED:
            context.log.warning(f"{r.domain}: not enriched, its message comes back: {r.error}")
    return Output(counts, metadata={
        "messages": len(received), **counts, "deleted": report.deleted, "dead_letters_resolved": resolved,
        "preview": table_preview(_PREVIEW, ((r.domain, r.region, r.outcome.value, r.state, r.engine, r.error)
                                            for r in report.results[:50]))})


@job(name=JOB, partitions_def=region_partitions,
     description="Enrich the prospects the hybrid queue sensor received for one region (issue 35).")
def hybrid_enrichment_job() -> None:
    hybrid_enrichment()


def dead_letter_outcomes(messages: Sequence[Received]) -> list[ItemOutcome]:
    """The dead-letter queue's messages as dead letters: by domain when the body is a prospect,
    else by message id (with why it could not be read)."""
    out = []
    for m in messages:
        try:
            prospect = parse_body(m.body)
            key, why = f"domain:{prospect.domain}", f"{prospect.region}: not enriched after {m.receive_count - 1} receives"
        except ValueError as exc:
            key, why = f"message:{m.message_id}", f"not a prospect: {first_line(exc)}"
        out.append(ItemOutcome(key, "dead_letter", error_class=ErrorClass.PERMANENT,
                               attempts=max(1, m.receive_count - 1), last_error=why))
    return out


def drain_dead_letters(queue: HybridQueue, database: Database, limit: int = 100) -> int:
    """Records the DLQ's messages in pipeline.dead_letters, then deletes them from the DLQ (in
    that order: a crash in between records one twice, which only adds to its attempts)."""
    got = queue.receive(limit, dead_letters=True, wait_s=0)
    if not got:
        return 0
    with database.connect() as conn:
        record_dead_letters(conn, LAYER, dead_letter_outcomes(got))
    queue.delete([m.receipt for m in got], dead_letters=True)
    return len(got)


def run_requests(messages: Sequence[Received], run_size: int) -> tuple[list[RunRequest], int]:
    """Runs per region of at most run_size messages; (requests, messages left unlaunched because
    unreadable or of an unknown region: they come back, then go to the DLQ)."""
    by_region: dict[str, list[Received]] = defaultdict(list)
    unreadable = 0
    for m in messages:
        try:
            region = parse_body(m.body).region
        except ValueError:
            region = None
        if region not in REGIONS:
            unreadable += 1
            continue
        by_region[region].append(m)
    requests = []
    for region, group in sorted(by_region.items()):
        group.sort(key=lambda m: m.body)  # a domain sent twice lands in one run (which does it once), not two racing
        for i in range(0, len(group), run_size):
            chunk = group[i:i + run_size]
            key = hashlib.sha256("".join(m.receipt for m in chunk).encode()).hexdigest()[:24]
            requests.append(RunRequest(run_key=f"hybrid-{key}", partition_key=region, tags={"sadie/hybrid_messages": str(len(chunk))},
                                       run_config={"ops": {"hybrid_enrichment": {"config": {"messages": [
                                           {"message_id": m.message_id, "receipt": m.receipt, "body": m.body,
                                            "receive_count": m.receive_count} for m in chunk]}}}}))
    return requests, unreadable


def _in_flight(context: SensorEvaluationContext) -> int:
    return context.instance.get_runs_count(RunsFilter(job_name=JOB, statuses=UNFINISHED))


def _max_runs() -> int:
    value = os.environ.get(MAX_RUNS_ENV, "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else 4


def hybrid_queue_tick(context: SensorEvaluationContext, hybrid_queue: HybridQueue,
                      database: Database) -> SensorResult | SkipReason:
    """One tick: the DLQ into pipeline.dead_letters; then, unless enough runs are in flight, up to
    max_messages prospects received and launched as runs."""
    if not hybrid_queue.configured():
        return SkipReason(hybrid_queue.not_configured_message())
    drained = drain_dead_letters(hybrid_queue, database)
    if drained:
        context.log.info(f"{drained} dead-letter message(s) recorded in pipeline.dead_letters ({LAYER})")
    # back-pressure: messages received while runs wait in the run queue would time out and come back
    if _in_flight(context) >= _max_runs():
        return SkipReason(f"{_max_runs()} enrichment runs in flight ({MAX_RUNS_ENV}); receiving later")
    messages = hybrid_queue.receive(max(1, hybrid_queue.max_messages))
    requests, unreadable = run_requests(messages, max(1, hybrid_queue.run_size))
    if unreadable:
        context.log.warning(f"{unreadable} message(s) not prospects of a known region: left to the dead-letter queue")
    if not requests:
        return SkipReason("no prospects on the queue")
    return SensorResult(run_requests=requests)


def build_hybrid_sensor() -> SensorDefinition:
    """The sensor as the environment says now: its interval (SADIE_HYBRID_SENSOR_INTERVAL_S, 30 s)
    and its default status (running when a queue is configured)."""
    interval = os.environ.get(INTERVAL_ENV, "").strip()
    status = DefaultSensorStatus.RUNNING if os.environ.get(QUEUE_URL_ENV, "").strip() else DefaultSensorStatus.STOPPED

    @sensor(name="hybrid_queue_sensor", job=hybrid_enrichment_job, default_status=status,
            minimum_interval_seconds=int(interval) if interval.isdigit() and int(interval) > 0 else 30,
            description="Long-polls the hybrid prospects queue and launches enrichment runs per region; "
                        "records the dead-letter queue's messages in pipeline.dead_letters.")
    def hybrid_queue_sensor(context: SensorEvaluationContext, hybrid_queue: HybridQueue,
                            database: Database) -> SensorResult | SkipReason:
        return hybrid_queue_tick(context, hybrid_queue, database)

    return hybrid_queue_sensor


def hybrid_resources() -> dict[str, HybridQueue]:
    return {"hybrid_queue": hybrid_queue_resource()}


def build_defs() -> Definitions:
    """The job and the sensor; the queue resource (its settings from the environment, as it is now)."""
    return Definitions(jobs=[hybrid_enrichment_job], sensors=[build_hybrid_sensor()], resources=hybrid_resources())

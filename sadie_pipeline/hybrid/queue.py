"""The prospects queue (SQS through boto3) as a Dagster resource, `HybridQueue`, and its settings
from the environment (`hybrid_queue_resource`: an `EnvVar` per variable set, as resource_defs does).

The queue is a standard queue with a redrive policy to its dead-letter queue (deploy/hybrid.yaml):
a message received `max_receive_count` times without being deleted moves there. Receives long-poll
(`wait_time_s`) for at most `SQS_BATCH` messages a call; the visibility timeout given on receive
is longer than a run (`visibility_timeout_s`), so a message being enriched is not handed to a
second run meanwhile, and one whose worker died comes back once it expires.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dagster import ConfigurableResource, EnvVar
from pydantic import Field, PrivateAttr

from sadie_pipeline.core.hybrid import SQS_BATCH, ProspectMessage, batches, bounded_body
from sadie_pipeline.resources.objects import DEFAULT_REGION

QUEUE_URL_ENV = "SADIE_HYBRID_QUEUE_URL"
DLQ_URL_ENV = "SADIE_HYBRID_DLQ_URL"
ENDPOINT_ENV = "SADIE_SQS_ENDPOINT_URL"
ENV_FIELDS = {"queue_url": QUEUE_URL_ENV, "dlq_url": DLQ_URL_ENV, "endpoint_url": ENDPOINT_ENV,
              "region_name": "AWS_DEFAULT_REGION"}
# deploy/hybrid.yaml's queue attributes (test_deploy_config checks they agree)
VISIBILITY_TIMEOUT_S, RETENTION_S, DLQ_RETENTION_S, MAX_RECEIVE_COUNT = 1800, 4 * 86400, 14 * 86400, 3
INT_ENV_FIELDS = {"visibility_timeout_s": "SADIE_HYBRID_VISIBILITY_TIMEOUT_S", "wait_time_s": "SADIE_HYBRID_WAIT_S",
                  "max_messages": "SADIE_HYBRID_MAX_MESSAGES", "run_size": "SADIE_HYBRID_RUN_SIZE"}


def _bounded(value: int, low: int, high: int) -> int:
    return max(low, min(high, int(value)))


class QueueNotConfigured(RuntimeError):
    """No queue URL: a person's setting to make, said in one line."""


@dataclass(frozen=True)
class Received:
    message_id: str       # SQS's own id
    receipt: str          # for delete / change visibility (valid for this receive only)
    body: str
    receive_count: int    # ApproximateReceiveCount, this receive included


@dataclass
class SendReport:
    sent: int = 0
    failed: int = 0
    requests: int = 0
    errors: list[str] | None = None


class HybridQueue(ConfigurableResource):
    """The SQS queue prospects travel on, and its dead-letter queue."""

    queue_url: str | None = Field(default=None, description=f"the prospects queue ({QUEUE_URL_ENV})")
    dlq_url: str | None = Field(default=None, description=f"its dead-letter queue ({DLQ_URL_ENV})")
    endpoint_url: str | None = Field(default=None, description=f"moto / LocalStack endpoint ({ENDPOINT_ENV}); None: AWS")
    region_name: str | None = Field(default=None, description=f"None: {DEFAULT_REGION}")
    # No ge/le bounds on the whole-number fields: Dagster's EnvVar.int stands in as 0 while the
    # definitions load, which a bound refuses; the methods clamp instead (`_bounded`).
    visibility_timeout_s: int | None = Field(
        default=None, description="hidden after a receive: longer than a run, queue wait included; None: the "
                                  "queue's own (VisibilityTimeout in deploy/hybrid.yaml, 1800 s); at most 43200")
    wait_time_s: int = Field(default=10, description="long polling of one receive (0 to 20 s)")
    max_messages: int = Field(default=200, description="messages one sensor tick takes at most (>= 1)")
    run_size: int = Field(default=50, description="messages one enrichment run takes at most (>= 1)")

    _client: Any = PrivateAttr(default=None)

    def configured(self) -> bool:
        return bool((self.queue_url or "").strip())

    def not_configured_message(self) -> str:
        return f"no queue configured: set {QUEUE_URL_ENV} (and {DLQ_URL_ENV}); see deploy/hybrid.yaml"

    def client(self) -> Any:
        if self._client is None:
            import boto3  # here, not at import: every run process loads the definitions, few use the queue

            self._client = boto3.client("sqs", endpoint_url=self.endpoint_url or None,
                                        region_name=self.region_name or DEFAULT_REGION)
        return self._client

    def _url(self) -> str:
        if not self.configured():
            raise QueueNotConfigured(self.not_configured_message())
        return str(self.queue_url)

    def send(self, messages: Iterable[ProspectMessage]) -> SendReport:
        """Batched sends (SQS_BATCH a request); an entry SQS refuses is tried once more alone."""
        url, report = self._url(), SendReport(errors=[])
        for batch in batches(messages):
            entries = [{"Id": m.message_id, "MessageBody": bounded_body(m),
                        "MessageAttributes": {"region": {"DataType": "String", "StringValue": m.region}}}
                       for m in batch]
            answer = self.client().send_message_batch(QueueUrl=url, Entries=entries)
            report.requests += 1
            report.sent += len(answer.get("Successful", []))
            for failed in answer.get("Failed", []):
                retry = next(e for e in entries if e["Id"] == failed["Id"])
                try:
                    self.client().send_message(QueueUrl=url, MessageBody=retry["MessageBody"],
                                               MessageAttributes=retry["MessageAttributes"])
                    report.sent += 1
                except Exception as exc:  # noqa: BLE001 - counted and shown; the other entries went
                    report.failed += 1
                    report.errors.append(f"{failed['Id']}: {failed.get('Message') or exc}")
        return report

    def receive(self, limit: int, *, dead_letters: bool = False, wait_s: int | None = None) -> list[Received]:
        """Up to `limit` messages, SQS_BATCH a call: the first call long-polls, later ones only
        while messages keep coming (an empty answer ends the tick)."""
        url = str(self.dlq_url) if dead_letters else self._url()
        if dead_letters and not (self.dlq_url or "").strip():
            return []
        out: list[Received] = []
        wait = _bounded(self.wait_time_s if wait_s is None else wait_s, 0, 20)
        # the queue's own visibility timeout unless this resource sets one
        hidden = {"VisibilityTimeout": _bounded(self.visibility_timeout_s, 1, 43200)} if self.visibility_timeout_s else {}
        while len(out) < limit:
            answer = self.client().receive_message(
                QueueUrl=url, MaxNumberOfMessages=min(SQS_BATCH, limit - len(out)), WaitTimeSeconds=wait,
                MessageSystemAttributeNames=["ApproximateReceiveCount"], **hidden)
            got = answer.get("Messages", [])
            if not got:
                break
            out += [Received(m["MessageId"], m["ReceiptHandle"], m["Body"],
                             int(m.get("Attributes", {}).get("ApproximateReceiveCount", 1))) for m in got]
            wait = 0  # messages are there: no need to wait for the next ones
        return out

    def delete(self, receipts: Sequence[str], *, dead_letters: bool = False) -> int:
        """Deletes by receipt handle, SQS_BATCH a request; returns how many SQS confirmed."""
        url = str(self.dlq_url) if dead_letters else self._url()
        deleted = 0
        for batch in batches(list(dict.fromkeys(receipts))):
            answer = self.client().delete_message_batch(
                QueueUrl=url, Entries=[{"Id": str(i), "ReceiptHandle": r} for i, r in enumerate(batch)])
            deleted += len(answer.get("Successful", []))
        return deleted

    def counts(self) -> dict[str, int]:
        """Visible and in-flight messages of the queue and the DLQ (GetQueueAttributes)."""
        out = {}
        for name, url in (("queue", self.queue_url), ("dead_letters", self.dlq_url)):
            if (url or "").strip():
                attrs = self.client().get_queue_attributes(QueueUrl=url, AttributeNames=[
                    "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
                out[f"{name}_visible"] = int(attrs["ApproximateNumberOfMessages"])
                out[f"{name}_in_flight"] = int(attrs["ApproximateNumberOfMessagesNotVisible"])
        return out


def hybrid_queue_resource(environ: dict[str, str] | None = None) -> HybridQueue:
    """The queue with an `EnvVar` for each of its variables that is set (blank is unset); a run
    reads them where it executes, the UI shows only the names."""
    import os

    env = os.environ if environ is None else environ
    fields: dict[str, Any] = {name: EnvVar(var) for name, var in ENV_FIELDS.items() if (env.get(var) or "").strip()}
    fields |= {name: EnvVar.int(var) for name, var in INT_ENV_FIELDS.items() if (env.get(var) or "").strip()}
    return HybridQueue(**fields)


def plain_queue(environ: dict[str, str] | None = None) -> HybridQueue:
    """The same settings read now, for the CLI (outside a run)."""
    import os

    env = os.environ if environ is None else environ
    fields: dict[str, Any] = {name: env[var] for name, var in ENV_FIELDS.items() if (env.get(var) or "").strip()}
    for name, var in INT_ENV_FIELDS.items():
        if (env.get(var) or "").strip():
            try:
                fields[name] = int(env[var])
            except ValueError:
                raise QueueNotConfigured(f"{var} should be a whole number, not {env[var]!r}") from None
    return HybridQueue(**fields)


def create_queues(name: str, *, endpoint_url: str | None, region_name: str | None = None,
                  max_receive_count: int = MAX_RECEIVE_COUNT, visibility_timeout_s: int = VISIBILITY_TIMEOUT_S,
                  retention_s: int = RETENTION_S) -> dict[str, str]:
    """The queue and its DLQ with the redrive policy of deploy/hybrid.yaml (tests, the demo and the
    benchmark on moto; production creates them from that file). Returns the variables to set."""
    import boto3

    sqs = boto3.client("sqs", endpoint_url=endpoint_url, region_name=region_name or DEFAULT_REGION)
    dlq_url = sqs.create_queue(QueueName=f"{name}-dlq", Attributes={"MessageRetentionPeriod": str(DLQ_RETENTION_S)})["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    queue_url = sqs.create_queue(QueueName=name, Attributes={
        "VisibilityTimeout": str(visibility_timeout_s), "MessageRetentionPeriod": str(retention_s),
        "ReceiveMessageWaitTimeSeconds": "10",
        "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": str(max_receive_count)})})["QueueUrl"]
    env = {QUEUE_URL_ENV: queue_url, DLQ_URL_ENV: dlq_url}
    if endpoint_url:
        env[ENDPOINT_ENV] = endpoint_url
    return env

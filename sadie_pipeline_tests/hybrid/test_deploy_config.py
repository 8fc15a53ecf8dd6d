"""deploy/hybrid.yaml agrees with the code: the variables it sets are the ones the code reads, the
queue attributes are those the tests and the demo create, and each role has the actions its
side calls."""

from __future__ import annotations

from pathlib import Path

import yaml

from sadie_pipeline.hybrid import definitions, queue

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "hybrid.yaml"


def _config() -> dict:
    return yaml.safe_load(DEPLOY.read_text())


def test_variables_are_the_ones_the_code_reads() -> None:
    known = {*queue.ENV_FIELDS.values(), *queue.INT_ENV_FIELDS.values(), definitions.INTERVAL_ENV, definitions.MAX_RUNS_ENV}
    config = _config()
    assert set(config["environment"]) <= known
    assert {queue.QUEUE_URL_ENV, queue.DLQ_URL_ENV} <= set(config["run_launcher"]["config"]["env_vars"])


def test_queue_attributes_match_the_code() -> None:
    attrs = _config()["queues"]["prospects"]["attributes"]
    assert int(attrs["VisibilityTimeout"]) == queue.VISIBILITY_TIMEOUT_S
    assert int(attrs["MessageRetentionPeriod"]) == queue.RETENTION_S
    assert int(attrs["RedrivePolicy"]["maxReceiveCount"]) == queue.MAX_RECEIVE_COUNT
    assert attrs["RedrivePolicy"]["deadLetterTargetArn"].endswith(_config()["queues"]["dead_letters"]["name"])
    dlq = _config()["queues"]["dead_letters"]["attributes"]
    assert int(dlq["MessageRetentionPeriod"]) == queue.DLQ_RETENTION_S


def _actions(policy: dict) -> set[str]:
    return {a for statement in policy["Statement"] for a in statement["Action"]}


def test_each_role_may_do_what_its_side_does() -> None:
    iam = _config()["iam"]
    assert {"sqs:SendMessage", "s3:GetObject", "s3:ListBucket"} <= _actions(iam["scraper"])
    assert {"sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"} <= _actions(iam["sensor"])
    assert {"sqs:DeleteMessage", "sqs:ChangeMessageVisibility", "s3:GetObject", "s3:PutObject",
            "s3:ListBucket"} <= _actions(iam["workers"])


def test_the_definitions_load_with_deploy_settings(monkeypatch) -> None:
    """Every variable of the file set (numbers included, which Dagster reads as EnvVar.int): the
    definitions load, the sensor runs by default, and the queue reads the numbers."""
    from dagster import DefaultSensorStatus

    from sadie_pipeline.definitions import build_defs

    for name, value in _config()["environment"].items():
        monkeypatch.setenv(name, value.replace("${AWS_REGION}", "us-east-1").replace("${AWS_ACCOUNT_ID}", "123456789012"))
    defs = build_defs()
    assert defs.resolve_sensor_def("hybrid_queue_sensor").default_status == DefaultSensorStatus.RUNNING
    assert queue.plain_queue().run_size == 50 and queue.plain_queue().max_messages == 200

"""The hybrid scenario's world: the sandbox (Serper, hotel websites), moto's S3 and SQS over HTTP,
the session's PostgreSQL database; `hybrid_env` is the environment of both sides (the person's
machine and the cloud workers share the bucket and the queue)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import boto3
import pytest

from sadie_pipeline.hybrid.queue import HybridQueue, plain_queue
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.settings import environ
from sadie_pipeline_tests.fixtures.sqs import make_queues, sqs_queues  # noqa: F401 - fixtures

REGION = "US-FL"


@dataclass
class Hybrid:
    env: dict[str, str]
    queue: HybridQueue
    store: ObjectStore
    database: Database
    sb: Sandbox
    tmp: Path


@pytest.fixture
def hybrid(tmp_path: Path, s3_server: str, sb: Sandbox, database: Database,
           make_queues: Callable[..., dict[str, str]],  # noqa: F811 - the fixture imported above
           request: pytest.FixtureRequest) -> Iterator[Hybrid]:
    """The environment set for the test (restored after); the queue's visibility timeout from the
    test's `visibility` marker (default 60 s)."""
    marker = request.node.get_closest_marker("visibility")
    bucket = f"hybrid-{uuid.uuid4().hex[:10]}"
    boto3.client("s3", endpoint_url=s3_server, region_name="us-east-1").create_bucket(Bucket=bucket)
    sb.configure("sites", hang_s=1.0)  # the world's "timeout" site hangs 1 s, not 30
    env = {**sb.client_env(), **make_queues(visibility_timeout_s=marker.args[0] if marker else 60),
           "SADIE_S3_BUCKET": bucket, "SADIE_S3_ENDPOINT_URL": s3_server, "SADIE_DATABASE_URL": database.url,
           "SADIE_HOME": str(tmp_path / "sadie"), "DAGSTER_HOME": str(tmp_path / "dagster"),
           "SADIE_HYBRID_WAIT_S": "1"}
    (tmp_path / "dagster").mkdir()
    with environ(env):
        yield Hybrid(env, plain_queue(), ObjectStore(bucket=bucket, endpoint_url=s3_server), database, sb, tmp_path)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "visibility(seconds): the hybrid queue's visibility timeout")

"""Production-shaped: the Dagster webserver and daemon on PostgreSQL storage (dagster-postgres),
a backfill of three regions launched through the GraphQL API, as the UI does, run by the
daemon to the end; then the exports (object store, the sandbox's OneDrive and Slack) and the
database. Three consecutive regions under the single-run backfill policy are one run."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from sadie_pipeline.resources.database import to_sqlalchemy_url
from sadie_pipeline_tests.fixtures.dagster_services import dagster_webserver
from sadie_pipeline_tests.fixtures.postgres import database_name, database_url
from sadie_pipeline_tests.hotels.leads_data import add_hotel

pytestmark = pytest.mark.slow

REGIONS = ["US-DC", "US-FL", "US-GA"]   # consecutive partition keys
ASSETS = ["golden_hotels", "lead_scores", "launched_leads", "lead_exports"]
DONE = {"COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED"}
INSTANCE = ("storage:\n  postgres:\n    postgres_url:\n      env: SADIE_DAGSTER_PG_URL\n"
            "run_coordinator:\n  module: dagster.core.run_coordinator\n  class: QueuedRunCoordinator\n"
            "concurrency:\n  runs:\n    max_concurrent_runs: 4\n  pools:\n    default_limit: 2\n"
            "telemetry:\n  enabled: false\n")

LAUNCH_BACKFILL = """
mutation Launch($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
    __typename
    ... on LaunchBackfillSuccess { backfillId }
    ... on PythonError { message stack }
    ... on InvalidSubsetError { message }
    ... on UnauthorizedError { message }
  }
}"""
BACKFILL_STATUS = """
query Status($id: String!) {
  partitionBackfillOrError(backfillId: $id) {
    __typename
    ... on PartitionBackfill { status numPartitions }
    ... on PythonError { message }
  }
}"""
BACKFILL_RUNS = """
query Runs($id: String!) {
  runsOrError(filter: {tags: [{key: "dagster/backfill", value: $id}]}) {
    ... on Runs { results { runId status tags { key value } } }
  }
}"""


@pytest.fixture
def dagster_postgres(pg_url: str) -> Iterator[str]:
    """A database for Dagster's own storage, next to the test database."""
    admin = database_url(pg_url, "postgres")
    name = database_name(pg_url) + "_dagster"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    yield to_sqlalchemy_url(database_url(admin, name), "psycopg2")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def dagster_services(tmp_path: Path, database, dagster_postgres: str, sb) -> Iterator[tuple[str, Path]]:
    """dagster-webserver and dagster-daemon, as in production but on this machine."""
    env = {**sb.client_env(), "SADIE_HOME": str(tmp_path / "sadie"), "SADIE_DATABASE_URL": database.url,
           "SADIE_DAGSTER_PG_URL": dagster_postgres}
    with dagster_webserver(tmp_path / "dagster", INSTANCE, env, log_dir=tmp_path, unset=["SADIE_S3_BUCKET"],
                           startup_timeout=180) as url:
        yield url, tmp_path


def _graphql(url: str, query: str, variables: dict) -> dict:
    response = httpx.post(f"{url}/graphql", json={"query": query, "variables": variables}, timeout=30)
    response.raise_for_status()
    body = response.json()
    assert "errors" not in body, body["errors"]
    return body["data"]


def test_a_backfill_of_three_regions_runs_through_the_daemon_to_the_exports(database, dagster_services, sb):
    url, tmp = dagster_services
    cities = {"US-DC": "Washington", "US-FL": "Miami", "US-GA": "Savannah"}
    with database.connect() as conn:
        for region, city in cities.items():
            for n in range(2):
                name = f"{city} Lead {n}"
                add_hotel(conn, name, region=region, city=city, people=[
                    {"full_name": "Ann Lee", "title": "General Manager", "email": f"ann@lead{n}{city.lower()}.com",
                     "email_status": "valid_domain"}])

    launched = _graphql(url, LAUNCH_BACKFILL, {"params": {
        "partitionNames": REGIONS, "assetSelection": [{"path": [a]} for a in ASSETS], "fromFailure": False}})
    result = launched["launchPartitionBackfill"]
    assert result["__typename"] == "LaunchBackfillSuccess", result
    backfill_id = result["backfillId"]

    deadline = time.monotonic() + 600
    while True:
        status = _graphql(url, BACKFILL_STATUS, {"id": backfill_id})["partitionBackfillOrError"]
        if status.get("status") in DONE:
            break
        if time.monotonic() > deadline:
            pytest.fail(f"backfill still {status} after 10 minutes; daemon log:\n"
                        + (tmp / "daemon.log").read_text()[-3000:])
        time.sleep(3)
    runs = _graphql(url, BACKFILL_RUNS, {"id": backfill_id})["runsOrError"]["results"]
    assert status["status"] in ("COMPLETED", "COMPLETED_SUCCESS"), (status, runs)
    assert len(runs) == 1 and runs[0]["status"] == "SUCCESS"   # one run for the three regions
    tags = {t["key"]: t["value"] for t in runs[0]["tags"]}
    assert (tags["dagster/asset_partition_range_start"], tags["dagster/asset_partition_range_end"]) == ("US-DC", "US-GA")

    objects = tmp / "sadie" / "objects" / "exports"
    assert sorted(str(p.relative_to(objects)) for p in objects.rglob("*.xlsx")) == [
        "District of Columbia/District of Columbia.xlsx", "District of Columbia/Washington.xlsx",
        "Florida/Florida.xlsx", "Florida/Miami.xlsx", "Georgia/Georgia.xlsx", "Georgia/Savannah.xlsx"]
    uploads = {f["path"] for f in sb.inspect("graph")["files"]}
    assert "Sadie Leads/Georgia/Savannah.xlsx" in uploads and len(uploads) == 6
    assert len(sb.inspect("slack")["messages"]) == 3   # one announcement per region
    with database.connect() as conn:
        statuses = conn.execute("SELECT region, status, count(*) FROM sadie_gtm.hotels GROUP BY 1, 2 ORDER BY 1").fetchall()
        exports = conn.execute("SELECT count(*) FROM sadie_gtm.lead_exports").fetchone()[0]
        audit = conn.execute("""SELECT count(DISTINCT changed_by) FROM sadie_gtm.audit_log
                                 WHERE changed_by LIKE 'run:%'""").fetchone()[0]
    assert statuses == [("US-DC", 6, 2), ("US-FL", 6, 2), ("US-GA", 6, 2)]
    assert exports == 6 and audit == 1

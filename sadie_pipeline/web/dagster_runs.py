"""Pipeline work from the pages runs in Dagster: a run launched through the webserver's GraphQL API
(dagster-graphql's client) at SADIE_DAGSTER_URL, so it goes through the run queue and shows in the
UI. A request only launches; when no webserver answers, the page says so instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

LOCATION = "sadie_pipeline"  # workspace.yaml's code location


@dataclass(frozen=True)
class Launch:
    """A launched run (run_id and its page in the Dagster UI), or why none was launched."""
    run_id: str | None = None
    url: str | None = None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.run_id is not None


def answers(dagster_url: str, timeout_s: float = 2.0) -> bool:
    try:
        return httpx.get(f"{dagster_url}/server_info", timeout=timeout_s).status_code == 200
    except httpx.HTTPError:
        return False


def launch(dagster_url: str, job: str, partition: str, run_config: dict[str, Any] | None = None,
           user: str | None = None) -> Launch:
    """Submits `job` for one partition (a DMO); the run's tags name the partition and the person."""
    from dagster_graphql import DagsterGraphQLClient, DagsterGraphQLClientError

    if not answers(dagster_url):
        return Launch(problem=f"no Dagster webserver answers at {dagster_url} (SADIE_DAGSTER_URL): start it "
                              f"with `make dev`, or run the step from the command line")
    parts = urlsplit(dagster_url)
    client = DagsterGraphQLClient(parts.hostname or "127.0.0.1", port_number=parts.port,
                                  use_https=parts.scheme == "https", path_prefix=parts.path.rstrip("/"), timeout=30)
    tags = {"dagster/partition": partition, **({"dagster/user": user} if user else {})}
    try:
        run_id = client.submit_job_execution(job, repository_location_name=LOCATION, run_config=run_config or {},
                                             tags=tags)
    except DagsterGraphQLClientError as exc:
        return Launch(problem=f"Dagster refused the run of {job}: {_one_line(exc)}")
    return Launch(run_id=run_id, url=f"{dagster_url}/runs/{run_id}")


def _one_line(exc: Exception) -> str:
    text = " ".join(str(a) for a in exc.args if a) or type(exc).__name__
    return " ".join(text.split())[:300]

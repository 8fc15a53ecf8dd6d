"""Pipeline work from the pages runs in Dagster, whatever of Dagster is running:
- the webserver answers at SADIE_DAGSTER_URL: the run is launched through its GraphQL API
  (dagster-graphql's client) and goes through the run queue;
- else the daemon runs on the instance (DAGSTER_HOME; its backfill and queue daemons beat): the job's
  assets for the DMO become a one-partition backfill, as `sadie listings run` submits them, which the
  daemon turns into a run of its own code location and starts through the run queue;
- else the job executes in this process, in a thread of its own.
Every run is on the instance, so the Dagster UI shows it whenever it is opened. A request only
launches; the page then follows the DMO's job."""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

if TYPE_CHECKING:
    from dagster import DagsterInstance
    from dagster_graphql import DagsterGraphQLClient

LOCATION = "sadie_pipeline"  # workspace.yaml's code location
_RUN_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_BACKFILL_ID = re.compile(r"[a-z]{8}")  # dagster's make_new_backfill_id
QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}  # the event log has it all
_log = logging.getLogger(__name__)
_HERE: dict[str, Any] = {}  # the resources of runs executed in this process (use_resources)


def use_resources(database: Any, store: Any) -> None:
    """Runs executed in this process use the app's database and object store (create_app's, which
    tests give), not those the environment names."""
    from sadie_pipeline.io_managers import io_manager_resources

    _HERE.clear()
    _HERE.update(database=database, object_store=store, **io_manager_resources(database, store))


class Route(StrEnum):
    """How a run was launched."""
    WEBSERVER = "webserver"    # GraphQL; the webserver queues it
    QUEUE = "queue"            # a backfill on the instance; the daemon makes the run and queues it
    IN_PROCESS = "in-process"  # executed by the web app itself


@dataclass(frozen=True)
class Launch:
    """A launched run (run_id and its page in the Dagster UI), or why none was launched."""
    run_id: str | None = None
    url: str | None = None
    problem: str | None = None
    route: Route | None = None

    @property
    def ok(self) -> bool:
        return self.run_id is not None

    @property
    def where(self) -> str:
        """Who runs it, for the page's message."""
        return {Route.WEBSERVER: "through the Dagster webserver",
                Route.QUEUE: "as a backfill for the Dagster daemon (no webserver answers)",
                Route.IN_PROCESS: "in the web app (no Dagster webserver or daemon is running)"}.get(self.route, "")


def answers(dagster_url: str, timeout_s: float = 2.0) -> bool:
    try:
        return httpx.get(f"{dagster_url}/server_info", timeout=timeout_s).status_code == 200
    except httpx.HTTPError:
        return False


def launch(dagster_url: str, job: str, partition: str, run_config: dict[str, Any] | None = None,
           user: str | None = None, assets: Sequence[str] | None = None) -> Launch:
    """Submits `job` (only `assets` of it, when given) for one partition (a DMO); the run's tags name
    the partition and the person."""
    tags = {"dagster/partition": partition, **({"dagster/user": user} if user else {})}
    if answers(dagster_url):
        return _through_webserver(dagster_url, job, run_config, tags, assets)
    instance = _instance()
    if instance is None:
        return Launch(problem=f"no Dagster webserver answers at {dagster_url} (SADIE_DAGSTER_URL) and DAGSTER_HOME "
                              f"names no Dagster instance to run on: start `sadie web` through the sadie command, or "
                              f"the webserver with `make dev`")
    from sadie_pipeline.backfills import daemon_running

    if daemon_running(instance):
        return _backfill(instance, dagster_url, job, partition, run_config, tags, assets)
    from dagster._core.utils import make_new_run_id

    run_id = make_new_run_id()
    threading.Thread(target=_execute, args=(job, partition, run_config or {}, tags, run_id, dict(_HERE), assets),
                     name=f"sadie-run-{run_id[:8]}").start()
    return Launch(run_id=run_id, url=run_page(dagster_url, run_id), route=Route.IN_PROCESS)


def graphql_client(dagster_url: str) -> DagsterGraphQLClient:
    """dagster-graphql's client on the webserver at `dagster_url`."""
    from dagster_graphql import DagsterGraphQLClient

    parts = urlsplit(dagster_url)
    return DagsterGraphQLClient(parts.hostname or "127.0.0.1", port_number=parts.port,
                                use_https=parts.scheme == "https", path_prefix=parts.path.rstrip("/"), timeout=30)


def _through_webserver(dagster_url: str, job: str, run_config: dict[str, Any] | None,
                       tags: dict[str, str], assets: Sequence[str] | None = None) -> Launch:
    from dagster_graphql import DagsterGraphQLClientError

    try:
        run_id = graphql_client(dagster_url).submit_job_execution(
            job, repository_location_name=LOCATION, run_config=run_config or {}, tags=tags,
            asset_selection=list(assets) if assets else None)
    except DagsterGraphQLClientError as exc:
        return Launch(problem=f"Dagster refused the run of {job}: {_one_line(exc)}")
    return Launch(run_id=run_id, url=run_page(dagster_url, run_id), route=Route.WEBSERVER)


def _instance() -> DagsterInstance | None:
    """The instance of DAGSTER_HOME (one per process and home, for short reads), or None when it is
    not set or cannot be opened."""
    home = os.environ.get("DAGSTER_HOME")
    if not home:
        return None
    try:
        return _instance_at(home)
    except Exception:  # a missing folder or a broken dagster.yaml: the page says there is no instance
        _log.exception("no Dagster instance at %s", home)
        return None


@cache
def _instance_at(home: str) -> DagsterInstance:
    from dagster import DagsterInstance

    return DagsterInstance.from_config(home)


def _backfill(instance: DagsterInstance, dagster_url: str, job: str, partition: str,
              run_config: dict[str, Any] | None, tags: dict[str, str], only: Sequence[str] | None = None) -> Launch:
    """The job's assets for the partition as a backfill for the daemon; its id stands for the run."""
    from sadie_pipeline.backfills import submit_asset_backfill
    from sadie_pipeline.definitions import defs
    from sadie_pipeline.partitions import DMO_PARTITIONS_NAME

    if not instance.has_dynamic_partition(DMO_PARTITIONS_NAME, partition):
        instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, [partition])
    assets = sorted(only or (k.to_user_string() for k in defs.resolve_job_def(job).asset_layer.selected_asset_keys))
    person = {k: v for k, v in tags.items() if k != "dagster/partition"}  # the backfill tags its run's partition
    backfill_id = submit_asset_backfill(instance, assets, [partition], title=f"sadie web: {job} {partition}",
                                        tags={**person, "sadie/command": f"web {job}"}, run_config=run_config)
    return Launch(run_id=backfill_id, url=run_page(dagster_url, backfill_id), route=Route.QUEUE)


def _execute(job: str, partition: str, run_config: dict[str, Any], tags: dict[str, str], run_id: str,
             resources: dict[str, Any], assets: Sequence[str] | None = None) -> None:
    """The job for the partition, in this thread, with the definitions of the environment as it is and
    an instance of the thread's own (the run writes its events for minutes)."""
    from dagster import AssetKey, DagsterInstance

    from sadie_pipeline.definitions import build_defs
    from sadie_pipeline.partitions import DMO_PARTITIONS_NAME

    try:
        with DagsterInstance.from_config(os.environ["DAGSTER_HOME"]) as instance:
            if not instance.has_dynamic_partition(DMO_PARTITIONS_NAME, partition):
                instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, [partition])
            build_defs().resolve_job_def(job).execute_in_process(
                run_config={**QUIET, **run_config}, instance=instance, partition_key=partition,
                raise_on_error=False, run_id=run_id, tags={k: v for k, v in tags.items() if k != "dagster/partition"},
                resources=resources or None, asset_selection=[AssetKey(a) for a in assets] if assets else None)
    except Exception:  # nobody waits on this thread: the log (and the job's page) tell
        _log.exception("run %s of %s for %s failed", run_id, job, partition)


def run_page(dagster_url: str, run_id: str) -> str | None:
    """The Dagster UI page of a run (a uuid) or of a backfill (eight letters); None for anything else."""
    if _RUN_ID.fullmatch(run_id):
        return f"{dagster_url}/runs/{run_id}"
    return f"{dagster_url}/runs/b/{run_id}" if _BACKFILL_ID.fullmatch(run_id) else None


def run_failed(run_id: str | None) -> str | None:
    """Why the run (or the backfill's run) ended without success when it did (one line), else None
    (queued, running, done, unknown)."""
    from dagster import DagsterRunStatus, RunsFilter
    from dagster._core.storage.tags import BACKFILL_ID_TAG

    instance = _instance() if run_id else None
    if instance is None:
        return None
    if _BACKFILL_ID.fullmatch(run_id):
        runs = instance.get_runs(RunsFilter(tags={BACKFILL_ID_TAG: run_id}), limit=1)
    else:
        runs = [r for r in [instance.get_run_by_id(run_id)] if r is not None]
    if not runs or runs[0].status not in (DagsterRunStatus.FAILURE, DagsterRunStatus.CANCELED):
        return None
    ended = "failed" if runs[0].status == DagsterRunStatus.FAILURE else "was canceled"
    return f"run {runs[0].run_id} {ended} before its job was done: see it in the Dagster UI"


def _one_line(exc: Exception) -> str:
    text = " ".join(str(a) for a in exc.args if a) or type(exc).__name__
    return " ".join(text.split())[:300]

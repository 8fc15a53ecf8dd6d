"""A requeue retries: each dead letter's layer runs again for its hotel's region and city (core/
retries.py plans the runs), launched as the app launches its other runs (dagster_runs.py): through
the Dagster webserver when it answers, else as a backfill for the daemon when it runs on the
instance, else executed in this process, in a thread of its own. The layer is one asset of
reenrichment_job, selected alone."""

from __future__ import annotations

import logging
import os
import threading
import uuid
from urllib.parse import urlsplit

from sadie_pipeline.core.retries import LayerRun
from sadie_pipeline.web.dagster_runs import LOCATION, Launch, Route, answers, run_page

JOB = "reenrichment_job"  # every enrichment layer; a retry selects the layer alone
_QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
_log = logging.getLogger(__name__)


def launch_layer(dagster_url: str, run: LayerRun, user: str) -> Launch:
    """Launches the layer for the run's region and cities; the run's tags name the person."""
    tags = {"dagster/partition": run.region, "dagster/user": user, "sadie/command": "web requeue"}
    if answers(dagster_url):
        return _through_webserver(dagster_url, run, tags)
    home = os.environ.get("DAGSTER_HOME")
    if not home or not os.path.isdir(home):
        return Launch(problem=f"no Dagster webserver answers at {dagster_url} and DAGSTER_HOME names no Dagster "
                              f"instance to run on")
    from dagster import DagsterInstance

    from sadie_pipeline.backfills import daemon_running, submit_asset_backfill

    with DagsterInstance.from_config(home) as instance:
        if daemon_running(instance):
            backfill_id = submit_asset_backfill(
                instance, [run.layer], [run.region], title=f"sadie web: retry {run.layer} {run.region}",
                tags={k: v for k, v in tags.items() if k != "dagster/partition"}, run_config=run.run_config)
            return Launch(run_id=backfill_id, url=run_page(dagster_url, backfill_id), route=Route.QUEUE)
    run_id = str(uuid.uuid4())
    threading.Thread(target=execute, args=(home, run, tags, run_id), name=f"sadie-retry-{run_id[:8]}").start()
    return Launch(run_id=run_id, url=run_page(dagster_url, run_id), route=Route.IN_PROCESS)


def _through_webserver(dagster_url: str, run: LayerRun, tags: dict[str, str]) -> Launch:
    from dagster_graphql import DagsterGraphQLClient, DagsterGraphQLClientError

    parts = urlsplit(dagster_url)
    client = DagsterGraphQLClient(parts.hostname or "127.0.0.1", port_number=parts.port,
                                  use_https=parts.scheme == "https", path_prefix=parts.path.rstrip("/"), timeout=30)
    try:
        run_id = client.submit_job_execution(JOB, repository_location_name=LOCATION, run_config=run.run_config,
                                             tags=tags, asset_selection=[run.layer])
    except DagsterGraphQLClientError as exc:
        return Launch(problem=f"Dagster refused the retry of {run.layer}: {' '.join(str(exc).split())[:300]}")
    return Launch(run_id=run_id, url=run_page(dagster_url, run_id), route=Route.WEBSERVER)


def execute(home: str, run: LayerRun, tags: dict[str, str], run_id: str) -> bool:
    """The layer for the region, in this thread, with the definitions of the environment as it is
    (its resources) and an instance of its own; True when the run succeeded."""
    from dagster import AssetKey, DagsterInstance

    from sadie_pipeline.definitions import build_defs

    try:
        with DagsterInstance.from_config(home) as instance:
            result = build_defs().resolve_job_def(JOB).execute_in_process(
                run_config={**_QUIET, **run.run_config}, instance=instance, partition_key=run.region,
                asset_selection=[AssetKey(run.layer)], raise_on_error=False, run_id=run_id,
                tags={k: v for k, v in tags.items() if k != "dagster/partition"})
        return result.success
    except Exception:  # nobody waits on this thread: the log and the dead letters page tell
        _log.exception("retry run %s of %s for %s failed", run_id, run.layer, run.region)
        return False

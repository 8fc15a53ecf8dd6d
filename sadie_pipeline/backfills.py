"""Backfills that `sadie` hands to a running Dagster daemon: listed on the UI's Backfills page, their
runs launched by the daemon through the run queue, as a backfill launched from the UI.

The command and the daemon share the instance (DAGSTER_HOME, `sadie` writes its dagster.yaml), so
the command finds the daemon by the heartbeats it writes there: no webserver or URL is needed.
Dagster 1.13 has no public call that submits a backfill; this builds the PartitionBackfill that the
webserver's launchPartitionBackfill mutation builds and adds it to the instance, as that does."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dagster import DagsterInstance

# The daemons beat every 30 s; one that missed three beats is taken for stopped (Dagster's own
# tolerance, 30 minutes, would send work to a daemon long gone).
HEARTBEAT_FRESH_S = 90
BACKFILL_DAEMON = "BACKFILL"
QUEUE_DAEMON = "QUEUED_RUN_COORDINATOR"
DEFAULT_UI_URL = "http://127.0.0.1:3000"  # dagster dev's
SUCCEEDED = ("COMPLETED_SUCCESS", "COMPLETED")


class DaemonStoppedError(Exception):
    """The daemon stopped beating while the command waited for its backfill."""


def daemon_running(instance: DagsterInstance, now: float | None = None) -> bool:
    """Whether the daemons a backfill needs beat within the last HEARTBEAT_FRESH_S seconds: the
    backfill daemon, and the run queue's when the instance queues runs (dagster.yaml)."""
    needed = {BACKFILL_DAEMON}
    if QUEUE_DAEMON in instance.get_required_daemon_types():
        needed.add(QUEUE_DAEMON)
    beats = instance.get_daemon_heartbeats()
    now = time.time() if now is None else now
    return all(name in beats and now - beats[name].timestamp < HEARTBEAT_FRESH_S for name in needed)


def backfill_url(backfill_id: str) -> str:
    """The backfill's page in the UI (SADIE_DAGSTER_URL, default dagster dev's address)."""
    base = (os.environ.get("SADIE_DAGSTER_URL") or DEFAULT_UI_URL).rstrip("/")
    return f"{base}/runs/b/{backfill_id}"


def submit_asset_backfill(instance: DagsterInstance, assets: Sequence[str], partitions: Sequence[str], *,
                          title: str, tags: Mapping[str, str] | None = None,
                          run_config: Mapping[str, Any] | None = None) -> str:
    """Adds a backfill of `assets` over `partitions` to the instance; returns its id. The daemon
    splits it into runs by the assets' backfill policies (hotel regions: one run per stretch of
    consecutive regions; DMOs: one run each)."""
    from dagster import AssetKey
    from dagster._core.execution.backfill import PartitionBackfill
    from dagster._core.utils import make_new_backfill_id

    from sadie_pipeline.definitions import defs

    backfill = PartitionBackfill.from_asset_partitions(
        backfill_id=make_new_backfill_id(), asset_graph=defs.resolve_asset_graph(),
        partition_names=list(partitions), asset_selection=[AssetKey(a) for a in assets],
        backfill_timestamp=time.time(), tags=dict(tags or {}), dynamic_partitions_store=instance,
        all_partitions=False, title=title, description=None, run_config=run_config)
    instance.add_backfill(backfill)
    return backfill.backfill_id


def backfill_run_ids(instance: DagsterInstance, backfill_id: str) -> list[str]:
    from dagster import RunsFilter
    from dagster._core.storage.tags import BACKFILL_ID_TAG

    return list(reversed(instance.get_run_ids(RunsFilter(tags={BACKFILL_ID_TAG: backfill_id}))))


@dataclass(frozen=True)
class BackfillOutcome:
    backfill_id: str
    status: str
    failed: list[str]  # the partitions (or ranges, "US-FL..US-GA") of its failed runs

    def problem(self) -> str | None:
        """What went wrong, in one line; None when every run succeeded. Dagster may call a backfill
        COMPLETED_SUCCESS whose run failed after its assets (in a check): the runs decide."""
        where = backfill_url(self.backfill_id)
        if self.failed:
            return f"backfill {self.backfill_id}: runs failed for {', '.join(self.failed)}; see {where}"
        if self.status not in SUCCEEDED:
            return f"backfill {self.backfill_id} ended {self.status}; see {where}"
        return None


def wait_for_backfill(instance: DagsterInstance, backfill_id: str, poll_s: float = 2.0,
                      sleep: Callable[[float], None] = time.sleep) -> BackfillOutcome:
    """Waits until the backfill ends; DaemonStoppedError when the daemon stops beating first (the
    backfill then waits on the instance for the next daemon)."""
    from dagster._core.execution.backfill import BULK_ACTION_TERMINAL_STATUSES

    while True:
        backfill = instance.get_backfill(backfill_id)
        if backfill is None:
            raise LookupError(f"no backfill {backfill_id} on this instance")
        if backfill.status in BULK_ACTION_TERMINAL_STATUSES:
            return BackfillOutcome(backfill_id, backfill.status.value, failed_partitions(instance, backfill_id))
        if not daemon_running(instance):
            raise DaemonStoppedError(f"the Dagster daemon stopped; backfill {backfill_id} waits for it "
                                     f"({backfill_url(backfill_id)})")
        sleep(poll_s)


def failed_partitions(instance: DagsterInstance, backfill_id: str) -> list[str]:
    from dagster import DagsterRunStatus, RunsFilter
    from dagster._core.storage.tags import BACKFILL_ID_TAG

    from sadie_pipeline.partitions import RANGE_END_TAG, RANGE_START_TAG

    runs = instance.get_runs(RunsFilter(tags={BACKFILL_ID_TAG: backfill_id},
                                        statuses=[DagsterRunStatus.FAILURE, DagsterRunStatus.CANCELED]))
    failed = []
    for run in reversed(runs):
        first, last = run.tags.get(RANGE_START_TAG), run.tags.get(RANGE_END_TAG)
        if first and last:
            failed.append(first if first == last else f"{first}..{last}")
        else:
            failed.append(run.tags.get("dagster/partition", run.run_id))
    return failed

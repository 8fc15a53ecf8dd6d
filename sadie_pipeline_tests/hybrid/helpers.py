"""The cloud side driven from a test: a sensor tick (the sensor's own function, with its resources)
and each run it asks for executed in this process (the job of the definitions, as the daemon would
launch it)."""

from __future__ import annotations

from typing import Any

from dagster import DagsterInstance, RunRequest, build_sensor_context

from sadie_pipeline.hybrid.definitions import JOB, build_hybrid_sensor
from sadie_pipeline.resources.web import WebsiteFetcher


def tick(instance: DagsterInstance, hybrid: Any) -> list[RunRequest]:
    sensor = build_hybrid_sensor()
    with build_sensor_context(instance=instance, resources={"hybrid_queue": hybrid.queue,
                                                            "database": hybrid.database}) as context:
        result = sensor(context)
    return list(getattr(result, "run_requests", None) or [])


def execute(instance: DagsterInstance, hybrid: Any, request: RunRequest) -> dict[str, int]:
    """The run a request asks for; its op's counts (enriched, skipped_fresh, failed)."""
    from sadie_pipeline.definitions import build_defs

    fetcher = WebsiteFetcher(proxy=hybrid.env["SADIE_HTTP_PROXY"], browser_enabled=False)
    result = build_defs().resolve_job_def(JOB).execute_in_process(
        run_config=request.run_config, partition_key=request.partition_key, instance=instance,
        resources={"website_fetcher": fetcher, "hybrid_queue": hybrid.queue})
    assert result.success
    return result.output_for_node("hybrid_enrichment")


def drain(instance: DagsterInstance, hybrid: Any, max_ticks: int = 20) -> dict[str, int]:
    """Ticks and runs until a tick asks for nothing; the counts summed over the runs."""
    totals: dict[str, int] = {}
    for _ in range(max_ticks):
        requests = tick(instance, hybrid)
        if not requests:
            break
        for request in requests:
            for key, n in execute(instance, hybrid, request).items():
                totals[key] = totals.get(key, 0) + n
    return totals

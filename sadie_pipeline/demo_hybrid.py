"""The demo's last part: the hybrid scenario (issue 35) on a handful of prospects. Key West's hotels
are scraped "on this machine" from the sandbox and sent to an SQS queue on a moto server the demo
starts itself (moto[server] comes with the test extra `make` installs); the cloud side (the
sensor's tick and the enrichment runs) takes them, writes results and index objects to a bucket on
the same server; `sync pull` brings them back into a folder and the database. The queue is only
there for the demo: nothing of it stays in the environment, so `make dev`'s sensor stays stopped."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEMO_REGION, DEMO_CITY = "US-FL", "Key West"
QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}


def _cloud_side(instance: Any, queue: Any, database: Any, store: Any, fetcher: Any) -> tuple[dict[str, int], list[str]]:
    """Sensor ticks and the runs they ask for, until a tick finds nothing (as the daemon would)."""
    from dagster import build_sensor_context

    from sadie_pipeline.definitions import build_defs
    from sadie_pipeline.hybrid.definitions import JOB, hybrid_queue_tick

    job, totals, failures = build_defs().resolve_job_def(JOB), {}, []
    for _ in range(10):
        with build_sensor_context(instance=instance) as context:
            requests = list(getattr(hybrid_queue_tick(context, queue, database), "run_requests", None) or [])
        if not requests:
            break
        for request in requests:
            result = job.execute_in_process(run_config={**request.run_config, **QUIET}, instance=instance,
                                            partition_key=request.partition_key, raise_on_error=False,
                                            resources={"website_fetcher": fetcher, "hybrid_queue": queue,
                                                       "database": database, "object_store": store})
            if not result.success:
                failures.append(result.run_id)
            for key, n in (result.output_for_node("hybrid_enrichment") if result.success else {}).items():
                totals[key] = totals.get(key, 0) + n
    return totals, failures


def run_hybrid_demo(database: Any, echo: Callable[[str], None], home: Path) -> None:
    import boto3
    from dagster import DagsterInstance

    try:
        from moto.server import ThreadedMotoServer
    except ImportError:  # installed without the test extra (`make` installs it)
        echo("\n== hybrid: skipped (its queue runs on moto's server: pip install -e '.[test]') ==")
        return

    from sadie_pipeline.core.hybrid import Target
    from sadie_pipeline.hybrid.queue import create_queues, plain_queue
    from sadie_pipeline.hybrid.scrape import scrape_prospects
    from sadie_pipeline.hybrid.sync import pull
    from sadie_pipeline.resource_defs import configured, resolved
    from sadie_pipeline.resources.object_store import ObjectStore
    from sadie_pipeline.resources.web import WebsiteFetcher
    from sadie_pipeline.sandbox import Sandbox
    from sadie_pipeline.settings import environ

    echo(f"\n== hybrid: scrape here, enrich in the cloud ({DEMO_CITY}, through SQS on a local moto server) ==")
    aws = {"AWS_ACCESS_KEY_ID": "demo", "AWS_SECRET_ACCESS_KEY": "demo", "AWS_DEFAULT_REGION": "us-east-1"}
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        endpoint, bucket = f"http://{host}:{port}", f"sadie-demo-{uuid.uuid4().hex[:8]}"
        with environ(aws), Sandbox(seed=7) as sb:
            sb.configure("sites", hang_s=2.0)
            boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket=bucket)
            env = {**sb.client_env(), **create_queues(f"sadie-demo-{uuid.uuid4().hex[:8]}", endpoint_url=endpoint),
                   "SADIE_HYBRID_WAIT_S": "1"}
            with environ(env):
                queue, cloud = plain_queue(), ObjectStore(bucket=bucket, endpoint_url=endpoint)
                serper = resolved(configured("serper", requests_per_minute=600))
                report = scrape_prospects(serper, cloud, DEMO_REGION, [DEMO_CITY], Target.CLOUD, queue=queue)
                echo(f"  scraped here: {report.places} places, {report.prospects} prospects with a website; "
                     f"sent {report.sent} messages in {report.send_requests} batch request(s)")
                fetcher = WebsiteFetcher(proxy=env["SADIE_HTTP_PROXY"], browser_enabled=False)
                totals, failed = _cloud_side(DagsterInstance.get(), queue, database, cloud, fetcher)
                for run_id in failed:
                    echo(f"  the hybrid run {run_id} failed; see the run in the Dagster UI")
                echo("  cloud side (hybrid_queue_sensor -> hybrid_enrichment_job): "
                     + ", ".join(f"{n} {k}" for k, n in sorted(totals.items())))
                pulled = pull(cloud, home / "hybrid-demo", DEMO_REGION, database=database)
                again = pull(cloud, home / "hybrid-demo", DEMO_REGION, database=database)
        echo(f"  sync pull: {pulled.new} new results -> {home / 'hybrid-demo' / DEMO_REGION}, "
             f"{pulled.loaded} loaded into sadie_gtm.hybrid_results; a second pull: {again.new} new")
        with database.connect() as conn:
            for domain, engine, state in conn.execute(
                    "SELECT domain, engine, state FROM sadie_gtm.hybrid_results WHERE region = %s ORDER BY domain",
                    (DEMO_REGION,)):
                echo(f"    {domain}: {engine or ('dead site' if state == 'dead' else 'no engine found')}")
    finally:
        server.stop()

"""Benchmark: the hybrid scenario (issue 35) on this machine: `--prospects` hotels (default 2,000)
scraped locally from a synthetic Florida sandbox (20 cities, Serper's 100 places a city), sent to
SQS with `sadie scrape-prospects --target cloud`, enriched by the cloud side (hybrid_queue_sensor's
tick and hybrid_enrichment_job's runs, executed here while the scrape goes on), pulled back with
`sadie sync pull` into a fresh database. The scrape runs at `--serper-rpm` (600 a minute, the
demo's pace; production's 30 a minute would make 2,000 prospects' 200 pages take 7 minutes alone).

Real parts: moto's server (SQS and S3 over HTTP) and the sandbox each in a child process, the
sender in a child process too (its peak RSS is its VmHWM), PostgreSQL. A share of the prospects
(`--resend`, default 10 %: the first cities scraped again) is sent a second time, so that
duplicates_enriched measures the idempotency and not an absence of duplicates. Chromium is off
(`browser_enabled=False`: JavaScript-only sites are judged on their static page) and the sandbox's
"timeout" sites hang 2 s, not 30: the run measures the queue and the bookkeeping, not the sites.

Metrics: messages_per_s (messages the cloud side took off the queue, by the time from the first
send to the last delete), end_to_end_min (first send to the end of the pull), duplicates_enriched
(domains enriched more than once, summed over the runs' counts), messages_lost (domains sent that
did not come back in the pull), peak_rss_mb (the sender's). The last line is
`{"benchmark": "hybrid", "metrics": {...}}`.

    .venv/bin/python benchmarks/hybrid.py [--prospects 2000] [--resend 0.1]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from scratch_db import drop_database, fresh_database  # noqa: E402

QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _moto() -> tuple[subprocess.Popen, str]:
    """moto's server (SQS and S3) in its own process, so its memory is not the sender's."""
    import httpx

    port = _free_port()
    proc = subprocess.Popen([str(Path(sys.executable).parent / "moto_server"), "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            httpx.get(f"{url}/moto-api/", timeout=1)
            return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("moto_server did not start")


def sender_main(argv: list[str]) -> None:
    """The sender, in its own process: what `sadie scrape-prospects US-FL --target cloud --city ...`
    runs (hybrid/scrape.py), with the Serper pace of `--serper-rpm`, then its peak RSS as a JSON line."""
    from sadie_pipeline.core.hybrid import Target
    from sadie_pipeline.hybrid.queue import plain_queue
    from sadie_pipeline.hybrid.scrape import scrape_prospects
    from sadie_pipeline.resource_defs import configured, resolved

    rpm, cities = float(argv[0]), argv[1:]
    started = time.monotonic()
    try:
        report = scrape_prospects(resolved(configured("serper", requests_per_minute=rpm)),
                                  resolved(configured("object_store")), "US-FL", cities, Target.CLOUD, queue=plain_queue())
        print(f"US-FL: {len(cities)} cities, {report.places} places, {report.prospects} prospects; "
              f"sent {report.sent} messages in {report.send_requests} batch requests", flush=True)
    finally:
        hwm = next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
                   if line.startswith("VmHWM:"))
        print(json.dumps({"peak_rss_mb": round(hwm / 1024, 1), "wall_s": round(time.monotonic() - started, 1)}),
              flush=True)


def start_sender(cities: list[str], env: dict[str, str], rpm: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--sender", str(rpm), *cities],
                            env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _cloud_until(done: Any, instance: Any, queue: Any, fetcher: Any, totals: dict[str, int]) -> float:
    """Sensor ticks and their runs until `done()` and the queue is empty; the time of the last run."""
    from dagster import build_sensor_context

    from sadie_pipeline.definitions import build_defs
    from sadie_pipeline.hybrid.definitions import JOB, hybrid_queue_tick
    from sadie_pipeline.resource_defs import configured, resolved

    job = build_defs().resolve_job_def(JOB)
    database, last = resolved(configured("database")), time.monotonic()
    while True:
        tick_started = time.monotonic()
        with build_sensor_context(instance=instance) as context:
            result = hybrid_queue_tick(context, queue, database)
        requests = list(getattr(result, "run_requests", None) or [])
        totals["_tick_s"] = totals.get("_tick_s", 0) + time.monotonic() - tick_started
        for request in requests:
            run_started = time.monotonic()
            run = job.execute_in_process(run_config={**request.run_config, **QUIET}, partition_key=request.partition_key,
                                         instance=instance, resources={"website_fetcher": fetcher, "hybrid_queue": queue})
            for key, n in run.output_for_node("hybrid_enrichment").items():
                totals[key] = totals.get(key, 0) + n
            last = time.monotonic()
            totals["_runs"] = totals.get("_runs", 0) + 1
            totals["_run_s"] = totals.get("_run_s", 0) + last - run_started
        counts = queue.counts()
        if not requests and done() and counts["queue_visible"] + counts["queue_in_flight"] == 0:
            return last


def run(args: argparse.Namespace) -> dict[str, Any]:
    import boto3
    from dagster import DagsterInstance

    from sadie_pipeline.hybrid.queue import create_queues, plain_queue
    from sadie_pipeline.hybrid.sync import pull
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore
    from sadie_pipeline.resources.web import WebsiteFetcher
    from sadie_pipeline.sandbox.process import SandboxProcess
    from sadie_pipeline.sandbox.world import _SYNTH_CITIES
    from sadie_pipeline.settings import environ

    cities = [c for c, _, _ in _SYNTH_CITIES]  # the world spreads its hotels over all 20
    resent = cities[: max(1, round(len(cities) * args.resend))] if args.resend > 0 else []
    tmp = Path(tempfile.mkdtemp(prefix="sadie-bench-hybrid-"))
    aws = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1"}
    moto, endpoint = _moto()
    db_url = fresh_database("sadie_bench_hybrid")
    try:
        with environ(aws), SandboxProcess(synthetic=args.prospects, seed=args.seed, demo=False) as sb:
            sb.configure("sites", hang_s=2)
            bucket = f"bench-{uuid.uuid4().hex[:8]}"
            boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket=bucket)
            env = {**aws, **sb.client_env(), **create_queues(f"bench-{uuid.uuid4().hex[:8]}", endpoint_url=endpoint),
                   "SADIE_S3_BUCKET": bucket, "SADIE_S3_ENDPOINT_URL": endpoint, "SADIE_DATABASE_URL": db_url,
                   "SADIE_HOME": str(tmp / "sadie"), "DAGSTER_HOME": str(tmp / "dagster"), "SADIE_HYBRID_WAIT_S": "1",
                   "SADIE_HYBRID_RUN_SIZE": str(args.run_size), "SADIE_HYBRID_MAX_MESSAGES": str(4 * args.run_size)}
            (tmp / "dagster").mkdir()
            print(f"{args.prospects} hotels in the sandbox, {len(cities)} cities; resending {len(resent)} cities; "
                  f"moto at {endpoint}", flush=True)
            with environ(env), DagsterInstance.ephemeral() as instance:
                return _measure(args, cities, resent, env, instance, plain_queue(), tmp, pull,
                                ObjectStore(bucket=bucket, endpoint_url=endpoint), Database(url=db_url),
                                WebsiteFetcher(proxy=env["SADIE_HTTP_PROXY"], browser_enabled=False))
    finally:
        moto.terminate()
        moto.wait()
        drop_database(db_url)


def _measure(args, cities, resent, env, instance, queue, tmp, pull, store, database, fetcher) -> dict[str, Any]:
    totals: dict[str, int] = {}
    started = time.monotonic()
    senders = [start_sender(cities, env, args.serper_rpm)]
    if resent:
        senders.append(start_sender(resent, env, args.serper_rpm))   # the same prospects again, at the same time
    last_run = _cloud_until(lambda: all(p.poll() is not None for p in senders), instance, queue, fetcher, totals)
    outputs = [p.communicate() for p in senders]
    for (out, err), p in zip(outputs, senders):
        if p.returncode:
            raise RuntimeError(f"the sender failed ({p.returncode}): {err[-2000:]}")
        print("sender: " + " | ".join(line for line in out.splitlines() if not line.startswith("{")), flush=True)
    ends = [json.loads(out.splitlines()[-1]) for out, _ in outputs]
    peak = max(e["peak_rss_mb"] for e in ends)
    walls = ", ".join(f"{e['wall_s']} s" for e in ends)
    print(f"senders' wall time: {walls}", flush=True)
    sent = sum(int(re.search(r"sent (\d+) messages", out).group(1)) for out, _ in outputs)
    prospects = int(re.search(r"(\d+) prospects", outputs[0][0]).group(1))  # the resent cities are among these
    report = pull(store, tmp / "pulled", "US-FL", database=database)
    ended = time.monotonic()
    timing = {k.lstrip("_"): round(totals.pop(k), 1) for k in ("_tick_s", "_run_s", "_runs") if k in totals}
    print(f"cloud side: {timing.get('runs', 0):g} runs taking {timing.get('run_s', 0)} s in all, "
          f"sensor ticks {timing.get('tick_s', 0)} s in all (long polls included)", flush=True)
    taken = sum(totals.get(k, 0) for k in ("enriched", "skipped_fresh", "duplicate", "failed"))
    with database.connect() as conn:
        loaded = conn.execute("SELECT count(*) FROM sadie_gtm.hybrid_results").fetchone()[0]
    pulled = {json.loads(p.read_text())["domain"] for p in (tmp / "pulled" / "US-FL").glob("*.json")}
    print(f"messages sent {sent} ({prospects} distinct prospects), taken off the queue {taken} "
          f"({json.dumps(totals)}); pulled {report.new} results, {loaded} rows loaded", flush=True)
    print(f"scrape, queue and enrichment {last_run - started:.1f} s; pull {ended - last_run:.1f} s", flush=True)
    return {"messages_per_s": round(taken / max(last_run - started, 1e-9), 2),
            "end_to_end_min": round((ended - started) / 60, 2),
            "duplicates_enriched": totals.get("enriched", 0) - len(pulled),
            "messages_lost": max(0, prospects - len(pulled)) + max(0, sent - taken),
            "peak_rss_mb": peak, "messages_sent": sent, "prospects_pulled": len(pulled)}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--sender":
        sender_main(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--prospects", type=int, default=2000)
    parser.add_argument("--resend", type=float, default=0.1, help="share of the cities scraped and sent twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--run-size", type=int, default=50, help="messages a run takes (SADIE_HYBRID_RUN_SIZE)")
    parser.add_argument("--serper-rpm", type=float, default=600.0,
                        help="the scrape's Serper pace (production's default is 30 a minute: 200 pages take 7 min)")
    args = parser.parse_args()
    metrics = run(args)
    print(json.dumps({"benchmark": "hybrid", "metrics": metrics}), flush=True)


if __name__ == "__main__":
    main()

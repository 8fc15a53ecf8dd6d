"""Pulled sources benchmark: a WordPress source of 20,000 posts (100 a page) and a Drupal JSON:API
source of 20,000 nodes (50 a page, Drupal's most), served by the sandbox in a child process (off this
process's GIL) at 50 ms a request. For each: records/s end to end to staged (the pull into raw files
and job rows, then the stage: what listing_raw_files and listing_stage do), then, once promoted,
--changed listings touched and an incremental re-pull that asks only for what changed (its pages
against the full pull's), and an unchanged re-pull.

    python benchmarks/source_pull.py [--n 20000] [--latency-ms 50] [--changed 250]

Prints readable lines, then one JSON line {"benchmark": "source_pull", "metrics": {...}}. Uses
SADIE_BENCH_PG_URL (an admin URL; default postgresql://postgres@127.0.0.1:5432/postgres) to create a
scratch database, dropped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def _configs(sb, site: str) -> dict[str, dict]:
    from sadie_pipeline_tests.listings.sources_helpers import DRUPAL_FIELDS, WORDPRESS_FIELDS

    drupal_url = f"{sb.base_url('drupal')}/{site}/jsonapi/node/listing?include=field_image,field_category,field_address"
    return {
        "wordpress": {"import": {"source_type": "wordpress", "incremental": {},
                                 "url": f"{sb.base_url('wordpress')}/{site}/wp-json/wp/v2/listing"},
                      "transform": {"map_fields": WORDPRESS_FIELDS}},
        "drupal": {"import": {"source_type": "drupal", "incremental": {}, "url": drupal_url},
                   "transform": {"map_fields": DRUPAL_FIELDS}},
    }


def _pull(database, store, slug: str, run: str) -> dict:
    """One pull and its stage, timed; then its pull row."""
    from sadie_pipeline.listings.repository import get_dmo
    from sadie_pipeline.listings.sources.pull import pull_source, pull_summary
    from sadie_pipeline.listings.stage import stage_dmo

    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
    started, cpu = time.perf_counter(), _cpu_s()
    result = pull_source(database, store, slug, run_key=run)
    pulled, pull_cpu = time.perf_counter(), _cpu_s() - cpu
    stage_dmo(database, store, dmo, run)
    staged = time.perf_counter()
    with database.connect() as conn:
        row = pull_summary(conn, result.job_id)
    return {**row, "pull_s": pulled - started, "stage_s": staged - pulled, "total_s": staged - started,
            "pull_cpu_s": pull_cpu}


def _cpu_s() -> float:
    """This process's CPU seconds: what a pull costs whatever else the machine is running."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _promote(database, slug: str) -> None:
    from sadie_pipeline.listings.promote import promote_dmo
    from sadie_pipeline.listings.repository import get_dmo

    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
    promote_dmo(database, dmo)


def _warm(sb, name: str, url: str, args) -> None:
    """Every page asked for once, before the clock starts: the sandbox renders a listing the first
    time it serves it, and on two cores that rendering (a real source's server's work, on another
    machine) would be timed against the pull."""
    import httpx

    sb.configure(name, latency_ms=0)
    with httpx.Client(timeout=60) as client:
        if name == "wordpress":
            pages = [{"_embed": "1", "per_page": "100", "page": str(k)} for k in range(1, -(-args.n // 100) + 1)]
        else:
            pages = [{"page[offset]": str(k), "page[limit]": "50"} for k in range(0, args.n, 50)]
        for params in pages:
            client.get(url, params=params).raise_for_status()
    sb.configure(name, latency_ms=args.latency_ms)


def _source(name: str, config: dict, database, store, sb, args) -> dict:
    import httpx

    from sadie_pipeline.listings.repository import upsert_dmo

    slug = f"bench-{name}"
    with database.connect() as conn:
        upsert_dmo(conn, slug, f"Benchmark {name}", config)
    _warm(sb, name, config["import"]["url"], args)
    first = _pull(database, store, slug, f"{slug}-first")
    rps = first["records"] / first["total_s"]
    print(f"{name:9} first pull  {first['records']:6} records, {first['pages_fetched']:3} pages: pull "
          f"{first['pull_s']:5.2f} s (CPU {first['pull_cpu_s']:5.2f} s) + stage {first['stage_s']:5.2f} s = "
          f"{first['total_s']:5.2f} s, {rps:6.0f} records/s to staged", flush=True)
    _promote(database, slug)
    httpx.post(f"{sb.base_url(name)}/big-{args.n}/_sandbox/touch", json={"count": args.changed}).raise_for_status()
    before = sb.stats(name)["requests"]
    changed = _pull(database, store, slug, f"{slug}-changed")
    changed["requests"] = sb.stats(name)["requests"] - before  # pages asked for, speculative ones included
    print(f"{name:9} re-pull     {changed['records']:6} changed records, {changed['pages_fetched']:3} of "
          f"{first['pages_fetched']} pages ({changed['requests']} requests), {changed['total_s']:5.2f} s", flush=True)
    _promote(database, slug)
    before = sb.stats(name)["requests"]
    unchanged = _pull(database, store, slug, f"{slug}-unchanged")
    unchanged["requests"] = sb.stats(name)["requests"] - before
    print(f"{name:9} re-pull     {unchanged['records']:6} records (nothing changed), {unchanged['pages_fetched']} "
          f"page(s) ({unchanged['requests']} request(s)), {unchanged['total_s']:5.2f} s", flush=True)
    return {"rps": rps, "first": first, "changed": changed, "unchanged": unchanged}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--changed", type=int, default=250, help="listings changed before the incremental re-pull")
    args = parser.parse_args()

    import psycopg

    from sadie_pipeline.migrations import upgrade
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore
    from sadie_pipeline.sandbox.process import SandboxProcess

    admin = os.environ.get("SADIE_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    db_name = f"sadie_bench_{uuid.uuid4().hex[:8]}"
    db_url = admin.rsplit("/", 1)[0] + f"/{db_name}"
    results = {}
    with tempfile.TemporaryDirectory(prefix="sadie-bench-") as tmp, SandboxProcess(dns=False) as sb:
        for service in ("wordpress", "drupal"):
            sb.configure(service, latency_ms=args.latency_ms)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{db_name}"')
        try:
            upgrade(db_url)
            database, store = Database(url=db_url), ObjectStore(local_root=str(Path(tmp) / "objects"))
            for name, config in _configs(sb, f"big-{args.n}").items():
                results[name] = _source(name, config, database, store, sb, args)
        finally:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')

    metrics = {
        "records": args.n, "latency_ms": args.latency_ms,
        "wordpress_rps": round(results["wordpress"]["rps"], 1), "drupal_rps": round(results["drupal"]["rps"], 1),
        "wordpress_pull_rps": round(args.n / results["wordpress"]["first"]["pull_s"], 1),
        "drupal_pull_rps": round(args.n / results["drupal"]["first"]["pull_s"], 1),
        "wordpress_pull_cpu_s": round(results["wordpress"]["first"]["pull_cpu_s"], 2),
        "drupal_pull_cpu_s": round(results["drupal"]["first"]["pull_cpu_s"], 2),
        "incremental_changed": args.changed,
        "incremental_pages_fetched": sum(r["changed"]["pages_fetched"] for r in results.values()),
        "incremental_requests": sum(r["changed"]["requests"] for r in results.values()),
        # the sources' pages (200 of 100 posts, 400 of 50 nodes); a full pull may ask for a few more ahead
        "incremental_pages_total": sum(-(-args.n // size) for size in (100, 50)),
        "unchanged_pages_fetched": sum(r["unchanged"]["pages_fetched"] for r in results.values()),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    print(json.dumps({"benchmark": "source_pull", "metrics": metrics}))


if __name__ == "__main__":
    main()

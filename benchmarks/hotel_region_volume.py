"""Benchmark: a 10,000-hotel region through the hotel chain on the sandbox, in bounded memory
(issue 34 item 4, seed 001's Phase 2).

A synthetic Florida world of `--hotels` hotels (`World.synthetic`, served by a `SandboxProcess`:
their websites, RDAP) is dropped as one CSV hotel list in `inbox/hotels/US-FL/` (Serper lists at
most 100 places a city, 10 pages of 10, so a 10,000-hotel region comes from lists and DMOs), its
cities made market cities, and the chain is materialised over US-FL in a fresh database, from
discovery to the score: hotel_discovery, hotel_entities, hotel_websites, booking_engine_detection,
the layers room_counts (the regex fallback: no Groq key), attraction_proximity and rdap_owner,
then golden_hotels and lead_scores. The other layers run the same `enrich_regions` path as these.

The chain runs in a child process (the run process), one asset after another in order, each its
own `materialize`; the child resets its peak resident set before each asset and reads it after.
Memory an asset frees is not given back to the system, so each asset's RSS at its start is
reported too, and its growth is peak minus start. The sandbox and this process are apart.
Reported: per asset its wall time, RSS at start, peak RSS and its figures; EXPLAIN of a layer's
pending queries after the run (which index they use); wall_s, the chain's wall time;
peak_rss_mb, the run process's peak (target <= 500 MB).

`--code DIR` runs the chain with the package under DIR (a copy of the code before a change), to
measure before and after on the same machine. The last line is
`{"benchmark": "hotel_region_volume", "metrics": {"hotels": ..., "peak_rss_mb": ..., "wall_s": ...}}`.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
from scratch_db import drop_database, fresh_database  # noqa: E402

REGION = "US-FL"
CHAIN = ("hotel_discovery", "hotel_entities", "hotel_websites", "booking_engine_detection", "room_counts",
         "attraction_proximity", "rdap_owner", "golden_hotels", "lead_scores")
# figures of each asset's metadata worth printing (the region's own, under its partition)
FIGURES = ("source_records", "records", "entities", "hotels_created", "sites", "sites_fetched", "sites_dead",
           "hotels", "ok", "dead_lettered", "skipped", "hotels_now_enriched", "scored", "golden_records")


def hotel_list_csv(world: Any) -> bytes:
    """The world's hotels as a discovery CSV (discovery.CSV_COLUMNS)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(("name", "address", "city", "state", "zip", "phone", "website", "lat", "lng", "google_place_id"))
    for p in world.hotels:
        writer.writerow((p.name, p.address, p.city, p.state, "", p.phone or "", p.website or "", p.lat, p.lon,
                         p.place_id or ""))
    return out.getvalue().encode()


# ---- the run process -----------------------------------------------------------------------------

def _peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _reset_peak() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def _resources(info: dict[str, Any]) -> dict[str, Any]:
    from sadie_pipeline.io_managers import io_manager_resources
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.llm import GroqResource
    from sadie_pipeline.resources.object_store import ObjectStore
    from sadie_pipeline.resources.rdap_dns import RdapResource
    from sadie_pipeline.resources.serper import SerperResource
    from sadie_pipeline.resources.web import WebsiteFetcher

    database, store = Database(url=info["db_url"]), ObjectStore(local_root=info["store"])
    return {"database": database, "object_store": store, **io_manager_resources(database, store),
            "serper": SerperResource(api_key=None, base_url=info["serper"]),
            "website_fetcher": WebsiteFetcher(proxy=info["proxy"], total_timeout_s=5, read_timeout_s=3,
                                              connect_timeout_s=3, max_concurrency=64),
            "groq": GroqResource(api_key=None, base_url=info["groq"]),
            "rdap": RdapResource(base_url=info["rdap"], requests_per_second=500, max_concurrency=32,
                                 backoff_base_s=0.05, backoff_max_s=0.2)}


def run_chain(info: dict[str, Any]) -> None:
    """The run process: each asset of CHAIN over the region, its wall time and own peak RSS."""
    from dagster import DagsterInstance, materialize

    import sadie_pipeline
    from sadie_pipeline.hotels import assets as hotel_assets
    from sadie_pipeline.hotels import lead_assets
    from sadie_pipeline.hotels.enrichment import owner, proximity, room_counts

    assets = {name: getattr(module, name) for module in (hotel_assets, lead_assets, owner, proximity, room_counts)
              for name in CHAIN if hasattr(module, name)}
    resources = _resources(info)
    steps, started = {}, time.perf_counter()
    with DagsterInstance.ephemeral() as instance:
        for name in CHAIN:
            _reset_peak()  # freed memory is not given back to the system: rss_start_mb says where it began
            start_mb, t0 = _rss_mb(), time.perf_counter()
            result = materialize([assets[name]], partition_key=REGION, instance=instance, resources=resources,
                                 raise_on_error=False)
            meta = {}
            for event in result.get_asset_materialization_events():
                meta.update({k: v.value for k, v in event.event_specific_data.materialization.metadata.items()
                             if k.split("/")[-1] in FIGURES and isinstance(v.value, (int, float, str))})
            steps[name] = {"success": result.success, "wall_s": round(time.perf_counter() - t0, 1),
                           "rss_start_mb": round(start_mb, 1), "peak_rss_mb": round(_peak_rss_mb(), 1), **meta}
            print(json.dumps({name: steps[name]}), flush=True)
    print(json.dumps({"code": str(Path(sadie_pipeline.__file__).parent), "steps": steps,
                      "wall_s": round(time.perf_counter() - started, 1),
                      "peak_rss_mb": max(s["peak_rss_mb"] for s in steps.values())}), flush=True)


# ---- the benchmark -------------------------------------------------------------------------------

def explain_pending(db_url: str) -> list[str]:
    """EXPLAIN of rdap_owner's pending queries (the first window) as the layers send them, after the
    run (the region's hotels all done: what a re-run reads)."""
    import psycopg

    from sadie_pipeline.core.enrichment.layers import LAYER_RDAP
    from sadie_pipeline.hotels.enrichment import common

    with psycopg.connect(db_url, autocommit=True) as conn:  # as autovacuum leaves the tables
        for table in ("hotels", "booking_engines", "hotel_booking_engines", "hotel_owner_enrichment"):
            conn.execute(f"VACUUM ANALYZE sadie_gtm.{table}")
        explain = getattr(common, "explain_pending", None)
        if explain is None:
            return ["(no explain_pending in this code)"]
        return explain(conn, REGION, LAYER_RDAP, common.LayerConfig())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hotels", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--js-share", type=float, default=0.01, help="hotels whose engine needs Chromium")
    parser.add_argument("--dead-share", type=float, default=0.05)
    parser.add_argument("--code", help="run the chain with the package under this folder (default: this checkout)")
    parser.add_argument("--keep", action="store_true", help="keep the database")
    parser.add_argument("--chain", help=argparse.SUPPRESS)  # the run process (JSON of the run's settings)
    args = parser.parse_args()
    if args.chain:
        run_chain(json.loads(args.chain))
        return
    sys.path.insert(0, str(Path(args.code).resolve()) if args.code else str(HERE.parent))
    import psycopg

    from sadie_pipeline.hotels.discovery import csv_inbox_prefix
    from sadie_pipeline.hotels.markets import add_market
    from sadie_pipeline.resources.object_store import ObjectStore
    from sadie_pipeline.sandbox.process import SandboxProcess
    from sadie_pipeline.sandbox.world import World

    db_url, store_root = fresh_database("sadie_bench_volume"), tempfile.mkdtemp(prefix="sadie-bench-volume-")
    world = World.synthetic(args.hotels, seed=args.seed, js_share=args.js_share, dead_share=args.dead_share)
    ObjectStore(local_root=store_root).put_bytes(f"{csv_inbox_prefix(REGION)}hotels.csv", hotel_list_csv(world))
    with psycopg.connect(db_url) as conn:
        add_market(conn, REGION, sorted({p.city for p in world.hotels}))
    print(f"{len(world.hotels)} hotels in the list, {len({p.city for p in world.hotels})} cities", flush=True)
    del world
    try:
        with SandboxProcess(synthetic=args.hotels, seed=args.seed, js_share=args.js_share,
                            dead_share=args.dead_share, demo=False, dns=False) as sb:
            sb.configure("sites", hang_s=1.0)
            info = {"db_url": db_url, "store": store_root, "proxy": sb.proxy_url, "serper": sb.base_url("serper"),
                    "groq": sb.base_url("groq"), "rdap": sb.base_url("rdap")}
            code = str(Path(args.code).resolve()) if args.code else str(HERE.parent)
            env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
            env["PYTHONPATH"] = code
            proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--chain", json.dumps(info)],
                                  env=env, cwd=code, stdout=subprocess.PIPE, text=True)
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        for line in lines[:-1]:
            print(f"  {line}")
        run = json.loads(lines[-1])
        plan = explain_pending(db_url)
        print("pending query plan (rdap_owner, after the run):\n  " + "\n  ".join(plan))
        with psycopg.connect(db_url) as conn:
            hotels = conn.execute("SELECT count(*) FROM sadie_gtm.hotels WHERE region = %s", (REGION,)).fetchone()[0]
        metrics = {"hotels": hotels, "peak_rss_mb": run["peak_rss_mb"], "wall_s": run["wall_s"],
                   "chain": "discovery to score", "code": run["code"],
                   "success": all(s["success"] for s in run["steps"].values()),
                   "peak_rss_by_asset_mb": {k: s["peak_rss_mb"] for k, s in run["steps"].items()},
                   "rss_growth_by_asset_mb": {k: round(s["peak_rss_mb"] - s["rss_start_mb"], 1)
                                              for k, s in run["steps"].items()},
                   "pending_query_uses_index": any("hotels_pending_enrichment_idx" in ln for ln in plan)}
    finally:
        if not args.keep:
            drop_database(db_url)
    print(json.dumps({"benchmark": "hotel_region_volume", "metrics": metrics}))


if __name__ == "__main__":
    main()

"""Benchmark: discovery at scale (issue 32): a million Common Crawl index lines scanned and loaded,
and 100,000 licence records.

Crawl part: the sandbox runs in a child process (`SandboxProcess`, a synthetic Florida world of
`--hotels` hotels, no demo) with a discovery archive of `--lines` index lines under ``.test``
(SADIE_SANDBOX_CC_LINES; 15,000 lines an index page as Common Crawl's 5 blocks of 3,000), and
`crawl_discovery` is materialised over US-FL in a fresh database (``tlds=["test"]``: `.test` stands
in for a generic TLD). Scored against the archive's truth (`sandbox/crawl_archive.py`, rebuilt
here from the same world after the run):

* lodging_precision: kept `crawl` rows whose domain is a lodging home page of the crawl;
* lodging_recall: lodging home pages of the crawl kept (and recall over those whose host carries
  a lodging word, the only ones a host-word query can reach);
* engine_clients_found / engine_clients_present: (engine domain, client id) pairs written as
  `engine_client` rows / in the crawl;
* crawl_wall_s: the materialisation; crawl_peak_rss_mb: this process's peak resident set during it
  (VmHWM reset before; the sandbox's own memory is the child's, reported apart);
* index_requests / data_requests: the sandbox's counts.

Production paces the CC index at 1 request/s (CommonCrawlResource's default): this run raises it to
INDEX_RPS and the data server's to DATA_RPS, both stated in the output.

Licence part: `benchmarks/discovery_licences.py::run_licences(dsn, n)` (same database) when present.
The last line is `{"benchmark": "discovery", "metrics": {...}}`; wall_s is crawl_wall_s plus
licence_wall_s, peak_rss_mb the larger peak.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from scratch_db import drop_database, fresh_database  # noqa: E402

INDEX_RPS, DATA_RPS = 200.0, 5000.0
PAGE_LINES = 15_000


def _peak_rss_mb() -> float:
    import psutil

    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return psutil.Process().memory_info().rss / 2**20


def _reset_peak() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def run_crawl(db_url: str, sb: Any) -> tuple[float, float, dict[str, Any]]:
    from dagster import DagsterInstance, materialize

    from sadie_pipeline.hotels.discovery_crawl import crawl_discovery
    from sadie_pipeline.resources.common_crawl import CommonCrawlResource
    from sadie_pipeline.resources.database import Database

    cc = CommonCrawlResource(index_url=f"{sb.base_url('commoncrawl')}/index", data_url=sb.base_url("commoncrawl_data"),
                             index_requests_per_second=INDEX_RPS, index_max_concurrency=32,
                             data_requests_per_second=DATA_RPS, data_max_concurrency=16,
                             backoff_base_s=0.05, backoff_max_s=0.5)
    _reset_peak()
    started, cpu = time.perf_counter(), time.process_time()
    with DagsterInstance.ephemeral() as instance:
        result = materialize([crawl_discovery], partition_key="US-FL", instance=instance,
                             resources={"database": Database(url=db_url), "common_crawl": cc},
                             run_config={"ops": {"crawl_discovery": {"config": {"tlds": ["test"]}}}})
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert result.success
    meta = {k: v.value for k, v in result.asset_materializations_for_node("crawl_discovery")[0].metadata.items()}
    return seconds, _peak_rss_mb(), {**meta, "cpu_s": cpu}


def score(db_url: str, hotels: int, seed: int, lines: int) -> dict[str, Any]:
    import psycopg

    from sadie_pipeline.core.crawl_queries import lodging_words, region_languages
    from sadie_pipeline.core.normalize import registrable_domain
    from sadie_pipeline.sandbox.crawl_archive import DiscoveryArchive
    from sadie_pipeline.sandbox.services.commoncrawl import CRAWLS
    from sadie_pipeline.sandbox.world import World

    archive = DiscoveryArchive(World.synthetic(hotels, seed=seed), CRAWLS[0][0], CRAWLS[0][2], lines=lines,
                               page_lines=PAGE_LINES)
    archive.specials()
    truth = archive.truth
    with psycopg.connect(db_url) as conn:
        rows = conn.execute("SELECT source, external_id, record FROM sadie_gtm.hotel_sources "
                            "WHERE source IN ('crawl', 'engine_client')").fetchall()
    kept = {e for s, e, _ in rows if s == "crawl"}
    clients = {(registrable_domain(urlsplit(r["booking_url"]).hostname), r["client_id"])
               for s, _, r in rows if s == "engine_client"}
    words = lodging_words(region_languages("US-FL"))
    reachable = {d for d in truth.lodging if any(w in d.split(".")[0] for w in words)}
    return {
        "crawl_rows": len(kept), "lodging_in_crawl": len(truth.lodging), "decoys_in_crawl": len(truth.not_lodging),
        "lodging_precision": round(len(kept & truth.lodging) / len(kept), 4) if kept else 0.0,
        "lodging_recall": round(len(kept & truth.lodging) / len(truth.lodging), 4) if truth.lodging else 0.0,
        "lodging_recall_host_words": round(len(kept & reachable) / len(reachable), 4) if reachable else 0.0,
        "decoys_kept": len(kept & truth.not_lodging),
        "engine_clients_present": len(truth.engine_clients), "engine_clients_found": len(clients & truth.engine_clients),
        "engine_clients_wrong": len(clients - truth.engine_clients),
    }


def run_licence_part(db_url: str, n: int) -> dict[str, Any]:
    try:
        from benchmarks.discovery_licences import run_licences
    except ImportError as exc:
        return {"licences": f"not run: {exc}"}
    return run_licences(db_url, n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000, help="index lines of the crawl's discovery archive")
    parser.add_argument("--hotels", type=int, default=5_000, help="synthetic hotels of the sandbox world")
    parser.add_argument("--licences", type=int, default=100_000, help="licence records (0: skip)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database (dropped otherwise)")
    args = parser.parse_args()

    from sadie_pipeline.sandbox.process import SandboxProcess

    os.environ["SADIE_SANDBOX_CC_LINES"] = str(args.lines)  # the child reads them (crawl_archive.py)
    os.environ["SADIE_SANDBOX_CC_PAGE_LINES"] = str(PAGE_LINES)
    db_url = fresh_database("sadie_bench_discovery")
    with SandboxProcess(synthetic=args.hotels, seed=args.seed, demo=False, dns=False) as sb:
        seconds, peak, meta = run_crawl(db_url, sb)
        cpu = meta["cpu_s"]
        stats = sb.stats()
        import psutil

        child = psutil.Process(sb.pid) if sb.pid else None
        child_rss = child.memory_info().rss / 2**20 if child else None
        child_cpu = sum(child.cpu_times()[:2]) if child else None
    metrics: dict[str, Any] = {
        "crawl_lines": args.lines, "hotels": args.hotels, "crawl_wall_s": round(seconds, 2),
        "crawl_peak_rss_mb": round(peak, 1), "sandbox_rss_mb": round(child_rss or 0, 1),
        "sandbox_cpu_s": round(child_cpu or 0, 1), "crawl_cpu_s": round(cpu, 1),
        "index_requests": stats.get("commoncrawl", {}).get("requests"),
        "data_requests": stats.get("commoncrawl_data", {}).get("requests"),
        "index_rps_raised_to": INDEX_RPS, "data_rps_raised_to": DATA_RPS, "production_index_rps": 1.0,
        "candidates": meta.get("candidates"), "rejected": meta.get("rejected"),
        **score(db_url, args.hotels, args.seed, args.lines),
    }
    print(json.dumps({"crawl": metrics}, indent=1), flush=True)
    licences = run_licence_part(db_url, args.licences) if args.licences else {}
    metrics.update(licences)
    metrics["wall_s"] = round(seconds + float(licences.get("licence_wall_s") or 0), 2)
    metrics["peak_rss_mb"] = round(max(peak, float(licences.get("licence_peak_rss_mb") or 0)), 1)
    if not args.keep:
        drop_database(db_url)
    print(json.dumps({"benchmark": "discovery", "metrics": metrics}))


if __name__ == "__main__":
    main()

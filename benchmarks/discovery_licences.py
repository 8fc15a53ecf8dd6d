"""Licence discovery load benchmark: N synthetic licence rows (Florida DBPR layout) served by the
sandbox, downloaded through the guard, parsed, COPYed into sadie_gtm.licence_records, then written
as hotel_sources rows (source ``licence``) by `discovery.save_sources` (COPY + one upsert).

    python benchmarks/discovery_licences.py [--n 100000] [--dsn postgresql://postgres@127.0.0.1:5432/DB]

Without --dsn a scratch database is created on the local server and dropped afterwards.
`run_licences(dsn, n)` is what ``benchmarks/discovery.py`` imports. Figures:

* ``licence_load_s``: register download + parse + COPY into licence_records (`load_registry`);
* ``licence_sources_s``: licence_records -> hotel_sources (`discover_region`, streamed);
* ``licence_wall_s``: both; ``licence_rerun_s``: the same run again (nothing loaded or written);
* ``licence_peak_rss_mb``: this process's peak resident set while it loads and writes (the peak is
  reset first, Linux /proc/self/clear_refs); the sandbox serves the file from a child process.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

REGISTRY = "fl_dbpr_synthetic"
SYNTHETIC_URL = "https://www2.myfloridalicense.com/sto/file_download/extracts/synthetic.csv?records={n}&seed=1"


def _peak_rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _reset_peak() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current RSS
    except OSError:
        pass


def _catalog(n: int, folder: Path) -> Path:
    """The bundled FL register's layout, pointing at the sandbox's synthetic file."""
    from sadie_pipeline.resources.licences import BUNDLED_REGISTERS

    fl = next(r for r in json.loads(BUNDLED_REGISTERS.read_text())["registries"] if r["region"] == "US-FL")
    path = folder / "registers.json"
    path.write_text(json.dumps({"registries": [{**fl, "id": REGISTRY, "urls": [SYNTHETIC_URL.format(n=n)]}]}))
    return path


def _clean(database) -> None:
    with database.connect() as conn:
        conn.execute("DELETE FROM sadie_gtm.hotel_sources WHERE source = 'licence' AND external_id LIKE %s",
                     (f"{REGISTRY}:%",))
        conn.execute("DELETE FROM sadie_gtm.licence_records WHERE registry = %s", (REGISTRY,))
        conn.execute("DELETE FROM sadie_gtm.licence_files WHERE registry = %s", (REGISTRY,))


def run_licences(dsn: str, n: int) -> dict:
    """Loads n synthetic licence rows through the licence discovery path into `dsn` (migrated
    here); the figures as a dict (see the module's docstring)."""
    import httpx

    from sadie_pipeline.hotels.discovery_licences import LicenceDiscoveryConfig, discover_region, load_region
    from sadie_pipeline.migrations import upgrade
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.licences import LicenceRegisterResource
    from sadie_pipeline.sandbox.process import SandboxProcess

    upgrade(dsn)
    database = Database(url=dsn)
    _clean(database)
    # the sandbox in a child process: the peak is the pipeline's alone, as in the crawl part
    with SandboxProcess(seed=7, dns=False) as sb, tempfile.TemporaryDirectory() as tmp:
        registers = LicenceRegisterResource(base_url=sb.base_url("licences"), config_file=str(_catalog(n, Path(tmp))),
                                            requests_per_second=100, timeout_s=600)
        [registry] = registers.for_region("US-FL")
        httpx.get(registers.resolved_url(registry.urls[0]), timeout=600).raise_for_status()  # the sandbox builds it
        _reset_peak()
        started = time.perf_counter()
        loads = load_region(database, registers, [registry])
        loaded = time.perf_counter()
        figures = discover_region(database, registers, "US-FL", LicenceDiscoveryConfig())
        done = time.perf_counter()
        peak = _peak_rss_mb()
        again = discover_region(database, registers, "US-FL", LicenceDiscoveryConfig())
        rerun = time.perf_counter() - done
    with database.connect() as conn:
        [rows] = conn.execute("SELECT count(*) FROM sadie_gtm.hotel_sources WHERE source = 'licence' "
                              "AND external_id LIKE %s", (f"{REGISTRY}:%",)).fetchone()
    return {"licence_records": n, "licence_lodging_records": sum(f.records for f in loads),
            "licence_sources_written": figures["source_records"], "licence_source_rows": rows,
            "licence_skipped": {"inactive": figures["skipped"].data["inactive"],
                                "not_lodging_at_load": sum(f.filtered for f in loads),
                                "unreadable_at_load": sum(f.rejected for f in loads)},
            "licence_load_s": round(loaded - started, 2),
            "licence_sources_s": round(done - loaded, 2), "licence_wall_s": round(done - started, 2),
            "licence_rerun_s": round(rerun, 2), "licence_rerun_written": again["source_records"],
            "licence_peak_rss_mb": round(peak, 1)}


def _scratch_database(server: str) -> str:
    import psycopg

    name = f"sadie_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return name


def _drop_database(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dsn", help="an existing database (default: a scratch one on --server)")
    parser.add_argument("--server", default="postgresql://postgres@127.0.0.1:5432")
    args = parser.parse_args(argv)
    scratch = None if args.dsn else _scratch_database(args.server)
    try:
        metrics = run_licences(args.dsn or f"{args.server}/{scratch}", args.n)
    finally:
        if scratch:
            _drop_database(args.server, scratch)
    for key, value in metrics.items():
        print(f"{key}: {value}")
    print(json.dumps({"benchmark": "discovery_licences", "metrics": metrics}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

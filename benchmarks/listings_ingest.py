"""Listings ingest benchmark: first import, unchanged re-import and a revision of N generated
listings, each through the real assets (import -> stage -> promote) in a process of its own so
its peak RSS is its own; then the limits they are measured against, and the floors (issue 34).

The unchanged re-import delivers the same file again, whose raw files the import derives from the
first import's instead of parsing it (listings/redelivery.py). A second unchanged re-import
delivers the same records in other bytes (every field quoted), which the import parses: its figure
is the unchanged re-import of a file that is not byte for byte the same (reimport_parsed_rps).

Limits. The COPY limit of one table: the CSV copied into one unindexed table of text columns
(copy_limit_rps). The all-rows COPY limit: the rows the first import wrote, counted in every table
of the database it left more rows in (raw keys, staged rows, listings, locations, listing_info,
contacts, hours, images, keys, bridge, jobs' files...: rows_per_record), exported and copied again
into unindexed copies of those tables (CREATE TABLE ... (LIKE t): same columns and types, no index,
trigger, foreign key or default), in one transaction on one connection (all_rows_copy_limit_rps,
in records per second). Copies of the real tables, not one table of an average width: the rows
range from 16-byte keys to wide staged rows with JSON, and COPY's cost per row and per typed value
(jsonb, arrays, timestamps) is what an average width would hide. The same rows copied into copies
with the tables' indexes (all_rows_indexed_copy_limit_rps) is the least any writer of them pays: the
app's searches and the matcher's lookups need those indexes. And what the cores could give at the
first import's CPU a record, all of them busy throughout (cpu_bound_rps).

Size: the database's growth a record, for the first import (db_bytes_per_record) and for an
unchanged re-import (reimport_db_bytes_per_record: its staged rows, until retention archives them).

CPU (first_import_core_ms_per_record): all the busy core time of the work, per record: the run's
process and its stage workers (getrusage, over the assets' run), and the PostgreSQL server's
processes while the phase's process runs (ingest_measures.PgCpu, from /proc): those working for
the benchmark's database, the server's own writers (checkpointer, WAL and background writers,
which serve other databases too) and its processes too short-lived to be told apart (started and
ended between two samples 10 ms apart, ours or others'). The last two may hold others' work on a
shared machine: an upper bound. The machine's whole busy time, other users included, is
first_import_core_s.

Floors, in the same run: first import >= 25 % of the all-rows COPY limit; unchanged re-import of
the same file >= 9 % of the one-table COPY limit; first import <= 0.5 core-ms per record; peak
RSS (the phases' processes and their stage workers) <= 300 MB.

    python benchmarks/listings_ingest.py [--n 100000] [--workers W]

Prints readable lines, then one JSON line {"benchmark": "listings_ingest", "metrics": {...}}.
Uses SADIE_BENCH_PG_URL (an admin URL; default postgresql://postgres@127.0.0.1:5432/postgres)
to create a scratch database, dropped at the end.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from ingest_measures import CpuMeter, PgCpu, copy_rows_s, export_rows, table_rows  # noqa: E402

SLUG = "bench-dmo"
FLOORS = {  # issue 34: (metric, at least / at most, value)
    "first_import_vs_all_rows_copy_limit": (">=", 0.25),
    "reimport_vs_copy_limit": (">=", 0.09),
    "first_import_core_ms_per_record": ("<=", 0.5),
    "peak_rss_mb": ("<=", 300.0),
}


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- one phase, in a child process ------------------------------------------------------------

def run_phase(db_url: str, store_root: str, csv_path: str, key: str, workers: str) -> dict:
    from dagster import DagsterInstance, materialize

    from sadie_pipeline.listings.assets import listing_assets
    from sadie_pipeline.listings.promote import job_summary
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore

    database, store = Database(url=db_url), ObjectStore(local_root=store_root)
    store.put_file(key, csv_path)
    with DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("dmo", [SLUG])
        with CpuMeter() as cpu:
            started = time.perf_counter()
            result = materialize(
                listing_assets, partition_key=SLUG, instance=instance,
                resources={"database": database, "object_store": store},
                run_config={"ops": {"listing_raw_files": {"config": {"inbox_key": key}},
                                    "listing_stage": {"config": {"workers": int(workers) if workers else None}}},
                            "loggers": {"console": {"config": {"log_level": "WARNING"}}}},
            )
            wall = time.perf_counter() - started
        assert result.success
        started_at = {e.step_key: e.timestamp for e in instance.all_logs(result.run_id)
                      if e.dagster_event and e.dagster_event.event_type_value == "STEP_START"}
        steps, cores = {}, {}
        for e in instance.all_logs(result.run_id):
            if e.dagster_event and e.dagster_event.event_type_value == "STEP_SUCCESS":
                steps[e.step_key] = round(e.dagster_event.event_specific_data.duration_ms / 1000, 2)
                cores[e.step_key] = cpu.between(started_at[e.step_key], e.timestamp)
    [stage] = result.asset_materializations_for_node("listing_stage")
    reused = stage.metadata["records_reused"].value
    [raw] = result.asset_materializations_for_node("listing_raw_files")
    derived = raw.metadata["same_file_as_jobs"].value
    with database.connect() as conn:
        job_id = conn.execute("SELECT id FROM pipeline.jobs WHERE source_key = %s", (key,)).fetchone()[0]
        summary = job_summary(conn, job_id)
    summary["reused"] = reused
    summary["raw"] = f"raw files derived from job {derived[0]}'s" if derived else "file parsed"
    workers_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"wall_s": wall, "peak_rss_mb": peak_rss_mb(), "workers_peak_rss_mb": workers_mb, "summary": summary,
            "steps_s": steps, "steps_cores_busy": cores, "cpu": cpu.spent}


def phase_in_child(name: str, db_url: str, store_root: str, csv_path: Path, n: int, workers: int | None) -> dict:
    with PgCpu(db_url) as pg:
        done = subprocess.run([sys.executable, __file__, "--phase", db_url, store_root, str(csv_path),
                               f"inbox/{SLUG}/{name}.csv", str(workers or "")], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the {name} phase failed:\n{done.stderr[-5000:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures["pg_cpu"] = pg.spent
    figures["rps"] = n / figures["wall_s"]
    s = figures["summary"]
    print(f"{name:<15} {figures['wall_s']:7.2f} s  {figures['rps']:9.0f} records/s  peak RSS {figures['peak_rss_mb']:6.1f} MB"
          f"   inserted {s['inserted']}, updated {s['updated']}, unchanged {s['unchanged']}, duplicate {s['duplicate']},"
          f" deleted {s['deleted']}, review {s['needing_review']}, errors {s['errors']};"
          f" {s['reused']} reused unchanged staging; {s['raw']}; stage workers' peak RSS {figures['workers_peak_rss_mb']:.1f} MB",
          flush=True)
    cores = figures["steps_cores_busy"]
    print("                seconds per asset (cores busy on average): " + ", ".join(
        f"{k} {v}" + (f" ({cores[k]})" if cores.get(k) is not None else "") for k, v in figures["steps_s"].items()),
        flush=True)
    cpu = figures["cpu"]
    busy = (f"{cpu['busy']} core-s busy on {os.cpu_count()} cores ({cpu['use']:.0%} of them): " if "busy" in cpu else "")
    print(f"                CPU: {busy}the run {cpu['own']}, its workers {cpu['workers']}"
          + (f", PostgreSQL and the rest {cpu['rest']}" if "rest" in cpu else ""), flush=True)
    figures["core_s"] = cpu["own"] + cpu["workers"] + sum(figures["pg_cpu"].values())
    pg = figures["pg_cpu"]
    print(f"                the work's CPU: {figures['core_s']:.1f} core-s ({figures['core_s'] * 1000 / n:.3f} core-ms a "
          f"record): the run {cpu['own']}, its workers {cpu['workers']}, PostgreSQL for its database {pg['database']}, "
          f"the server's writers {pg['server']}, its processes too short to tell apart {pg['unattributed']}", flush=True)
    return figures


# --- references --------------------------------------------------------------------------------

def copy_limit(db_url: str, csv_path: Path, columns: list[str]) -> float:
    import psycopg

    with psycopg.connect(db_url) as conn:
        conn.execute(f"CREATE TABLE copy_limit ({', '.join(f'{c} text' for c in columns)})")
        started = time.perf_counter()
        with conn.cursor().copy("COPY copy_limit FROM STDIN WITH (FORMAT csv, HEADER true)") as copy, \
                csv_path.open("rb") as fh:
            while chunk := fh.read(1 << 20):
                copy.write(chunk)
        conn.commit()
        return time.perf_counter() - started


def same_records_other_bytes(source: Path, out: Path) -> None:
    """The file's records, field for field, with every field quoted: not the same file, so parsed."""
    with source.open(newline="", encoding="utf-8") as src, out.open("w", newline="", encoding="utf-8") as dst:
        csv.writer(dst, quoting=csv.QUOTE_ALL).writerows(csv.reader(src))


# --- the whole benchmark ----------------------------------------------------------------------

def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--phase":
        print(json.dumps(run_phase(*sys.argv[2:7]), default=str))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=None, help="stage workers (default: one per core)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sadie-bench-") as tmp:
        measured = measure(args, Path(tmp))
    metrics = metrics_of(args.n, *measured)
    metrics["floors_met"] = judge_floors(metrics)
    print(json.dumps({"benchmark": "listings_ingest", "metrics": metrics}))


def measure(args: argparse.Namespace, tmp: Path) -> tuple[dict, float, float, int, float]:
    """The four phases in a scratch database, then the COPY limits on the first import's rows:
    (phases, one-table COPY records/s, all-rows COPY records/s, rows the first import wrote,
    all-rows COPY records/s into copies with the tables' indexes)."""
    import psycopg

    from sadie_pipeline.listings.repository import upsert_dmo
    from sadie_pipeline.migrations import upgrade

    admin = os.environ.get("SADIE_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    db_name = f"sadie_bench_{uuid.uuid4().hex[:8]}"
    db_url = admin.rsplit("/", 1)[0] + f"/{db_name}"
    config = json.loads((HERE / "listings_bench.config.json").read_text())
    first, revision = tmp / "listings.csv", tmp / "listings.revision.csv"
    started = time.perf_counter()
    subprocess.run([sys.executable, str(HERE / "listings_data.py"), "--n", str(args.n), "--seed", str(args.seed),
                    "--out", str(first), "--revised-out", str(revision)], check=True, capture_output=True)
    print(f"generated {args.n} listings (5 % exact, 5 % near duplicates) and a revision "
          f"(10 % changed, 2 % gone) in {time.perf_counter() - started:.1f} s", flush=True)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{db_name}"')
    try:
        upgrade(db_url)
        with psycopg.connect(db_url) as conn:
            upsert_dmo(conn, SLUG, "Benchmark DMO", config)
        phases, written = run_phases(args, db_url, str(tmp / "objects"), first, revision, tmp)
        with first.open(newline="", encoding="utf-8") as fh:
            columns = next(csv.reader(fh))
        copy_rps = args.n / copy_limit(db_url, first, columns)
        print(f"copy limit      {copy_rps:9.0f} records/s  (the CSV into one unindexed table)")
        all_rows_rps = args.n / copy_rows_s(db_url, written, tmp)
        rows = sum(written.values())
        print(f"all-rows copy   {all_rows_rps:9.0f} records/s  (the first import's {rows} rows, "
              f"{rows / args.n:.2f} a record, into unindexed copies of their {len(written)} tables): "
              + ", ".join(f"{t} {n / args.n:.2f}" for t, n in sorted(written.items(), key=lambda i: -i[1])))
        print(f"database growth {phases['first']['db_bytes'] / args.n:9.0f} bytes a record (first import), "
              f"{phases['reimport']['db_bytes'] / args.n:.0f} (unchanged re-import)")
        indexed_rps = args.n / copy_rows_s(db_url, written, tmp, indexed=True)
        print(f"all-rows copy, indexed {indexed_rps:9.0f} records/s  (the same rows into copies with their "
              "tables' indexes: the writes the app and the matcher need)")
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    return phases, copy_rps, all_rows_rps, rows, indexed_rps


def run_phases(args: argparse.Namespace, db_url: str, store: str, first: Path, revision: Path,
               tmp: Path) -> tuple[dict, dict[str, int]]:
    """First import (the rows it wrote per table counted and exported), re-import, re-import of
    the same records in other bytes, revision: (phases, rows written per table)."""
    import psycopg

    quoted = tmp / "listings.quoted.csv"
    same_records_other_bytes(first, quoted)
    phases = {}
    size = "SELECT pg_database_size(current_database())"
    with psycopg.connect(db_url) as conn:
        before, bytes_before = table_rows(conn), conn.execute(size).fetchone()[0]
    phases["first"] = phase_in_child("first", db_url, store, first, args.n, args.workers)
    with psycopg.connect(db_url) as conn:
        written = {t: n - before.get(t, 0) for t, n in table_rows(conn).items() if n > before.get(t, 0)}
        phases["first"]["db_bytes"] = conn.execute(size).fetchone()[0] - bytes_before
    export_rows(db_url, written, tmp)
    phases["reimport"] = phase_in_child("reimport", db_url, store, first, args.n, args.workers)
    with psycopg.connect(db_url) as conn:
        phases["reimport"]["db_bytes"] = conn.execute(size).fetchone()[0] - bytes_before - phases["first"]["db_bytes"]
    phases["reimport_parsed"] = phase_in_child("reimport_parsed", db_url, store, quoted, args.n, args.workers)
    with open(revision, newline="", encoding="utf-8") as fh:
        n_revision = sum(1 for _ in csv.DictReader(fh))
    phases["revision"] = phase_in_child("revision", db_url, store, revision, n_revision, args.workers)
    return phases, written


def metrics_of(n: int, phases: dict, copy_rps: float, all_rows_rps: float, rows: int, indexed_rps: float) -> dict:
    first_phase = phases["first"]
    # what the cores could give at the CPU the first import spends a record, all of them busy
    cpu_bound_rps = (os.cpu_count() or 1) * n / first_phase["core_s"]
    metrics = {
        "records": n,
        "first_import_rps": round(first_phase["rps"], 1),
        "reimport_rps": round(phases["reimport"]["rps"], 1),
        "reimport_parsed_rps": round(phases["reimport_parsed"]["rps"], 1),
        "revision_rps": round(phases["revision"]["rps"], 1),
        "peak_rss_mb": round(max(max(p["peak_rss_mb"], p["workers_peak_rss_mb"]) for p in phases.values()), 1),
        "copy_limit_rps": round(copy_rps, 1),
        "first_import_vs_copy_limit": round(first_phase["rps"] / copy_rps, 4),
        "rows_per_record": round(rows / n, 2),
        "all_rows_copy_limit_rps": round(all_rows_rps, 1),
        "first_import_vs_all_rows_copy_limit": round(first_phase["rps"] / all_rows_rps, 4),
        "reimport_vs_copy_limit": round(phases["reimport"]["rps"] / copy_rps, 4),
        "first_import_core_ms_per_record": round(first_phase["core_s"] * 1000 / n, 3),
        "all_rows_indexed_copy_limit_rps": round(indexed_rps, 1),
        "first_import_vs_all_rows_indexed_copy_limit": round(first_phase["rps"] / indexed_rps, 4),
        "cpu_bound_rps": round(cpu_bound_rps, 1),
        # the database's growth (tables, indexes, TOAST) per record the first import kept
        "db_bytes_per_record": round(first_phase["db_bytes"] / n),
        # and an unchanged re-import's (its staged rows, kept until retention archives them)
        "reimport_db_bytes_per_record": round(phases["reimport"]["db_bytes"] / n),
        "first_import_vs_cpu_bound": round(first_phase["rps"] / cpu_bound_rps, 4),
    }
    if "busy" in first_phase["cpu"]:
        metrics["first_import_core_s"], metrics["first_import_cpu_use"] = first_phase["cpu"]["busy"], first_phase["cpu"]["use"]
    return metrics


def judge_floors(metrics: dict) -> dict[str, bool]:
    """Each floor of FLOORS against its metric, printed pass/fail."""
    met = {}
    for name, (sign, floor) in FLOORS.items():
        value = metrics[name]
        met[name] = value >= floor if sign == ">=" else value <= floor
        print(f"floor {name} {sign} {floor}: {value}  {'pass' if met[name] else 'FAIL'}")
    return met


if __name__ == "__main__":
    main()

"""Listings ingest benchmark: first import, unchanged re-import and a revision of N generated
listings, each through the real assets (import -> stage -> promote) in a process of its own so
its peak RSS is its own; then, on the same records, the naive per-record path of a queue worker
and the raw limit (COPY into one unindexed table).

The unchanged re-import delivers the same file again, whose raw files the import derives from the
first import's instead of parsing it (listings/redelivery.py). A second unchanged re-import
delivers the same records in other bytes (every field quoted), which the import parses: its figure
is the unchanged re-import of a file that is not byte for byte the same (reimport_parsed_rps).

    python benchmarks/listings_ingest.py [--n 100000] [--naive-limit N]

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
import threading
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
SLUG = "bench-dmo"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def busy_core_s() -> float | None:
    """The machine's busy CPU seconds so far, over all cores (Linux's /proc/stat: all but idle and
    I/O wait); None elsewhere."""
    try:
        ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """Core-seconds a phase spends: by the run's process, by its ended children (the stage's
    workers) and, on Linux, by the whole machine (PostgreSQL and the rest: the difference), sampled
    every 0.1 s so that each asset's share of the cores can be read off (`between`)."""

    def __init__(self):
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while True:
            busy = busy_core_s()
            if busy is not None:
                self.samples.append((time.time(), busy))
            if busy is None or self._stop.wait(0.1):
                return

    def __enter__(self) -> CpuMeter:
        self._rusage = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        own, workers = ((u.ru_utime + u.ru_stime) - (b.ru_utime + b.ru_stime) for u, b in
                        zip((resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)),
                            self._rusage))
        self.spent = {"own": round(own, 1), "workers": round(workers, 1)}
        if len(self.samples) > 1:
            (t0, b0), (t1, b1) = self.samples[0], self.samples[-1]
            self.spent.update(busy=round(b1 - b0, 1), rest=round(b1 - b0 - own - workers, 1),
                              use=round((b1 - b0) / ((t1 - t0) * (os.cpu_count() or 1)), 2))

    def between(self, start: float, end: float) -> float | None:
        """Cores busy on average between two time.time() instants (2.0: two cores throughout)."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return None
        return round((inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0]), 2)


# --- one phase, in a child process ------------------------------------------------------------

def run_phase(db_url: str, store_root: str, csv_path: str, key: str) -> dict:
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
                run_config={"ops": {"listing_raw_files": {"config": {"inbox_key": key}}},
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


def phase_in_child(name: str, db_url: str, store_root: str, csv_path: Path, n: int) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--phase", db_url, store_root, str(csv_path), f"inbox/{SLUG}/{name}.csv"],
        check=True, capture_output=True, text=True,
    ).stdout.strip().splitlines()[-1]
    figures = json.loads(out)
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
    return figures


# --- references --------------------------------------------------------------------------------

def naive_worker(db_url: str, csv_path: Path, config: dict, limit: int) -> tuple[int, float]:
    """What a queue worker does per record: normalise, look the listing up by match hash, then
    INSERT or UPDATE listings, locations, contact_info and listing_info with separate
    statements through SQLAlchemy, and commit."""
    from sqlalchemy import create_engine, text

    from sadie_pipeline.core.config import merge_config
    from sadie_pipeline.core.transform import RecordTransformer
    from sadie_pipeline.resources.database import to_sqlalchemy_url

    engine = create_engine(to_sqlalchemy_url(db_url))
    with engine.begin() as conn:
        conn.execute(text("CREATE SCHEMA naive"))
        for table in ("listings", "locations", "contact_info", "listing_info"):
            conn.execute(text(f"CREATE TABLE naive.{table} (LIKE public.{table} INCLUDING DEFAULTS INCLUDING INDEXES)"))
        conn.execute(text("INSERT INTO public.dmos (slug, name) VALUES ('naive', 'naive') ON CONFLICT DO NOTHING"))
        dmo_id = conn.execute(text("SELECT id FROM public.dmos WHERE slug = 'naive'")).scalar_one()
    transform = RecordTransformer(merge_config(config), dmo_id)
    count = 0
    started = time.perf_counter()
    with csv_path.open(newline="", encoding="utf-8") as fh, engine.connect() as conn:
        for raw in csv.DictReader(fh):
            if count >= limit:
                break
            count += 1
            rec = transform(raw).record
            if rec is None:
                continue
            found = conn.execute(text("SELECT id, location_id FROM naive.listings WHERE listing_match_hash = :h"),
                                 {"h": rec["listing_match_hash"]}).first()
            loc = {k: rec[k] for k in ("address1", "address2", "city", "state", "zip", "country", "lat", "lng")}
            contact = {k: rec[k] for k in ("email", "local_phone", "international_phone", "website_url")}
            if found is None:
                loc_id = conn.execute(text(
                    "INSERT INTO naive.locations (address1, address2, city, state, zip, country, lat, lng) "
                    "VALUES (:address1, :address2, :city, :state, :zip, :country, :lat, :lng) RETURNING id"), loc).scalar_one()
                listing_id = conn.execute(text(
                    "INSERT INTO naive.listings (name, category, location_id, listing_match_hash) "
                    "VALUES (:n, :c, :l, :h) RETURNING id"),
                    {"n": rec["name"], "c": rec["category"], "l": loc_id, "h": rec["listing_match_hash"]}).scalar_one()
                contact_id = conn.execute(text(
                    "INSERT INTO naive.contact_info (email, local_phone, international_phone, website_url) "
                    "VALUES (:email, :local_phone, :international_phone, :website_url) RETURNING id"), contact).scalar_one()
                conn.execute(text(
                    "INSERT INTO naive.listing_info (listing_id, dmo_id, external_source_id, description, contact_info_id) "
                    "VALUES (:l, :d, :s, :desc, :c)"),
                    {"l": listing_id, "d": dmo_id, "s": rec["source_id"], "desc": rec["description"], "c": contact_id})
            else:
                listing_id, loc_id = found
                conn.execute(text("UPDATE naive.listings SET name = :n, category = :c, updated_at = now() WHERE id = :id"),
                             {"n": rec["name"], "c": rec["category"], "id": listing_id})
                conn.execute(text("UPDATE naive.locations SET address1 = :address1, address2 = :address2, city = :city, "
                                  "state = :state, zip = :zip, country = :country, lat = :lat, lng = :lng WHERE id = :id"),
                             {**loc, "id": loc_id})
                info = conn.execute(text("SELECT id, contact_info_id FROM naive.listing_info WHERE listing_id = :l AND dmo_id = :d"),
                                    {"l": listing_id, "d": dmo_id}).first()
                conn.execute(text("UPDATE naive.contact_info SET email = :email, local_phone = :local_phone, "
                                  "international_phone = :international_phone, website_url = :website_url WHERE id = :id"),
                             {**contact, "id": info[1]})
                conn.execute(text("UPDATE naive.listing_info SET description = :desc, last_seen_at = now() WHERE id = :id"),
                             {"desc": rec["description"], "id": info[0]})
            conn.commit()
    return count, time.perf_counter() - started


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


def cpu_budget(first: dict, tenfold_s: float, metrics: dict) -> None:
    """The first import's CPU beside what ten times the naive path leaves: its wall time on every
    core, were all busy throughout (into metrics: first_import_core_s, first_import_cpu_use)."""
    cpu = first["cpu"]
    if "busy" in cpu:
        metrics["first_import_core_s"], metrics["first_import_cpu_use"] = cpu["busy"], cpu["use"]
        print(f"10x the naive path is {tenfold_s:.1f} s: at most {tenfold_s * (os.cpu_count() or 1):.1f} core-s with "
              f"every core busy throughout; the first import used {cpu['busy']} core-s in {first['wall_s']:.1f} s")


# --- the whole benchmark ----------------------------------------------------------------------

def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--phase":
        print(json.dumps(run_phase(*sys.argv[2:6]), default=str))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--naive-limit", type=int, default=None, help="records for the naive path (default: all)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    import psycopg

    from sadie_pipeline.listings.repository import upsert_dmo
    from sadie_pipeline.migrations import upgrade

    admin = os.environ.get("SADIE_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    db_name = f"sadie_bench_{uuid.uuid4().hex[:8]}"
    db_url = admin.rsplit("/", 1)[0] + f"/{db_name}"
    config = json.loads((HERE / "listings_bench.config.json").read_text())
    with tempfile.TemporaryDirectory(prefix="sadie-bench-") as tmp:
        first, revision = Path(tmp) / "listings.csv", Path(tmp) / "listings.revision.csv"
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
            store = str(Path(tmp) / "objects")
            quoted = Path(tmp) / "listings.quoted.csv"
            same_records_other_bytes(first, quoted)
            phases = {
                "first": phase_in_child("first", db_url, store, first, args.n),
                "reimport": phase_in_child("reimport", db_url, store, first, args.n),
                "reimport_parsed": phase_in_child("reimport_parsed", db_url, store, quoted, args.n),
            }
            with open(revision, newline="", encoding="utf-8") as fh:
                n_revision = sum(1 for _ in csv.DictReader(fh))
            phases["revision"] = phase_in_child("revision", db_url, store, revision, n_revision)

            limit = args.naive_limit or args.n
            count, naive_s = naive_worker(db_url, first, config, limit)
            naive_rps = count / naive_s
            print(f"naive           {naive_s:7.2f} s  {naive_rps:9.0f} records/s  (per-record SQLAlchemy worker, {count} records)")
            with first.open(newline="", encoding="utf-8") as fh:
                columns = next(csv.reader(fh))
            copy_s = copy_limit(db_url, first, columns)
            copy_rps = args.n / copy_s
            print(f"copy limit      {copy_s:7.2f} s  {copy_rps:9.0f} records/s  (COPY into one unindexed table)")
        finally:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')

    metrics = {
        "records": args.n,
        "first_import_rps": round(phases["first"]["rps"], 1),
        "reimport_rps": round(phases["reimport"]["rps"], 1),
        "reimport_parsed_rps": round(phases["reimport_parsed"]["rps"], 1),
        "revision_rps": round(phases["revision"]["rps"], 1),
        "peak_rss_mb": round(max(max(p["peak_rss_mb"], p["workers_peak_rss_mb"]) for p in phases.values()), 1),
        "naive_rps": round(naive_rps, 1),
        "speedup_vs_naive": round(phases["first"]["rps"] / naive_rps, 2),
        "copy_limit_rps": round(copy_rps, 1),
        "first_import_vs_copy_limit": round(phases["first"]["rps"] / copy_rps, 4),
    }
    print(f"first import is {metrics['speedup_vs_naive']}x the naive path and "
          f"{metrics['first_import_vs_copy_limit'] * 100:.1f} % of the COPY limit")
    cpu_budget(phases["first"], args.n / (10 * naive_rps), metrics)
    print(json.dumps({"benchmark": "listings_ingest", "metrics": metrics}))


if __name__ == "__main__":
    main()

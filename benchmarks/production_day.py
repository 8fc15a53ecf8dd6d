"""A production day: many DMOs' files and pulls landing at once while hotel regions are backfilled,
all through the run queue and a real `dagster-daemon`, on the production instance configuration.

    python benchmarks/production_day.py [--dmos 50] [--records 20000] [--regions 8] [--shared 0.30]
                                        [--max-runs 4] [--phase both|concurrent|serial] [--keep DIR]
                                        [--keep-databases] [--hold-geocoding]

* Instance: deploy/dagster.yaml as it is (runs, events and schedules on dagster-postgres in a
  scratch database, the QueuedRunCoordinator and its limits, pools, retries), less the ECS run
  launcher and the S3 compute logs: the default run launcher on this machine. --max-runs replaces
  max_concurrent_runs (8 in production; 4 on two cores). The daemon runs on its own, as in
  production; the sensors (inbox, DMO pulls) are on by default.
* The day (``production_day_data``): half the DMOs drop a CSV in the inbox (the inbox sensor
  starts their runs), the others are WordPress and Drupal sources on the sandbox whose hourly
  schedule is due at once (the pull sensor starts them); about --shared of the file DMOs' places
  are sent by two to four DMOs with the divergences of shared/real-world-divergences.md. At the
  same moment, a backfill of --regions regions through the hotel chain (discovery to exports)
  on the sandbox's synthetic hotels (Florida cities, shared out among the regions).
* Then (``production_day_measure``): records per second from the first arrival to the last DMO
  live; per-DMO latency from arrival to live (its run's end); the seconds each run waited on each
  lock (listings/locks.py logs every wait); PostgreSQL's share of the CPU (its backends on the
  day's databases against the daemon's process tree); peak RSS of the run processes; every
  record accounted for (live, error row or review item); the shared places that ended as more
  than one listing; the hotel backfill's time.
* Serial: the same DMOs again on fresh databases with one run at a time, no hotel backfill and
  the listings' geocoding runs held in the queue; `concurrent_vs_serial` is the day's listings
  throughput over that one (target >= 0.9). The day itself also geocodes what each DMO promoted
  (listing_enrichment_sensor's runs, which take run slots): it is measured as production runs.
  --hold-geocoding holds them on the day too: the coordinates they write between one DMO's
  promotion and another's stage change what that stage matches, which the replay below does not do.
* Last, the file DMOs imported again one after the other, in the order their promotions committed
  (``production_day_replay``): the shared places split in that order are the matching engine's;
  ``cross_dmo_duplicates_beyond_in_order`` counts those only the day split (target 0).

Scratch databases on SADIE_BENCH_PG_URL's server (an admin URL; default
postgresql://postgres@127.0.0.1:5432/postgres), dropped at the end (--keep-databases leaves them, to
be read, and prints their names). Prints readable lines, then
one JSON line {"benchmark": "production_day", "metrics": {...}}.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from production_day_data import FILE_CONFIG, Day, plan_day, pulled_config, write_file  # noqa: E402
from production_day_measure import (  # noqa: E402
    Sampler,
    accounted,
    cross_dmo_duplicates,
    hotels_by_region,
    job_stages,
    lock_waits,
    percentile,
    step_processes,
)
from scratch_db import admin_url, drop_database, fresh_database  # noqa: E402

REGIONS = ["US-FL", "US-GA", "US-AL", "US-SC", "US-NC", "US-TN", "US-MS", "US-LA"]
FINISHED = ("SUCCESS", "FAILURE", "CANCELED")
BIN = Path(sys.executable).parent


@dataclass(frozen=True)
class Settings:
    dmos: int = 50
    records: int = 20_000
    regions: int = 8
    shared: float = 0.30
    max_runs: int = 4
    cities_per_region: int = 2
    hotels_per_city: int = 3
    timeout_s: float = 7200
    seed: int = 34
    js_share: float = 0.2      # the synthetic hotels' sites built by JavaScript (rendered in Chromium)
    dead_share: float = 0.1    # and dead ones
    keep: str | None = None    # a folder to keep the daemon's log and the instance in
    keep_databases: bool = False  # the day's and the replay's databases left on the server, to be read
    hold_geocoding: bool = False  # the day's geocoding runs held in the queue (as in the serial phase)


def instance_yaml(max_runs: int, *, hold_geocoding: bool = False) -> str:
    """deploy/dagster.yaml with the default run launcher and local compute logs, `max_runs` at once.
    hold_geocoding: the listings' enrichment runs (geocoding after each promotion) stay queued. The
    serial phase holds them so that the DMOs' runs follow one another as the same files imported one
    after the other do; a day holding them matches as the in-order replay does (no coordinates
    written between one DMO's promotion and another's stage)."""
    config = yaml.safe_load((ROOT / "deploy" / "dagster.yaml").read_text())
    config.pop("run_launcher")
    config.pop("compute_logs")
    config["concurrency"]["runs"]["max_concurrent_runs"] = max_runs
    if hold_geocoding:
        config["concurrency"]["runs"]["tag_concurrency_limits"].append(
            {"key": "dagster/sensor_name", "value": "listing_enrichment_sensor", "limit": 0})
    return yaml.safe_dump(config, sort_keys=False)


@contextlib.contextmanager
def scratch_databases(admin: str, keep: bool = False) -> Iterator[tuple[str, str, list[str]]]:
    """(the data's URL, migrated; Dagster's storage URL for dagster-postgres; their names), dropped
    at the end unless kept."""
    from sadie_pipeline.resources.database import to_sqlalchemy_url

    urls = [fresh_database("sadie_day", admin=admin)]
    try:
        urls.append(fresh_database("sadie_day_dagster", migrate=False, admin=admin))
        yield urls[0], to_sqlalchemy_url(urls[1], "psycopg2"), [urlsplit(u).path.lstrip("/") for u in urls]
    finally:
        for url in urls:
            if keep:
                print(f"kept the database {urlsplit(url).path.lstrip('/')}", flush=True)
            else:
                drop_database(url, admin)


@contextlib.contextmanager
def running_daemon(home: Path, log: Path) -> Iterator[tuple[subprocess.Popen, object]]:
    """`dagster-daemon run` on the code location, in its own session; (the process, the instance)
    once its heartbeats say the backfill and queue daemons run."""
    from dagster import DagsterInstance

    from sadie_pipeline.backfills import daemon_running
    from sadie_pipeline.instance import create_instance_storage

    create_instance_storage(home)
    with open(log, "w") as out:
        proc = subprocess.Popen([str(BIN / "dagster-daemon"), "run", "-m", "sadie_pipeline.definitions"],
                                env={**os.environ, "DAGSTER_HOME": str(home)}, cwd=home, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    instance = DagsterInstance.from_config(str(home))
    try:
        deadline = time.monotonic() + 300
        while not daemon_running(instance):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the daemon did not start; its log:\n{log.read_text()[-3000:]}")
            time.sleep(2)
        yield proc, instance
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)   # its code server and runs too (its own session)
            proc.wait()
        instance.dispose()


def region_cities(settings: Settings) -> dict[str, list[str]]:
    """The sandbox's synthetic cities (Florida's) shared out among the regions: the load matters here,
    not the map; discovery writes the region's state on what it finds."""
    from sadie_pipeline.sandbox.world import _SYNTH_CITIES

    cities = [c[0] for c in _SYNTH_CITIES]
    regions = REGIONS[:settings.regions]
    return {r: cities[k::len(regions)][:settings.cities_per_region] for k, r in enumerate(regions)}


def start_day(day: Day, settings: Settings, sb, objects: Path, instance, database, tmp: Path,
              with_hotels: bool) -> tuple[float, str | None]:
    """Markets, DMOs and their partitions, then at one moment every file dropped, every pull due and
    the hotel backfill submitted; returns (that moment, the backfill's id)."""
    from sadie_pipeline.backfills import submit_asset_backfill
    from sadie_pipeline.hotels.markets import add_market
    from sadie_pipeline.listings.importer import inbox_prefix
    from sadie_pipeline.listings.repository import upsert_dmo
    from sadie_pipeline.partitions import DMO_PARTITIONS_NAME

    files = {p.slug: write_file(p, tmp / "files" / f"{p.slug}.csv") for p in day.dmos if p.kind == "csv"}
    with database.connect() as conn:
        for region, cities in region_cities(settings).items() if with_hotels else ():
            add_market(conn, region, cities)
        for plan in day.dmos:
            if plan.kind == "csv":
                upsert_dmo(conn, plan.slug, plan.slug, FILE_CONFIG)
    instance.add_dynamic_partitions(DMO_PARTITIONS_NAME, [p.slug for p in day.dmos])
    t0 = time.time()
    for slug, path in files.items():   # written aside, then renamed: the sensor never sees half a file
        target = objects / f"{inbox_prefix(slug)}{slug}.csv"
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
    with database.connect() as conn:
        for plan in day.dmos:
            if plan.kind != "csv":
                upsert_dmo(conn, plan.slug, plan.slug, pulled_config(plan.kind, sb.base_url(plan.kind), plan.site))
    backfill = None
    if with_hotels and settings.regions:
        backfill = submit_asset_backfill(instance, hotel_assets(), list(region_cities(settings)),
                                         title="production day", tags=hotel_tags())
    return t0, backfill


def hotel_assets() -> list[str]:
    from dagster import AssetSelection

    from sadie_pipeline.definitions import defs

    return sorted(k.to_user_string() for k in AssetSelection.groups("hotel_leads").resolve(defs.resolve_asset_graph()))


def hotel_tags() -> dict[str, str]:
    from sadie_pipeline.definitions import defs

    return {**defs.resolve_job_def("hotel_leads_job").tags, "sadie/command": "production day"}


def listing_runs(instance, slugs: list[str]) -> dict[str, list]:
    """Each DMO's run of the day (run records): its first, and the retries of that one, oldest first."""
    from dagster import RunsFilter

    records = instance.get_run_records(RunsFilter(job_name="listing_import_job"))
    out: dict[str, list] = {s: [] for s in slugs}
    for record in sorted(records, key=lambda r: r.create_timestamp):
        slug = record.dagster_run.tags.get("dagster/partition")
        first = out[slug][0].dagster_run.run_id if slug in out and out[slug] else None
        if slug in out and (first is None or record.dagster_run.tags.get("dagster/root_run_id") == first):
            out[slug].append(record)
    return out


def wait_day(instance, slugs: list[str], backfill: str | None, timeout_s: float, log: Path) -> None:
    """Until every DMO has a finished run and none unfinished, and the backfill is done."""
    deadline = time.monotonic() + timeout_s
    said = ""
    while True:
        runs = listing_runs(instance, slugs)
        done = [s for s, rs in runs.items() if rs and all(r.dagster_run.status.value in FINISHED for r in rs)]
        hotels = instance.get_backfill(backfill).status.value if backfill else "none"
        line = f"  {len(done)}/{len(slugs)} DMOs live, hotel backfill {hotels}"
        if line != said:
            print(f"{time.strftime('%H:%M:%S')} {line}", flush=True)
            said = line
        if len(done) == len(slugs) and hotels in ("none", "COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED",
                                                  "FAILED", "CANCELED"):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"the day did not end in {timeout_s:g} s ({line}); daemon log:\n"
                               f"{log.read_text(errors='replace')[-3000:]}")
        time.sleep(3)


def run_phase(day: Day, settings: Settings, admin: str, *, serial: bool) -> dict:
    """One day on fresh databases and a fresh daemon: its measurements."""
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.sandbox.process import SandboxProcess
    from sadie_pipeline.settings import environ

    hotels = 20 * settings.hotels_per_city
    with tempfile.TemporaryDirectory(prefix="sadie-day-") as tmp_name, \
            SandboxProcess(synthetic=hotels, seed=settings.seed, demo=False, js_share=settings.js_share,
                           dead_share=settings.dead_share) as sb, \
            scratch_databases(admin, settings.keep_databases) as (data_url, dagster_url, names):
        tmp = Path(settings.keep) / ("serial" if serial else "concurrent") if settings.keep else Path(tmp_name)
        tmp.mkdir(parents=True, exist_ok=True)
        home = tmp / "dagster"
        home.mkdir()
        (home / "dagster.yaml").write_text(instance_yaml(1 if serial else settings.max_runs,
                                                       hold_geocoding=serial or settings.hold_geocoding))
        sb.configure("sites", hang_s=2.0)   # dead hotel sites time out in 2 s, not 30
        env = {**sb.client_env(), "SADIE_DATABASE_URL": data_url, "SADIE_HOME": str(tmp / "sadie"),
               "SADIE_DAGSTER_PG_URL": dagster_url, "DAGSTER_HOME": str(home)}
        saved = os.environ.pop("SADIE_S3_BUCKET", None)
        try:
            with environ(env), running_daemon(home, tmp / "daemon.log") as (proc, instance):
                database = Database(url=data_url)
                with Sampler(admin, names, proc.pid) as sampler:
                    t0, backfill = start_day(day, settings, sb, tmp / "sadie" / "objects", instance, database, tmp,
                                             with_hotels=not serial)
                    wait_day(instance, [p.slug for p in day.dmos], backfill, settings.timeout_s, tmp / "daemon.log")
                    wall = time.time() - t0
                return measure(day, settings, instance, database, t0, wall, backfill, sampler)
        finally:
            if saved is not None:
                os.environ["SADIE_S3_BUCKET"] = saved


def measure(day: Day, settings: Settings, instance, database, t0: float, wall: float, backfill: str | None,
            sampler: Sampler) -> dict:
    runs = listing_runs(instance, [p.slug for p in day.dmos])
    last = {slug: rs[-1] for slug, rs in runs.items()}
    latency = {slug: r.end_time - t0 for slug, r in last.items()}
    promoted = {slug: promoted_at(instance, r.dagster_run.run_id) for slug, r in last.items()}
    live_at = max(r.end_time for r in last.values())
    run_ids = [r.dagster_run.run_id for rs in runs.values() for r in rs]
    run_s = sum(r.end_time - r.start_time for rs in runs.values() for r in rs if r.start_time and r.end_time)
    waits, by_run, rolled_back = lock_waits(instance, run_ids)
    with database.connect() as conn:
        ends = accounted(conn, day)
        duplicates, split = cross_dmo_duplicates(conn, day)
        hotels = hotels_by_region(conn, list(region_cities(settings)))
        stages = job_stages(conn)
    hotel_s = None
    if backfill:
        from sadie_pipeline.backfills import backfill_run_ids

        ends_at = [r.end_time for r in instance.get_run_records() if r.dagster_run.run_id in
                   set(backfill_run_ids(instance, backfill)) and r.end_time]
        hotel_s = round(max(ends_at) - t0, 1) if ends_at else None
    return {
        "records": day.records, "wall_s": round(wall, 1), "listings_s": round(live_at - t0, 1),
        "records_per_s": round(day.records / (live_at - t0), 1),
        "latency_s": {k: round(v, 1) for k, v in latency.items()},
        "promoted_s": {k: round(v - t0, 3) for k, v in promoted.items() if v is not None},
        "runs": len(run_ids), "failed_runs": sum(1 for rs in runs.values() for r in rs
                                                 if r.dagster_run.status.value != "SUCCESS"),
        "failures": failures(instance, runs),
        "run_s": round(run_s, 1), "records_per_run_s": round(day.records / run_s, 1) if run_s else None, "lock_wait_s": {k: round(v, 2) for k, v in waits.items()},
        "lock_wait_by_run": {k: v for k, v in by_run.items() if v}, "promotion_tries_rolled_back": rolled_back,
        "ends": ends, "cross_dmo_duplicates": duplicates, "split_places": split,
        "hotel_backfill": instance.get_backfill(backfill).status.value if backfill else None,
        "hotel_backfill_s": hotel_s, "hotels": hotels, "job_stages": stages,
        **sampler.figures(wall, step_processes(instance)),
    }


def promoted_at(instance, run_id: str) -> float | None:
    """When the run's promotion step reported its materialization: just after its commit, so the
    DMOs' promotions in the order they committed (their runs end a moment later, each its own)."""
    from dagster import DagsterEventType

    for event in instance.all_logs(run_id, of_type=DagsterEventType.ASSET_MATERIALIZATION):
        if event.asset_materialization and event.asset_materialization.asset_key.path[-1] == "listing_promotion":
            return event.timestamp
    return None


def failures(instance, runs: dict[str, list]) -> dict[str, list[str]]:
    """The runs that did not succeed, by DMO: their failure messages."""
    out: dict[str, list[str]] = {}
    for slug, records in runs.items():
        for r in records:
            if r.dagster_run.status.value != "SUCCESS":
                out.setdefault(slug, []).extend(
                    f"{r.dagster_run.run_id[:8]} {e.dagster_event.event_type_value}: {e.message[:400]}"
                    for e in instance.all_logs(r.dagster_run.run_id)
                    if e.dagster_event and e.dagster_event.event_type_value in ("STEP_FAILURE", "RUN_FAILURE"))
    return out


def metrics(day: Day, settings: Settings, main_phase: dict, serial: dict | None) -> dict:
    latencies = list(main_phase["latency_s"].values())
    lost = sum(e["lost"] for e in main_phase["ends"].values())
    waited = sum(main_phase["lock_wait_s"].values())
    return {
        "dmos": settings.dmos, "records_per_dmo": settings.records, "regions": settings.regions,
        "shared": settings.shared, "max_runs": settings.max_runs, "records": day.records,
        "shared_places": day.shared_places, "records_per_s": main_phase["records_per_s"],
        "latency_p50_s": percentile(latencies, 0.5), "latency_p95_s": percentile(latencies, 0.95),
        "latency_max_s": max(latencies), "lock_wait_s": main_phase["lock_wait_s"],
        "lock_wait_share": round(waited / main_phase["run_s"], 4) if main_phase["run_s"] else None,
        "promotion_tries_rolled_back": main_phase["promotion_tries_rolled_back"],
        "lost": lost, "review": sum(e["review"] for e in main_phase["ends"].values()),
        "errors": sum(e["errors"] for e in main_phase["ends"].values()),
        "cross_dmo_duplicates": main_phase["cross_dmo_duplicates"],
        "failed_runs": main_phase["failed_runs"], "peak_rss_mb": main_phase["peak_rss_mb"],
        "peak_rss_mb_by_process": main_phase["peak_rss_mb_by_process"],
        "peak_rss_mb_by_step": main_phase["peak_rss_mb_by_step"],
        "pg_cpu_share": main_phase["pg_cpu_share"], "pg_cores": main_phase["pg_cores"],
        "hotel_backfill": main_phase["hotel_backfill"], "hotel_backfill_s": main_phase["hotel_backfill_s"],
        "hotels_scored": {r: sum(n for k, n in s.items() if k >= 4) for r, s in main_phase["hotels"].items()},
        "serial_records_per_s": serial["records_per_s"] if serial else None,
        "concurrent_vs_serial": round(main_phase["records_per_s"] / serial["records_per_s"], 3) if serial else None,
        "serial_cross_dmo_duplicates": serial["cross_dmo_duplicates"] if serial else None,
        "serial_lost": sum(e["lost"] for e in serial["ends"].values()) if serial else None,
        # the same file DMOs one after the other in the day's order; the places only the day split
        "in_order_cross_dmo_duplicates": main_phase["in_order"]["cross_dmo_duplicates"],
        "cross_dmo_duplicates_beyond_in_order": len(main_phase["in_order"]["split_by_the_day_only"]),
        "cross_dmo_duplicates_in_order_only": len(main_phase["in_order"]["split_in_order_only"]),
    }


def replay(day: Day, phase: dict, admin: str, keep: bool = False) -> dict:
    """The day's file DMOs again, one after the other in the order their promotions committed: the
    places split then, and those the day split besides (production_day_replay)."""
    from production_day_replay import in_order_duplicates

    when = {**phase["latency_s"], **phase["promoted_s"]}
    order = sorted(when, key=when.get)
    count, split = in_order_duplicates(day, order, admin, keep)
    extra = sorted(set(phase["split_places"]) - set(split))
    fewer = sorted(set(split) - set(phase["split_places"]))
    print(f"in order (the file DMOs one after the other, in the order their promotions committed): cross-DMO "
          f"duplicates {count} {split[:5]}; split by the day only: {len(extra)} {extra[:10]}; by the order only: "
          f"{len(fewer)} {fewer[:10]}", flush=True)
    return {"cross_dmo_duplicates": count, "split_places": split, "split_by_the_day_only": extra,
            "split_in_order_only": fewer}


def print_phase(name: str, phase: dict) -> None:
    lat = sorted(phase["latency_s"].values())
    print(f"{name}: {phase['records']} records live in {phase['listings_s']} s = {phase['records_per_s']} records/s; "
          f"{phase['runs']} runs ({phase['failed_runs']} not succeeded), latency p50 {percentile(lat, 0.5)} s "
          f"max {lat[-1]} s; lock waits {phase['lock_wait_s']} over {phase['run_s']} s of runs, "
          f"{phase['promotion_tries_rolled_back']} promotion tries rolled back; "
          f"PostgreSQL {phase['pg_cpu_s']} CPU s against the pipeline's {phase['pipeline_cpu_s']} "
          f"(share {phase['pg_cpu_share']}); peak RSS by process {phase['peak_rss_mb_by_process']} MB", flush=True)
    print(f"  peak RSS by step (its process; the run's own when it ran in it) {phase['peak_rss_mb_by_step']} MB",
          flush=True)
    for slug, why in phase["failures"].items():
        print(f"  {slug}: {why}", flush=True)
    lost = {s: e for s, e in phase["ends"].items() if e["lost"]}
    print(f"  records: {sum(e['live'] for e in phase['ends'].values())} live, "
          f"{sum(e['review'] for e in phase['ends'].values())} in review, "
          f"{sum(e['errors'] for e in phase['ends'].values())} error rows; lost {lost or 0}; "
          f"cross-DMO duplicates {phase['cross_dmo_duplicates']} {phase['split_places'][:5]}", flush=True)
    if phase["hotel_backfill"]:
        print(f"  hotel backfill {phase['hotel_backfill']} in {phase['hotel_backfill_s']} s; hotels by region "
              f"and status {phase['hotels']}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name, default in (("dmos", 50), ("records", 20_000), ("regions", 8), ("max-runs", 4),
                          ("cities-per-region", 2), ("hotels-per-city", 3), ("seed", 34)):
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--shared", type=float, default=0.30)
    parser.add_argument("--timeout-s", type=float, default=7200)
    parser.add_argument("--phase", choices=("both", "concurrent", "serial"), default="both",
                        help="the day, its serial comparison, or both (default)")
    parser.add_argument("--keep", help="keep each phase's daemon log and files in this folder")
    parser.add_argument("--keep-databases", action="store_true",
                        help="leave the day's and the replay's databases on the server (their names are printed)")
    parser.add_argument("--hold-geocoding", action="store_true",
                        help="hold the day's geocoding runs in the queue, as the serial phase and the replay do")
    args = parser.parse_args(argv)
    settings = Settings(args.dmos, args.records, args.regions, args.shared, args.max_runs, args.cities_per_region,
                        args.hotels_per_city, args.timeout_s, args.seed, keep=args.keep,
                        keep_databases=args.keep_databases, hold_geocoding=args.hold_geocoding)
    admin = admin_url()
    day = plan_day(settings.dmos, settings.records, settings.shared, settings.seed)
    kinds = {k: sum(1 for p in day.dmos if p.kind == k) for k in ("csv", "wordpress", "drupal")}
    print(f"day: {len(day.dmos)} DMOs {kinds}, {day.records} records, {day.shared_places} places sent by 2-4 "
          f"DMOs; {settings.regions} hotel regions {region_cities(settings)}; {settings.max_runs} runs at once",
          flush=True)
    main_phase = serial = None
    if args.phase != "serial":
        main_phase = run_phase(day, settings, admin, serial=False)
        print_phase("concurrent", main_phase)
    if args.phase != "concurrent":
        serial = run_phase(day, settings, admin, serial=True)
        print_phase("serial", serial)
    if main_phase is None:   # the serial phase alone: its figures stand for the day's
        main_phase, serial = serial, None
    main_phase["in_order"] = replay(day, main_phase, admin, settings.keep_databases)
    print(json.dumps({"benchmark": "production_day", "metrics": metrics(day, settings, main_phase, serial)}))


if __name__ == "__main__":
    main()

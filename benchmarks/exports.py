"""Benchmark: score, launch and export 100,000 hotels.

Writes 100,000 enriched hotels across 10 states and about 500 cities (golden records, booking
engines, enrichment rows, about 1.5 decision makers each) into a fresh database on the PostgreSQL
at 127.0.0.1:5432 (SADIE_BENCH_PG_URL to change), then runs the `lead_scores`,
`launched_leads` (criteria: any score, tiers 1 and 2, so every hotel goes live) and
`lead_exports` assets over the 10 regions, each as one run with a partition range, through
Dagster's `materialize`. Files go to a local object store (OneDrive and Slack unconfigured).

Each stage runs in its own process (its peak RSS is its own). Prints per stage the run's wall
seconds (what the metrics use) and the asset step's own seconds (the run minus Dagster's
per-run start-up), files written and peak RSS; the last line is the JSON result (`score_s`,
`launch_s`, `export_s`, `files_written`, `peak_rss_mb`, `score_rps`, and `score_step_rps`).
Targets: all exports <= 60 s, peak RSS <= 300 MB, scoring >= 20,000 hotels/s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

REGIONS = ("US-AL", "US-AK", "US-AZ", "US-AR", "US-CA", "US-CO", "US-CT", "US-DE", "US-DC", "US-FL")  # consecutive keys
FIRST = ("James", "Maria", "Robert", "Linda", "Michael", "Ana", "David", "Susan", "Daniel", "Karen", "Luis", "Emma")
LAST = ("Smith", "Garcia", "Johnson", "Lopez", "Brown", "Miller", "Davis", "Wilson", "Moore", "Taylor", "Clark")
TITLES = ("General Manager", "Owner", "Director of Sales", "Front Office Manager", "Revenue Manager", "Manager")
WORDS = ("Harbor", "Palm", "Sunset", "Coral", "Pine", "Maple", "Ocean", "River", "Summit", "Willow", "Bay", "Grand")
KINDS = ("Inn", "Hotel", "Lodge", "Suites", "Resort", "Motel", "B&B")


def peak_rss_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return max(own, children)


def generate(db_url: str, n: int, cities_per_state: int, seed: int) -> None:
    """The hotels as enrichment leaves them, written with COPY (streamed, nothing held)."""
    import psycopg

    from sadie_pipeline.core.enrichment.layers import ENRICHED_REQUIRED, OWNER_LAYERS
    from sadie_pipeline.core.hotel_status import HotelStatus
    from sadie_pipeline.hotels.websites import seed_booking_engines

    rnd = random.Random(seed)
    with psycopg.connect(db_url) as conn:
        engines = seed_booking_engines(conn)
        tiers = dict(conn.execute("SELECT id, tier FROM sadie_gtm.booking_engines").fetchall())
        tier1 = [i for i, t in tiers.items() if t == 1]
        tier2 = [i for i, t in tiers.items() if t == 2]
        assert engines
        hotels, dms = [], []
        dm_id = 0
        for hotel_id in range(1, n + 1):
            region = REGIONS[hotel_id % len(REGIONS)]
            city = f"City {rnd.randrange(cities_per_state):03d}"
            name = f"{rnd.choice(WORDS)} {rnd.choice(WORDS)} {rnd.choice(KINDS)} {hotel_id}"
            slug = f"h{hotel_id}"
            engine = rnd.choice(tier1) if rnd.random() < 0.85 else rnd.choice(tier2)
            people = []
            for _ in range(rnd.choice((0, 1, 1, 2, 2, 3))):
                dm_id += 1
                first, last = rnd.choice(FIRST), rnd.choice(LAST)
                email = f"{first.lower()}.{last.lower()}@{slug}.com" if rnd.random() < 0.8 else None
                people.append((dm_id, hotel_id, f"{first} {last} {dm_id}", rnd.choice(TITLES), email,
                               "valid_domain" if email else None, rnd.random() < 0.1,
                               f"+1305555{dm_id % 10000:04d}", "{website_scrape}", 0.7))
            dms += people
            hotels.append((hotel_id, region, city, name, engine, tiers[engine], slug, people[0] if people else None))
        with conn.cursor() as cur:
            with cur.copy("COPY sadie_gtm.hotels (id, region, city, name, address, state, zip, phone, website, "
                          "rating, review_count, status) FROM STDIN") as copy:
                for hotel_id, region, city, name, _engine, tier, slug, _dm in hotels:
                    copy.write_row((hotel_id, region, city, name, f"{hotel_id} Main St", region[3:],
                                    f"{10000 + hotel_id % 89999:05d}", f"+1305{hotel_id % 10000000:07d}",
                                    f"https://www.{slug}.com/", round(3 + rnd.random() * 2, 2), rnd.randrange(2000),
                                    HotelStatus.ENRICHED if tier == 1 else HotelStatus.DETECTED))
            cur.execute("SELECT setval('sadie_gtm.hotels_id_seq', %s)", (n,))
            with cur.copy("COPY sadie_gtm.hotel_booking_engines (hotel_id, booking_engine_id, booking_url, "
                          "detection_method, confidence) FROM STDIN") as copy:
                for hotel_id, _r, _c, _n, engine, _t, slug, _dm in hotels:
                    copy.write_row((hotel_id, engine, f"https://book.example.com/{slug}", "script_src", 0.9))
            with cur.copy("COPY sadie_gtm.hotel_owner_enrichment (hotel_id, layers_completed, room_count, "
                          "room_count_source, nearest_attraction, nearest_attraction_km, attractions_by_radius, "
                          "property_type, chain_or_independent, management_company) FROM STDIN") as copy:
                for hotel_id, *_ in hotels:
                    copy.write_row((hotel_id, ENRICHED_REQUIRED | OWNER_LAYERS, rnd.randrange(5, 400), "groq",
                                    "Beach", round(rnd.random() * 20, 3),
                                    json.dumps({"1": rnd.randrange(3), "5": rnd.randrange(12), "10": rnd.randrange(30)}),
                                    "hotel", "independent", f"Management Co {hotel_id % 500}"))
            with cur.copy("COPY sadie_gtm.hotel_decision_makers (id, hotel_id, full_name, title, email, email_status, "
                          "email_verified, phone, sources, confidence) FROM STDIN") as copy:
                for row in dms:
                    copy.write_row(row)
            cur.execute("SELECT setval('sadie_gtm.hotel_decision_makers_id_seq', %s)", (max(dm_id, 1),))
            with cur.copy("COPY sadie_gtm.golden_hotels (hotel_id, region, name, address, city, state, zip, phone, "
                          "website, email, contact_name, contact_title, contact_dm_id, room_count, management_company, "
                          "property_type, chain_or_independent, rating, review_count, field_sources, filled_fields, "
                          "total_fields, record_hash) FROM STDIN") as copy:
                for hotel_id, region, city, name, _e, _t, slug, dm in hotels:
                    copy.write_row((hotel_id, region, name, f"{hotel_id} Main St", city, region[3:],
                                    f"{10000 + hotel_id % 89999:05d}", f"+1305{hotel_id % 10000000:07d}",
                                    f"https://www.{slug}.com/", dm[4] if dm else None, dm[2] if dm else None,
                                    dm[3] if dm else None, dm[0] if dm else None, rnd.randrange(5, 400),
                                    f"Management Co {hotel_id % 500}", "hotel", "independent",
                                    round(3 + rnd.random() * 2, 2), rnd.randrange(2000), "{}",
                                    13 if dm else 10, 16, uuid.uuid4().hex))
        conn.execute("ANALYZE")


def run_stage(asset, db_url: str, store_root: str, run_config: dict | None = None,
              sources: tuple = ()) -> tuple[float, float, object]:
    """(run wall seconds, the asset step's own seconds, its metadata); `sources`: upstream assets
    whose stored values the asset loads (through the IO managers) rather than runs."""
    from dagster import DagsterInstance, materialize

    from sadie_pipeline.io_managers import io_manager_resources
    from sadie_pipeline.partitions import range_tags
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore
    from sadie_pipeline.resources.onedrive import OneDriveResource
    from sadie_pipeline.resources.slack import SlackResource

    database, store = Database(url=db_url), ObjectStore(local_root=store_root)
    resources = {"database": database, "object_store": store, "onedrive": OneDriveResource(), "slack": SlackResource(),
                 **io_manager_resources(database, store)}
    quiet = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
    started = time.perf_counter()
    with DagsterInstance.ephemeral() as instance:
        result = materialize([*sources, asset], selection=[asset], instance=instance, resources=resources,
                             run_config={**(run_config or {}), **quiet}, tags=range_tags(REGIONS[0], REGIONS[-1]))
    wall = time.perf_counter() - started
    assert result.success
    event = result.asset_materializations_for_node(asset.key.path[-1])[0]  # one per region, same figures
    [step] = [e for e in result.all_events if e.event_type_value == "STEP_SUCCESS"]
    return wall, step.event_specific_data.duration_ms / 1000, event.metadata


LAUNCH_ALL = {"ops": {"launched_leads": {"config": {"min_score": 0, "tiers": [1, 2],
                                                     "required_fields": ["name", "city"]}}}}


def stage(name: str, db_url: str, store_root: str) -> dict:
    """One stage in this process, whose peak RSS is the stage's alone."""
    from sadie_pipeline.hotels.lead_assets import launched_leads, lead_exports, lead_scores

    asset, config = {"score": (lead_scores, None), "launch": (launched_leads, LAUNCH_ALL),
                     "export": (lead_exports, None), "reexport": (lead_exports, None)}[name]
    sources = (launched_leads,) if asset is lead_exports else ()  # the export loads the launch's stored value
    wall, step_s, meta = run_stage(asset, db_url, store_root, config, sources)
    figures = {"wall_s": round(wall, 2), "step_s": round(step_s, 2), "peak_rss_mb": round(peak_rss_mb(), 1)}
    if name == "score":
        figures.update(hotels=meta["hotels_scored"].value, mean=meta["mean_score"].value)
    elif name == "launch":
        figures.update(hotels=meta["launched"].value, rejected=meta["rejected"].value)
    else:
        figures.update(files=meta["files_written"].value, unchanged=meta["files_unchanged"].value,
                       hotels=meta["hotels_exported"].value,
                       mb=round(sum(p.stat().st_size for p in Path(store_root).rglob("*.xlsx")) / 1e6, 1))
    return figures


def run_child(name: str, db_url: str, store_root: str, env: dict) -> dict:
    done = subprocess.run([sys.executable, __file__, "--stage", name, db_url, store_root], check=True, env=env,
                          stdout=subprocess.PIPE, text=True)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    rate = f"{figures['hotels'] / figures['wall_s']:9.0f} hotels/s" if figures.get("hotels") else " " * 18
    extra = (f"{figures['files']} files written, {figures['unchanged']} unchanged ({figures['mb']} MB)"
             if "files" in figures else f"{figures['hotels']} hotels")
    print(f"{name:<8} {figures['wall_s']:7.2f} s (step {figures['step_s']:6.2f} s) {rate}  "
          f"peak RSS {figures['peak_rss_mb']:6.1f} MB  {extra}", flush=True)
    return figures


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--generate":
        generate(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--stage":
        print(json.dumps(stage(sys.argv[2], sys.argv[3], sys.argv[4])))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--cities-per-state", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    import psycopg

    from sadie_pipeline.migrations import upgrade

    env = {k: v for k, v in os.environ.items() if not k.startswith(("SADIE_GRAPH_", "SADIE_SLACK_"))}
    admin = os.environ.get("SADIE_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    db_name = f"sadie_bench_{uuid.uuid4().hex[:8]}"
    db_url = admin.rsplit("/", 1)[0] + f"/{db_name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{db_name}"')
    try:
        upgrade(db_url)
        started = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--generate", db_url, str(args.n), str(args.cities_per_state),
                        str(args.seed)], check=True, env=env)
        print(f"generated {args.n} hotels in {len(REGIONS)} states x {args.cities_per_state} cities "
              f"in {time.perf_counter() - started:.1f} s", flush=True)
        with tempfile.TemporaryDirectory(prefix="sadie-bench-exports-") as store_root:
            figures = {name: run_child(name, db_url, store_root, env)
                       for name in ("score", "launch", "export", "reexport")}
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    metrics = {
        "hotels": args.n,
        "score_s": figures["score"]["wall_s"],
        "launch_s": figures["launch"]["wall_s"],
        "export_s": figures["export"]["wall_s"],
        "files_written": figures["export"]["files"],
        "peak_rss_mb": max(f["peak_rss_mb"] for f in figures.values()),
        "score_rps": round(figures["score"]["hotels"] / figures["score"]["wall_s"], 1),
        "score_step_rps": round(figures["score"]["hotels"] / figures["score"]["step_s"], 1),
        "launch_rps": round(figures["launch"]["hotels"] / figures["launch"]["wall_s"], 1),
        "reexport_s": figures["reexport"]["wall_s"],
        "export_mb": figures["export"]["mb"],
    }
    print(f"exports {metrics['export_s']} s (target <= 60), peak RSS {metrics['peak_rss_mb']} MB (target <= 300), "
          f"scoring {metrics['score_rps']:.0f} hotels/s (target >= 20,000)")
    print(json.dumps({"benchmark": "exports", "metrics": metrics}))


if __name__ == "__main__":
    main()

"""Promotion locks benchmark: several DMOs sharing places, staged one after the other, then
promoted at the same time, each in a process of its own. Reports how long each promotion waited
on the promotions' locks against its whole time (the lock wait share) and how long it held them,
and checks the outcome is that of promotions run one after the other: no shared place split
into two listings, and (with --compare, the default) the same public listings as the same
promotions run in order (the order their commits took) in a second database.

    python benchmarks/promotion_locks.py [--dmos 6] [--records 3000] [--shared 0.3] [--no-compare]

About 30 % of each DMO's records are places that two to four DMOs send (another phone format,
their own description, now and then "The " added or dropped: a fuzzy match). The lock wait share
is the time the promotions spent waiting in Holder.acquire for the locks all DMOs share (the
promotions' lock, the new listings' shared lock) over their whole time; per promotion it prints
its time, its wait for and hold of the promotions' lock, and how many times it took it. Machine
load moves the figures: run it on a quiet machine. Prints readable lines, then one JSON line
{"benchmark": "promotion_locks", "metrics": {...}}. Uses
SADIE_BENCH_PG_URL (an admin URL; default postgresql://postgres@127.0.0.1:5432/postgres) to create
scratch databases, dropped at the end.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
from scratch_db import drop_database, fresh_database  # noqa: E402

CONFIG = json.loads((HERE / "listings_bench.config.json").read_text())


# --- the data: DMOs sharing places ------------------------------------------------------------

def dmo_files(dmos: int, records: int, shared: float, seed: int) -> dict[str, list[dict[str, str]]]:
    """Each DMO's rows: its own places and places two to four DMOs send. A row's description names
    its place ("place 17"), so that the outcome can be checked place by place."""
    from listings_data import _flip_the, _format_phone, _phone_parts, generate_with_truth

    rng = random.Random(seed)
    per_dmo_shared = int(records * shared)
    n_shared = per_dmo_shared * dmos // 3  # each shared place is in three DMOs on average
    n_places = n_shared + dmos * (records - per_dmo_shared) + records
    rows, truth = generate_with_truth(int(n_places * 1.15) + 100, seed)
    first = {}
    for row, place in zip(rows, truth):
        first.setdefault(place, row)
    places = list(first.items())
    rng.shuffle(places)
    slugs = [f"dmo-{i:02d}" for i in range(dmos)]
    chosen: dict[str, list[tuple[int, dict[str, str]]]] = {s: [] for s in slugs}
    pool = iter(places)
    for _ in range(n_shared):
        place = next(pool)
        for slug in rng.sample(slugs, min(len(slugs), rng.choice((2, 3, 4)))):
            chosen[slug].append(place)
    for slug in slugs:
        while len(chosen[slug]) < records:
            chosen[slug].append(next(pool))
    out = {}
    for d, slug in enumerate(slugs):
        out[slug] = []
        for place, row in chosen[slug][:records]:
            row = dict(row, description=f"{slug}'s words on place {place}.")
            if row.get("phone"):
                row["phone"] = _format_phone(*_phone_parts(row["phone"]), d % 4)
            if rng.random() < 0.15:
                row["name"] = _flip_the(row["name"])
            out[slug].append(row)
        rng.shuffle(out[slug])
    return out


def write_csv(rows: list[dict[str, str]], path: Path) -> None:
    from listings_data import COLUMNS

    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


# --- a scratch database with every DMO staged -------------------------------------------------

def stage_all(url: str, store_root: str, files: dict[str, Path]) -> None:
    """Every DMO's file imported and staged (not promoted), one DMO after the other."""
    from sadie_pipeline.listings.importer import import_inbox_file, inbox_prefix
    from sadie_pipeline.listings.repository import upsert_dmo
    from sadie_pipeline.listings.stage import stage_dmo
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore

    db, store = Database(url=url), ObjectStore(local_root=store_root)
    for slug, path in files.items():
        with db.connect() as conn:
            dmo = upsert_dmo(conn, slug, slug.title(), CONFIG)
        key = f"{inbox_prefix(slug)}{path.name}"
        store.put_file(key, path)
        import_inbox_file(db, store, dmo, key, promote=False)
        result = stage_dmo(db, store, dmo)
        print(f"  staged {slug}: {result.actions}", flush=True)


# --- one promotion, in a process of its own ---------------------------------------------------

def worker(url: str, slug: str) -> None:
    """Waits for "go" on stdin, promotes the DMO, prints its figures as one JSON line: its whole
    time, and per lock space the time spent waiting in Holder.acquire and holding the lock."""
    from sadie_pipeline.listings import locks
    from sadie_pipeline.listings.promote import promote_dmo
    from sadie_pipeline.listings.repository import get_dmo
    from sadie_pipeline.resources.database import Database

    waits: dict[str, float] = defaultdict(float)
    holds: dict[str, float] = defaultdict(float)
    since: dict[tuple, float] = {}
    last_hold: dict[str, float] = {}  # wall clock: the last PROMOTIONS hold is the one that commits
    takes: dict[str, int] = defaultdict(int)
    acquire, release = locks.Holder.acquire, locks.Holder.release

    def timed_acquire(self, space, key, what, *, shared=False):
        started = time.perf_counter()
        acquire(self, space, key, what, shared=shared)
        now = time.perf_counter()
        waits[space.name] += now - started
        since[(space, key)] = now
        last_hold[space.name] = time.time()
        takes[space.name] += 1

    def timed_release(self, space, key, *, shared=False):
        release(self, space, key, shared=shared)
        if (space, key) in since:
            holds[space.name] += time.perf_counter() - since.pop((space, key))

    locks.Holder.acquire, locks.Holder.release = timed_acquire, timed_release
    db = Database(url=url)
    with db.connect() as conn:
        dmo = get_dmo(conn, slug)
    print("ready", flush=True)
    sys.stdin.readline()
    started = time.perf_counter()
    result = promote_dmo(db, dmo)
    total = time.perf_counter() - started
    print(json.dumps({"slug": slug, "total_s": total, "waits": waits, "holds": holds,
                      "last_hold_at": last_hold, "takes": takes, "promoted": result.promoted}), flush=True)


def promote_at_once(url: str, slugs: list[str]) -> list[dict]:
    """Every DMO's promotion started at the same instant, each in a process of its own."""
    procs = [subprocess.Popen([sys.executable, __file__, "--worker", slug, "--url", url], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True) for slug in slugs]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    out = []
    for p in procs:
        line, _ = p.communicate(timeout=1800)
        assert p.returncode == 0, f"a promotion failed: {line}"
        out.append(json.loads(line.strip().splitlines()[-1]))
    return out


def promote_in_order(url: str, slugs: list[str]) -> None:
    from sadie_pipeline.listings.promote import promote_dmo
    from sadie_pipeline.listings.repository import get_dmo
    from sadie_pipeline.resources.database import Database

    db = Database(url=url)
    for slug in slugs:
        with db.connect() as conn:
            dmo = get_dmo(conn, slug)
        promote_dmo(db, dmo)


# --- the outcome ------------------------------------------------------------------------------

def outcome(url: str) -> dict[str, int]:
    """Places whose DMOs' records ended on more than one listing (split), listings, records live,
    records waiting for a person."""
    import psycopg

    with psycopg.connect(url) as conn:
        split = conn.execute(
            r"""SELECT count(*) FROM (
                    SELECT substring(description from 'place (\d+)\.') AS place FROM public.listing_info
                     GROUP BY 1 HAVING count(DISTINCT listing_id) > 1) t""").fetchone()[0]
        listings = conn.execute("SELECT count(*) FROM public.listings").fetchone()[0]
        live = conn.execute("SELECT count(*) FROM public.listing_info").fetchone()[0]
        review = conn.execute("SELECT count(*) FROM staging.listings WHERE review_status = 'pending'").fetchone()[0]
    return {"split_places": split, "listings": listings, "records_live": live, "waiting_for_review": review}


def end_state(url: str) -> list[tuple]:
    """The public listings as a person sees them (no ids): each listing's fields and its DMOs' records."""
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(
            """SELECT l.name, l.listing_match_hash, loc.address1, loc.city,
                      (SELECT array_agg(d.slug || ':' || li.external_source_id || ':' || coalesce(li.description, '')
                                        ORDER BY d.slug, li.external_source_id)
                         FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id WHERE li.listing_id = l.id)
                 FROM public.listings l LEFT JOIN public.locations loc ON loc.id = l.location_id
                ORDER BY 1, 2, 3, 5""").fetchall()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dmos", type=int, default=6)
    ap.add_argument("--records", type=int, default=3000)
    ap.add_argument("--shared", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-compare", action="store_true", help="skip the promotions run in order")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--url", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker(args.url, args.worker)

    data = dmo_files(args.dmos, args.records, args.shared, args.seed)
    urls: list[str] = []
    with tempfile.TemporaryDirectory(prefix="promotion-locks-") as tmp:
        files = {}
        for slug, rows in data.items():
            write_csv(rows, files.setdefault(slug, Path(tmp) / f"{slug}.csv"))
        try:
            urls.append(fresh_database("sadie_bench_locks"))
            print(f"{args.dmos} DMOs of {args.records} records, {args.shared:.0%} shared places: staging", flush=True)
            stage_all(urls[0], f"{tmp}/objects", files)
            started = time.perf_counter()
            runs = promote_at_once(urls[0], list(files))
            wall = time.perf_counter() - started
            concurrent = outcome(urls[0])
            order = [r["slug"] for r in sorted(runs, key=lambda r: r["last_hold_at"].get("PROMOTIONS", 0))]
            same = None
            if not args.no_compare:
                urls.append(fresh_database("sadie_bench_locks"))
                print("the same, promoted one after the other in the order the commits took", flush=True)
                stage_all(urls[1], f"{tmp}/objects-in-order", files)
                promote_in_order(urls[1], order)
                same = end_state(urls[0]) == end_state(urls[1])
                in_order = outcome(urls[1])
        finally:
            for url in urls:
                drop_database(url)

    report(args, runs, wall, concurrent, same, in_order if same is not None else None)


def report(args: argparse.Namespace, runs: list[dict], wall: float, concurrent: dict, same: bool | None,
           in_order: dict | None) -> None:
    total = sum(r["total_s"] for r in runs)
    # every wait of a promotion on a lock space shared by all DMOs (the DMO's own lock is not)
    shared = ("PROMOTIONS", "NEW_LISTINGS")
    waited = sum(r["waits"].get(s, 0.0) for r in runs for s in shared)
    print(f"\n{'promotion':<10} {'total s':>8} {'waited s':>9} {'held s':>7} {'takes':>6}  promoted "
          "(waited and held: the PROMOTIONS lock)")
    for r in runs:
        print(f"{r['slug']:<10} {r['total_s']:8.2f} {r['waits'].get('PROMOTIONS', 0):9.2f} "
              f"{r['holds'].get('PROMOTIONS', 0):7.2f} {r['takes'].get('PROMOTIONS', 0):6d}  {r['promoted']}")
    share = waited / total if total else 0.0
    print(f"\nlock wait share {share:.1%} (waited {waited:.1f} s of {total:.1f} s of promotion time); "
          f"all promotions took {wall:.1f} s of wall time; outcome {concurrent}")
    if same is not None:
        print(f"in order: {in_order}; same public listings as in order: {same}")
    metrics = {"lock_wait_share": round(share, 4), "promotions_wall_s": round(wall, 2),
               "promotion_s_mean": round(total / len(runs), 2),
               "wait_s_max": round(max(r["waits"].get("PROMOTIONS", 0) for r in runs), 2),
               "hold_s_max": round(max(r["holds"].get("PROMOTIONS", 0) for r in runs), 2),
               "split_places": concurrent["split_places"], "listings": concurrent["listings"],
               "waiting_for_review": concurrent["waiting_for_review"],
               "same_as_in_order": same, "dmos": args.dmos, "records_per_dmo": args.records}
    print(json.dumps({"benchmark": "promotion_locks", "metrics": metrics}))


if __name__ == "__main__":
    main()

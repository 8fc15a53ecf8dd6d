"""Listing images benchmark: N images of 200 KB to 2 MB (5 % broken, 10 % near duplicates of a
photo of the same listing) through the real `listing_images` asset: downloaded from the sandbox's
image host (a child process, `SandboxProcess`), checked, stored with its variants in a local
object store, hashed, deduplicated per listing, written to PostgreSQL.

    python benchmarks/images.py [--n 5000] [--per-listing 5] [--seed 7]

The listings are written to the scratch database as a promotion leaves them (listing_info rows
with unprocessed listing_images). The asset runs in a child process, so its peak RSS is its own.
Photos come from the host's pool of 48 pictures (a listing's photos are distinct pictures); the
host makes them before the clock starts, as a real CDN would have them ready.
Targets: >= 50 images/s, <= 400 MB peak RSS, every near duplicate caught, no distinct image dropped.

Prints readable lines, then one JSON line {"benchmark": "images", "metrics": {...}}. Uses
SADIE_BENCH_PG_URL (an admin URL; default postgresql://postgres@127.0.0.1:5432/postgres) to create
a scratch database, dropped at the end.
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
SLUG = "bench-images"
BROKEN = ("broken/text.jpg", "broken/mislabelled.jpg", "broken/truncated/{n}.jpg", "broken/huge.jpg",
          "broken/huge-chunked.jpg")


# --- the asset, in a child process -----------------------------------------------------------------

def run_phase(db_url: str, store_root: str) -> dict:
    from dagster import DagsterInstance, materialize

    from sadie_pipeline.listings.enrichment_assets import listing_images
    from sadie_pipeline.listings.image_fetcher import ImageFetcher
    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore

    with DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("dmo", [SLUG])
        started = time.perf_counter()
        result = materialize([listing_images], partition_key=SLUG, instance=instance,
                             resources={"database": Database(url=db_url), "object_store": ObjectStore(local_root=store_root),
                                        "image_fetcher": ImageFetcher()},
                             run_config={"loggers": {"console": {"config": {"log_level": "WARNING"}}}})
        wall = time.perf_counter() - started
    assert result.success
    [step] = [e.event_specific_data.duration_ms / 1000 for e in result.all_events if e.event_type_value == "STEP_SUCCESS"]
    [mat] = result.asset_materializations_for_node("listing_images")
    meta = {k: v.value for k, v in mat.metadata.items() if k in ("downloaded", "bytes_downloaded", "images_ok",
                                                                  "images_duplicate", "errors", "errors_by_type")}
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {"wall_s": wall, "step_s": step, "peak_rss_mb": usage.ru_maxrss / 1024,
            "cpu_s": usage.ru_utime + usage.ru_stime, "metadata": meta}


# --- the data --------------------------------------------------------------------------------------

def plan(n: int, per_listing: int, seed: int) -> list[list[tuple[str, str, str | None]]]:
    """Listings of (path, kind, base path of a near duplicate): 85 % distinct photos (one in ten a
    PNG; a listing's photos are consecutive, so distinct pictures), 10 % near duplicates of the first
    photo of their listing, 5 % broken."""
    rnd = random.Random(seed)
    near_n, broken_n = round(n * 0.10), round(n * 0.05)
    photos_n = n - near_n - broken_n
    listings_n = max(1, photos_n // (per_listing - 1))
    listings: list[list[tuple[str, str, str | None]]] = []
    photo = 0
    for k in range(listings_n):
        count = photos_n // listings_n + (k < photos_n % listings_n)
        images = [(f"photo/{p}.png" if p % 10 == 9 and p > photo else f"photo/{p}.jpg", "photo", None)
                  for p in range(photo, photo + count)]  # the first is a JPEG: the near duplicates' base
        photo += count
        listings.append(images)
    for k in range(near_n):
        base = listings[k % listings_n][0][0]
        number = base.split("/")[1].split(".")[0]
        listings[k % listings_n].append((f"near/{number}/{k % 3 + 1}.jpg", "near", base))
    for k in range(broken_n):
        listings[rnd.randrange(listings_n)].append((BROKEN[k % len(BROKEN)].format(n=k), "broken", None))
    for images in listings:
        rnd.shuffle(images)
    return listings


def seed_database(db_url: str, base_url: str, listings: list[list[tuple[str, str, str | None]]]) -> dict[int, tuple]:
    """The DMO, its listings and their unprocessed images; returns {image row id: (path, kind, base)}."""
    import psycopg

    from sadie_pipeline.listings.repository import upsert_dmo

    truth: dict[int, tuple] = {}
    with psycopg.connect(db_url) as conn:
        dmo = upsert_dmo(conn, SLUG, "Images benchmark", {})
        ids = [r[0] for r in conn.execute("INSERT INTO public.listings (name) SELECT 'listing ' || g "
                                          "FROM generate_series(1, %s) g RETURNING id", (len(listings),))]
        infos = [r[0] for r in conn.execute(
            "INSERT INTO public.listing_info (listing_id, dmo_id) SELECT l, %s FROM unnest(%s::int[]) WITH ORDINALITY "
            "AS u(l, o) ORDER BY o RETURNING id", (dmo.id, sorted(ids)))]
        rows = [(info, f"{base_url}/{path}", rank, (path, kind, base))
                for info, images in zip(infos, listings, strict=True) for rank, (path, kind, base) in enumerate(images, 1)]
        inserted = conn.execute(
            "INSERT INTO public.listing_images (listing_info_id, image, rank) "
            "SELECT * FROM unnest(%s::int[], %s::text[], %s::int[]) RETURNING id, listing_info_id, image",
            ([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])).fetchall()
        by_key = {(r[0], r[1]): r[3] for r in rows}
        truth = {row_id: by_key[(info, url)] for row_id, info, url in inserted}
    return truth


def _pool_key(path: str) -> tuple[str, ...]:
    """Which of the host's pictures a path shows (imagegen: photo n is picture n % POOL)."""
    kind, rest = path.split("/", 1)
    number, ext = rest.split("/")[0].split(".")[0], path.rsplit(".", 1)[1]
    pool = 16 if ext == "png" else 48
    return (kind, ext, str(int(number) % pool), rest.split("/")[1] if kind == "near" else "")


def warm(sb, listings) -> None:
    """Every picture the listings show, asked once so the host has made it before the clock starts."""
    import httpx

    firsts = {}
    for images in listings:
        for path, kind, _ in images:
            if kind != "broken":
                firsts.setdefault(_pool_key(path), path)
    with httpx.Client(timeout=300) as client, ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda p: client.get(f"{sb.base_url('images')}/{p}").raise_for_status(), firsts.values()))


def judge(db_url: str, truth: dict[int, tuple]) -> dict[str, int]:
    import psycopg

    with psycopg.connect(db_url) as conn:
        rows = conn.execute("SELECT im.id, im.image_status, twin.id FROM public.listing_images im "
                            "LEFT JOIN public.listing_images twin ON twin.id = im.duplicate_of").fetchall()
    status = {r[0]: (r[1], r[2]) for r in rows}
    missed = dropped = broken_kept = 0
    for row_id, (_, kind, base) in truth.items():
        got, twin = status[row_id]
        if kind == "near":
            missed += got != "duplicate" or twin is None or truth[twin][0] != base
        elif kind == "photo":
            dropped += got != "ok"
        else:
            broken_kept += got != "failed"
    return {"near_duplicates_missed": missed, "distinct_dropped": dropped, "broken_not_failed": broken_kept}


def _cpu_seconds(sb) -> float:
    import psutil

    times = psutil.Process(sb.pid).cpu_times()
    return times.user + times.system


# --- the whole benchmark ---------------------------------------------------------------------------

def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--phase":
        print(json.dumps(run_phase(sys.argv[2], sys.argv[3]), default=str))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--per-listing", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    import psycopg

    from sadie_pipeline.migrations import upgrade
    from sadie_pipeline.sandbox import SandboxProcess

    admin = os.environ.get("SADIE_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    db_name = f"sadie_bench_{uuid.uuid4().hex[:8]}"
    db_url = admin.rsplit("/", 1)[0] + f"/{db_name}"
    listings = plan(args.n, args.per_listing, args.seed)
    with SandboxProcess(dns=False, seed=args.seed) as sb, tempfile.TemporaryDirectory(prefix="sadie-bench-") as tmp:
        started = time.perf_counter()
        warm(sb, listings)
        print(f"image host ready in {time.perf_counter() - started:.1f} s", flush=True)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{db_name}"')
        try:
            upgrade(db_url)
            truth = seed_database(db_url, sb.base_url("images"), listings)
            host_cpu = _cpu_seconds(sb)
            out = subprocess.run([sys.executable, __file__, "--phase", db_url, str(Path(tmp) / "objects")],
                                 check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
            figures = json.loads(out)
            verdict = judge(db_url, truth)
            host = sb.stats("images")
            host["cpu_s"] = _cpu_seconds(sb) - host_cpu
        finally:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')

    kinds = [kind for images in listings for _, kind, _ in images]
    meta = figures["metadata"]
    print(f"{len(kinds)} images in {len(listings)} listings: {kinds.count('photo')} photos, {kinds.count('near')} near "
          f"duplicates, {kinds.count('broken')} broken; {meta['bytes_downloaded'] / 2**20:.0f} MB downloaded")
    print(f"asset step {figures['step_s']:.1f} s (run {figures['wall_s']:.1f} s), peak RSS {figures['peak_rss_mb']:.0f} MB;"
          f" ok {meta['images_ok']}, duplicates {meta['images_duplicate']}, failed {meta['errors']} "
          f"{meta['errors_by_type']}; host answered {host['requests']} requests")
    print(f"CPU: the asset's process {figures['cpu_s']:.1f} s ({figures['cpu_s'] / len(kinds) * 1000:.1f} ms an image), "
          f"the image host {host['cpu_s']:.1f} s; a busy machine stretches the wall time, not these")
    metrics = {
        "images": len(kinds),
        "images_per_s": round(len(kinds) / figures["step_s"], 1),
        "peak_rss_mb": round(figures["peak_rss_mb"], 1),
        **verdict,
    }
    print(f"images/s {metrics['images_per_s']} (target >= 50), peak RSS {metrics['peak_rss_mb']} MB (target <= 400), "
          f"near duplicates missed {verdict['near_duplicates_missed']}, distinct dropped {verdict['distinct_dropped']}")
    print(json.dumps({"benchmark": "images", "metrics": metrics}))


if __name__ == "__main__":
    main()

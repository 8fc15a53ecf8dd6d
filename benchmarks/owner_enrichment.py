"""Benchmark: owner enrichment of the sandbox world's hotels through every owner layer (issue 31).

Builds a synthetic Florida world (`World.synthetic`) and writes `--hotels` of its live hotels
as detected tier-1 hotels (their homepages stored as `hotel_websites` stores them) into a fresh
database on the PostgreSQL at 127.0.0.1:5432 (SADIE_BENCH_PG_URL to change), gives the sandbox
realistic latencies (WHOIS 1-5 s, the Common Crawl index 5-30 s, SMTP 0.5-3 s, the other
services 50-300 ms), and materialises every owner layer over US-FL in order (one run; the
in-process executor runs the layers one after another, so a layer's time adds up).

Scored against the world's truth (`sandbox/owners.py`):
* owner_found_share: hotels with a named owner or manager, of those where some source names one
* owner_precision: named people who are the hotel's true owner or staff (first name only counts
  when it is a true person's first name)
* verified_precision / verified_share / catch_all_verified: addresses marked verified that exist;
  of the existing mailboxes found, the share verified; verified addresses on catch-all domains
* hotels_per_min beside its bound: each rate-limited service's calls of the run (the sandbox
  counts them) at the calls per second its concurrency and rate limit allow at its latency; the
  layers run one after another, so the bound is N / the sum of those least times
* peak_rss_mb of this process (the run is in-process)

The last line is `{"benchmark": "owner_enrichment", "metrics": {...}}`.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from scratch_db import fresh_database  # noqa: E402

# sandbox service -> (latency_ms, jitter_ms): the latencies (WHOIS 1-5 s, the CC index 5-30 s,
# SMTP 0.5-3 s a session), a fast API's for the rest
LATENCIES = {"whois": (1000, 4000), "commoncrawl": (5000, 25000), "smtp": (500, 2500), "rdap": (50, 250),
             "wayback": (100, 200), "crtsh": (100, 200), "licences": (50, 100), "serper": (100, 200),
             "abr": (50, 100), "commoncrawl_data": (50, 100), "login": (50, 100)}
# The limits of this run. Production's defaults are the services' published paces (RDAP 2/s, the
# CC index 1/s, WHOIS 1/s a server, SMTP 0.5/s an MX host): bounded the same way, 5,000 hotels take hours.
LIMITS = {
    "rdap": {"requests_per_second": 50, "max_concurrency": 32},
    "whois": {"requests_per_second": 20, "max_concurrency": 64},
    "wayback": {"requests_per_second": 50, "max_concurrency": 32},
    "crtsh": {"requests_per_second": 50, "max_concurrency": 32},
    "serper": {"requests_per_minute": 3000, "max_concurrency": 16},
    "common_crawl": {"index_requests_per_second": 20, "index_max_concurrency": 256, "data_requests_per_second": 200,
                     "data_max_concurrency": 64},
    "dns": {"max_concurrency": 64},
    "mail_verifier": {"per_host_requests_per_second": 50, "per_host_max_concurrency": 64, "max_concurrency": 64,
                      "greylist_wait_s": 5},
}
GROQ_PER_S = 30 * 0.95 / 60  # GroqResource: 30 requests a minute with 5 % headroom
# sandbox service -> (calls in flight, calls per second) that LIMITS allow; with the latency, the
# calls a second the service can take from us. WHOIS: the one registry server every lookup starts
# at (half the calls). SMTP: the sessions in flight are the hotels e-mail verification takes at
# once (min of DNS's and the verifier's concurrency, 64).
CAPACITY = {"rdap": (32, 50), "whois": (64, 20), "wayback": (32, 50), "crtsh": (32, 50), "serper": (16, 50),
            "commoncrawl": (256, 20), "commoncrawl_data": (64, 200), "smtp": (64, None),
            "login": (2, 2),  # Microsoft's account check: the verifier's own limiter (2 at once, 2/s)
            "dns": (64, 50),  # the seed's DNS pace, 50 queries a second
            "groq": (4, GROQ_PER_S)}  # the review signers rules cannot read (Groq's default pace)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# services one layer calls at the same time (cc_harvest: the index for some hotels while it reads
# others' WARC records; email verification: SMTP sessions and Microsoft's check; review replies:
# Serper's pages and Groq; Serper's place details are a layer of their own, so counting all of
# Serper's calls in this overlap makes the bound, if anything, shorter: stricter for us): their least times overlap, so the group's is the longest of them
OVERLAPPING = (("commoncrawl", "commoncrawl_data"), ("smtp", "login"), ("serper", "groq"))


def bound_seconds(calls: dict[str, int], latency: bool) -> dict[str, float]:
    """Per service (or group of services one layer calls at once), the least time its calls of
    this run take at the limits and latencies: the layers run one after another, so the run
    cannot be shorter than their sum."""
    least = {}
    for service, (in_flight, rate) in CAPACITY.items():
        n = calls.get(service, 0) / (2 if service == "whois" else 1)
        low, jitter = LATENCIES.get(service, (0, 0)) if latency else (0, 0)
        mean_s = (low + jitter / 2) / 1000
        per_second = min(rate or float("inf"), in_flight / mean_s if mean_s else float("inf"))
        least[service] = n / per_second if per_second != float("inf") else 0.0
    for group in OVERLAPPING:
        longest = max(least.pop(service) for service in group)
        least["+".join(group)] = longest
    return least


def layer_assets() -> list[Any]:
    from sadie_pipeline.hotels.enrichment.layer_assets import OWNER_LAYER_ASSETS

    return OWNER_LAYER_ASSETS


def run_layers(sb: Any, database: Any, store: Any) -> tuple[float, dict[str, Any]]:
    from dagster import DagsterInstance, materialize

    from sadie_pipeline.io_managers import io_manager_resources
    from sadie_pipeline.resource_defs import HOTEL_SERVICES, configured, resolved
    from sadie_pipeline.settings import environ

    with environ(sb.client_env()):
        resources = {key: resolved(configured(key, **LIMITS.get(key, {})))
                     for key in HOTEL_SERVICES if key not in ("onedrive", "slack")}
    resources.update(database=database, object_store=store, **io_manager_resources(database, store))
    started = time.perf_counter()
    with DagsterInstance.ephemeral() as instance:
        result = materialize(layer_assets(), partition_key="US-FL", instance=instance, resources=resources,
                             raise_on_error=False)
    seconds = time.perf_counter() - started
    figures = {}
    for event in result.get_asset_materialization_events():
        mat = event.event_specific_data.materialization
        figures[mat.asset_key.path[-1]] = {k: v.value for k, v in mat.metadata.items()
                                            if k in ("hotels", "ok", "dead_letter", "skipped", "contacts_found",
                                                     "concurrency_now")}
    return seconds, {"success": result.success, "layers": figures}


def _norm(name: str) -> str:
    return " ".join(name.lower().replace(".", " ").split())


def score(db_url: str, hotels: list[tuple[int, Any]]) -> dict[str, Any]:
    """The metrics against the world's truth, with the precision of each source's people."""
    import psycopg

    from sadie_pipeline.sandbox.owners import owner_truth

    with psycopg.connect(db_url) as conn:
        rows = conn.execute("""SELECT hotel_id, full_name, email, email_verified, sources
                                 FROM sadie_gtm.hotel_decision_makers WHERE merged_into IS NULL""").fetchall()
    by_hotel: dict[int, list[tuple]] = {}
    for row in rows:
        by_hotel.setdefault(row[0], []).append(row[1:])
    t = Counter()
    by_source: dict[str, Counter] = {}
    for hotel_id, place in hotels:
        truth = owner_truth(place)
        true_names = {_norm(n) for n in truth.true_people()} | {_norm(c.name) for c in place.contacts}
        firsts = {n.split()[0] for n in true_names}
        findable = _someone_findable(place, truth)
        right_here = False
        for name, email, is_verified, sources in by_hotel.get(hotel_id, []):
            key = _norm(name)
            right = key in true_names or (len(key.split()) == 1 and key in firsts)
            right_here |= right
            t["named"] += 1
            t["correct"] += right
            for source in sources or ["?"]:
                by_source.setdefault(source, Counter()).update(named=1, correct=right)
            if email:
                real = truth.exists(email)
                t.update(existing=real, verified=is_verified, verified_real=is_verified and real,
                         catch_all_verified=is_verified and truth.mail_kind == "catch_all")
        t.update(findable=findable, found=findable and right_here)
    share = lambda a, b: round(a / b, 4) if b else None  # noqa: E731
    return {"owner_found_share": share(t["found"], t["findable"]), "owner_precision": share(t["correct"], t["named"]),
            "verified_precision": share(t["verified_real"], t["verified"]),
            "catch_all_verified": t["catch_all_verified"], "verified_share": share(t["verified_real"], t["existing"]),
            "people_named": t["named"], "addresses_verified": t["verified"], "hotels_findable": t["findable"],
            "precision_by_source": {k: share(c["correct"], c["named"]) for k, c in sorted(by_source.items())}}


def _someone_findable(place: Any, truth: Any) -> bool:
    """Whether any source the layers read names the owner or a manager of this hotel."""
    licence = truth.licence is not None and truth.licence.owner_name is not None
    whois = not truth.whois.masked or any(not s.masked for s in truth.whois_history)
    reviews = any(r.response and "Team" not in r.response for r in truth.reviews)
    return bool(place.contacts or licence or whois or reviews or truth.cc_people)


def world_of(hotels: int, seed: int) -> Any:
    """About 4 in 5 synthetic hotels have a live site with a booking engine: a larger world gives N
    (the same world `SandboxProcess(synthetic=..., seed=..., demo=False)` serves)."""
    from sadie_pipeline.sandbox.world import World

    return World.synthetic(round(hotels * 1.35) + 20, seed=seed)


def scored_hotels(db_url: str, world: Any) -> list[tuple[int, Any]]:
    """(hotel id, place) of a run's database, by website (unique in a synthetic world)."""
    import psycopg

    by_site = {p.website: p for p in world.hotels}
    with psycopg.connect(db_url) as conn:
        return [(i, by_site[w]) for i, w in conn.execute("SELECT id, website FROM sadie_gtm.hotels ORDER BY id")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hotels", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--no-latency", action="store_true", help="the sandbox's own speed (a smoke run)")
    parser.add_argument("--score", metavar="DB_URL", help="score an earlier run's database again (same --hotels, --seed)")
    args = parser.parse_args()
    if args.score:
        print(json.dumps(score(args.score, scored_hotels(args.score, world_of(args.hotels, args.seed)))))
        return

    import tempfile

    from sadie_pipeline.resources.database import Database
    from sadie_pipeline.resources.object_store import ObjectStore
    from sadie_pipeline.sandbox.process import SandboxProcess
    from sadie_pipeline.sandbox.seeding import write_detected

    db_url = fresh_database("sadie_bench_owner")
    store = ObjectStore(local_root=tempfile.mkdtemp(prefix="sadie-bench-owner-"))
    database = Database(url=db_url)
    world = world_of(args.hotels, args.seed)
    # the sandbox in its own process: its services must not share the pipeline's GIL
    with SandboxProcess(synthetic=len(world.hotels), seed=args.seed, demo=False) as sb:
        hotels = write_detected(db_url, world.hotels, store, sb.proxy_url, limit=args.hotels)
        print(f"{len(hotels)} detected tier-1 hotels from a world of {len(world.hotels)}", flush=True)
        if not args.no_latency:
            for service, (latency, jitter) in LATENCIES.items():
                sb.configure(service, latency_ms=latency, jitter_ms=jitter)
        seconds, run = run_layers(sb, database, store)
        calls = {name: sb.stats(name)["requests"] for name in CAPACITY}
    for layer, figures in run["layers"].items():
        print(f"  {layer}: {json.dumps(figures, default=str)}", flush=True)
    metrics = score(db_url, hotels)
    n = len(hotels)
    floor = bound_seconds(calls, not args.no_latency)
    print(f"service calls: {json.dumps(calls)}")
    print(f"least seconds per service at the limits: {json.dumps({k: round(v, 1) for k, v in floor.items()})}")
    metrics.update(hotels=n, run_s=round(seconds, 1), hotels_per_min=round(n / seconds * 60, 1),
                   hotels_per_min_bound=round(n / sum(floor.values()) * 60, 1) if sum(floor.values()) else None,
                   peak_rss_mb=round(peak_rss_mb(), 1),
                   run_success=run["success"], latencies="none" if args.no_latency else "realistic")
    if metrics["hotels_per_min_bound"]:
        metrics["share_of_bound"] = round(metrics["hotels_per_min"] / metrics["hotels_per_min_bound"], 3)
    print(json.dumps({"benchmark": "owner_enrichment", "metrics": metrics}))


if __name__ == "__main__":
    main()

"""Benchmark: the web app under 20 people browsing at once.

Writes 100,000 live listings (five DMOs, each listing with its location, DMO record and contact),
a promoted job per DMO with its files and some errors, and 10,000 review items pending on a staged
job, into a fresh database on the PostgreSQL at 127.0.0.1:5432 (SADIE_BENCH_PG_URL to change).
The rows are written with SQL as the pipeline leaves them (importing 100,000 records through the
pipeline is benchmarks/listings_ingest.py's subject, not this one's).

Then serves the app with `sadie web` (--workers, default 2) and runs 20 concurrent users for
--seconds (default 60), each logged in through /login with a session of their own, each looping over
a mix of pages with a pause between page views (--think-ms, mean 200 ms, uniform from 0 to twice that;
--think-ms 0 sends the requests back to back: the app's saturation throughput): the review queue (filters, next pages), listings search (name parts, cities, DMOs,
next pages), job pages (the jobs list, a job with its files, errors and review items) and
/v1/listings (text, city, bounding box, cursor pages, with an API key of every DMO or of one DMO: the
scoped API), and the leads page (--hotels, default 20,000 scored hotels in two regions, written by
benchmarks/web_hotels.py: region, city, score, tier and verified-e-mail filters, a search, a hotel's
page). Every request is timed.

Prints latency percentiles per kind of page; the last line is the JSON result (`p95_ms`, `rps`,
`errors`). Targets: p95 <= 300 ms, >= 50 requests/s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from web_hotels import CITIES as HOTEL_CITIES  # noqa: E402
from web_hotels import REGIONS, generate_hotels  # noqa: E402

DMOS = ("coast-guide", "city-eats", "island-stays", "trail-finder", "harbour-events")
CITIES = ("Charlottetown", "Summerside", "Montague", "Souris", "Georgetown", "Kensington", "Alberton",
          "Tignish", "Cavendish", "Stratford", "Cornwall", "Borden", "Victoria", "Murray River", "North Rustico")
WORDS = ("Harbour", "Island", "Red", "Sand", "Lighthouse", "Maple", "Ocean", "Bay", "Cove", "Point", "Gulf", "Dune")
KINDS = ("Grill", "Inn", "Cafe", "Pub", "Bistro", "Gallery", "Museum", "Lodge", "Market", "Winery")
PASSWORD = "benchmark-password"

GENERATE = """
INSERT INTO public.locations (id, address1, city, state, zip, country, lat, lng)
SELECT g, g || ' Main St', (%(cities)s::text[])[1 + g %% %(ncities)s], 'PE', 'C1A 1A1', 'CA',
       46.0 + (g %% 1000) / 1000.0, -64.0 + (g %% 1700) / 1000.0
  FROM generate_series(1, %(n)s) g;
INSERT INTO public.listings (id, name, category, location_id, listing_match_hash, listing_visible, listing_status,
                             updated_at)
SELECT g, (%(words)s::text[])[1 + g %% 12] || ' ' || (%(words)s::text[])[1 + (g / 12) %% 12] || ' '
          || (%(kinds)s::text[])[1 + (g / 144) %% 10] || ' ' || g,
       (%(kinds)s::text[])[1 + (g / 144) %% 10], g, md5(g::text), true, 'active', now() - (g %% 400) * interval '1 hour'
  FROM generate_series(1, %(n)s) g;
INSERT INTO public.contact_info (id, email, local_phone, website_url)
SELECT g, 'info' || g || '@example.com', '+1902555' || lpad((g %% 10000)::text, 4, '0'), 'https://example.com/' || g
  FROM generate_series(1, %(n)s) g;
INSERT INTO public.listing_info (id, listing_id, dmo_id, external_source_id, description, contact_info_id, info_visible,
                                 info_status, last_seen_at, last_job_id)
SELECT g, g, (SELECT id FROM public.dmos ORDER BY id OFFSET g %% 5 LIMIT 1), 'src-' || g,
       'A place worth a visit, number ' || g || '.', g, true, 'active', now(), 1 + g %% 5
  FROM generate_series(1, %(n)s) g;
INSERT INTO public.listing_images (listing_info_id, image, rank)
SELECT g, 'https://images.example.com/' || g || '.jpg', 1 FROM generate_series(1, %(n)s, 3) g;
SELECT setval('public.locations_id_seq', %(n)s), setval('public.listings_id_seq', %(n)s),
       setval('public.contact_info_id_seq', %(n)s), setval('public.listing_info_id_seq', %(n)s);
INSERT INTO pipeline.jobs (dmo_id, status, stage, source_key, source_name, records_read, created_at, finished_at)
SELECT d.id, 'succeeded', 'promoted', 'inbox/' || d.slug || '/listings.csv', 'listings.csv', %(n)s / 5,
       now() - interval '2 days', now() - interval '2 days'
  FROM public.dmos d ORDER BY d.id;
INSERT INTO pipeline.job_results (job_id, records_total, records_new, records_updated, records_deleted,
                                  records_duplicates, records_unchanged, records_error, records_review)
SELECT id, records_read, records_read - 40, 0, 0, 0, 0, 40, 0 FROM pipeline.jobs;
INSERT INTO pipeline.job_files (job_id, s3_path, stage, batch, file_size, record_count)
SELECT j.id, 'file:///nowhere/' || s || '/job-' || j.id || '-' || b || '.jsonl.gz', s, b, 1000000, 10000
  FROM pipeline.jobs j, unnest(ARRAY['raw', 'transformed']) s, generate_series(1, 2) b;
INSERT INTO pipeline.job_errors (job_id, stage, rec_num, original_record, error_type, error_message)
SELECT j.id, 'stage', e, jsonb_build_object('Name', 'Bad record ' || e, 'Phone', 'n/a'),
       CASE WHEN e %% 2 = 0 THEN 'invalid_phone' ELSE 'missing_field' END, 'record ' || e || ' is not valid'
  FROM pipeline.jobs j, generate_series(1, 40) e;
INSERT INTO pipeline.jobs (dmo_id, status, stage, source_key, source_name, records_read, created_at, finished_at)
SELECT d.id, 'succeeded', 'staged', 'inbox/' || d.slug || '/revision.csv', 'revision.csv', %(pending)s / 5, now(), now()
  FROM public.dmos d ORDER BY d.id;
INSERT INTO staging.listings (job_id, dmo_id, rec_num, source_id, name, city, address1, category, target_listing_id,
                              target_listing_info_id, match_method, certainty_score, action, l_action, li_action,
                              review_status, review_reason, match_explanation)
SELECT j.id, j.dmo_id, g, 'rev-' || g, l.name || ' (new name)', loc.city, loc.address1, l.category, l.id, l.id,
       'fuzzy', 0.65, 'update', 'update', 'update', 'pending',
       'fuzzy match to listing ' || l.id || ' with certainty 0.65',
       '{"name": {"level": "similar", "weight": 4.2}, "phone": {"level": "same", "weight": 6.1}}'::jsonb
  FROM generate_series(1, %(pending)s) g
  JOIN public.listings l ON l.id = g * 7
  JOIN public.locations loc ON loc.id = l.location_id
  JOIN pipeline.jobs j ON j.stage = 'staged' AND j.dmo_id = (SELECT id FROM public.dmos ORDER BY id OFFSET g %% 5 LIMIT 1);
INSERT INTO staging.listing_info (id, job_id, description, email, local_phone, website_url)
SELECT s.id, s.job_id, 'A staged description.', 'new@example.com', '+19025550000', 'https://example.org'
  FROM staging.listings s;
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def generate(db_url: str, n: int, pending: int, hotels: int) -> tuple[str, str]:
    """The rows, a reviewer, an API key of every DMO and one of the first DMO; returns the keys."""
    import psycopg

    from sadie_pipeline.listings.repository import upsert_dmo
    from sadie_pipeline.web.users import add_api_key, add_user

    with psycopg.connect(db_url) as conn:
        for slug in DMOS:
            upsert_dmo(conn, slug, slug.replace("-", " ").title(), {})
        for statement in [s for s in GENERATE.split(";\n") if s.strip()]:
            conn.execute(statement, {"n": n, "pending": pending, "cities": list(CITIES), "ncities": len(CITIES),
                                     "words": list(WORDS), "kinds": list(KINDS)})
        add_user(conn, "bench", PASSWORD, "reviewer")
        key = add_api_key(conn, "bench", requests_per_minute=1_000_000)
        dmo_key = add_api_key(conn, "bench-dmo", requests_per_minute=1_000_000, dmo=DMOS[0])
    from sadie_pipeline.resources.database import Database

    generate_hotels(Database(url=db_url), hotels)
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return key, dmo_key


def serve(db_url: str, port: int, workers: int, home: str) -> subprocess.Popen:
    env = {**os.environ, "SADIE_DATABASE_URL": db_url, "SADIE_HOME": home, "SADIE_WEB_SECRET": uuid.uuid4().hex * 2,
           "DAGSTER_HOME": str(Path(home) / "dagster")}
    env.pop("SADIE_S3_BUCKET", None)
    return subprocess.Popen([sys.executable, "-c", "from sadie_pipeline.cli_web import web; web()", "--port", str(port), "--workers",
                             str(workers)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_up(base: str, proc: subprocess.Popen, timeout_s: float = 120) -> None:
    import httpx

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("sadie web stopped: " + proc.stderr.read().decode()[-2000:])
        try:
            if httpx.get(f"{base}/login", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError("sadie web did not answer")


class User:
    """One person: a session of their own and a loop over the pages."""

    def __init__(self, base: str, keys: tuple[str, str], seed: int, jobs: list[int], think_s: float):
        import httpx

        self.client = httpx.AsyncClient(base_url=base, timeout=30)
        self.keys, self.rnd, self.jobs, self.think_s = keys, random.Random(seed), jobs, think_s
        self.timings: list[tuple[str, float, int]] = []

    async def login(self) -> None:
        page = (await self.client.get("/login")).text
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        response = await self.client.post("/login", data={"username": "bench", "password": PASSWORD,
                                                          "csrf_token": token})
        assert response.status_code == 303, response.status_code

    async def get(self, kind: str, path: str, **kwargs) -> str:
        started = time.perf_counter()
        try:
            response = await self.client.get(path, **kwargs)
            status = response.status_code
            body = response.text
        except Exception:  # a failed request is an error of the run, not of the benchmark
            status, body = 599, ""
        self.timings.append((kind, (time.perf_counter() - started) * 1000, status))
        return body

    async def review(self) -> None:
        params = self.rnd.choice([{}, {"dmo": self.rnd.choice(DMOS)}, {"action": "update"}, {"reason": "fuzzy"},
                                  {"dmo": self.rnd.choice(DMOS), "reason": "fuzzy"}])
        body = await self.get("review", "/review", params=params)
        after = re.search(r"after=(\d+)", body)
        if after and self.rnd.random() < 0.5:
            await self.get("review", "/review", params={**params, "after": after.group(1)})

    async def search(self) -> None:
        params = self.rnd.choice([{"q": self.rnd.choice(WORDS).lower()}, {"city": self.rnd.choice(CITIES)},
                                  {"q": f"{self.rnd.choice(WORDS)} {self.rnd.choice(WORDS)}"},
                                  {"q": self.rnd.choice(KINDS).lower(), "dmo": self.rnd.choice(DMOS)},
                                  {"q": str(self.rnd.randint(1000, 99999))}])
        body = await self.get("search", "/listings", params=params)
        listing = re.search(r'href="/listings/(\d+)"', body)
        if listing and self.rnd.random() < 0.5:
            await self.get("listing", f"/listings/{listing.group(1)}")

    async def job(self) -> None:
        if self.rnd.random() < 0.4:
            await self.get("jobs", "/jobs", params=self.rnd.choice([{}, {"dmo": self.rnd.choice(DMOS)}]))
        else:
            await self.get("job", f"/jobs/{self.rnd.choice(self.jobs)}",
                           params=self.rnd.choice([{}, {"type": "invalid_phone"}]))

    async def api(self) -> None:
        params = self.rnd.choice([{}, {"q": self.rnd.choice(WORDS).lower()}, {"city": self.rnd.choice(CITIES)},
                                  {"bbox": "-63.9,46.1,-63.5,46.6"}, {"category": self.rnd.choice(KINDS)}])
        kind, key = self.rnd.choice([("api", self.keys[0]), ("api_dmo", self.keys[1])])
        body = await self.get(kind, "/v1/listings", params=params, headers={"X-API-Key": key})
        try:
            cursor = json.loads(body).get("next_cursor")
        except ValueError:
            cursor = None
        if cursor and self.rnd.random() < 0.5:
            await self.get(kind, "/v1/listings", params={**params, "cursor": cursor}, headers={"X-API-Key": key})

    async def leads(self) -> None:
        region = self.rnd.choice(REGIONS)
        params = self.rnd.choice([{}, {"city": self.rnd.choice(HOTEL_CITIES)}, {"min_score": "50"},
                                  {"tier": "1"}, {"verified": "1"}, {"q": "hotel 1"},
                                  {"city": self.rnd.choice(HOTEL_CITIES), "min_score": "40"}])
        body = await self.get("leads", "/leads", params={"region": region, **params})
        hotel = re.search(r'href="/hotels/(\d+)"', body)
        if hotel and self.rnd.random() < 0.5:
            await self.get("hotel", f"/hotels/{hotel.group(1)}")

    async def browse(self, until: float) -> None:
        steps = (self.review, self.search, self.job, self.api, self.leads)
        while time.perf_counter() < until:
            await self.rnd.choice(steps)()
            if self.think_s:  # a person reads the page before the next click: 0 to twice the mean
                await asyncio.sleep(self.rnd.uniform(0, 2 * self.think_s))
        await self.client.aclose()


async def load(base: str, keys: tuple[str, str], users: int, seconds: float, jobs: list[int],
               think_s: float) -> tuple[list, float]:
    people = [User(base, keys, seed, jobs, think_s) for seed in range(users)]
    for person in people:
        await person.login()
    started = time.perf_counter()
    await asyncio.gather(*(p.browse(started + seconds) for p in people))
    return [t for p in people for t in p.timings], time.perf_counter() - started


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def report(timings: list[tuple[str, float, int]], elapsed: float) -> dict:
    for kind in sorted({k for k, _, _ in timings}):
        ms = [t for k, t, _ in timings if k == kind]
        print(f"{kind:<8} {len(ms):6d} requests  median {statistics.median(ms):7.1f} ms  "
              f"p95 {percentile(ms, 0.95):7.1f} ms  max {max(ms):7.1f} ms")
    all_ms = [t for _, t, _ in timings]
    errors = sum(1 for _, _, status in timings if status >= 400)
    return {"p95_ms": round(percentile(all_ms, 0.95), 1), "rps": round(len(timings) / elapsed, 1), "errors": errors,
            "requests": len(timings), "median_ms": round(statistics.median(all_ms), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listings", type=int, default=100_000)
    parser.add_argument("--pending", type=int, default=10_000)
    parser.add_argument("--hotels", type=int, default=20_000)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--think-ms", type=float, default=200,
                        help="mean pause between a user's page views (uniform 0..2x); 0: back to back (saturation)")
    args = parser.parse_args()

    import psycopg

    from sadie_pipeline.migrations import upgrade

    admin = os.environ.get("SADIE_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    db_name = f"sadie_bench_{uuid.uuid4().hex[:8]}"
    db_url = admin.rsplit("/", 1)[0] + f"/{db_name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{db_name}"')
    proc = None
    try:
        upgrade(db_url)
        started = time.perf_counter()
        keys = generate(db_url, args.listings, args.pending, args.hotels)
        with psycopg.connect(db_url) as conn:
            jobs = [r[0] for r in conn.execute("SELECT id FROM pipeline.jobs ORDER BY id")]
        print(f"wrote {args.listings} live listings, {args.pending} pending review items and {args.hotels} scored "
              f"hotels in "
              f"{time.perf_counter() - started:.1f} s", flush=True)
        with tempfile.TemporaryDirectory(prefix="sadie-web-bench-") as home:
            port = free_port()
            proc = serve(db_url, port, args.workers, home)
            base = f"http://127.0.0.1:{port}"
            wait_up(base, proc)
            print(f"{args.users} users for {args.seconds:.0f} s against sadie web --workers {args.workers}, "
                  f"{args.think_ms:.0f} ms mean pause between page views", flush=True)
            timings, elapsed = asyncio.run(load(base, keys, args.users, args.seconds, jobs, args.think_ms / 1000))
            proc.terminate()
            proc.wait(timeout=30)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    metrics = report(timings, elapsed)
    print(json.dumps({"benchmark": "web", "metrics": {k: metrics[k] for k in ("p95_ms", "rps", "errors")}}))


if __name__ == "__main__":
    main()

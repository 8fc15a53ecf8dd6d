"""Booking-engine detection benchmark: the detection corpus, then N sandbox hotel sites end to end.

Corpus (sadie_pipeline/sandbox/detection_corpus.py, served by a local proxy): a page per catalogued
engine, JavaScript-only pages (scripts all inline, the engine injected at run time: only Chromium
finds them), pages whose engine is on a followed "Book now" page, pages with uncatalogued booking
engines in every form (link, iframe, form, script, injected widget, init call), catalogued engines
loaded by a script from their own host under an unlisted path, and negatives; each goes through
`fetch_and_detect` and the detect stage's `judge_pages`. Reported: engines in the catalogue, found
on their pages, JS-only found, followed-page found, engine-host scripts found, unknown hosts
reported (by form), recall counting unknown-engine findings, false positives on the negatives
(targets: all found, 0 false positives).

Per site: fetch with httpx through the sandbox proxy (Playwright + the system Chromium for pages
that need JavaScript), strip to text (<= 50 KB), store the text in an ObjectStore on a temporary
local folder (``website-content/{state}/{city}/{hotel_id}.txt``), detect the booking engine.
The sandbox runs in a child process (`SandboxProcess`) so its work does not share our GIL.

    python benchmarks/detection.py [--sites 2000] [--latency-ms 100] [--js-share 0.1] [--dead-share 0.05]
                                   [--concurrency 64] [--browser-concurrency 8] [--timeout-s 5] [--no-browser]
                                   [--corpus-only]

Peak RSS is sampled (psutil, every 0.25 s) over this process plus its children except the
sandbox: the Playwright driver and every Chromium process, each counted by PSS (shared pages
apportioned between the processes that map them, so the sum is the real footprint); the plain
RSS sum, which counts shared libraries once per process, is printed as an upper bound. Prints readable lines, then one JSON line
{"benchmark": "detection", "metrics": {...}}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import resource
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


class RssSampler(threading.Thread):
    """Peak RSS of this process + its descendants (minus excluded trees), sampled every `interval` s."""

    def __init__(self, exclude_pids: set[int], interval: float = 0.25) -> None:
        super().__init__(daemon=True)
        import psutil

        self.psutil = psutil
        self.me = psutil.Process()
        self.exclude = set(exclude_pids)
        self.interval = interval
        self.stop_event = threading.Event()
        self.peak_total = self.peak_self = self.peak_children = 0
        self.peak_total_rss_sum = 0
        self.peak_processes = 0

    def _excluded(self) -> set[int]:
        out = set()
        for pid in self.exclude:
            try:
                p = self.psutil.Process(pid)
                out.add(pid)
                out.update(c.pid for c in p.children(recursive=True))
            except self.psutil.Error:
                pass
        return out

    def sample(self) -> None:
        excluded = self._excluded()
        own = self.me.memory_info().rss
        children = children_rss = 0
        count = 0
        for child in self.me.children(recursive=True):
            if child.pid in excluded:
                continue
            try:
                info = child.memory_full_info()  # PSS: pages shared between Chromium processes apportioned
                children += getattr(info, "pss", info.rss)
                children_rss += info.rss
                count += 1
            except self.psutil.Error:
                continue
        self.peak_self = max(self.peak_self, own)
        self.peak_children = max(self.peak_children, children)
        self.peak_total = max(self.peak_total, own + children)
        self.peak_total_rss_sum = max(self.peak_total_rss_sum, own + children_rss)
        self.peak_processes = max(self.peak_processes, count)

    def run(self) -> None:
        while not self.stop_event.is_set():
            try:
                self.sample()
            except Exception:  # a process vanished mid-sample
                pass
            self.stop_event.wait(self.interval)

    def stop(self) -> None:
        self.stop_event.set()
        self.join(5)
        try:
            self.sample()
        except Exception:
            pass


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


def same_engine(truth: str | None, found: str | None) -> bool:
    if truth is None or found is None:
        return truth is None and found is None
    a, b = truth.lower(), found.lower()
    return a in b or b in a


async def run(args: argparse.Namespace, sandbox, hotels, store) -> dict:
    from sadie_pipeline.resources.reliability import run_items
    from sadie_pipeline.resources.web import WebsiteFetcher, engine_found, fetch_and_detect

    fetcher = WebsiteFetcher(
        proxy=sandbox.proxy_url, max_concurrency=args.concurrency, browser_concurrency=args.browser_concurrency,
        connect_timeout_s=args.timeout_s, read_timeout_s=args.timeout_s, total_timeout_s=args.timeout_s,
        browser_enabled=not args.no_browser,
    )
    counts: Counter[str] = Counter()
    correct = 0
    done = 0
    started = time.perf_counter()
    progress_every = max(1, len(hotels) // 10)

    async def one(place) -> str:
        nonlocal correct, done
        result, detections, text = await fetch_and_detect(fetcher, place.website)
        if result.ok:
            key = f"website-content/{place.state}/{slug(place.city)}/{place.id}.txt"
            await asyncio.to_thread(store.put_bytes, key, text.encode("utf-8"), "text/plain; charset=utf-8")
        if not result.ok:
            outcome = "dead"
        elif engine_found(detections):
            outcome = "engine_found"
        else:
            outcome = "no_engine"
        counts[outcome] += 1
        if result.via == "browser":
            counts["js_rendered"] += 1
        if result.render_error:
            counts["render_failed"] += 1
        if result.followed_url:
            counts["followed_booking_link"] += 1
        found = detections[0].name if outcome == "engine_found" else None
        correct += same_engine(place.truth()["engine"], found)
        done += 1
        if done % progress_every == 0:
            elapsed = time.perf_counter() - started
            print(f"  {done:>6} sites  {elapsed:6.1f} s  {done / elapsed * 60:8.0f} sites/min  {dict(counts)}", flush=True)
        return outcome

    async with fetcher.running():
        outcomes = await run_items(hotels, one, key=lambda p: p.id, concurrency=args.concurrency)
        wall = time.perf_counter() - started
        stats = fetcher.stats()
    crashed = [o for o in outcomes if o.status != "ok"]
    for o in crashed[:5]:
        print(f"  worker error on {o.item_key}: {o.last_error}")
    return {"wall_s": wall, "counts": counts, "correct": correct, "fetcher_stats": stats, "worker_errors": len(crashed)}


def _strong_top(detections) -> str | None:
    strong = [d for d in detections if d.confidence > 0.4]
    return strong[0].name if strong else None


async def corpus_run(args: argparse.Namespace, sites, proxy_url: str) -> list[tuple]:
    """(site, fetch result, detections, detect-stage outcome) for every corpus site."""
    from sadie_pipeline.core.booking_engines import analyze
    from sadie_pipeline.hotels.websites import judge_pages
    from sadie_pipeline.resources.web import WebsiteFetcher, fetch_and_detect

    fetcher = WebsiteFetcher(proxy=proxy_url, total_timeout_s=args.timeout_s + 5, browser_enabled=not args.no_browser,
                             browser_concurrency=args.browser_concurrency)

    async def one(site):
        result, detections, _text = await fetch_and_detect(fetcher, site.url)
        pages = [(analyze(result.html, result.final_url, request_urls=result.request_urls, cookies=result.cookies,
                          js_globals=result.js_globals), None)]
        if result.followed_html:
            pages.append((analyze(result.followed_html, result.followed_url), result.followed_url))
        return site, result, detections, judge_pages(0, None, pages)

    async with fetcher.running():
        return list(await asyncio.gather(*(one(s) for s in sites)))


def corpus_metrics(args: argparse.Namespace) -> dict:
    from sadie_pipeline.core.booking_engines import load_catalogue
    from sadie_pipeline.sandbox.corpus_server import CorpusServer
    from sadie_pipeline.sandbox.detection_corpus import corpus

    sites = corpus(js_every=1, followed_every=5)
    started = time.perf_counter()
    with CorpusServer(sites) as server:
        rows = asyncio.run(corpus_run(args, sites, server.proxy_url))
    kinds = Counter(s.kind for s in sites)
    forms = Counter(s.signal for s in sites if s.kind == "unknown")
    hits: Counter[str] = Counter()
    form_hits: Counter[str] = Counter()
    misses: list[str] = []
    false_positives: list[str] = []
    for site, result, detections, outcome in rows:
        if site.kind == "negative":
            if outcome.engine or outcome.unknown_host or _strong_top(detections):
                false_positives.append(f"{site.key}: {outcome.engine or outcome.unknown_host}")
            continue
        ok = _corpus_hit(site, detections, outcome)
        hits[site.kind] += ok
        if site.kind == "unknown":
            form_hits[site.signal] += ok
        if not ok:
            found = outcome.engine or outcome.unknown_host
            misses.append(f"{site.key} (via {result.via}, {result.reason or result.render_error or 'ok'}; found {found})")
    wall = time.perf_counter() - started
    positives = sum(n for k, n in kinds.items() if k != "negative")
    recall = sum(hits.values()) / positives if positives else 0.0
    print(f"corpus: {len(sites)} sites in {wall:.1f} s; catalogue {len(load_catalogue())} engines")
    for kind in ("engine", "js_only", "followed", "engine_host", "unknown"):
        print(f"  {kind:<11} found {hits[kind]}/{kinds[kind]}")
    print("  unknown by form: " + ", ".join(f"{f} {form_hits[f]}/{n}" for f, n in sorted(forms.items())))
    print(f"  recall counting unknown-engine findings {recall:.3f} ({sum(hits.values())}/{positives})")
    js_unknown = [f for f in forms if f.startswith("js_")]  # uncatalogued engines injected at run time
    static = positives - kinds["js_only"] - sum(forms[f] for f in js_unknown)
    static_hits = sum(n for k, n in hits.items() if k != "js_only") - sum(form_hits[f] for f in js_unknown)
    print(f"  the same without the JavaScript-only pages (they need Chromium) {static_hits / static:.3f} "
          f"({static_hits}/{static})")
    print(f"  negative    false positives {len(false_positives)}/{kinds['negative']}")
    for line in (misses + false_positives)[:10]:
        print(f"    {line}")
    return {"engines_in_catalogue": len(load_catalogue()), "corpus_engines_found": hits["engine"],
            "corpus_js_only_found": hits["js_only"], "corpus_js_only_pages": kinds["js_only"],
            "corpus_followed_found": hits["followed"], "corpus_followed_pages": kinds["followed"],
            "corpus_engine_host_found": hits["engine_host"], "corpus_engine_host_pages": kinds["engine_host"],
            "corpus_unknown_found": hits["unknown"], "corpus_unknown_pages": kinds["unknown"],
            "corpus_unknown_by_form": {f: [form_hits[f], n] for f, n in sorted(forms.items())},
            "corpus_recall": round(recall, 4),
            "corpus_recall_without_js_only": round(static_hits / static, 4) if static else 0.0,
            "corpus_negative_pages": kinds["negative"], "corpus_false_positives": len(false_positives),
            "corpus_wall_s": round(wall, 2)}


def _corpus_hit(site, detections, outcome) -> bool:
    """The page's engine found: the catalogued one (on the followed page for `followed`), or the
    uncatalogued host sent to review."""
    if site.kind == "unknown":
        return outcome.unknown_host == site.unknown_host
    return _strong_top(detections) == site.engine and (site.kind != "followed" or bool(outcome.found_on_url))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sites", type=int, default=2000)
    ap.add_argument("--latency-ms", type=float, default=100.0)
    ap.add_argument("--js-share", type=float, default=0.10)
    ap.add_argument("--dead-share", type=float, default=0.05)
    ap.add_argument("--concurrency", type=int, default=64, help="sites in flight (and the fetcher's global limit)")
    ap.add_argument("--browser-concurrency", type=int, default=8, help="pages rendered at once in Chromium")
    ap.add_argument("--timeout-s", type=float, default=5.0, help="fetch timeout (dead_timeout sites hang longer)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-browser", action="store_true", help="httpx only (pages needing JS are judged as fetched)")
    ap.add_argument("--corpus-only", action="store_true", help="the detection corpus only, no sandbox run")
    args = ap.parse_args()

    corpus = corpus_metrics(args)
    if args.corpus_only:
        print(json.dumps({"benchmark": "detection", "metrics": corpus}))
        return

    from sadie_pipeline.resources.object_store import ObjectStore
    from sadie_pipeline.sandbox import SandboxProcess

    print(f"detection benchmark: {args.sites} sandbox sites, {args.latency_ms:g} ms latency, "
          f"{args.js_share:.0%} need JavaScript, {args.dead_share:.0%} dead; concurrency {args.concurrency}, "
          f"browser pages {args.browser_concurrency}, fetch timeout {args.timeout_s:g} s", flush=True)
    t0 = time.perf_counter()
    with SandboxProcess(synthetic=args.sites, seed=args.seed, js_share=args.js_share, dead_share=args.dead_share,
                        demo=False, dns=False) as sandbox, tempfile.TemporaryDirectory(prefix="sadie-detect-") as tmp:
        sandbox.configure("sites", latency_ms=args.latency_ms, hang_s=args.timeout_s + 5)
        hotels = [h for h in sandbox.hotels if h.website]
        truth = Counter(h.site for h in hotels)
        print(f"sandbox up in {time.perf_counter() - t0:.1f} s at {sandbox.url} (child pid {sandbox._proc.pid}); "
              f"site kinds: {dict(sorted(truth.items()))}", flush=True)
        store = ObjectStore(local_root=tmp)
        sampler = RssSampler({sandbox._proc.pid})
        sampler.start()
        try:
            out = asyncio.run(run(args, sandbox, hotels, store))
        finally:
            sampler.stop()
        site_stats = sandbox.stats("sites")
        stored = len(store.list_keys("website-content/"))
        sandbox_rss = 0.0
        try:
            import psutil

            sandbox_rss = psutil.Process(sandbox._proc.pid).memory_info().rss / 2**20
        except Exception:
            pass

    self_ru = resource.getrusage(resource.RUSAGE_SELF)
    kids_ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = out["wall_s"]
    counts = out["counts"]
    n = len(hotels)
    rate = n / wall * 60
    peak_total_mb = sampler.peak_total / 2**20
    children_ru = kids_ru.ru_maxrss / 1024
    print(f"done: {n} sites in {wall:.1f} s -> {rate:.0f} sites/min (target >= 1500)")
    print(f"outcomes: engine found {counts['engine_found']}, no engine {counts['no_engine']}, dead {counts['dead']}, "
          f"js rendered {counts['js_rendered']} (render failed {counts['render_failed']}), "
          f"followed a booking link {counts['followed_booking_link']}, worker errors {out['worker_errors']}")
    print(f"engine agrees with the sandbox's ground truth on {out['correct']}/{n} sites ({out['correct'] / n:.1%})")
    print(f"texts stored: {stored} objects under website-content/{{state}}/{{city}}/{{hotel_id}}.txt")
    print(f"fetcher: {json.dumps(out['fetcher_stats'])}")
    print(f"sandbox sites: requests {site_stats['requests']}, max in flight {site_stats['max_in_flight']}, "
          f"statuses {site_stats['statuses']}")
    print(f"CPU: this process {self_ru.ru_utime + self_ru.ru_stime:.1f} s, children (browser, driver, sandbox) "
          f"{kids_ru.ru_utime + kids_ru.ru_stime:.1f} s over {wall:.1f} s of detection")
    print(f"peak RSS: {peak_total_mb:.0f} MB = this process (RSS) + the Playwright driver and Chromium processes "
          f"(PSS, shared pages apportioned; up to {sampler.peak_processes} processes). Separately: this process "
          f"{sampler.peak_self / 2**20:.0f} MB, browser/driver {sampler.peak_children / 2**20:.0f} MB; plain RSS sum "
          f"(shared pages counted per process) {sampler.peak_total_rss_sum / 2**20:.0f} MB; largest child by "
          f"RUSAGE_CHILDREN {children_ru:.0f} MB; sandbox child (not ours, excluded) {sandbox_rss:.0f} MB")
    metrics = {
        "sites_per_min": round(rate, 1),
        "peak_rss_mb": round(peak_total_mb, 1),
        "sites": n,
        "wall_s": round(wall, 2),
        "engine_found": counts["engine_found"],
        "no_engine": counts["no_engine"],
        "dead": counts["dead"],
        "js_rendered": counts["js_rendered"],
        "peak_rss_self_mb": round(sampler.peak_self / 2**20, 1),
        "peak_rss_browser_mb": round(sampler.peak_children / 2**20, 1),
        "peak_rss_sum_mb": round(sampler.peak_total_rss_sum / 2**20, 1),
        "engine_accuracy": round(out["correct"] / n, 4) if n else 0.0,
        **corpus,
    }
    print(json.dumps({"benchmark": "detection", "metrics": metrics}))


if __name__ == "__main__":
    main()

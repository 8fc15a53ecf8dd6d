"""Place-matching quality benchmark: two DMO guides of the same places, guide A imported first
(its records become listings), then guide B matched against them with
``sadie_pipeline.core.matching.match_against``, as listings staging does.

    python benchmarks/matching_quality.py [--n 100000] [--seed 7] [--seeds 101,202,303] [--no-splink]
                                          [--no-public] [--keep DIR] [--engine-path DIR]

Data:

* (a) generated: ``benchmarks/matching_data/`` writes two guides of --n records together (half
  each) with the truth (pairs id_a, id_b), the divergence labels of each true pair (the classes of
  shared/real-world-divergences.md, "Places", and older finer ones) and the hard-negative pairs
  (chain outlets, places sharing an address, similar names on one street, neighbouring numbers,
  unrelated places of one name, the two halves of one street). Quality and cost come from this run.
  The same protocol runs on small DMOs: 30 guide pairs of 300 records and 5 of 3,000 (seeds derived
  from --seed, one city each), each matched on its own; their F1 is pooled over all their pairs
  (``f1_small_dmo``, ``f1_dmo_3000``). --seeds repeats the generated part for other seeds
  (held out: the engine is tuned on --seed) and prints each one's figures.
* (b) public: the Fodor's and Zagat restaurant guides (``benchmarks/public_guides.py``, downloaded
  once from PyPI inside py_entitymatching's sdist): 533 and 331 real records, 112 labelled pairs,
  matched with the same protocol (Zagat against Fodor's); --no-public skips them, and a failed
  download leaves their figures null.

Protocol: for each guide B record, ``match_against(B, A, review_threshold)`` gives its best guide A
record; ``classify(certainty, auto_match_threshold, review_threshold)`` (the DMO config defaults,
``sadie_pipeline.core.config.DEFAULT_CONFIG["stage"]``) puts it in auto matches or the review queue,
and a Match with a ``review_reason`` (two records sharing an identifier) goes to review whatever its
certainty. Precision, recall and F1 count automatic matches only (``auto_precision`` is that
precision); the review queue is reported apart with the share of its pairs that are true
(``review_true_share``). Per class, recall is the share of its true pairs matched automatically
(for ``move``, matched or in review); per hard-negative kind, the false-match rate is the share of
its pairs matched automatically. ``silent_duplicates``: true pairs sharing a phone, or a name core
and a house number (``matching_eval.duplicate_keys``), that end neither matched nor in review.
Records are built as staging builds them after the transform: whitespace cleaned, the phone in
E.164 (the record's country as the default region), the website normalised; state, website, lat
and lng go into ``MatchRecord`` only when its constructor has those fields.

Cost: the matching runs in a child process that only loads the guides and matches them; wall_s
times ``match_against`` alone, peak_rss_mb is that process's peak RSS (main run of --n records).

Peer: Splink 4 (DuckDB) on the same generated and public guides, in its own process
(``benchmarks/splink_peer.py``, match probability >= 0.9, fixed), with --no-splink to skip it.
Needs ``pip install -e '.[bench]'``.

Prints readable lines, then one JSON line {"benchmark": "matching_quality", "metrics": {...}}.
Targets (``matching_eval.TARGETS``, missed ones in ``targets_missed``): F1 >= 0.97 on (a) and (b),
precision >= 0.99 on (b), auto precision >= 0.995, at least half of the review queue true, every
class recall >= 0.95, |f1_small_dmo - f1_generated| <= 0.01, no silent duplicate, 100,000 records
in <= 15 s and <= 1 GB.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from matching_eval import TARGETS, duplicate_keys, evaluate, load_truth, pool, print_classes, print_quality  # noqa: E402

SMALL_DMOS = ((300, 30), (3000, 5))  # (records of the two guides together, how many guides)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- the child: load, build records, match ----------------------------------------------------------------

def _records(path: str, fields: tuple[str, ...]):
    from sadie_pipeline.core.matching import MatchRecord
    from sadie_pipeline.core.normalize import PhoneError, clean_whitespace, normalize_url, phone_to_e164

    def text(value: str) -> str | None:
        return clean_whitespace(value) or None

    def phone(value: str, country: str) -> str | None:
        try:
            return phone_to_e164(value, country or "US")
        except PhoneError:
            return None

    def url(value: str) -> str | None:
        try:
            return normalize_url(value)
        except ValueError:
            return None

    optional = {
        "state": lambda row: text(row["state"]),
        "website": lambda row: url(row["website"]),
        "lat": lambda row: float(row["lat"]) if row["lat"] else None,
        "lng": lambda row: float(row["lng"]) if row["lng"] else None,
        "country": lambda row: row["country"] or None,
    }
    extra = [(f, optional[f]) for f in fields if f in optional]
    records = []
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            kw = {f: get(row) for f, get in extra}
            records.append(MatchRecord(id=int(row["id"]), name=text(row["name"]), address1=text(row["address1"]),
                                       city=text(row["city"]), zip=text(row["zip"]),
                                       phone=phone(row["phone"], row["country"]), **kw))
    return records, [f for f, _ in extra]


def _match_one(directory: str, fields: tuple[str, ...], review: float) -> dict:
    from sadie_pipeline.core.matching import match_against

    started = time.perf_counter()
    guide_a, extra = _records(os.path.join(directory, "guide_a.csv"), fields)
    guide_b, _ = _records(os.path.join(directory, "guide_b.csv"), fields)
    load_s = time.perf_counter() - started
    started = time.perf_counter()
    matches = match_against(guide_b, guide_a, review)
    wall = time.perf_counter() - started
    return {"wall_s": round(wall, 3), "load_s": round(load_s, 2), "extra_fields": extra,
            "records": len(guide_a) + len(guide_b),
            "pairs": [[m.candidate_id, m.record_id, m.certainty, getattr(m, "review_reason", None)] for m in matches]}


def child(directories: str, out: str) -> int:
    """Each directory (os.pathsep between them) matched on its own, as a fresh DMO would be."""
    from sadie_pipeline.core.config import DEFAULT_CONFIG
    from sadie_pipeline.core.matching import MatchRecord

    fields = tuple(MatchRecord._fields)
    review = DEFAULT_CONFIG["stage"]["review_threshold"]
    runs = [_match_one(d, fields, review) for d in directories.split(os.pathsep)]
    Path(out).write_text(json.dumps({"runs": runs, "fields": list(fields), "peak_rss_mb": round(peak_rss_mb(), 1)}))
    return 0

# --- the parent: data, children, metrics ------------------------------------------------------------------

class Context:
    def __init__(self, tmp: str, engine_path: str | None, splink: bool):
        from sadie_pipeline.core.config import DEFAULT_CONFIG
        from sadie_pipeline.core.matching import classify

        self.tmp, self.splink, self.classify = tmp, splink, classify
        self.auto = DEFAULT_CONFIG["stage"]["auto_match_threshold"]
        self.review = DEFAULT_CONFIG["stage"]["review_threshold"]
        self.engine_args = ["--engine-path", os.path.abspath(engine_path)] if engine_path else []


def _run_child(args: list[str]) -> dict:
    out = args[-1]
    name = next(a for a in args if a.endswith(".py"))
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{name} failed:\n{proc.stderr[-4000:]}")
    return json.loads(Path(out).read_text())


def _engine(directories: list[str], ctx: Context, tag: str) -> dict:
    out = os.path.join(ctx.tmp, f"engine-{tag}.json")
    return _run_child([str(Path(__file__).resolve()), *ctx.engine_args, "--child", os.pathsep.join(directories), out])


def _score(directory: str, run: dict, ctx: Context) -> dict:
    truth, divergences, hard = load_truth(directory)
    return evaluate(run["pairs"], truth, divergences, hard, duplicate_keys(directory), ctx.auto, ctx.review,
                    ctx.classify)


def run_splink(directory: str, ctx: Context, label: str) -> dict | None:
    try:
        splink = _run_child([str(HERE / "splink_peer.py"), directory, os.path.join(ctx.tmp, f"splink-{label}.json")])
    except RuntimeError as exc:
        print(f"splink ({label}): failed ({str(exc).splitlines()[-1]}); pip install -e '.[bench]'")
        return None
    truth, divergences, hard = load_truth(directory)
    sq = evaluate(splink["pairs"], truth, divergences, hard, duplicate_keys(directory), splink["threshold"],
                  splink["threshold"], lambda p, hi, lo: "match" if p >= hi else "new")
    print(f"splink {splink['splink']} (DuckDB, link_only, threshold {splink['threshold']}) on ({label}): "
          f"{splink['wall_s']:.2f} s for cleaning, training and prediction ({splink['comparisons']} pairs scored "
          f"above the threshold), peak RSS {splink['peak_rss_mb']:.0f} MB")
    print_quality(f"splink ({label})", sq, with_review=False, detail=False)
    return {"run": splink, "q": sq}


def run_small(seed: int, ctx: Context) -> dict[int, dict]:
    """Small DMOs: many guide pairs of one city each, each matched on its own, pooled."""
    from matching_data import METROS, generate, write

    out = {}
    for size, count in SMALL_DMOS:
        rng = random.Random(f"small-dmo-{seed}-{size}")
        cities = [m[0] for m in METROS if len(m[10]) >= (4 if size >= 3000 else 1)]
        dirs = []
        for k in range(count):
            directory = os.path.join(ctx.tmp, f"dmo{size}-{seed}-{k}")
            write(generate(size, rng.randrange(2 ** 31), [rng.choice(cities)]), directory)
            dirs.append(directory)
        result = _engine(dirs, ctx, f"dmo{size}-{seed}")
        out[size] = p = pool([_score(d, run, ctx) for d, run in zip(dirs, result["runs"])])
        print(f"small DMOs of {size} records ({count} guide pairs, one city each, each matched on its own; pooled "
              f"over {p['true']} true pairs): precision {p['precision']:.4f}, recall {p['recall']:.4f}, "
              f"F1 {p['f1']:.4f}; auto precision {p['precision']:.4f}, review queue {p['review_queue']} "
              f"({_pct(p['review_true_share'])} true), silent duplicates {p['silent_duplicates']}")
    return out


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def run_generated(seed: int, n: int, ctx: Context, keep: str | None, splink: bool) -> dict:
    from matching_data import generate, write

    directory = keep or os.path.join(ctx.tmp, f"guides-{seed}")
    started = time.perf_counter()
    guides = generate(n, seed)
    write(guides, directory)
    print(f"(a) generated, seed {seed}: guide A {len(guides.a)} records, guide B {len(guides.b)} records, "
          f"{len(guides.truth)} true pairs ({len(guides.truth) / len(guides.b):.0%} of B), "
          f"{len(guides.hard_negatives)} hard-negative pairs; {time.perf_counter() - started:.1f} s")
    del guides
    result = _engine([directory], ctx, f"main-{seed}")
    run = result["runs"][0]
    print(f"engine: match_against over {run['records']} records in {run['wall_s']:.2f} s (target <= "
          f"{TARGETS['wall_s']:.0f} s; loading {run['load_s']:.1f} s apart), peak RSS of the matching process "
          f"{result['peak_rss_mb']:.0f} MB (target <= {TARGETS['peak_rss_mb']:.0f}); MatchRecord fields "
          f"{result['fields']}")
    q = _score(directory, run, ctx)
    print_quality(f"engine (a) generated, seed {seed}, {run['records']} records", q)
    print_classes(q)
    small = run_small(seed, ctx)
    peer = run_splink(directory, ctx, f"generated, seed {seed}") if splink else None
    return {"q": q, "run": run, "peak_rss_mb": result["peak_rss_mb"], "small": small, "splink": peer}


def run_public(ctx: Context) -> dict | None:
    try:
        from public_guides import NAME, fodors_zagat
        from public_guides import write as write_public

        guides = fodors_zagat()
    except Exception as exc:  # noqa: BLE001 - any failure to fetch or read: say so and go on
        print(f"(b) public: not measured, the download failed ({type(exc).__name__}: {str(exc)[:200]})")
        return None
    directory = os.path.join(ctx.tmp, "public")
    write_public(guides, directory)
    print(f"(b) public: {NAME}: guide A (Fodor's) {len(guides.a)} records, guide B (Zagat) {len(guides.b)} "
          f"records, {len(guides.truth)} labelled pairs")
    run = _engine([directory], ctx, "public")["runs"][0]
    q = _score(directory, run, ctx)
    print_quality("engine (b) public", q)
    peer = run_splink(directory, ctx, "public") if ctx.splink else None
    return {"q": q, "name": NAME, "splink": peer}


def _r(x: float | None, digits: int = 5) -> float | None:
    return None if x is None else round(x, digits)


def summary(g: dict) -> dict:
    """The figures of one generated run (one seed)."""
    q = g["q"]
    return {"precision_generated": _r(q["precision"]), "recall_generated": _r(q["recall"]), "f1_generated": _r(q["f1"]),
            "auto_precision": _r(q["precision"]), "review_queue_generated": q["review_queue"],
            "review_true_share_generated": _r(q["review_true_share"]), "review_true_share": _r(q["review_true_share"]),
            "recall_by_class": {k: _r(v, 4) for k, v in q["recall_by_class"].items()},
            "seen_by_class": {k: _r(v, 4) for k, v in q["seen_by_class"].items()},
            "min_class_recall": _r(q["min_class_recall"], 4), "silent_duplicates": q["silent_duplicates"],
            "false_match_rate_by_kind": {k: _r(v) for k, v in q["false_match_rate_by_kind"].items()},
            "f1_small_dmo": _r(g["small"][300]["f1"]), "f1_dmo_3000": _r(g["small"][3000]["f1"]),
            "precision_small_dmo": _r(g["small"][300]["precision"]), "recall_small_dmo": _r(g["small"][300]["recall"]),
            "wall_s": g["run"]["wall_s"], "peak_rss_mb": g["peak_rss_mb"]}


def _public_metrics(public: dict | None) -> dict:
    q = public["q"] if public else None
    out = {"precision_public": _r(q["precision"]) if q else None, "recall_public": _r(q["recall"]) if q else None,
           "f1_public": _r(q["f1"]) if q else None, "public_dataset": public["name"] if public else None,
           "review_queue_public": q["review_queue"] if q else None,
           "review_true_share_public": _r(q["review_true_share"]) if q else None,
           "silent_duplicates_public": q["silent_duplicates"] if q else None}
    peer = public["splink"]["q"] if public and public["splink"] else None
    out.update({f"splink_{k}_public": _r(peer[k]) if peer else None for k in ("precision", "recall", "f1")})
    return out


def targets_missed(m: dict) -> list[str]:
    t = TARGETS
    checks = [("f1_generated", m["f1_generated"] >= t["f1"]),
              ("f1_public", m["f1_public"] is None or m["f1_public"] >= t["f1"]),
              ("precision_public", m["precision_public"] is None or m["precision_public"] >= t["precision_public"]),
              ("auto_precision", m["auto_precision"] >= t["auto_precision"]),
              ("review_true_share", m["review_true_share"] is None or m["review_true_share"] >= t["review_true_share"]),
              ("min_class_recall", m["min_class_recall"] is None or m["min_class_recall"] >= t["class_recall"]),
              ("f1_small_dmo", abs(m["f1_small_dmo"] - m["f1_generated"]) <= t["small_dmo_gap"]),
              ("silent_duplicates", m["silent_duplicates"] <= t["silent_duplicates"]),
              ("wall_s", m["wall_s"] <= t["wall_s"]), ("peak_rss_mb", m["peak_rss_mb"] <= t["peak_rss_mb"])]
    return [name for name, ok in checks if not ok]


def _print_seed(seed: int, s: dict) -> None:
    low = sorted(s["recall_by_class"].items(), key=lambda kv: kv[1])[:4]
    print(f"seed {seed}: F1 {s['f1_generated']:.4f} (P {s['precision_generated']:.4f}, R {s['recall_generated']:.4f}), "
          f"auto precision {s['auto_precision']:.4f}, review true share {_pct(s['review_true_share'])}, "
          f"silent duplicates {s['silent_duplicates']}, F1 small DMO {s['f1_small_dmo']:.4f}, F1 3,000 "
          f"{s['f1_dmo_3000']:.4f}; lowest classes " + ", ".join(f"{k} {v:.3f}" for k, v in low))


def metrics_of(args, ctx: Context, main_run: dict, public: dict | None, by_seed: dict) -> dict:
    m = {"n_records": main_run["run"]["records"], "seed": args.seed, "auto_match_threshold": ctx.auto,
         "review_threshold": ctx.review, **summary(main_run), **_public_metrics(public)}
    peer = main_run["splink"]
    if peer is not None:
        sq, run = peer["q"], peer["run"]
        m.update({"splink_precision_generated": _r(sq["precision"]), "splink_recall_generated": _r(sq["recall"]),
                  "splink_f1_generated": _r(sq["f1"]), "splink_wall_s": run["wall_s"],
                  "splink_peak_rss_mb": run["peak_rss_mb"], "splink_threshold": run["threshold"],
                  "splink_version": run["splink"]})
    if by_seed:
        m["seeds"] = sorted(by_seed)
        m["by_seed"] = {str(k): v for k, v in sorted(by_seed.items())}
    m["targets_missed"] = targets_missed(m)
    return m


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="records in the two guides together")
    parser.add_argument("--seed", type=int, default=7, help="the seed of the main run (the one tuned on)")
    parser.add_argument("--seeds", help="more seeds for the generated part, comma-separated (held out)")
    parser.add_argument("--no-splink", action="store_true", help="skip the Splink peer")
    parser.add_argument("--no-public", action="store_true", help="skip the public guides")
    parser.add_argument("--keep", help="write the main run's generated guides to this directory and keep them")
    parser.add_argument("--engine-path", help="a directory holding another sadie_pipeline package (e.g. `git archive "
                                              "HEAD sadie_pipeline | tar -x -C DIR`) to match with instead of this one")
    parser.add_argument("--child", nargs=2, metavar=("DIRS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.engine_path:
        sys.path.insert(0, os.path.abspath(args.engine_path))
    if args.child:
        return child(*args.child)
    extra = [int(s) for s in args.seeds.split(",") if s.strip()] if args.seeds else []
    with tempfile.TemporaryDirectory(prefix="sadie-mq-") as tmp:
        ctx = Context(tmp, args.engine_path, not args.no_splink)
        print(f"thresholds (DMO config defaults): auto_match {ctx.auto}, review {ctx.review}")
        main_run = run_generated(args.seed, args.n, ctx, args.keep, ctx.splink)
        public = None if args.no_public else run_public(ctx)
        by_seed = {}
        for seed in [s for s in dict.fromkeys(extra) if s != args.seed]:
            by_seed[seed] = summary(run_generated(seed, args.n, ctx, None, False))
        for seed, s in [(args.seed, summary(main_run)), *by_seed.items()]:
            _print_seed(seed, s)
    metrics = metrics_of(args, ctx, main_run, public, by_seed)
    missed = metrics["targets_missed"]
    print("targets: " + ("all met" if not missed else "missed " + ", ".join(missed))
          + ("" if metrics["f1_public"] is not None else "; public guides not measured"))
    print(json.dumps({"benchmark": "matching_quality", "metrics": metrics}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

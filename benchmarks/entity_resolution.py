"""Hotel entity resolution benchmark: N discovery records from three sources (serper, dmo, csv)
resolved into entities by ``sadie_pipeline.core.entity_resolution.resolve``.

    python benchmarks/entity_resolution.py [--n 100000] [--seed 7] [--no-splink] [--no-client-ids]

The records are generated in a child process (``benchmarks/hotel_sources_data.py``) and written
to a temporary CSV, so this process only loads them and resolves them: its peak RSS is the
resolution's. Precision and recall are pairwise (pairs of records put in one entity) against
the generator's truth.

Peer: Splink 4 (DuckDB, dedupe_only) on the same CSV, in its own process
(``benchmarks/splink_hotels.py``: a tutorial-style configuration, not tuned on this data; the
sources' place ids are not given to it), its pairs clustered at match probability 0.8 (our merge
threshold, fixed), scored the same pairwise way. --no-splink skips it; it is skipped with a note
when splink is not installed (``pip install -e '.[bench]'``).

Each true pair carries the divergence classes of its two records (``name_typo``,
``house_number_typo``, ``street_typo``, ``street_format``, ``name_variant``, ``phone_central``,
``missing_*``, ...: ``hotel_sources_forms.pair_classes``); the recall of the automatic merges is
printed per class, beside the share of the class's pairs that wait in the review queue and the
share lost silently. The review queue's size and its share of true pairs are printed too.

Prints readable lines, then one JSON line {"benchmark": "entity_resolution", "metrics": {...}}
(``recall_by_class``, ``min_class_recall`` over the classes of at least ``MIN_CLASS_PAIRS`` pairs,
``review_queue``, ``review_true_share``; ``splink_precision``, ``splink_recall``,
``splink_wall_s``, ``splink_peak_rss_mb`` beside ours when the peer ran).

Booking engines and client ids (issue 32, item 4; ``hotel_client_ids.py``, on unless
--no-client-ids): records carry the engine and client id their hotel's detection found, engines'
pages of properties come as a fourth source (``engine_client``, names as the pages title them,
rarely an address), chains' outlets share SynXis and the brand's name but not an id, namesakes share
a town and an engine. Printed: the pairs of records sharing an engine and client id that were
merged (``client_pairs_merged`` of ``client_pairs``), the merges by stage, and the precision of the
stage 3 merges (same name, town and engine). Splink is not given the engines or client ids.

Targets (100,000 records, issue 15): wall_s <= 15, peak_rss_mb <= 1024, precision (of the automatic
merges) >= 0.99, recall >= 0.97, each class's recall >= 0.95, review queue at least half true pairs;
issue 32: every pair sharing an engine and client id merged.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

TARGETS = {"wall_s": 15.0, "peak_rss_mb": 1024.0, "precision": 0.99, "recall": 0.97, "min_class_recall": 0.95,
           "review_true_share": 0.5}
# A class with fewer true pairs is printed but left out of min_class_recall: one miss in 20 pairs
# would move it by 0.05.
MIN_CLASS_PAIRS = 50


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _float(value: str) -> float | None:
    return float(value) if value else None


def load(path: str):
    from sadie_pipeline.core.entity_resolution import SourceRecord

    records, truth, labels = [], [], []
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            records.append(SourceRecord(
                source=row["source"], external_id=row["external_id"] or None, name=row["name"] or None,
                address=row["address"] or None, city=row["city"] or None, state=row["state"] or None,
                zip=row["zip"] or None, phone=row["phone"] or None, website=row["website"] or None,
                lat=_float(row["lat"]), lng=_float(row["lng"]),
                engine=row.get("booking_engine") or None, client_id=row.get("client_id") or None,
            ))
            truth.append(int(row["entity"]))
            labels.append(sys.intern(row["divergences"]))  # few distinct label sets: one string each
    return records, truth, labels


def _pairs(sizes) -> int:
    return sum(s * (s - 1) // 2 for s in sizes)


def pairwise(predicted: list[int], truth: list[int]) -> tuple[float, float, int, int, int]:
    """(precision, recall, true positive pairs, predicted pairs, true pairs)."""
    tp = _pairs(Counter(zip(predicted, truth)).values())
    pred = _pairs(Counter(predicted).values())
    true = _pairs(Counter(truth).values())
    precision = tp / pred if pred else 1.0
    recall = tp / true if true else 1.0
    return precision, recall, tp, pred, true


def by_class(truth: list[int], labels: list[str], entity_of: list[int],
             review_pairs: list[tuple[int, int, float]]) -> dict[str, list[int]]:
    """class -> [true pairs, merged, waiting in review]; a pair is in review when the review queue
    pairs its two records' predicted entities."""
    from hotel_sources_data import pair_classes

    reviewed = {frozenset((entity_of[i], entity_of[j])) for i, j, _ in review_pairs}
    members: dict[int, list[int]] = {}
    for k, e in enumerate(truth):
        members.setdefault(e, []).append(k)
    out: dict[str, list[int]] = {}
    for group in members.values():
        for x, i in enumerate(group):
            for j in group[x + 1:]:
                merged = entity_of[i] == entity_of[j]
                waits = not merged and frozenset((entity_of[i], entity_of[j])) in reviewed
                for cls in pair_classes(labels[i], labels[j]):
                    figures = out.setdefault(cls, [0, 0, 0])
                    figures[0] += 1
                    figures[1] += merged
                    figures[2] += waits
    return dict(sorted(out.items(), key=lambda item: -item[1][0]))


def report_classes(classes: dict[str, list[int]]) -> dict:
    """Prints recall per class; the JSON's recall_by_class and min_class_recall."""
    print(f"{'class':<22} {'pairs':>7} {'recall':>7} {'review':>7} {'silent':>7}   (shares of the class's true pairs)")
    for cls, (pairs, merged, waits) in classes.items():
        silent = pairs - merged - waits
        print(f"{cls:<22} {pairs:>7} {merged / pairs:>7.4f} {waits / pairs:>7.4f} {silent / pairs:>7.4f}")
    recall = {cls: round(merged / pairs, 5) for cls, (pairs, merged, _) in classes.items()}
    counted = [recall[cls] for cls, (pairs, _, _) in classes.items() if pairs >= MIN_CLASS_PAIRS]
    return {"recall_by_class": recall, "min_class_recall": min(counted) if counted else None}


def generate(n: int, seed: int, path: str, client_ids: bool = True) -> None:
    started = time.perf_counter()
    child = subprocess.run([sys.executable, str(HERE / "hotel_sources_data.py"), "--n", str(n),
                            "--seed", str(seed), "--out", path],
                           check=True, capture_output=True, text=True)
    summary = json.loads(child.stderr.strip().splitlines()[-1])
    print(f"generated {summary['rows']} records of {summary['entities']} hotels (seed {seed}) "
          f"in a child process in {time.perf_counter() - started:.1f} s")
    if client_ids:
        child = subprocess.run([sys.executable, str(HERE / "hotel_client_ids.py"), path, "--seed", str(seed)],
                               check=True, capture_output=True, text=True)
        extra = json.loads(child.stderr.strip().splitlines()[-1])
        print(f"engines and client ids: {extra['added']} engine pages and namesakes added ({extra['rows']} records), "
              f"{extra['with_client_id']} records with a client id")


def client_figures(records, truth: list[int], result) -> dict:
    """Pairs sharing an engine and client id merged (of all such pairs); merges by stage; the
    precision of the stage 3 merges (their two records one hotel)."""
    from sadie_pipeline.core.entity_stages import MergeStage, client_key

    keyed: dict[str, list[int]] = {}
    for i, r in enumerate(records):
        key = client_key(r.engine, r.client_id)
        if key:
            keyed.setdefault(key, []).append(i)
    pairs = merged = true = 0
    for members in keyed.values():
        for x, i in enumerate(members):
            for j in members[x + 1:]:
                pairs += 1
                merged += result.entity_of[i] == result.entity_of[j]
                true += truth[i] == truth[j]
    # the records of the first three sources alone: what the engine pages and namesakes did to them
    kept = [i for i, r in enumerate(records) if r.source != "engine_client"]
    _, recall_sources, *_ = pairwise([result.entity_of[i] for i in kept], [truth[i] for i in kept])
    stage3 = [(i, j) for i, j, stage in result.merged if stage == MergeStage.NAME_CITY_ENGINE]
    stage3_ok = sum(1 for i, j in stage3 if truth[i] == truth[j])
    by_stage = {k: v for k, v in result.by_stage.items() if v}
    print(f"client ids: {merged} of {pairs} pairs sharing an engine and client id merged ({true} of them true); "
          f"stage 3 (name, town, engine): {stage3_ok} of {len(stage3)} merges right")
    print("merges by stage: " + ", ".join(f"{k} {v}" for k, v in by_stage.items()))
    print(f"recall among the serper, dmo and csv records alone: {recall_sources:.4f}")
    return {"client_pairs": pairs, "client_pairs_merged": merged, "client_pairs_true": true,
            "client_pair_recall": round(merged / pairs, 5) if pairs else None,
            "stage3_merges": len(stage3), "stage3_precision": round(stage3_ok / len(stage3), 5) if stage3 else None,
            "merges_by_stage": by_stage, "recall_without_engine_pages": round(recall_sources, 5)}


def run_ours(path: str) -> tuple[dict, list[int], list[str]]:
    """Load the CSV and resolve it in this process; (metrics, truth, divergence labels)."""
    started = time.perf_counter()
    records, truth, labels = load(path)
    print(f"loaded {len(records)} records in {time.perf_counter() - started:.1f} s; "
          f"peak RSS so far {peak_rss_mb():.0f} MB")

    from sadie_pipeline.core.entity_resolution import resolve

    started = time.perf_counter()
    result = resolve(records)
    wall = time.perf_counter() - started
    rss = peak_rss_mb()
    print(f"resolve: {wall:.2f} s, peak RSS {rss:.0f} MB")
    print("stats: " + ", ".join(f"{k}={v}" for k, v in result.stats.items()))

    precision, recall, tp, pred, true = pairwise(result.entity_of, truth)
    print(f"entities: {len(result.entities)} predicted, {len(set(truth))} true; "
          f"{len(result.review_pairs)} review pairs")
    print(f"pairs: {tp} correct of {pred} merged automatically, {true} true -> precision of the automatic "
          f"merges {precision:.4f}, recall {recall:.4f}")
    queue = len(result.review_pairs)
    review_true = sum(1 for i, j, _ in result.review_pairs if truth[i] == truth[j])
    share = review_true / queue if queue else 1.0
    print(f"review queue: {queue} pairs, {review_true} of them true duplicates ({share:.1%})")
    metrics = {"wall_s": round(wall, 3), "peak_rss_mb": round(rss, 1),
               "precision": round(precision, 5), "recall": round(recall, 5),
               "review_queue": queue, "review_true_share": round(share, 5)}
    metrics.update(report_classes(by_class(truth, labels, result.entity_of, result.review_pairs)))
    metrics.update(client_figures(records, truth, result))
    return metrics, truth, labels


def run_splink(path: str, out: str, truth: list[int], labels: list[str]) -> dict:
    """The Splink peer in its own process; its metrics, or {} when it is not installed or fails."""
    if importlib.util.find_spec("splink") is None:
        print("splink: not installed, peer skipped (pip install -e '.[bench]')")
        return {}
    proc = subprocess.run([sys.executable, str(HERE / "splink_hotels.py"), path, out],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        print(f"splink: failed ({last}), peer skipped")
        return {}
    peer = json.loads(Path(out).read_text())
    cluster_of = peer["cluster_of"]
    precision, recall, tp, pred, true = pairwise(cluster_of, truth)
    sizes = Counter(cluster_of)
    print(f"splink {peer['splink']} (DuckDB, dedupe_only, clusters at match probability {peer['threshold']}): "
          f"{peer['wall_s']:.2f} s for cleaning, training, prediction and clustering "
          f"({peer['comparisons']} pairs scored at or above the threshold), peak RSS {peer['peak_rss_mb']:.0f} MB")
    print(f"splink entities: {len(sizes)} predicted, largest {max(sizes.values())} records; "
          f"pairs: {tp} correct of {pred} predicted, {true} true -> precision {precision:.4f}, recall {recall:.4f}")
    classes = by_class(truth, labels, cluster_of, [])
    print("splink recall by class: " + ", ".join(f"{c} {m / p:.4f}" for c, (p, m, _) in classes.items()))
    counted = [m / p for p, m, _ in classes.values() if p >= MIN_CLASS_PAIRS]
    return {"splink_precision": round(precision, 5), "splink_recall": round(recall, 5),
            "splink_min_class_recall": round(min(counted), 5) if counted else None,
            "splink_wall_s": peer["wall_s"], "splink_peak_rss_mb": peer["peak_rss_mb"],
            "splink_threshold": peer["threshold"], "splink_version": peer["splink"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-splink", action="store_true", help="skip the Splink peer")
    parser.add_argument("--no-client-ids", action="store_true", help="the records without engines and client ids")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="sadie-er-") as tmp:
        path = os.path.join(tmp, "records.csv")
        generate(args.n, args.seed, path, client_ids=not args.no_client_ids)
        metrics, truth, labels = run_ours(path)
        misses = [k for k in ("precision", "recall", "min_class_recall", "review_true_share")
                  if metrics[k] is None or metrics[k] < TARGETS[k]]
        if metrics["client_pairs"] and metrics["client_pairs_merged"] < metrics["client_pairs"]:
            misses.append("client_pairs_merged")
        misses += [k for k in ("wall_s", "peak_rss_mb") if metrics[k] > TARGETS[k]]
        print("targets: " + ("all met" if not misses else "missed " + ", ".join(misses)))
        if not args.no_splink:
            metrics.update(run_splink(path, os.path.join(tmp, "splink.json"), truth, labels))
    print(json.dumps({"benchmark": "entity_resolution", "metrics": metrics}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

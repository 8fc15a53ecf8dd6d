"""Scoring of one matching run of ``benchmarks/matching_quality.py`` against the truth: automatic
matches, the review queue, recall per divergence class, false matches per hard-negative kind and
silent duplicates; and the lines that print them.

A pair (id_a, id_b, certainty, review_reason) is *in review* when ``classify`` says "review" or
the engine gave it a review reason (it sends a pair sharing an identifier to a person whatever its
certainty); it is *automatic* when ``classify`` says "match" and it has no review reason."""

from __future__ import annotations

import csv
import os
import re
from collections import Counter, defaultdict

from matching_data import CLASSES

TARGETS = {"f1": 0.97, "precision_public": 0.99, "auto_precision": 0.995, "review_true_share": 0.5,
           "class_recall": 0.95, "small_dmo_gap": 0.01, "silent_duplicates": 0, "wall_s": 15.0, "peak_rss_mb": 1024.0}


def load_truth(directory: str) -> tuple[set[tuple[int, int]], dict[int, list[str]], dict[tuple[int, int], str]]:
    truth, divergences, hard = set(), {}, {}
    with open(os.path.join(directory, "truth.csv"), newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            pair = (int(row["id_a"]), int(row["id_b"]))
            truth.add(pair)
            divergences[pair[1]] = row["divergences"].split()
    with open(os.path.join(directory, "hard_negatives.csv"), newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            hard.setdefault((int(row["id_a"]), int(row["id_b"])), row["kind"])
    return truth, divergences, hard


def duplicate_keys(directory: str) -> dict[int, tuple[str, str, str]]:
    """id -> (phone digits, name core, house number): what makes two records of one place plainly
    the same to a person. Phone: digits without a leading 1, unless a central line (the same number
    at three or more addresses: a brand's reservations, which no person takes for one place's);
    name core: lower-cased, without a leading "the", letters and digits only; house number: the
    first run of digits of the address."""
    rows = []
    for name in ("guide_a.csv", "guide_b.csv"):
        with open(os.path.join(directory, name), newline="", encoding="utf-8") as fh:
            rows.extend(csv.DictReader(fh))
    return rows_keys(rows)


def rows_keys(rows: list[dict]) -> dict[int, tuple[str, str, str]]:
    """duplicate_keys of rows in memory (id, name, address1, phone)."""
    keys, addresses = {}, defaultdict(set)
    for row in rows:
        phone = re.sub(r"\D", "", row["phone"] or "")
        phone = phone[1:] if phone.startswith("1") else phone
        core = (row["name"] or "").lower().strip()
        core = core[4:] if core.startswith("the ") else core
        number = re.search(r"\d+", row["address1"] or "")
        keys[int(row["id"])] = (phone if len(phone) >= 7 else "", "".join(c for c in core if c.isalnum()),
                                number.group() if number else "")
        addresses[phone].add((row["address1"] or "").lower())
    central = {phone for phone, seen in addresses.items() if len(seen) >= 3}
    return {k: ("" if phone in central else phone, core, number) for k, (phone, core, number) in keys.items()}


def plainly_same(ka: tuple[str, str, str] | None, kb: tuple[str, str, str] | None) -> bool:
    """Two records sharing a phone, or a name core and a house number (duplicate_keys)."""
    return bool(ka and kb and ((ka[0] and ka[0] == kb[0]) or (ka[1] and ka[1] == kb[1] and ka[2] and ka[2] == kb[2])))


def split_pairs(pairs: list[list], auto: float, review: float, classify) -> tuple[set, set]:
    """The automatic matches and the review queue, as sets of (id_a, id_b)."""
    predicted, queue = set(), set()
    for a, b, certainty, *rest in pairs:
        reason = rest[0] if rest else None
        label = classify(certainty, auto, review)
        if reason is not None or label == "review":
            queue.add((a, b))
        elif label in ("match", "auto_match"):
            predicted.add((a, b))
    return predicted, queue


def _prf(tp: int, predicted: int, true: int) -> tuple[float, float, float]:
    precision = tp / predicted if predicted else 1.0
    recall = tp / true if true else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def silent_duplicates(truth: set, predicted: set, queue: set, keys: dict) -> int:
    """True pairs sharing a phone, or a name core and a house number, that end neither matched nor
    in review: two listings of one place that nobody will see."""
    return sum(1 for a, b in truth - predicted - queue if plainly_same(keys.get(a), keys.get(b)))


def _by_class(truth: set, predicted: set, queue: set, divergences: dict) -> tuple[dict, dict, dict]:
    """Per class: true pairs, those matched automatically (a move: or in review), and those matched
    or in review (seen by the engine or by a person)."""
    total, found, seen = Counter(), Counter(), Counter()
    for a, b in truth:
        kinds = divergences.get(b, [])
        # a move is a true pair only a person can settle: reaching review counts, and its other
        # labels (the phone's format, a typo) are not counted for their classes
        for kind in (["move"] if "move" in kinds else kinds):
            total[kind] += 1
            found[kind] += (a, b) in predicted or (kind == "move" and (a, b) in queue)
            seen[kind] += (a, b) in predicted or (a, b) in queue
    return total, found, seen


def _hard_rates(predicted: set, hard: dict) -> dict:
    total = Counter(hard.values())
    matched = Counter(kind for pair, kind in hard.items() if pair in predicted)
    return {kind: matched[kind] / total[kind] for kind in sorted(total)}


def evaluate(pairs: list[list], truth: set, divergences: dict, hard: dict, keys: dict, auto: float, review: float,
             classify) -> dict:
    predicted, queue = split_pairs(pairs, auto, review, classify)
    tp = len(predicted & truth)
    precision, recall, f1 = _prf(tp, len(predicted), len(truth))
    review_true = len(queue & truth)
    best_of = {b: a for a, b, *_ in pairs}
    true_a = {b: a for a, b in truth}
    missed = Counter("review" if (a, b) in queue else "no candidate" if best_of.get(b) is None else "other candidate"
                     for a, b in truth - predicted)
    total, found, seen = _by_class(truth, predicted, queue, divergences)
    false_pos = Counter(hard.get((a, b)) or ("other (record has a true match)" if b in true_a
                                             else "other (record has none)") for a, b in predicted - truth)
    by_class = {k: found[k] / total[k] for k in CLASSES if total[k]}
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "predicted": len(predicted),
            "true": len(truth), "review_queue": len(queue), "review_true": review_true,
            "review_true_share": review_true / len(queue) if queue else None, "missed": dict(missed),
            "recall_by_divergence": {k: (found[k], total[k]) for k in total}, "recall_by_class": by_class,
            "class_pairs": {k: total[k] for k in CLASSES if total[k]},
            "seen_by_class": {k: seen[k] / total[k] for k in CLASSES if total[k]},
            "min_class_recall": min(by_class.values()) if by_class else None,
            "false_match_rate_by_kind": _hard_rates(predicted, hard), "false_positives": dict(false_pos),
            "silent_duplicates": silent_duplicates(truth, predicted, queue, keys)}


def pool(results: list[dict]) -> dict:
    """Several small runs as one: counts added, rates of the sums."""
    tp, predicted, true = (sum(r[k] for r in results) for k in ("tp", "predicted", "true"))
    queue, review_true = sum(r["review_queue"] for r in results), sum(r["review_true"] for r in results)
    precision, recall, f1 = _prf(tp, predicted, true)
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "predicted": predicted, "true": true,
            "review_queue": queue, "review_true": review_true,
            "review_true_share": review_true / queue if queue else None,
            "silent_duplicates": sum(r["silent_duplicates"] for r in results), "runs": len(results)}


def _share(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def print_quality(label: str, q: dict, with_review: bool = True, detail: bool = True) -> None:
    print(f"{label}: precision {q['precision']:.4f}, recall {q['recall']:.4f}, F1 {q['f1']:.4f} "
          f"(target >= {TARGETS['f1']}) -- {q['tp']} correct of {q['predicted']} auto matches, {q['true']} true pairs")
    if with_review:
        print(f"  auto precision {q['precision']:.4f} (target >= {TARGETS['auto_precision']}); review queue "
              f"{q['review_queue']} pairs, {q['review_true']} true ({_share(q['review_true_share'])}; target >= "
              f"{TARGETS['review_true_share']:.0%}); silent duplicates {q['silent_duplicates']} (target 0)")
    if not detail:
        return
    print("  true pairs not auto-matched: " + (", ".join(f"{k} {v}" for k, v in sorted(q["missed"].items())) or "none"))
    print("  false auto matches by kind: " + (", ".join(f"{k} {v}" for k, v in sorted(q["false_positives"].items()))
                                              or "none"))
    if q["false_match_rate_by_kind"]:
        print("  false-match rate by hard-negative kind: " + ", ".join(
            f"{k} {v:.4f}" for k, v in q["false_match_rate_by_kind"].items()))
    worst = sorted(q["recall_by_divergence"].items(), key=lambda kv: kv[1][0] / kv[1][1])
    if worst:
        print("  recall by divergence label (lowest first): " + ", ".join(
            f"{k} {found / total:.2f} ({total})" for k, (found, total) in worst))


def print_classes(q: dict) -> None:
    """The per-class recall table (real-world-divergences.md, "Places"); move: matched or in review."""
    if not q["recall_by_class"]:
        return
    print(f"  recall by class (target >= {TARGETS['class_recall']}; move: auto or review), and the share matched "
          "or in review:")
    for kind in CLASSES:
        if kind in q["recall_by_class"]:
            r = q["recall_by_class"][kind]
            print(f"    {kind:22s} {r:.4f}  {q['seen_by_class'][kind]:.4f}  ({q['class_pairs'][kind]} pairs)"
                  f"{'' if r >= TARGETS['class_recall'] else '  *'}")

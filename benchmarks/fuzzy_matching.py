"""Fuzzy matching benchmark: the two calls of ``sadie_pipeline.listings.stage._fuzzy`` on generated
listings (``benchmarks/listings_data.py``), without the database.

    python benchmarks/fuzzy_matching.py [--csv listings.csv | --n 100000 --seed 7] [--repeat 3]
                                        [--reference path/to/old/matching.py]
                                        [--threshold 0.5] [--no-house-numbers]

Cases (review threshold 0.5 unless --threshold, workers=2, as in ``_fuzzy``):

1. first import: the rows left after exact copies are dropped (first copy kept, CSV order) are
   all unmatched and there are no candidates -> ``match_within`` over all of them.
2. unchanged re-import: the near duplicates that case 1 found (the records it marks as duplicates,
   with their phone) are the unmatched rows; the listings case 1 kept (its non-duplicates, with other
   ids and no phone: every listing of the rows' blocks, more than FUZZY_CANDIDATES now fetches,
   as it leaves out those at another house number) are the candidates -> ``match_against``.
   Then ``match_within`` over the rows it left unmatched (timed apart: "2b").

MatchRecord fields come from the CSV columns name, address1, city, zip and phone (in E.164, as
staging's international_phone). Each case runs --repeat times; the best and the median seconds are
printed (the machine may be busy). With --reference, the same cases also run through that module
(a saved copy of an older ``matching.py``, importing the current ``normalize``) and the results
are compared: they must be identical, order included; the exit status is 1 when they are not. The
modules take turns run by run, so a busy machine slows both alike. --no-house-numbers strips the
leading house number off every address, for data shaped otherwise (rural addresses have none).

Prints readable lines, then one JSON line {"benchmark": "fuzzy_matching", "metrics": {...}}.
"""

from __future__ import annotations

import argparse
import csv
import gc
import importlib.util
import json
import re
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

WORKERS = 2
CANDIDATE_ID_BASE = 10_000_000


def load_rows(args: argparse.Namespace) -> list[dict[str, str]]:
    if args.csv:
        with open(args.csv, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    from listings_data import generate
    return generate(args.n, args.seed)


_HOUSE_NUMBER = re.compile(r"^\s*\d+[A-Za-z]?\b[\s,]*")


def record_fields(rows: list[dict[str, str]], house_numbers: bool = True) -> list[tuple]:
    """MatchRecord fields (id = row number) of the rows left once exact copies are dropped; without
    house_numbers, the addresses lose their leading house number (as rural addresses have none)."""
    from sadie_pipeline.core.normalize import PhoneError, phone_to_e164

    def phone(value: str) -> str | None:
        try:
            return phone_to_e164(value, "US")
        except PhoneError:
            return None

    seen: set[tuple] = set()
    fields: list[tuple] = []
    for i, row in enumerate(rows, 1):
        whole = tuple(row.values())
        if whole in seen:
            continue
        seen.add(whole)
        address = row["address1"] if house_numbers else _HOUSE_NUMBER.sub("", row["address1"])
        fields.append((i, row["name"] or None, address or None, row["city"] or None, row["zip"] or None,
                       phone(row["phone"])))
    return fields


def case_records(module: ModuleType, fields: list[tuple], duplicates: set[int]) -> tuple[list, list, list]:
    """Case 1 records, case 2 rows (the duplicates) and case 2 candidates (the others, as listings)."""
    MatchRecord = module.MatchRecord
    first = [MatchRecord(*f) for f in fields]
    rows = [MatchRecord(*f) for f in fields if f[0] in duplicates]
    candidates = [MatchRecord(CANDIDATE_ID_BASE + f[0], *f[1:5], None) for f in fields if f[0] not in duplicates]
    return first, rows, candidates


def run(module: ModuleType, fields: list[tuple], duplicates: set[int], threshold: float) -> dict:
    """One timed run of each case through module."""
    first, rows, candidates = case_records(module, fields, duplicates)
    times, results = {}, {}
    gc.collect()  # no run pays for the garbage of the one before
    started = time.perf_counter()
    results["case1"] = module.match_within(first, threshold, workers=WORKERS)
    times["case1_within"] = time.perf_counter() - started
    gc.collect()
    started = time.perf_counter()
    results["case2"] = module.match_against(rows, candidates, threshold, workers=WORKERS)
    times["case2_against"] = time.perf_counter() - started
    matched = {m.record_id for m in results["case2"]}
    rest = [r for r in rows if r.id not in matched]
    gc.collect()
    started = time.perf_counter()
    results["case2b"] = module.match_within(rest, threshold, workers=WORKERS)
    times["case2b_within_rest"] = time.perf_counter() - started
    return {
        "times": times,
        "sizes": {"case1_records": len(first), "case2_rows": len(rows), "case2_candidates": len(candidates),
                  "case2b_rest": len(rest)},
        "results": {case: [(m.record_id, m.candidate_id, m.certainty) for m in matches]
                    for case, matches in results.items()},
    }


def load_module(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzzy_reference_matching", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # forked workers unpickle its functions by module name
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", help="a CSV written by benchmarks/listings_data.py (else generated)")
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threshold", type=float, default=0.5, help="review threshold (stage's is 0.5)")
    parser.add_argument("--no-house-numbers", action="store_true",
                        help="strip the house numbers from the addresses (another shape of data)")
    parser.add_argument("--reference", help="path of an older matching.py to time and compare against")
    args = parser.parse_args(argv)

    from sadie_pipeline.core import matching

    fields = record_fields(load_rows(args), house_numbers=not args.no_house_numbers)
    modules = [("reference", load_module(args.reference))] if args.reference else []
    modules.append(("current", matching))
    # case 2's split comes from case 1's result (the same through either module, checked below)
    first, _, _ = case_records(matching, fields, set())
    duplicates = {m.record_id for m in matching.match_within(first, args.threshold, workers=WORKERS)}
    del first
    runs: dict[str, dict] = {}
    for _ in range(args.repeat):
        for label, module in modules:
            r = run(module, fields, duplicates, args.threshold)
            if label not in runs:
                runs[label] = {"times": {case: [] for case in r["times"]}}
            for case, t in r["times"].items():
                runs[label]["times"][case].append(t)
            runs[label]["results"], runs[label]["sizes"] = r["results"], r["sizes"]

    metrics: dict[str, float | int | bool] = {}
    sizes = runs["current"]["sizes"]
    print("sizes: " + ", ".join(f"{k}={v}" for k, v in sizes.items()))
    for label, r in runs.items():
        for case, times in r["times"].items():
            best, median = min(times), statistics.median(times)
            print(f"{label:9s} {case:20s} best {best:6.3f} s  median {median:6.3f} s  "
                  f"({', '.join(f'{t:.3f}' for t in times)})  matches {len(r['results'][case.split('_')[0]])}")
            metrics[f"{label}_{case}_s"] = round(best, 3)
    identical = True
    if args.reference:
        for case in runs["current"]["results"]:
            same = runs["current"]["results"][case] == runs["reference"]["results"][case]
            identical &= same
            print(f"{case}: results {'IDENTICAL' if same else 'DIFFERENT'} "
                  f"({len(runs['current']['results'][case])} matches)")
        metrics["identical"] = identical
    print(json.dumps({"benchmark": "fuzzy_matching", "metrics": metrics}))
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())

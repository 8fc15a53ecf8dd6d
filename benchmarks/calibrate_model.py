"""Calibrates the place engine's priors on labelled pairs: the generated guides of
``matching_data.py`` (guide B against guide A, as listings staging compares them) and the generated
hotel records of ``hotel_sources_data.py`` (every record against every other, as entity
resolution does), with seeds the quality benchmarks do not use.

    python benchmarks/calibrate_model.py [--n 60000] [--hotels 60000] [--seed 11]

For each field, m is the share of each level among the candidate pairs that are one place and u
among those that are not (a level 0, no evidence, counts in neither); the share of candidate pairs
that are one place is the prior. It prints them as the literals of ``core/places/model.py``
(PRIOR_M, PRIOR_U, PRIOR_SHARE), then, for the listings' protocol under those priors, the precision
of the automatic matches and the review queue's true share at each threshold, so that the DMO
config's defaults can be set: auto precision >= 0.995 and a queue at least half true.

The seeds (11 for the guides, 13 for the hotels) are apart from the quality benchmarks' (7, and the
held-out 101, 202, 303): the figures those print are measured on data the priors never saw.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


def _labelled_levels(index, i: np.ndarray, j: np.ndarray, same: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    from sadie_pipeline.core.places.score import compare

    levels = np.concatenate([compare(index, i[s:s + 100_000], j[s:s + 100_000], 5.0).levels
                             for s in range(0, max(len(i), 1), 100_000)])
    return levels, same


def guide_pairs(n: int, seed: int, directory: str):
    """Levels of guide B's candidate pairs against guide A, and which are true; the records too."""
    from matching_data import generate, write
    from matching_quality import _records

    from sadie_pipeline.core.matching import MatchRecord, _index

    write(generate(n, seed), directory)
    fields = tuple(MatchRecord._fields)
    a, _ = _records(os.path.join(directory, "guide_a.csv"), fields)
    b, _ = _records(os.path.join(directory, "guide_b.csv"), fields)
    truth = set()
    with open(os.path.join(directory, "truth.csv"), encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            id_a, id_b = line.split(",")[:2]
            truth.add((int(id_a), int(id_b)))
    index = _index([*b, *a])
    i, j = index.candidate_pairs(len(b))
    ids = [r.id for r in (*b, *a)]
    same = np.fromiter(((ids[y], ids[x]) in truth for x, y in zip(i.tolist(), j.tolist())), dtype=bool, count=len(i))
    return (*_labelled_levels(index, i, j, same), a, b, truth)


def hotel_pairs(n: int, seed: int, directory: str):
    """Levels of the hotel records' candidate pairs, and which are one hotel."""
    from entity_resolution import generate, load

    from sadie_pipeline.core.entity_resolution import _place
    from sadie_pipeline.core.places import PlaceIndex

    path = os.path.join(directory, "hotels.csv")
    generate(n, seed, path)
    records, truth = load(path)[:2]
    index = PlaceIndex([_place(r) for r in records])
    i, j = index.candidate_pairs()
    entity = np.asarray(truth)
    return _labelled_levels(index, i, j, entity[i] == entity[j])


def fit(levels: np.ndarray, same: np.ndarray) -> tuple[dict, dict, float]:
    from sadie_pipeline.core.places.model import FIELDS, LEVELS

    m, u = {}, {}
    for k, f in enumerate(FIELDS):
        counts = [np.bincount(levels[same if side else ~same, k], minlength=len(LEVELS[f]) + 1)[1:]
                  for side in (True, False)]
        m[f], u[f] = (_floored(c / max(c.sum(), 1)) for c in counts)
    return m, u, float(same.mean())


# No level is rarer than this on either side: generated data shows only the habits its generator
# has (its true pairs almost never give two phones, where real guides give one pair in twenty), and
# a weight of -12 bits would make such a pair impossible.
FLOOR = 0.02


def _floored(shares: np.ndarray) -> np.ndarray:
    shares = np.maximum(shares, FLOOR)
    return shares / shares.sum()


def thresholds(a, b, truth: set, model) -> None:
    """Auto precision and the review queue's true share under the calibrated model, at each threshold."""
    from sadie_pipeline.core.matching import match_against

    matches = match_against(b, a, 0.05, 0.999, model)
    rows = [(m.certainty, (m.candidate_id, m.record_id) in truth, m.review_reason is not None) for m in matches]
    forced = [t for _, t, r in rows if r]
    print(f"pairs sent to a person whatever their certainty: {len(forced)}, {sum(forced)} true")
    print(f"{'threshold':>9} {'auto':>7} {'auto precision':>15} {'band >= it':>11} {'band true':>10}")
    for cut in (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98, 0.99):
        auto = [t for c, t, r in rows if c >= cut and not r]
        band = [t for c, t, r in rows if c < cut and not r]
        print(f"{cut:>9} {len(auto):>7} {sum(auto) / max(len(auto), 1):>15.4f} {len(band):>11} "
              f"{sum(band) / max(len(band), 1):>10.3f}")
    for low in (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        band = [t for c, t, r in rows if low <= c < 0.8 and not r] + forced
        print(f"review band [{low}, 0.8) with the forced pairs: {len(band)} pairs, {sum(band) / max(len(band), 1):.3f} true")


def _literal(values: dict) -> str:
    return "{\n" + "".join(f'    "{f}": ({", ".join(f"{x:.4f}" for x in v)}),\n' for f, v in values.items()) + "}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=60_000, help="records of the two guides together")
    parser.add_argument("--hotels", type=int, default=60_000, help="hotel records")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    from sadie_pipeline.core.places.model import FIELDS, Model, prior_model

    with tempfile.TemporaryDirectory(prefix="sadie-calibrate-") as tmp:
        g_levels, g_same, a, b, truth = guide_pairs(args.n, args.seed, tmp)
        h_levels, h_same = hotel_pairs(args.hotels, args.seed + 2, tmp) if args.hotels else (g_levels[:0], g_same[:0])
    print(f"guides: {len(g_levels)} candidate pairs, {int(g_same.sum())} true; "
          f"hotels: {len(h_levels)} candidate pairs, {int(h_same.sum())} true")
    for label, levels, same in (("guides", g_levels, g_same), ("hotels", h_levels, h_same)):
        if len(levels):
            m, u, share = fit(levels, same)
            print(f"{label} alone: share {share:.4f}; m {_literal(m)}; u {_literal(u)}")
    m, u, share = fit(np.concatenate([g_levels, h_levels]), np.concatenate([g_same, h_same]))
    print(f"PRIOR_M = {_literal(m)}\nPRIOR_U = {_literal(u)}\nPRIOR_SHARE = {share:.4f}")
    model = Model({f: np.array((1.0, *m[f])) for f in FIELDS}, {f: np.array((1.0, *u[f])) for f in FIELDS}, share)
    print("under the calibrated model:")
    thresholds(a, b, truth, model)
    print("under the model of core/places/model.py now:")
    thresholds(a, b, truth, prior_model())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The Fellegi-Sunter model of the place engine: for each compared field, m = P(level | same
place) and u = P(level | different places) of its levels, and the share of candidate pairs that
are one place. A pair's match weight is the prior log-odds plus log2(m/u) of each field's level;
its probability follows.

The priors were calibrated on labelled pairs (benchmarks/calibrate_model.py). EM refines a model
on unlabelled candidate pairs, pulled towards the model it starts from by pseudo-pairs, so a batch
of a few hundred records cannot outvote it; listings keep one estimate per DMO and judge each job
by the estimate made before it (see README.md, "Evidence")."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# field -> names of levels 1..k (0 is "a side is empty": no evidence either way).
LEVELS: dict[str, tuple[str, ...]] = {
    "name": ("different", "similar", "close", "same_chain", "same"),
    # where the two are, from street and number, postal code, map point and city label, taken as
    # one comparison: they say the same thing and would count it four times as four fields
    "location": ("conflict", "other_city_label", "same_area", "same_address_typo", "same_address"),
    "phone": ("different", "same"),
    "website": ("different", "same"),
}
FIELDS = tuple(LEVELS)
# Calibrated on labelled candidate pairs (benchmarks/calibrate_model.py: 40,000 generated guide
# records, seed 11, and 40,000 hotel records, seed 13, apart from the benchmarks' seeds), each share
# floored at 0.02: generated data shows only its generator's habits, and real guides give, say,
# one true pair in twenty two phones.
PRIOR_M = {
    "name": (0.0194, 0.0784, 0.0709, 0.0194, 0.8118),
    "location": (0.0196, 0.0196, 0.0782, 0.0425, 0.8400),
    "phone": (0.0197, 0.9803),
    "website": (0.0196, 0.9804),
}
PRIOR_U = {
    "name": (0.8722, 0.0699, 0.0193, 0.0193, 0.0193),
    "location": (0.8963, 0.0195, 0.0232, 0.0195, 0.0415),
    "phone": (0.9803, 0.0197),
    "website": (0.9802, 0.0198),
}
PRIOR_SHARE = 0.0528  # of candidate pairs that are one place
PSEUDO_PAIRS = 2000.0  # how strongly a model holds against new pairs: a small DMO cannot outvote it
EM_ROUNDS = 25


@dataclass
class Model:
    m: dict[str, np.ndarray]  # per field: level 0..k (level 0 = 1.0, no evidence)
    u: dict[str, np.ndarray]
    share: float
    pairs: int = 0  # candidate pairs it was estimated on, besides its priors

    def weights(self, field: str) -> np.ndarray:
        return np.log2(self.m[field] / self.u[field])

    def prior_weight(self) -> float:
        return float(np.log2(self.share / (1 - self.share)))

    def to_json(self) -> dict[str, object]:
        return {"m": {f: [round(float(x), 6) for x in v[1:]] for f, v in self.m.items()},
                "u": {f: [round(float(x), 6) for x in v[1:]] for f, v in self.u.items()},
                "share": round(self.share, 6), "pairs": self.pairs}

    @classmethod
    def from_json(cls, data: dict | None) -> Model | None:
        """A stored model, or None when absent or of another shape (an older release's levels)."""
        try:
            m = {f: np.array((1.0, *data["m"][f]), dtype=float) for f in FIELDS}
            u = {f: np.array((1.0, *data["u"][f]), dtype=float) for f in FIELDS}
            if any(len(m[f]) != len(LEVELS[f]) + 1 or len(u[f]) != len(LEVELS[f]) + 1 for f in FIELDS):
                return None
            return cls(m, u, float(data["share"]), int(data.get("pairs", 0)))
        except (KeyError, TypeError, ValueError):
            return None


def prior_model() -> Model:
    return Model({f: np.array((1.0, *PRIOR_M[f])) for f in FIELDS},
                 {f: np.array((1.0, *PRIOR_U[f])) for f in FIELDS}, PRIOR_SHARE)


def estimate(levels: np.ndarray, start: Model | None = None, pseudo_pairs: float = PSEUDO_PAIRS) -> Model:
    """EM on the candidate pairs' levels, pulled towards `start` (the priors by default) by
    pseudo_pairs plus the pairs `start` was itself estimated on."""
    anchor = start or prior_model()
    if len(levels) == 0:
        return anchor
    weight = pseudo_pairs + anchor.pairs
    model = anchor
    for _ in range(EM_ROUNDS):
        w = posterior(levels, model)
        m, u = {}, {}
        for k, f in enumerate(FIELDS):
            match, other = _weighted_counts(levels[:, k], w, len(anchor.m[f]))
            m[f], u[f] = _reestimate(match, anchor.m[f], weight), _reestimate(other, anchor.u[f], weight)
        share = (w.sum() + weight * anchor.share) / (len(w) + weight)
        model = Model(m, u, float(min(max(share, 1e-4), 0.9)), anchor.pairs + len(levels))
        del w  # before the next round's: two of them at once are the peak of memory
    return model


def _weighted_counts(level: np.ndarray, w: np.ndarray, n_levels: int) -> tuple[np.ndarray, np.ndarray]:
    """Per level 1..: the sum of w (as one place) and of 1 - w (as two) over its pairs. Level by
    level, not np.bincount, which would copy the int8 levels to int64 (8 MB a million pairs)."""
    match, pairs = np.zeros(n_levels - 1), np.zeros(n_levels - 1)
    for value in range(1, n_levels):
        at = level == value
        match[value - 1], pairs[value - 1] = np.add.reduce(w, where=at), np.count_nonzero(at)
    return match, pairs - match


def _reestimate(counts: np.ndarray, anchor: np.ndarray, weight: float) -> np.ndarray:
    probs = (counts + weight * anchor[1:]) / (counts.sum() + weight)
    return np.concatenate(([1.0], np.maximum(probs, 1e-6)))


def match_weight(levels: np.ndarray, model: Model) -> np.ndarray:
    total = np.full(len(levels), model.prior_weight())
    for k, f in enumerate(FIELDS):
        total += model.weights(f)[levels[:, k]]
    return total


def posterior(levels: np.ndarray, model: Model) -> np.ndarray:
    # 1 / (1 + 2^-weight), in place: a million pairs' temporaries would take 8 MB each
    p = match_weight(levels, model)
    np.clip(p, -60, 60, out=p)
    np.negative(p, out=p)
    np.exp2(p, out=p)
    p += 1.0
    return np.reciprocal(p, out=p)

"""One engine for "these records are the same place", used by listings staging
(core.matching) and hotel entity resolution (core.entity_resolution).

    index = PlaceIndex(places)              # normalised keys, brand phones and websites blanked
    scored = score(index, model)            # candidate pairs from the blocking keys, scored
    scored.i, scored.j, scored.probability, scored.veto, scored.identified, scored.shared, scored.explain(k)

Pure logic: no Dagster, no I/O. See README.md ("Matching places") for the model."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from sadie_pipeline.core.places.index import Place, PlaceIndex
from sadie_pipeline.core.places.model import FIELDS, Model, estimate, posterior, prior_model
from sadie_pipeline.core.places.score import Identified, Shared, Veto, compare, describe, explain

__all__ = ["FIELDS", "Identified", "Model", "Place", "PlaceIndex", "Scored", "Shared", "Veto", "describe",
           "estimate", "paused_gc", "prior_model", "score", "score_pairs"]


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic GC paused: the engine builds millions of small strings, lists and tuples and no
    cycle, and the collector would rescan them again and again (a third of the time at 100,000
    records)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class Scored:
    i: np.ndarray
    j: np.ndarray
    probability: np.ndarray  # the weights' probability, before the guards
    veto: np.ndarray  # Veto
    identified: np.ndarray  # Identified
    shared: np.ndarray  # Shared flags
    levels: np.ndarray
    model: Model

    def __len__(self) -> int:
        return len(self.i)

    def explain(self, k: int) -> dict[str, object]:
        return explain(self.levels[k], self.model, int(self.veto[k]), int(self.identified[k]), int(self.shared[k]))


def score(index: PlaceIndex, model: Model | None = None, *, split: int | None = None,
          max_distance_km: float = 5.0) -> Scored:
    """Every candidate pair of the index scored by `model` (the priors by default). With `split`,
    only pairs across it (records before it against candidates from it on)."""
    i, j = index.candidate_pairs(split)
    return score_pairs(index, i, j, model, max_distance_km=max_distance_km)


# Pairs compared at a time: the comparison's working arrays of a million pairs would take 200 MB.
_COMPARE_CHUNK = 100_000


def score_pairs(index: PlaceIndex, i: np.ndarray, j: np.ndarray, model: Model | None = None, *,
                max_distance_km: float = 5.0) -> Scored:
    """The pairs (i, j) compared and weighed by `model`. The judgement of a pair depends on the
    two records, what the index knows of brands and chains, and the model: never on which other
    pairs are scored with it (EM refines a model apart: model.estimate)."""
    parts = [compare(index, i[s:s + _COMPARE_CHUNK], j[s:s + _COMPARE_CHUNK], max_distance_km)
             for s in range(0, max(len(i), 1), _COMPARE_CHUNK)]
    levels, veto, identified, shared = (np.concatenate([p[k] for p in parts]) for k in range(4))
    model = model or prior_model()
    return Scored(i, j, np.round(posterior(levels, model), 4), veto, identified, shared, levels, model)

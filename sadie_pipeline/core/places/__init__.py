"""One engine for "these records are the same place", used by listings staging
(core.matching) and hotel entity resolution (core.entity_resolution).

    index = PlaceIndex(places)              # normalised keys, brand phones and websites blanked
    scored = score(index)                   # candidate pairs from the blocking keys, scored
    scored.i, scored.j, scored.probability, scored.veto, scored.explain(k)

Pure logic: no Dagster, no I/O. See README.md ("Matching places") for the model."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from sadie_pipeline.core.places.index import Place, PlaceIndex
from sadie_pipeline.core.places.score import (
    FIELDS,
    Model,
    Veto,
    compare,
    describe,
    estimate,
    explain,
    posterior,
    prior_model,
)

__all__ = ["FIELDS", "Model", "Place", "PlaceIndex", "Scored", "Veto", "describe", "paused_gc", "score",
           "score_pairs"]


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
    probability: np.ndarray
    veto: np.ndarray
    levels: np.ndarray
    model: Model

    def __len__(self) -> int:
        return len(self.i)

    def explain(self, k: int) -> dict[str, object]:
        return explain(self.levels[k], self.model, int(self.veto[k]))


def score(index: PlaceIndex, *, split: int | None = None, max_distance_km: float = 5.0,
          learn: bool = True) -> Scored:
    """Every candidate pair of the index scored. With `split`, only pairs across it (records
    before it against candidates from it on)."""
    i, j = index.candidate_pairs(split)
    return score_pairs(index, i, j, max_distance_km=max_distance_km, learn=learn)


# Pairs compared at a time: the comparison's working arrays of a million pairs would take 200 MB.
_COMPARE_CHUNK = 100_000


def score_pairs(index: PlaceIndex, i: np.ndarray, j: np.ndarray, *, max_distance_km: float = 5.0,
                learn: bool = True) -> Scored:
    parts = [compare(index, i[s:s + _COMPARE_CHUNK], j[s:s + _COMPARE_CHUNK], max_distance_km)
             for s in range(0, max(len(i), 1), _COMPARE_CHUNK)]
    levels, veto = (np.concatenate([p[k] for p in parts]) for k in (0, 1))
    model = estimate(levels) if learn else prior_model()
    return Scored(i, j, np.round(posterior(levels, model), 4), veto, levels, model)

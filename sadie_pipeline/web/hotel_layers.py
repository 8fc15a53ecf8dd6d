"""A hotel's enrichment layers as its page shows them (each layer's asset, done or not, when it last
ran) and the run that re-runs one layer for that hotel alone (the layer's config `hotel_ids`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sadie_pipeline.core.retries import LayerRun
from sadie_pipeline.hotels.enrichment.common import LAYER_ASSETS
from sadie_pipeline.hotels.jobs import ENRICHMENT_LAYER_ASSETS


@dataclass(frozen=True)
class HotelLayerRun(LayerRun):
    """A layer run for some hotels only: refreshes them whether or not they have the layer."""
    hotel_ids: tuple[int, ...] = ()

    @property
    def run_config(self) -> dict:
        return {"ops": {self.layer: {"config": {"hotel_ids": list(self.hotel_ids), "force_refresh": True}}}}


def hotel_layers(completed: int | None, updated: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Every enrichment layer asset in the DAG's order: done (its bit set) and when it last ran."""
    bits = {asset: bit for bit, asset in LAYER_ASSETS.items()}
    updated = updated or {}
    return [{"layer": asset, "done": bool((completed or 0) & bits.get(asset, 0)), "ran_at": updated.get(asset)}
            for asset in ENRICHMENT_LAYER_ASSETS]

"""What a requeue of dead letters runs: per layer and region, one run of the layer limited to the
cities of the hotels requeued (a layer selects its hotels by region and city), refreshing when the
hotels already have the layer; and, in words, why a dead letter cannot be retried."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# operations/dead_letters.py Retry values -> what a person reads
RETRY_WORDS = {
    "next run": "the layer's next run",
    "next refresh run": "a refresh run of the layer (the hotel has it already)",
    "no: hotel not enrichable": "nothing: the hotel is merged, not detected or past enrichment",
    "no: hotel gone": "nothing: the hotel no longer exists",
    "?": "nothing: not a hotel layer",
    "-": "not needed: it succeeded since",
}
_REFRESH = "next refresh run"
_RUNS = ("next run", _REFRESH)


@dataclass(frozen=True)
class Requeued:
    """A requeued dead letter and the hotel it names (None when it names none)."""
    letter_id: int
    layer: str
    retry: str            # operations/dead_letters.py Retry value
    hotel: str | None     # the hotel's name
    city: str | None
    region: str | None


@dataclass(frozen=True)
class LayerRun:
    layer: str
    region: str
    cities: tuple[str, ...]
    force_refresh: bool
    hotels: tuple[str, ...]
    letters: tuple[int, ...]

    @property
    def run_config(self) -> dict:
        return {"ops": {self.layer: {"config": {"cities": list(self.cities), "force_refresh": self.force_refresh}}}}


def plan_runs(items: Sequence[Requeued]) -> tuple[list[LayerRun], list[tuple[Requeued, str]]]:
    """The runs that retry the items, and the items no run can retry with why (in words)."""
    groups: dict[tuple[str, str, bool], list[Requeued]] = {}
    skipped = []
    for it in items:
        if it.retry in _RUNS and it.region:
            groups.setdefault((it.layer, it.region, it.retry == _REFRESH), []).append(it)
        else:
            skipped.append((it, RETRY_WORDS.get(it.retry, it.retry).removeprefix("nothing: ")))
    runs = [LayerRun(layer, region, tuple(sorted({i.city for i in its if i.city})), force,
                     tuple(i.hotel or f"dead letter {i.letter_id}" for i in its), tuple(i.letter_id for i in its))
            for (layer, region, force), its in groups.items()]
    return runs, skipped


def names(hotels: Sequence[str], shown: int = 3) -> str:
    """"A, B and 2 more"."""
    if len(hotels) <= shown:
        return " and ".join([", ".join(hotels[:-1]), hotels[-1]]) if len(hotels) > 1 else "".join(hotels)
    return f"{', '.join(hotels[:shown])} and {len(hotels) - shown} more"

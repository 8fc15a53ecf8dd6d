"""The exact matching stages of hotel entity resolution before the place engine (seed 001, section 3):
the stage every merge is recorded with, and the keys of stages 2 and 3.

* stage 2, ``client_id``: the same booking engine and the same client id at it (read from a booking
  URL, ``core.booking.client_ids``) is the same hotel;
* stage 3, ``name_city_engine``: the same normalised name (the place engine's ``name_core``, the
  town's name dropped), the same town and the same engine is the same hotel, unless something says
  two: two client ids or two Google place ids among the records, or the name standing at two
  addresses of the town (a chain's outlets: two "Holiday Inn Express" of one town on SynXis).

Pure logic, shared by the resolver (``core.entity_resolution``) and the hotel-level matching that
runs after detection (``hotels.client_matches``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from sadie_pipeline.core.places.normal import city_key, name_core

__all__ = ["MergeStage", "client_key", "engine_key", "name_city_engine_key", "name_city_key", "stage3_eligible"]


class MergeStage(StrEnum):
    """What made a merge; ``sadie_gtm.hotel_merges.stage`` (migration 0044's CHECK holds the same
    values). In the order the resolver applies them."""
    DECISION = "decision"                  # a person approved the pair
    PLACE_ID = "place_id"                  # the same Google place id
    SOURCE_ID = "source_id"                # the same source and external id
    CLIENT_ID = "client_id"                # the same booking engine and client id
    NAME_CITY_ENGINE = "name_city_engine"  # the same normalised name, town and engine
    PLACE_ENGINE = "place_engine"          # the place engine's score


def engine_key(engine: str | None) -> str:
    """The catalogue name compared case-insensitively; "" when absent."""
    return " ".join((engine or "").lower().split())


def client_key(engine: str | None, client_id: str | None) -> str:
    """Stage 2's key: engine and client id (ids compare case-insensitively); "" unless both."""
    e, c = engine_key(engine), (client_id or "").strip().lower()
    return f"{e}\x00{c}" if e and c else ""


def name_city_key(name: str | None, city: str | None) -> tuple[str, str]:
    """(name core, town key) as the place engine forms them (places.form.place_form)."""
    town = city_key(city)
    return name_core(name, town), town


def name_city_engine_key(core: str, town: str, engine: str | None) -> str:
    """Stage 3's key from a name core and a town key; "" unless name, town and engine are known."""
    e = engine_key(engine)
    return f"{e}\x00{town}\x00{core}" if e and town and core else ""


def stage3_eligible(clients: Sequence[dict[str, str] | None], places: Sequence[str],
                    chains: Sequence[bool]) -> bool:
    """Whether a stage 3 group (records of one name, town and engine, two or more) is one hotel:
    nothing among them says two. Per member, in one order: `clients`, its entity's engine -> client
    id (None: none known); `places`, its entity's Google place id (""); `chains`, whether its name
    stands at two addresses of the town."""
    if len(clients) < 2 or any(chains):
        return False
    if len({p for p in places if p}) > 1:
        return False
    seen: dict[str, str] = {}
    for known in clients:
        for engine, cid in (known or {}).items():
            if seen.setdefault(engine, cid) != cid:
                return False
    return True

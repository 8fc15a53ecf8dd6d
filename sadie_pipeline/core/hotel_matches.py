"""The exact stages again, between hotels, for those whose engine and client id became known after
entity resolution (detection runs after it): which hotels are one (``hotels.client_matches``).

Stage 2: a hotel detected with an engine and client id is one with every hotel that has the same
(by its own detection or by a source record, an engine's client page). Stage 3: a hotel detected
with an engine is one with the hotels of the same name core, town and engine when nothing says two
(``entity_stages.stage3_eligible``; the name at two addresses of the town is a chain's). Two Google
place ids, two client ids at one engine, or a person's reject decision keep two hotels apart; the
first goes to a person. In each group the oldest hotel (lowest id) is kept.

Pure logic (no I/O).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sadie_pipeline.core.entity_stages import (
    MergeStage,
    client_key,
    engine_key,
    name_city_engine_key,
    name_city_key,
    stage3_eligible,
)
from sadie_pipeline.core.places.form import Place, place_form
from sadie_pipeline.core.places.normal import website_parts
from sadie_pipeline.core.places.tables import BRAND_DOMAINS

__all__ = ["HotelKeys", "HotelMerge", "MatchPlan", "plan_matches"]


@dataclass(frozen=True)
class HotelKeys:
    hotel_id: int
    name: str | None
    city: str | None
    address: str | None = None
    place_id: str | None = None
    clients: tuple[tuple[str, str], ...] = ()  # (engine, client id): its detection's and its records'
    engines: tuple[str, ...] = ()  # every engine known for it
    website: str | None = None


@dataclass(frozen=True)
class HotelMerge:
    kept: int       # the group's oldest hotel
    a: int          # the two hotels this stage found one
    b: int
    stage: MergeStage
    engine: str
    client_id: str | None = None


@dataclass
class MatchPlan:
    merges: list[HotelMerge] = field(default_factory=list)
    refused: list[tuple[int, int, MergeStage, str]] = field(default_factory=list)  # (a, b, stage, why)

    def duplicates(self) -> dict[int, list[int]]:
        """kept hotel -> the hotels that become its duplicates."""
        out: dict[int, set[int]] = defaultdict(set)
        for m in self.merges:
            out[m.kept].update(h for h in (m.a, m.b) if h != m.kept)
        return {k: sorted(v) for k, v in sorted(out.items())}


class _Groups:
    """Union-find over hotels that refuses two place ids, two client ids at one engine, and a
    person's reject decision between the two groups."""

    def __init__(self, hotels: dict[int, HotelKeys], separated: Iterable[tuple[int, int]]):
        self.parent = {h: h for h in hotels}
        self.place = {h: k.place_id or "" for h, k in hotels.items()}
        self.clients = {h: {engine_key(e): c.lower() for e, c in k.clients} for h, k in hotels.items()}
        self.apart: dict[int, set[int]] = defaultdict(set)
        for a, b in separated:
            if a in self.parent and b in self.parent:
                self.apart[a].add(b)
                self.apart[b].add(a)

    def find(self, h: int) -> int:
        while self.parent[h] != h:
            self.parent[h] = self.parent[self.parent[h]]
            h = self.parent[h]
        return h

    def why_not(self, a: int, b: int) -> str | None:
        ra, rb = self.find(a), self.find(b)
        if self.place[ra] and self.place[rb] and self.place[ra] != self.place[rb]:
            return "two Google place ids"
        ca, cb = self.clients[ra], self.clients[rb]
        if any(ca.get(e, c) != c for e, c in cb.items()):
            return "two client ids at one engine"
        if any(self.find(x) == rb for x in self.apart.get(ra, ())):
            return "a person said two hotels"
        return None

    def join(self, a: int, b: int) -> None:
        ra, rb = sorted((self.find(a), self.find(b)))  # the oldest hotel is the root
        self.parent[rb] = ra
        self.place[ra] = self.place[ra] or self.place[rb]
        self.clients[ra] = {**self.clients[rb], **self.clients[ra]}
        self.apart[ra] |= self.apart.pop(rb, set())


def plan_matches(hotels: Sequence[HotelKeys], new: Iterable[int],
                 separated: Iterable[tuple[int, int]] = ()) -> MatchPlan:
    """The merges that make each of the `new` hotels (detected since the last run) one with the
    hotels of its client id (stage 2) or of its name, town and engine (stage 3)."""
    by_id = {h.hotel_id: h for h in hotels}
    by_client, by_name, towns = _indexes(hotels)
    groups = _Groups(by_id, separated)
    joined: list[tuple[int, int, MergeStage, str, str | None]] = []
    plan = MatchPlan()

    def join(a: int, b: int, stage: MergeStage, engine: str, cid: str | None) -> None:
        if groups.find(a) == groups.find(b):
            return
        why = groups.why_not(a, b)
        if why is None:
            groups.join(a, b)
            joined.append((a, b, stage, engine, cid))
        elif why != "a person said two hotels":
            plan.refused.append((min(a, b), max(a, b), stage, why))

    for hid in sorted(set(new) & by_id.keys()):
        h = by_id[hid]
        for engine, cid in h.clients:
            for other in by_client[client_key(engine, cid)]:
                if other != hid:
                    join(hid, other, MergeStage.CLIENT_ID, engine, cid.lower())
        core, town = name_city_key(h.name, h.city)
        for engine in h.engines:
            members = by_name.get(name_city_engine_key(core, town, engine), [])
            roots = sorted({groups.find(m) for m in members})
            if len(roots) > 1 and stage3_eligible([groups.clients[r] for r in roots], [groups.place[r] for r in roots],
                                                  [towns[(core, town)]] * len(roots)):
                for other in members:
                    join(hid, other, MergeStage.NAME_CITY_ENGINE, engine, None)
    plan.merges = [HotelMerge(groups.find(a), a, b, stage, engine, cid) for a, b, stage, engine, cid in joined]
    return plan


def _indexes(hotels: Sequence[HotelKeys]) -> tuple[dict[str, list[int]], dict[str, list[int]], dict]:
    """Hotels by client key and by name + town + engine key; (name core, town) -> whether the name
    is a chain's: at two addresses of the town, or on a brand's website."""
    by_client: dict[str, list[int]] = defaultdict(list)
    by_name: dict[str, list[int]] = defaultdict(list)
    addresses: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    brands: set[tuple[str, str]] = set()
    for h in hotels:
        for engine, cid in h.clients:
            key = client_key(engine, cid)
            if key and h.hotel_id not in by_client[key]:
                by_client[key].append(h.hotel_id)
        core, town = name_city_key(h.name, h.city)
        for engine in {engine_key(e) for e in h.engines}:
            key = name_city_engine_key(core, town, engine)
            if key:
                by_name[key].append(h.hotel_id)
        if core and town and (parts := website_parts(h.website)) and parts[0] in BRAND_DOMAINS:
            brands.add((core, town))
        if core and town and h.address:
            form = place_form(Place(h.name, h.address, h.city))
            if form.num and form.street_form:
                addresses[(core, town)].add((form.num, form.street_form))
    towns = defaultdict(bool, {k: len(v) > 1 for k, v in addresses.items()})
    towns.update((k, True) for k in brands)
    return by_client, by_name, towns

"""Hotel entity resolution: one entity per real hotel from discovery records of several sources.

Pure logic (no Dagster, no I/O). ``resolve(records)`` takes source records (Serper/Google Maps
places, DMO lodging listings, CSV imports, ...) and returns, for every record, the index of its
entity, the merged entities with every source's ids, and the pairs that need a human look.

Pairs are found and scored by the place engine (``core.places``, shared with listings matching):
candidates from phone, identifying website, street plus house number, city plus name, rare name
words and map cells; a match probability from field comparisons whose weights EM estimates on
the region's own candidate pairs; vetoes for two states, two house numbers on one street (a
one-keystroke typo is no veto when the name and a phone or website agree) and distance. Brand
domains, OTAs and central reservation phones identify nothing (built in, and found in the data:
a phone or website at ``shared_min_locations`` locations).

Hotel rules on top: the same Google place id (or the same source and external id) is one hotel
whatever the fields say; two different place ids never merge. ``score >= merge_threshold``
merges, ``review_threshold <= score < merge_threshold`` goes to review, as does a vetoed pair
over the merge threshold. Candidate merges are applied strongest first to a union-find that
refuses a union putting two place ids, or two really different house numbers on one street, into
one entity, so chaining cannot glue two hotels together through a weak record. People's decisions
(``must_link``, ``cannot_link``) come first and are final. Review pairs are reported once per pair
of entities (the best record pair), with the engine's explanation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from sadie_pipeline.core.places import Identified, Place, PlaceIndex, Scored, paused_gc, score, score_pairs
from sadie_pipeline.core.places.index import MAX_BLOCK, groups
from sadie_pipeline.core.places.model import FIELDS, LEVELS
from sadie_pipeline.core.places.normal import website_parts
from sadie_pipeline.core.places.score import identified_certainty
from sadie_pipeline.core.places.streets import number_close
from sadie_pipeline.core.places.tables import BRAND_DOMAINS

__all__ = [
    "BRAND_DOMAINS",
    "PLACE_ID_SOURCES",
    "Entity",
    "PairScore",
    "Resolution",
    "SourceRecord",
    "resolve",
    "score_pair",
    "website_parts",
]

#: Sources whose ``external_id`` is a Google place id (so ids from two of them are comparable).
PLACE_ID_SOURCES = frozenset({"serper", "google", "google_maps", "google_places", "gmaps", "places"})


@dataclass(frozen=True)
class SourceRecord:
    """One discovery record. ``place_id`` is a Google place id carried by a source whose own
    ``external_id`` is something else (a CSV import with a place id column); for the sources in
    ``PLACE_ID_SOURCES`` the ``external_id`` is the place id."""

    source: str
    external_id: str | None
    name: str | None
    address: str | None
    city: str | None
    state: str | None = None
    zip: str | None = None
    phone: str | None = None
    website: str | None = None
    lat: float | None = None
    lng: float | None = None
    place_id: str | None = None


@dataclass(frozen=True)
class Entity:
    members: list[int]  # record indices, ascending
    ids: dict[str, list[str]]  # source -> external ids (record order, no repeats)


@dataclass
class Resolution:
    entity_of: list[int]  # entity index per record
    review_pairs: list[tuple[int, int, float]]  # (record i, record j, score), i < j, best per entity pair
    merges: int  # successful unions (= records - entities)
    entities: list[Entity] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    explanations: dict[tuple[int, int], dict] = field(default_factory=dict)  # per review pair


@dataclass(frozen=True)
class PairScore:
    score: float
    signals: tuple[str, ...]  # the fields that agreed
    veto: str | None = None
    explanation: dict = field(default_factory=dict, compare=False)


def _place(r: SourceRecord) -> Place:
    return Place(r.name, r.address, r.city, r.state, r.zip, r.phone, r.website, r.lat, r.lng)


def _place_ids(records: Sequence[SourceRecord]) -> tuple[list[str], list[str]]:
    """(Google place id, source + external id) per record; "" when absent."""
    place, idkey = [""] * len(records), [""] * len(records)
    for i, r in enumerate(records):
        ext = (r.external_id or "").strip()
        if r.source.lower() in PLACE_ID_SOURCES and ext:
            place[i] = ext
        elif r.place_id and r.place_id.strip():
            place[i] = r.place_id.strip()
        if ext:
            idkey[i] = f"{r.source}\x00{ext}"
    return place, idkey


# --- union-find with a contradiction guard ----------------------------------------------------------

class _Components:
    def __init__(self, index: PlaceIndex, place: list[str], cannot_link: Sequence[tuple[int, int]] = ()):
        n = index.n
        self.parent = list(range(n))
        self.size = [1] * n
        self.place = list(place)
        self.streets: list[dict[str, str] | None] = [
            {index.street[i]: index.num[i]} if index.num[i] and index.street[i] else None for i in range(n)]
        # root -> records that may never join it (people's decisions)
        self.apart: dict[int, set[int]] = defaultdict(set)
        for i, j in cannot_link:
            self.apart[i].add(j)
            self.apart[j].add(i)

    def find(self, i: int) -> int:
        parent = self.parent
        root = i
        while parent[root] != root:
            root = parent[root]
        while parent[i] != root:
            parent[i], i = root, parent[i]
        return root

    def union(self, i: int, j: int, force: bool = False, typo: bool = False, decided: bool = False) -> bool | None:
        """True when merged, None when already one entity, False when refused. `typo`: the pair
        itself was found one place despite house numbers one keystroke apart. `decided`: a person
        said so, over two place ids too (Google lists some hotels twice)."""
        ri, rj = self.find(i), self.find(j)
        if ri == rj:
            return None
        pi, pj = self.place[ri], self.place[rj]
        if (pi and pj and pi != pj and not decided) or self.kept_apart(ri, rj):
            return False
        si, sj = self.streets[ri], self.streets[rj]
        if si and sj and not force and _other_number(si, sj, typo):
            return False
        if self.size[ri] < self.size[rj]:
            ri, rj, si, sj = rj, ri, sj, si
        self.parent[rj] = ri
        self.size[ri] += self.size[rj]
        self.place[ri] = self.place[ri] or self.place[rj]
        if sj:
            if si is None:
                self.streets[ri] = dict(sj)
            else:
                for street, num in sj.items():
                    si.setdefault(street, num)
        self.streets[rj] = None
        if rj in self.apart:
            self.apart[ri] |= self.apart.pop(rj)
        return True

    def kept_apart(self, ri: int, rj: int) -> bool:
        small, other = (ri, rj) if len(self.apart.get(ri, ())) <= len(self.apart.get(rj, ())) else (rj, ri)
        return any(self.find(k) == other for k in self.apart.get(small, ()))


def _other_number(si: dict[str, str], sj: dict[str, str], typo: bool) -> bool:
    """Two different house numbers on one street (with `typo`, one keystroke apart is one)."""
    small, big = (si, sj) if len(si) <= len(sj) else (sj, si)
    for street, num in small.items():
        other = big.get(street)
        if other is not None and other != num and not (typo and number_close(other, num)):
            return True
    return False


# --- the API ----------------------------------------------------------------------------------------

# The run config's defaults, calibrated on labelled hotel records (benchmarks/entity_resolution.py):
# a pair between 0.5 and 0.6 was one hotel two times in 26 (two brands of one group at one address).
MERGE_THRESHOLD = 0.8
REVIEW_THRESHOLD = 0.6


def resolve(
    records: Sequence[SourceRecord],
    merge_threshold: float = MERGE_THRESHOLD,
    review_threshold: float = REVIEW_THRESHOLD,
    *,
    max_block: int = MAX_BLOCK,
    shared_min_locations: int = 3,
    max_distance_km: float = 5.0,
    must_link: Iterable[tuple[int, int]] = (),
    cannot_link: Iterable[tuple[int, int]] = (),
) -> Resolution:
    """Resolve discovery records into entities (see the module docstring for the rules).
    must_link and cannot_link are people's decisions on pairs of record indices: the first are
    merged before anything else, the second never end in one entity and are never asked again."""
    with paused_gc():
        index = PlaceIndex([_place(r) for r in records], max_block=max_block,
                           shared_min_locations=shared_min_locations)
        place, idkey = _place_ids(records)
        comps = _Components(index, place, list(cannot_link))
        scored = score(index, max_distance_km=max_distance_km)
        return _Resolver(records, index, comps, scored, place, idkey).run(
            merge_threshold, review_threshold, list(must_link))


_LOCATION, _PHONE, _WEBSITE = FIELDS.index("location"), FIELDS.index("phone"), FIELDS.index("website")
_TYPO = LEVELS["location"].index("same_address_typo") + 1


class _Resolver:
    def __init__(self, records: Sequence[SourceRecord], index: PlaceIndex, comps: _Components, scored: Scored,
                 place: list[str], idkey: list[str]):
        self.records, self.index, self.comps, self.scored = records, index, comps, scored
        self.place, self.idkey = place, idkey
        self.merges = 0
        self.review: list[tuple[float, int, int, int]] = []  # (score, i, j, scored pair or -1)

    def _union(self, i: int, j: int, score: float, k: int, force: bool = False, decided: bool = False) -> None:
        typo = k >= 0 and self.scored.levels[k, _LOCATION] == _TYPO
        # a phone or website of the hotel's own with its name identifies it, whatever number of
        # its street each source gives
        force = force or (k >= 0 and self.scored.identified[k] == Identified.MATCH)
        merged = self.comps.union(i, j, force=force, typo=typo, decided=decided)
        if merged:
            self.merges += 1
        elif merged is False:
            self.review.append((score, i, j, k))

    def run(self, merge_threshold: float, review_threshold: float, must_link: list[tuple[int, int]]) -> Resolution:
        for i, j in must_link:
            self._union(i, j, 1.0, -1, force=True, decided=True)
        # Same place id / same source id: definitive, chained without pairwise comparison.
        for keys in (self.place, self.idkey):
            for members in groups(keys).values():
                for other in members[1:]:
                    self._union(members[0], other, 1.0, -1, force=True)
        sc = self.scored
        both_ids = (np.asarray(self.place, dtype=object)[sc.i] != "") & (np.asarray(self.place, dtype=object)[sc.j] != "")
        # a phone or website of the hotel's own, or its very address, with its name: one hotel
        identified = (sc.identified == Identified.MATCH) & ~both_ids
        value = np.where(identified, identified_certainty(sc.probability), sc.probability)
        vetoed = ((sc.veto != 0) & ~identified) | both_ids | (sc.identified == Identified.APART)
        merge = np.flatnonzero(value >= merge_threshold)
        # A vetoed pair is worth a person's look only when a phone or website says "same": a
        # strong match contradicted. Name and town alike in two states is just a common name.
        strong = (sc.levels[:, _PHONE] == 2) | (sc.levels[:, _WEBSITE] == 2) | both_ids
        for k in merge[vetoed[merge] & strong[merge]]:
            self.review.append((float(value[k]), int(sc.i[k]), int(sc.j[k]), int(k)))
        band = np.flatnonzero((value >= review_threshold) & (value < merge_threshold) & ~vetoed)
        apart = np.flatnonzero((sc.identified == Identified.APART) & (value < merge_threshold))
        self.review.extend((float(value[k]), int(sc.i[k]), int(sc.j[k]), int(k)) for k in (*band, *apart))
        good = merge[~vetoed[merge]]
        for k in sorted(good, key=lambda k: (-value[k], sc.i[k], sc.j[k])):
            self._union(int(sc.i[k]), int(sc.j[k]), float(value[k]), int(k))
        return self._result()

    def _review_pairs(self) -> tuple[list[tuple[int, int, float]], dict[tuple[int, int], dict]]:
        best: dict[tuple[int, int], tuple[float, int, int, int]] = {}
        find = self.comps.find
        for value, i, j, k in self.review:
            ri, rj = find(i), find(j)
            if ri == rj or self.comps.kept_apart(ri, rj):
                continue
            key = (ri, rj) if ri < rj else (rj, ri)
            prev = best.get(key)
            if prev is None or (-value, i, j) < (-prev[0], prev[1], prev[2]):
                best[key] = (value, i, j, k)
        pairs = sorted(((i, j, s) for s, i, j, _ in best.values()), key=lambda p: (-p[2], p[0], p[1]))
        why = {(i, j): (self.scored.explain(k) if k >= 0 else {"place_id": "same id, refused by a guard"})
               for _, i, j, k in best.values()}
        return pairs, why

    def _result(self) -> Resolution:
        n = self.index.n
        review_pairs, why = self._review_pairs()
        entity_of = [0] * n
        root_entity: dict[int, int] = {}
        members_of: list[list[int]] = []
        for i in range(n):
            r = self.comps.find(i)
            e = root_entity.get(r)
            if e is None:
                e = root_entity[r] = len(members_of)
                members_of.append([])
            entity_of[i] = e
            members_of[e].append(i)
        entities = [Entity(members, _ids(self.records, members)) for members in members_of]
        stats = dict(self.index.stats)
        stats.update(records=n, entities=len(entities), merges=self.merges, compared_pairs=len(self.scored),
                     review_pairs=len(review_pairs))
        return Resolution(entity_of=entity_of, review_pairs=review_pairs, merges=self.merges,
                          entities=entities, stats=stats, explanations=why)


def _ids(records: Sequence[SourceRecord], members: list[int]) -> dict[str, list[str]]:
    ids: dict[str, list[str]] = {}
    for i in members:
        rec = records[i]
        if rec.external_id:
            lst = ids.setdefault(rec.source, [])
            if rec.external_id not in lst:
                lst.append(rec.external_id)
    return ids


def score_pair(a: SourceRecord, b: SourceRecord, *, max_distance_km: float = 5.0) -> PairScore:
    """The score of two records on their own (the engine's prior weights, built-in brand domains
    and toll-free numbers only), for explanations and tests."""
    place, idkey = _place_ids([a, b])
    if (place[0] and place[0] == place[1]) or (idkey[0] and idkey[0] == idkey[1]):
        return PairScore(1.0, ("place_id",))
    index = PlaceIndex([_place(a), _place(b)])
    scored = score_pairs(index, np.array([0]), np.array([1]), max_distance_km=max_distance_km)
    why = scored.explain(0)
    signals = tuple(f for f, v in why.items() if isinstance(v, dict) and v["weight"] > 0)
    veto = why.get("veto") or ("place_id" if place[0] and place[1] else None)
    value = float(scored.probability[0])
    if scored.identified[0] == Identified.MATCH and not (place[0] and place[1]):
        value = float(identified_certainty(scored.probability)[0])
    return PairScore(value, signals, veto, why)

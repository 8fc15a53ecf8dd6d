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

Hotel rules on top (``core.entity_stages``, each merge recorded with its ``MergeStage``): the same
Google place id (or the same source and external id) is one hotel whatever the fields say, and so
is the same booking engine with the same client id (stage 2); the same normalised name, town and
engine is one hotel when nothing among the records says two (stage 3). Two different place ids, or
two client ids at one engine, never merge without a person, who is asked when an id or something of
the hotel's own (phone, website) says one; records booking at two engines merge only on such
evidence. ``score >= merge_threshold`` merges, ``review_threshold <= score < merge_threshold`` goes
to review, as does a vetoed pair over the merge threshold. Candidate merges are applied strongest first to a union-find that
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

from sadie_pipeline.core.entity_stages import (
    MergeStage,
    client_key,
    engine_key,
    name_city_engine_key,
    stage3_eligible,
)
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
    "MergeStage",
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
    ``PLACE_ID_SOURCES`` the ``external_id`` is the place id. ``engine`` and ``client_id``: the
    booking engine (catalogue name) and the property's id at it, from an engine's client page or
    from detection on the hotel's website."""

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
    engine: str | None = None
    client_id: str | None = None


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
    merged: list[tuple[int, int, MergeStage]] = field(default_factory=list)  # each union, with its stage
    by_stage: dict[str, int] = field(default_factory=dict)  # MergeStage value -> unions


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
    def __init__(self, index: PlaceIndex, place: list[str], cannot_link: Sequence[tuple[int, int]] = (),
                 clients: Sequence[dict[str, str] | None] = ()):
        n = index.n
        self.parent = list(range(n))
        self.size = [1] * n
        self.place = list(place)
        self.place_of = place  # each record's own
        # root -> engine -> client id of its records (None: none known)
        self.clients: list[dict[str, str] | None] = list(clients) or [None] * n
        self.streets: list[dict[str, str] | None] = [
            {index.street[i]: index.num[i]} if index.num[i] and index.street[i] else None for i in range(n)]
        # root -> records that may never join it (people's decisions)
        self.quiet = False  # the last refusal needs no person (see union)
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
        self.quiet = False
        pi, pj = self.place[ri], self.place[rj]
        if (pi and pj and pi != pj and not decided) or self.kept_apart(ri, rj):
            # two place ids that neither record carries (an engine's page joined to each hotel),
            # on the fields' word alone: two Google places, nobody asked
            self.quiet = not force and self.place_of[i] != pi and self.place_of[j] != pj
            return False
        # Two client ids at one engine: two hotels; booking at two engines with nothing of the
        # hotel's own (phone, website, id) saying one: two hotels. A person is asked only when
        # something of the hotel's own says one (`force`).
        if not decided and self.clients_apart(ri, rj, force):
            self.quiet = not force
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
        if self.clients[rj]:
            self.clients[ri] = {**self.clients[rj], **(self.clients[ri] or {})}
        self.clients[rj] = None
        if rj in self.apart:
            self.apart[ri] |= self.apart.pop(rj)
        return True

    def clients_apart(self, ri: int, rj: int, force: bool) -> bool:
        ci, cj = self.clients[ri], self.clients[rj]
        return bool(ci and cj) and (any(ci.get(e, c) != c for e, c in cj.items())
                                    or (not force and not ci.keys() & cj.keys()))

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
        comps = _Components(index, place, list(cannot_link), _clients(records))
        scored = score(index, max_distance_km=max_distance_km)
        return _Resolver(records, index, comps, scored, place, idkey).run(
            merge_threshold, review_threshold, list(must_link))


def _brand_site(website: str | None, identifying: str) -> bool:
    """A website on a brand's (or shared) domain: the engine keeps only its property URL, or nothing."""
    parts = website_parts(website) if website else None
    return parts is not None and identifying != parts[0]


def _clients(records: Sequence[SourceRecord]) -> list[dict[str, str] | None]:
    """Each record's engine -> client id (None when it knows no client id)."""
    return [{engine_key(r.engine): r.client_id.strip().lower()} if client_key(r.engine, r.client_id) else None
            for r in records]


_LOCATION, _PHONE, _WEBSITE = FIELDS.index("location"), FIELDS.index("phone"), FIELDS.index("website")
_TYPO = LEVELS["location"].index("same_address_typo") + 1


class _Resolver:
    def __init__(self, records: Sequence[SourceRecord], index: PlaceIndex, comps: _Components, scored: Scored,
                 place: list[str], idkey: list[str]):
        self.records, self.index, self.comps, self.scored = records, index, comps, scored
        self.place, self.idkey = place, idkey
        self.merged: list[tuple[int, int, MergeStage]] = []
        self.review: list[tuple[float, int, int, int]] = []  # (score, i, j, scored pair or -1)
        self.notes: dict[tuple[int, int], dict] = {}  # why an exact stage's refused pair waits (k = -1)

    @property
    def merges(self) -> int:
        return len(self.merged)

    def _union(self, i: int, j: int, score: float, k: int, force: bool = False, decided: bool = False,
               stage: MergeStage = MergeStage.PLACE_ENGINE) -> None:
        typo = k >= 0 and self.scored.levels[k, _LOCATION] == _TYPO
        # a phone or website of the hotel's own with its name identifies it, whatever number of
        # its street each source gives
        force = force or (k >= 0 and self.scored.identified[k] == Identified.MATCH)
        merged = self.comps.union(i, j, force=force, typo=typo, decided=decided)
        if merged:
            self.merged.append((i, j, stage))
        elif merged is False and not self.comps.quiet:
            self.review.append((score, i, j, k))
            if k < 0:
                self.notes.setdefault((min(i, j), max(i, j)), self._why_refused(i, j, stage))

    def _why_refused(self, i: int, j: int, stage: MergeStage) -> dict:
        a, b = self.records[i], self.records[j]
        if stage == MergeStage.CLIENT_ID:
            said = f"the same engine and client id ({a.engine} {a.client_id})"
        elif stage == MergeStage.NAME_CITY_ENGINE:
            said = f"the same name, town and engine ({a.engine})"
        else:
            said = "the same id"
        place = self.comps.place
        why = "two Google place ids" if place[self.comps.find(i)] and place[self.comps.find(j)] else \
            "two client ids at one engine or two house numbers on one street"
        return {"stage": str(stage), "review": f"{said} as {b.source} {b.external_id}, but {why}"}

    def _exact_stages(self, must_link: list[tuple[int, int]]) -> None:
        """People's decisions, then the stages that need no score: same place id, same source id and
        same engine + client id are definitive, chained without pairwise comparison (refusing two
        place ids); same name + town + engine when nothing among the records says two."""
        for i, j in must_link:
            self._union(i, j, 1.0, -1, force=True, decided=True, stage=MergeStage.DECISION)
        clients = [client_key(r.engine, r.client_id) if r.client_id else "" for r in self.records]
        for keys, stage in ((self.place, MergeStage.PLACE_ID), (self.idkey, MergeStage.SOURCE_ID),
                            (clients, MergeStage.CLIENT_ID)):
            for members in groups(keys).values():
                for other in members[1:]:
                    self._union(members[0], other, 1.0, -1, force=True, stage=stage)
        index, comps = self.index, self.comps
        keys = [name_city_engine_key(index.core[i], index.city[i], r.engine) if r.engine else ""
                for i, r in enumerate(self.records)]
        for members in groups(keys).values():
            roots = [comps.find(i) for i in members]
            # a chain's name: at two addresses of the town, or on a brand's (or shared) website
            chains = [bool(index.chain[i]) or _brand_site(self.records[i].website, index.web[i]) for i in members]
            if len(set(roots)) > 1 and stage3_eligible([comps.clients[r] for r in roots],
                                                       [comps.place[r] for r in roots], chains):
                for other in members[1:]:
                    self._union(members[0], other, 1.0, -1, stage=MergeStage.NAME_CITY_ENGINE)

    def run(self, merge_threshold: float, review_threshold: float, must_link: list[tuple[int, int]]) -> Resolution:
        self._exact_stages(must_link)
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
            if k >= 0 and self.scored.identified[k] != Identified.MATCH and self.comps.clients_apart(ri, rj, False):
                continue  # their booking engines' ids say two hotels; the fields alone do not outweigh that
            key = (ri, rj) if ri < rj else (rj, ri)
            prev = best.get(key)
            if prev is None or (-value, i, j) < (-prev[0], prev[1], prev[2]):
                best[key] = (value, i, j, k)
        pairs = sorted(((i, j, s) for s, i, j, _ in best.values()), key=lambda p: (-p[2], p[0], p[1]))
        why = {(i, j): (self.scored.explain(k) if k >= 0 else
                        self.notes.get((i, j), {"place_id": "same id, refused by a guard"}))
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
        by_stage = {str(s): 0 for s in MergeStage}
        for _, _, stage in self.merged:
            by_stage[stage] += 1
        return Resolution(entity_of=entity_of, review_pairs=review_pairs, merges=self.merges,
                          entities=entities, stats=stats, explanations=why, merged=self.merged, by_stage=by_stage)


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
    client = client_key(a.engine, a.client_id)
    if client and client == client_key(b.engine, b.client_id) and not (place[0] and place[1]):
        return PairScore(1.0, ("client_id",))
    index = PlaceIndex([_place(a), _place(b)])
    scored = score_pairs(index, np.array([0]), np.array([1]), max_distance_km=max_distance_km)
    why = scored.explain(0)
    signals = tuple(f for f, v in why.items() if isinstance(v, dict) and v["weight"] > 0)
    veto = why.get("veto") or ("place_id" if place[0] and place[1] else None)
    value = float(scored.probability[0])
    if scored.identified[0] == Identified.MATCH and not (place[0] and place[1]):
        value = float(identified_certainty(scored.probability)[0])
    return PairScore(value, signals, veto, why)

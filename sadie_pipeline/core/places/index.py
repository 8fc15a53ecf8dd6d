"""The comparison keys of a set of places (struct of arrays) and the candidate pairs their
blocking keys give: phone, identifying website, street plus house number, city plus name, the two
rarest name words (by state) and a geographic cell. No key is required: a pair that shares any
one is compared, so a city label that differs between sources no longer hides a duplicate."""

from __future__ import annotations

import math
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

import numpy as np

from sadie_pipeline.core.places.normal import (
    address_parts,
    city_key,
    name_core,
    one_typo,
    phone_key,
    short_form,
    state_key,
    website_parts,
    zip_key,
)
from sadie_pipeline.core.places.tables import BRAND_DOMAINS, NAME_STOP, TOLL_FREE

#: More distinct records than one place plausibly has across sources.
MAX_RECORDS_PER_PLACE = 8
# Grid cell of about 300 m, and the same grid shifted by half a cell: two places less than half a
# cell apart share a cell in one of the four combinations.
_CELL = 0.003
#: Largest block a key may give: past it the key is a brand's or a chain's and identifies nothing.
MAX_BLOCK = 64
# Largest block of one name word: past it the word is common (measured on the hotel benchmark, a
# cap of 64 compared 1.5 million pairs to find 181 duplicates no other key found; 16: 0.4 million, 110).
NAME_BLOCK = 16


class Place(NamedTuple):
    name: str | None
    address: str | None
    city: str | None
    state: str | None = None
    zip: str | None = None
    phone: str | None = None
    website: str | None = None
    lat: float | None = None
    lng: float | None = None


class PlaceIndex:
    """Keys of every place, computed once. ``shared_min_locations``: a phone or website seen at so
    many distinct locations (or cities) is a brand's or a central line and identifies nothing."""

    def __init__(self, places: Sequence[Place], *, max_block: int = MAX_BLOCK, shared_min_locations: int = 3,
                 keys_only: bool = False):
        """keys_only: what block_keys needs, without the comparison forms (a lookup or a keying)."""
        self.n = len(places)
        self.max_block = max_block
        self.shared_min = shared_min_locations
        self.city = [city_key(p.city) for p in places]
        self.state = [state_key(p.state) for p in places]
        self.zip = [zip_key(p.zip) for p in places]
        self.core = [name_core(p.name, c) for p, c in zip(places, self.city)]
        self.full = [name_core(p.name) for p in places]  # the town's name kept
        # each name also cut short ("arts deli") and bare (no generic words, no spaces)
        if not keys_only:
            full_forms = _forms(self.full)
            # most names do not hold their town's name: their core's forms are the full name's
            self.forms = {"full": full_forms, "core": _forms(self.core, self.full, full_forms)}
        parts = [address_parts(p.address) for p in places]
        self.num = [a for a, _ in parts]
        self.street = [b for _, b in parts]
        self.phone = [phone_key(p.phone) for p in places]
        self.lat = np.array([_coord(p.lat, p.lng)[0] for p in places], dtype=float)
        self.lng = np.array([_coord(p.lat, p.lng)[1] for p in places], dtype=float)
        self.stats: Counter[str] = Counter()
        self.web = self._identifying_websites([website_parts(p.website) for p in places])
        self._blank_shared_phones()
        self.chain = self._chains() if not keys_only else np.zeros(self.n, dtype=bool)

    # -- what identifies nothing ------------------------------------------------------------------

    def _shared(self, members: list[int], min_locations: int | None = None) -> bool:
        if len(members) < 2:
            return False
        if len(members) > self.max_block:
            return True
        need = min_locations or self.shared_min
        cities = {self.city[i] for i in members if self.city[i]}
        locations = {(self.city[i], self.num[i], self.street[i]) for i in members if self.num[i]}
        return len(cities) >= need or len(locations) >= need

    def _identifying_websites(self, sites: list[tuple[str, str] | None]) -> list[str]:
        """The domain, or for a brand's domain (built in, or seen at many locations) the
        property URL, when that itself is not shared."""
        domains = [s[0] if s else "" for s in sites]
        by_domain = groups(domains)
        shared = {d for d, m in by_domain.items() if d in BRAND_DOMAINS or self._shared(m)}
        props = [s[1] if s and s[0] in shared else "" for s in sites]
        shared_props = {p for p, m in groups(props).items() if self._shared(m)}
        self.stats["shared_domains"] = len(shared)
        self.stats["shared_property_urls"] = len(shared_props)
        return [props[i] if d in shared and props[i] not in shared_props else ("" if d in shared else d)
                for i, d in enumerate(domains)]

    def _blank_shared_phones(self) -> None:
        by_phone = groups(self.phone)
        shared = [p for p, m in by_phone.items()
                  if self._shared(m, 2 if p.startswith("+1") and p[2:5] in TOLL_FREE else None)]
        self.stats["shared_phones"] = len(shared)
        for p in shared:
            for i in by_phone[p]:
                self.phone[i] = ""

    def _chains(self) -> np.ndarray:
        """Names seen at two addresses of one town (or a postal code): agreeing on such a name
        says little there. Across towns it does not matter: the location tells them apart."""
        chain = np.zeros(self.n, dtype=bool)
        for keys in ([f"{c}|{n}" if c and n else "" for c, n in zip(self.city, self.core)],
                     [f"{z}|{n}" if z and n else "" for z, n in zip(self.zip, self.core)]):
            for members in groups(keys).values():
                if len(members) > 1 and _two_addresses({(self.num[i], self.street[i]) for i in members if self.street[i]}):
                    chain[members] = True
        self.stats["chain_records"] = int(chain.sum())
        return chain

    # -- blocking ---------------------------------------------------------------------------------

    def block_keys(self, i: int, rare: Sequence[str] = (), cells=None) -> list[str]:
        """The keys record i is looked up by; `rare` are its rarest name words; `cells` its map
        cells (default geo_keys: four shifted grids)."""
        keys = []
        if self.phone[i]:
            keys.append("p:" + self.phone[i])
        if self.web[i]:
            keys.append("w:" + self.web[i])
        if self.num[i] and self.street[i]:
            keys.append(f"a:{self.num[i]} {self.street[i]}")
        if self.city[i] and self.core[i]:
            keys.append(f"c:{self.city[i]}|{self.core[i]}")
        keys.extend(f"n:{w}|{self.state[i]}" for w in rare)
        keys.extend((cells or geo_keys)(self.lat[i], self.lng[i]))
        return keys

    def name_words(self, i: int) -> list[str]:
        return sorted({t[:6] for t in self.core[i].split() if len(t) >= 3 and t not in NAME_STOP and not t.isdigit()})

    def rare_words(self, limit: int = 2) -> list[list[str]]:
        words = [self.name_words(i) for i in range(self.n)]
        freq = Counter((self.state[i], w) for i in range(self.n) for w in words[i])
        return [sorted(ws, key=lambda w, s=self.state[i]: (freq[(s, w)], w))[:limit] for i, ws in enumerate(words)]

    def candidate_pairs(self, split: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(i, j) with i < j sharing a key in a block of at most max_block. With `split`, only
        pairs of a record below it and one at or above it (records against candidates).
        Keys are grouped by their hash in arrays, not in a dict of strings: a tenth of the memory,
        and two keys of one hash (never seen) would only add a pair to score."""
        hashes, members, word = array("q"), array("q"), array("b")
        for i, rare in enumerate(self.rare_words()):
            for key in self.block_keys(i, rare):
                hashes.append(hash(key))
                members.append(i)
                word.append(key[0] == "n")
        h, m, w = (np.frombuffer(a, dtype=t) for a, t in ((hashes, np.int64), (members, np.int64), (word, np.int8)))
        order = np.lexsort((m, h))
        h, m, w = h[order], m[order], w[order]
        starts = np.flatnonzero(np.r_[True, h[1:] != h[:-1]]) if len(h) else np.zeros(0, dtype=np.int64)
        sizes = np.diff(np.r_[starts, len(h)])
        # a name word is a key only while it is rare: most of its pairs are other places
        cap = np.where(w[starts] == 1, NAME_BLOCK, self.max_block)
        self.stats["skipped_blocks"] += int((sizes > cap).sum())
        take = (sizes >= 2) & (sizes <= cap)
        return self._pairs(m, starts[take], sizes[take], split)

    def _pairs(self, m: np.ndarray, starts: np.ndarray, sizes: np.ndarray,
               split: int | None) -> tuple[np.ndarray, np.ndarray]:
        n = self.n
        codes: list[int] = []
        for s, size in zip(starts.tolist(), sizes.tolist()):
            block = m[s:s + size].tolist()  # ascending: each pair comes out as i < j
            if split is None:
                codes.extend(a * n + b for a, b in combinations(block, 2) if a != b)
            else:
                right = [b for b in block if b >= split]
                codes.extend(a * n + b for a in block if a < split for b in right)
        if not codes:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        pairs = np.unique(np.fromiter(codes, dtype=np.int64, count=len(codes)))
        return pairs // n, pairs % n


def _two_addresses(places: set[tuple[str, str]]) -> bool:
    """Two really different full addresses: numbers on other streets, or numbers more than a
    typo apart on one street. An address without a number places nothing."""
    places = sorted(p for p in places if p[0])
    return any(s1 != s2 or not one_typo(n1, n2) for k, (n1, s1) in enumerate(places) for n2, s2 in places[k + 1:])


def _forms(names: list[str], like: list[str] | None = None,
           known: tuple[list[str], list[str], list[str]] | None = None) -> tuple[list[str], list[str], list[str]]:
    """The names, cut short, and bare; where a name equals `like`'s, `known`'s forms are taken."""
    if like is None or known is None:
        return names, [short_form(n) for n in names], [_bare(n) for n in names]
    return (names, [ks if n == ln else short_form(n) for n, ln, ks in zip(names, like, known[1])],
            [kb if n == ln else _bare(n) for n, ln, kb in zip(names, like, known[2])])


def _bare(name: str) -> str:
    return "".join(t for t in name.split() if t not in NAME_STOP) or name.replace(" ", "")


def geo_keys(lat: float, lng: float) -> list[str]:
    if math.isnan(lat) or math.isnan(lng):
        return []
    y, x = lat / _CELL, lng / _CELL
    return [f"g:{a}:{math.floor(y + dy)},{math.floor(x + dx)}"
            for a, (dy, dx) in enumerate(((0, 0), (0.5, 0), (0, 0.5), (0.5, 0.5)))]


def stored_cell(lat: float, lng: float) -> list[str]:
    """The one cell a stored listing is keyed by (grid 0 of geo_keys)."""
    if math.isnan(lat) or math.isnan(lng):
        return []
    return [f"g:0:{math.floor(lat / _CELL)},{math.floor(lng / _CELL)}"]


def nearby_cells(lat: float, lng: float) -> list[str]:
    """The cell of a point and its eight neighbours in grid 0: a stored listing within a cell of
    it is found by one key, where four shifted grids would store four per listing."""
    if math.isnan(lat) or math.isnan(lng):
        return []
    y, x = math.floor(lat / _CELL), math.floor(lng / _CELL)
    return [f"g:0:{y + dy},{x + dx}" for dy in (-1, 0, 1) for dx in (-1, 0, 1)]


def _coord(lat: float | None, lng: float | None) -> tuple[float, float]:
    if lat is None or lng is None or (not lat and not lng):
        return math.nan, math.nan
    return float(lat), float(lng)


def groups(keys: Iterable[str]) -> dict[str, list[int]]:
    """Positions of each non-empty key."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i, k in enumerate(keys):
        if k:
            groups[k].append(i)
    return groups

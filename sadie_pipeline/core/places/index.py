"""The comparison keys of a set of places (struct of arrays) and the candidate pairs their
blocking keys give: phone, identifying website, street plus house number, city plus name, the two
rarest name words (by state), the house number with each of them, and a geographic cell. No key is
required: a pair that shares any one is compared, so a city label, a street written otherwise or a
mistyped word in one source never hides a duplicate. What identifies nothing (brands' phones and
domains, switchboards) and which names are chains is decided here from all the records at once."""

from __future__ import annotations

import math
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

import numpy as np
from rapidfuzz.distance import OSA

from sadie_pipeline.core.places.form import Place, PlaceForm, name_words, place_form
from sadie_pipeline.core.places.normal import compact, contained, typo_close
from sadie_pipeline.core.places.streets import number_close, one_street
from sadie_pipeline.core.places.tables import BRAND_DOMAINS, TOLL_FREE

#: More distinct records than one place plausibly has across sources.
MAX_RECORDS_PER_PLACE = 8
# Grid cell of about 300 m, and the same grid shifted by half a cell: two places less than half a
# cell apart share a cell in one of the four combinations.
_CELL = 0.003
_SHIFTS = ((0, 0), (0.5, 0), (0, 0.5), (0.5, 0.5))
# A cell's row and column in 21 bits each (a cell index is below 2**20 in size anywhere on Earth),
# the grid above them: a cell's number in candidate_pairs, unlike any other cell's.
_MASK = (1 << 21) - 1
#: Largest block a key may give: past it the key is a brand's or a chain's and identifies nothing.
MAX_BLOCK = 64
# Largest block of one name word: past it the word is common (measured on the hotel benchmark, a
# cap of 64 compared 1.5 million pairs to find 181 duplicates no other key found; 16: 0.4 million, 110).
NAME_BLOCK = 16
# Candidate pairs made at a time from blocks of one size (two int64 arrays of them).
_PAIRS_AT_ONCE = 100_000


class PlaceIndex:
    """Keys of every place, computed once. ``shared_min_locations``: a phone or website seen at so
    many distinct locations (or cities) is a brand's or a central line and identifies nothing."""

    def __init__(self, places: Sequence[Place], *, forms: Sequence[PlaceForm | None] | None = None,
                 max_block: int = MAX_BLOCK, shared_min_locations: int = 3, keys_only: bool = False):
        """forms: the places' stored forms (place_form), computed where None or not given (a place
        with its form is read for its lat and lng only).
        keys_only: what block_keys needs, without chain detection (a lookup)."""
        self.n = len(places)
        self.max_block = max_block
        self.shared_min = shared_min_locations
        if forms is None:
            forms = [place_form(p) for p in places]
        elif not all(forms):
            forms = [f or place_form(p) for p, f in zip(places, forms)]
        # object arrays from the start, one column at a time: lists beside them would double the peak
        columns = [np.array(c, dtype=object) for c in zip(*forms)] if forms else \
            [np.zeros(0, dtype=object) for _ in PlaceForm._fields]
        (self.city, self.state, self.zip, full, self.core, full_short, full_bare, core_short, core_bare,
         self.num, self.street, self.street_form, self.phone, domains, sites) = columns
        self.full = full  # the town's name kept
        # each name also cut short ("arts deli") and bare (no generic words, no spaces)
        self.forms = {"full": (full, full_short, full_bare), "core": (self.core, core_short, core_bare)}
        self.lat = np.array([_coord(p.lat, p.lng)[0] for p in places], dtype=float)
        self.lng = np.array([_coord(p.lat, p.lng)[1] for p in places], dtype=float)
        self.stats: Counter[str] = Counter()
        # compare takes its pairs' values from the columns chunk by chunk: object arrays, like the rest
        self.web = np.array(self._identifying_websites(domains, sites), dtype=object)
        self._blank_shared_phones()
        self.chain = self._chains() if not keys_only else np.zeros(self.n, dtype=bool)

    # -- what identifies nothing ------------------------------------------------------------------

    def _shared(self, members: list[int], min_locations: int | None = None) -> bool:
        if len(members) < 2:
            return False
        if len(members) > self.max_block:
            return True
        need = min_locations or self.shared_min
        return self._places(members, need) >= need or self._names(members, need) >= need

    def _names(self, members: list[int], enough: int) -> int:
        """How many differently named places the members are (counted up to `enough`): a phone that
        answers for three of them is a switchboard (a brand's, a food hall's), whatever their
        addresses say. A name mistyped or inside another is the same."""
        seen: list[str] = []
        for i in members:
            name = self.full[i]
            if name and not any(name == other or contained(name, other) or typo_close(
                    name, other, OSA.distance(compact(name), compact(other), score_cutoff=3)) for other in seen):
                seen.append(name)
                if len(seen) >= enough:
                    break
        return len(seen)

    def _places(self, members: list[int], enough: int) -> int:
        """How many places the members stand at (counted up to `enough`): their addresses (one door:
        _one_door), then the towns of those without an address. Not their towns' labels alone:
        "Midtown" and "Atlanta" at one address are one place."""
        seen: list[int] = []
        towns = set()
        for i in members:
            if not self.num[i] or not self.street_form[i]:
                if self.city[i]:
                    towns.add(self.city[i])
                continue
            if not any(self._one_door(i, k) for k in seen):
                seen.append(i)
                if len(seen) >= enough:
                    break
        return len(seen) + len(towns - {self.city[i] for i in members if self.num[i] and self.street_form[i]})

    def _one_door(self, i: int, k: int) -> bool:
        """Whether two records stand at one address: the very number on one street, or a number a
        typo apart under one name ("8003" / "9003 Riverside St", The Painted Terrace Hotel). A
        brand's hotels at 1000, 1100 and 1200 International Dr are three."""
        if not one_street(self.street_form[i], self.street_form[k]):
            return False
        if self.num[i] == self.num[k]:
            return True
        a, b = self.full[i], self.full[k]
        return number_close(self.num[i], self.num[k]) and (a == b or compact(a) == compact(b))

    def _identifying_websites(self, domains: list[str], sites: list[str]) -> list[str]:
        """The domain, or for a brand's domain (built in, or seen at many locations) the
        property URL, when that itself is not shared."""
        by_domain = groups(domains)
        shared = {d for d, m in by_domain.items() if d in BRAND_DOMAINS or self._shared(m)}
        props = [s if d in shared else "" for d, s in zip(domains, sites)]
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
        says little there. Across towns it does not matter: the location tells them apart. A chain
        is many outlets of one brand, not one place written two ways: when a phone or website of
        its own is found at both addresses, the name is one place's (moved, or its address
        written otherwise)."""
        chain = np.zeros(self.n, dtype=bool)
        for keys in ([f"{c}|{n}" if c and n else "" for c, n in zip(self.city, self.core)],
                     [f"{z}|{n}" if z and n else "" for z, n in zip(self.zip, self.core)]):
            for members in groups(keys).values():
                if len(members) > 1 and _two_addresses(self._addresses(members)) and not self._one_place(members):
                    chain[members] = True
        self.stats["chain_records"] = int(chain.sum())
        return chain

    def _addresses(self, members: Iterable[int]) -> set[tuple[str, str]]:
        return {(self.num[i], self.street_form[i]) for i in members if self.street_form[i]}

    def _one_place(self, members: list[int]) -> bool:
        """Whether one phone or website of the members' own stands at two of their addresses."""
        for column in (self.phone, self.web):
            holders: dict[str, list[int]] = defaultdict(list)
            for i in members:
                if column[i]:
                    holders[column[i]].append(i)
            if any(len(h) > 1 and _two_addresses(self._addresses(h)) for h in holders.values()):
                return True
        return False

    # -- blocking ---------------------------------------------------------------------------------

    def block_keys(self, i: int, rare: Sequence[str], cells: Iterable[str]) -> list[str]:
        """The keys record i is looked up by; `rare` are its rarest name words, `cells` its map
        cells' keys."""
        return _keys(self.phone[i], (self.web[i],), self.num[i], self.street[i], self.city[i], self.core[i],
                     self.state[i], rare, cells)

    def rare_words(self, limit: int = 2) -> list[list[str]]:
        """Each record's `limit` name words least frequent in its state (then first alphabetically)."""
        words = [name_words(c) for c in self.full]
        mixed, located, _ = self._word_hashes(words)
        flat = [w for ws in words for w in ws]
        rare: list[list[str]] = [[] for _ in range(self.n)]
        for k in _rarest(mixed, located, limit).tolist():
            rare[located[k]].append(flat[k])
        return rare

    def _word_hashes(self, names: Iterable[list[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every record's name words (name_words: alphabetical; records in order) as the hashes of
        word and state, with the record of each and the word's own hash. _key_hashes passes a
        generator: the words are hashed as they are made, not kept as 250,000 strings."""
        hashes, counts = array("q"), array("q")
        for words in names:
            hashes.extend(map(hash, words))
            counts.append(len(words))
        located = np.repeat(np.arange(self.n), np.frombuffer(counts, dtype=np.int64))
        words = np.frombuffer(hashes, dtype=np.int64)
        return _mixed(4, [words, _hashes(self.state)[located]]), located, words

    def candidate_pairs(self, split: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(i, j) with i < j sharing a key in a block of at most max_block. With `split`, only
        pairs of a record below it and one at or above it (records against candidates).
        Keys are grouped by their hash in arrays, not in a dict of strings: a tenth of the memory,
        and two keys of one hash (never seen) would only add a pair to score."""
        h, m, w = self._key_hashes()
        order = np.lexsort((m, h))
        h = h[order]  # one array at a time: 100,000 records have a million keys
        m = m[order]
        w = w[order]
        del order
        starts = np.flatnonzero(np.r_[True, h[1:] != h[:-1]]) if len(h) else np.zeros(0, dtype=np.int64)
        sizes = np.diff(np.r_[starts, len(h)])
        # a name word is a key only while it is rare: most of its pairs are other places
        cap = np.where(w[starts] == 1, NAME_BLOCK, self.max_block)
        self.stats["skipped_blocks"] += int((sizes > cap).sum())
        take = (sizes >= 2) & (sizes <= cap)
        del h, w, cap
        return self._pairs(m, starts[take], sizes[take], split)

    def _key_hashes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(hash, record, is a name word) of every key, the keys of one kind at a time: a key's hash
        mixes the hashes of its fields' strings (cached on them): no key string is made (candidate
        pairs of 90,000 records in 0.3 s, 0.9 s with them). The same keys as block_keys."""
        # records as int32 from the start, and each column's parts let go once joined: the keys of
        # 90,000 records are a million, and the parts with the joined arrays were the stage's peak
        hashes, records = [], []
        for kind, columns in enumerate(((self.phone,), (self.web,), (self.num, self.street), (self.city, self.core))):
            present = np.flatnonzero(np.logical_and.reduce([c != "" for c in columns]))
            hashes.append(_mixed(kind, [_hashes(c[present]) for c in columns]))
            records.append(present.astype(np.int32))
        word = [np.zeros(sum(map(len, hashes)), dtype=np.int8)]
        mixed, located, words = self._word_hashes(name_words(c) for c in self.full)
        rare = _rarest(mixed, located, 2)
        hashes.append(mixed[rare])
        located, words = located[rare], words[rare]
        del mixed, rare
        records.append(located.astype(np.int32))
        word.append(np.ones(len(located), dtype=np.int8))
        # the house number with a rare name word: a street written otherwise or mistyped, another
        # town's label, still meet
        numbered = np.flatnonzero(self.num[located] != "")
        hashes.append(_mixed(5, [_hashes(self.num[located[numbered]]), words[numbered]]))
        records.append(located[numbered].astype(np.int32))
        word.append(np.zeros(len(numbered), dtype=np.int8))
        del located, words, numbered
        cells, located = self._cell_codes()
        hashes.append(cells)
        records.append(located.astype(np.int32))
        word.append(np.zeros(len(cells), dtype=np.int8))
        del cells, located
        joined = np.concatenate(hashes)
        hashes.clear()
        return joined, np.concatenate(records), np.concatenate(word)

    def _cell_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """The map cells of every located record in four grids shifted by half a cell, as numbers
        (two places less than half a cell apart share a cell in one of them): (codes, record)."""
        located = np.flatnonzero(~np.isnan(self.lat))
        y, x = self.lat[located] / _CELL, self.lng[located] / _CELL
        codes = [(a << 42) | (_cell(y + dy) << 21) | _cell(x + dx) for a, (dy, dx) in enumerate(_SHIFTS)]
        return np.concatenate(codes), np.tile(located, len(_SHIFTS))

    def _pairs(self, m: np.ndarray, starts: np.ndarray, sizes: np.ndarray,
               split: int | None) -> tuple[np.ndarray, np.ndarray]:
        """Every pair inside each block, blocks of one size at a time as a matrix (records ascend
        along a row: each pair comes out as i < j), coded i * n + j and deduplicated."""
        n = self.n
        codes = [np.zeros(0, dtype=np.int64)]
        for size in np.unique(sizes).tolist():
            left, right = np.triu_indices(size, 1)
            firsts = starts[sizes == size]
            step = max(1, _PAIRS_AT_ONCE // len(left))  # blocks at a time: the peak of memory stays small
            for first in (firsts[k:k + step] for k in range(0, len(firsts), step)):
                block = m[first[:, None] + np.arange(size)].astype(np.int64)
                a, b = block[:, left].ravel(), block[:, right].ravel()
                keep = (a != b) if split is None else (a < split) & (b >= split)
                codes.append(a[keep] * n + b[keep])
        pairs = np.concatenate(codes)
        del codes
        pairs.sort()
        pairs = pairs[np.r_[True, pairs[1:] != pairs[:-1]]] if len(pairs) else pairs
        right = pairs % n
        pairs //= n
        return pairs, right


# The 64-bit FNV prime: a key's hash is ((kind * _MIX + field 1) * _MIX + field 2 ...), wrapping.
_MIX = 0x100000001B3


def _hashes(column: Sequence[str]) -> np.ndarray:
    return np.fromiter(map(hash, column), dtype=np.int64, count=len(column))


def _mixed(kind: int, columns: Sequence[np.ndarray]) -> np.ndarray:
    """The hash of each row's key of this kind from its fields' hashes."""
    mixed = np.full(len(columns[0]), kind, dtype=np.int64)
    for column in columns:
        mixed = mixed * _MIX + column
    return mixed


def _rarest(mixed: np.ndarray, located: np.ndarray, limit: int) -> np.ndarray:
    """Positions of each record's `limit` least frequent keys (records' keys in order, ascending)."""
    _, where, freq = np.unique(mixed, return_inverse=True, return_counts=True)
    # a stable sort by record, then frequency, keeps a record's own order among equal frequencies
    order = np.argsort(located * (len(mixed) + 1) + freq[where], kind="stable")
    first = np.searchsorted(located[order], located[order])
    keep = order[np.arange(len(order)) - first < limit]
    keep.sort()
    return keep


def _two_addresses(places: set[tuple[str, str]]) -> bool:
    """Two really different full addresses: numbers on other streets, or numbers more than a typo
    apart on one street (a street name a typo apart is one street). An address without a number
    places nothing. `places`: (number, street form)."""
    places = sorted(p for p in places if p[0])
    return any(not one_street(s1, s2) or not number_close(n1, n2)
               for k, (n1, s1) in enumerate(places) for n2, s2 in places[k + 1:])


def _keys(phone: str, websites: Iterable[str], num: str, street: str, city: str, core: str, state: str,
          words: Iterable[str], cells: Iterable[str]) -> list[str]:
    """The blocking keys of one place, as written for a lookup and for storage alike."""
    words = list(words)
    keys = ["p:" + phone] if phone else []
    keys.extend("w:" + w for w in websites if w)
    if num and street:
        keys.append(f"a:{num} {street}")
    if city and core:
        keys.append(f"c:{city}|{core}")
    keys.extend(f"n:{w}|{state}" for w in words)
    if num:
        keys.extend(f"h:{num}|{w}" for w in words)
    keys.extend(cells)
    return keys


def stored_keys(form: PlaceForm, lat: float | None, lng: float | None) -> list[str]:
    """The keys a listing is stored under, from its form alone: every name word, not only the
    rarest (which are rarest changes as listings arrive), its website's domain and property page
    (which of the two identifies depends on the lookup's records), and one map cell (a lookup asks
    its neighbours). A brand's phone or domain stored here makes a block no lookup uses."""
    domain = form.domain if form.domain not in BRAND_DOMAINS else ""
    site = form.site if form.site != domain else ""
    return _keys(form.phone, (domain, site), form.num, form.street, form.city, form.core, form.state,
                 name_words(form.full), stored_cell(*_coord(lat, lng)))


def _cell(position: np.ndarray) -> np.ndarray:
    return np.floor(position).astype(np.int64) & _MASK


def stored_cell(lat: float, lng: float) -> list[str]:
    """The one cell a stored listing is keyed by (grid 0)."""
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

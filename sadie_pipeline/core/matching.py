"""Fuzzy matching of listings within blocks (same city or same postal code), scored into a certainty.

certainty = 0.6 * name similarity + 0.3 * address agreement + 0.1 * phone agreement, halved when
both addresses carry different house numbers (two shops of one chain on one street). Address
similarity below 0.6 counts as no agreement: "40 Water St" and "40 Main St" are different places.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import attrgetter, eq, is_
from typing import NamedTuple

import numpy as np
from rapidfuzz import fuzz, process

from sadie_pipeline.core.normalize import match_key

_ABBREVIATIONS = {
    "st": "street", "str": "street", "ave": "avenue", "av": "avenue", "rd": "road", "dr": "drive",
    "blvd": "boulevard", "hwy": "highway", "ln": "lane", "ct": "court", "pl": "place", "pkwy": "parkway",
    "sq": "square", "ter": "terrace", "cres": "crescent", "n": "north", "s": "south", "e": "east",
    "w": "west", "rte": "route", "mt": "mount", "ste": "suite",
}
_HOUSE_NUMBER = re.compile(r"^\d+[a-z]?\b")
_ID = attrgetter("id")


class MatchRecord(NamedTuple):  # a tuple: built from query rows by the hundred thousand, cheaply
    id: int
    name: str | None
    address1: str | None
    city: str | None
    zip: str | None = None
    phone: str | None = None


@dataclass(frozen=True)
class Match:
    record_id: int
    candidate_id: int
    certainty: float


def name_key(name: str | None) -> str:
    key = match_key((name or "").replace("&", " and "))
    return key[4:] if key.startswith("the ") else key


def address_key(address: str | None) -> str:
    return " ".join(_ABBREVIATIONS.get(w, w) for w in match_key(address).split())


def block_keys(rec: MatchRecord) -> list[str]:
    return ([_city_block(rec.city)] if rec.city else []) + ([_zip_block(rec.zip)] if rec.zip else [])


def _city_block(city: str) -> str:
    return "city:" + match_key(city)


def _zip_block(postal: str) -> str:
    return "zip:" + _postal_key(postal)


def _postal_key(postal: str) -> str:
    return postal.replace(" ", "").upper()


def certainty(a: MatchRecord, b: MatchRecord) -> float:
    return _certainty(name_key(a.name), address_key(a.address1), a.phone, name_key(b.name), address_key(b.address1), b.phone)


def _certainty(name_a: str, addr_a: str, phone_a: str | None, name_b: str, addr_b: str, phone_b: str | None) -> float:
    return _score(fuzz.token_sort_ratio(name_a, name_b), addr_a, _house_number(addr_a), phone_a,
                  addr_b, _house_number(addr_b), phone_b)


def _house_number(address: str) -> str | None:
    m = _HOUSE_NUMBER.match(address)
    return m.group() if m else None


def _score(name_ratio: float, addr_a: str, num_a: str | None, phone_a: str | None,
           addr_b: str, num_b: str | None, phone_b: str | None) -> float:
    name = name_ratio / 100
    if addr_a and addr_b:
        address = min(1.0, max(0.0, (fuzz.ratio(addr_a, addr_b) / 100 - 0.6) / 0.4))
    else:
        address = 0.5
    phone = 0.5 if not (phone_a and phone_b) else float(phone_a == phone_b)
    score = 0.6 * name + 0.3 * address + 0.1 * phone
    if num_a and num_b and num_a != num_b:
        score /= 2
    return round(score, 4)


def _name_cut(floor: float, factor: float) -> float:
    """The name ratio below which a candidate cannot reach floor even with full address and phone
    credit, its score multiplied by factor (0.5 for another house number); the margin covers the
    rounding of scores to four places, so skipping such candidates never changes a result."""
    return ((floor - 0.0001) / factor - 0.4) / 0.6 * 100


def match_against(records: Sequence[MatchRecord], candidates: Iterable[MatchRecord], min_certainty: float,
                  workers: int = 1, parallel_from: int = 20000) -> list[Match]:
    """Best candidate for each record scoring at least min_certainty. With workers > 1 and at least
    parallel_from records and candidates together, large comparisons are scored by that many
    threads (same result; see _best)."""
    if not isinstance(candidates, (list, tuple)):
        candidates = list(candidates)
    if not records or not candidates:
        return []
    city_keys: dict[str, str] = {}
    left, right = _Side(records, city_keys), _Side(candidates, city_keys)
    parallel = workers > 1 and len(records) + len(candidates) >= parallel_from
    best = _best(left, right, min_certainty, workers if parallel else 1)
    return [best[rec.id] for rec in records if rec.id in best]


class CandidateFilter(NamedTuple):
    """What a candidate needs to be worth comparing with the records (see candidate_filter).
    Candidates are keyed as the blocks' SQL query sees them: "NUMBER CITY" with the city in lower
    case, "NUMBER POSTCODE" with the postal code as its block key has it (_postal_key)."""
    city_numbers: list[str]  # each record's number with each city spelling of its city block
    zip_numbers: list[str]  # each record's number with its postal code
    numbers: list[str]  # the records' numbers, for a candidate whose blocks these keys cannot tell
    long_address: int | None  # a candidate whose address1 has at least this many characters is kept


def candidate_filter(records: Sequence[MatchRecord], min_certainty: float) -> CandidateFilter | None:
    """When every record has a house number, which candidates match_against(records, ...) may
    compare at all: those without a number, those sharing a block and the number with a record, and
    those with a long address. Any other candidate shares its blocks only with records at another
    number; such a pair scores half, and reaches min_certainty only with an address ratio
    (_halved_ratio) that two different address keys reach only when long enough together, which a
    short candidate's is not with any record's. So leaving those candidates out changes no match.
    An ASCII address1 of n characters has a key of at most _LONGEST_EXPANSION * n characters (lower
    case and punctuation do not lengthen it, an abbreviation at most that much).

    None (every candidate of the blocks is needed) when a record has no house number, or when a
    pair at different numbers may reach min_certainty whatever its addresses."""
    ratio = _halved_ratio(min_certainty)
    if ratio == 0 or not records:
        return None
    keys = address_keys(r.address1 for r in records)
    numbers = list(map(_house_number, keys))
    if None in numbers:
        return None
    # the block of a city holds every spelling that gives its key ("St. John's", "st johns")
    spellings: dict[str, set[str]] = {}
    city_numbers: dict[str, set[str]] = {}
    zip_numbers: set[str] = set()
    for rec, number in zip(records, numbers):
        if rec.city:
            block = _city_block(rec.city)
            spellings.setdefault(block, set()).add(rec.city.lower())
            city_numbers.setdefault(block, set()).add(number)
        if rec.zip:
            zip_numbers.add(f"{number} {_postal_key(rec.zip)}")
    long_address = None
    if ratio is not None:
        # two different keys of lengths a and b reach at most 100 * (1 - 1 / (a + b)); a candidate key
        # shorter than this, with any record's key, falls short of the ratio (one to spare)
        key_length = math.floor(1 / (1 - ratio / 100)) - 1 - max(map(len, keys))
        long_address = max(0, key_length // _LONGEST_EXPANSION)
    return CandidateFilter(
        sorted(f"{n} {city}" for block, ns in city_numbers.items() for n in ns for city in spellings[block]),
        sorted(zip_numbers), sorted(set(numbers)), long_address)


# No narrowing: every listing of the blocks (FUZZY_CANDIDATES with numbers NULL).
NO_CANDIDATE_FILTER = CandidateFilter([], [], None, None)


def candidate_blocks(records: Sequence[MatchRecord]) -> tuple[list[str], list[str]]:
    """The records' blocks as the candidates' SQL query compares them: the cities in lower case,
    the postal codes as their block keys have them."""
    return (sorted({r.city.lower() for r in records if r.city}),
            sorted({_postal_key(r.zip) for r in records if r.zip}))


def _halved_ratio(min_certainty: float) -> float | None:
    """The address ratio a pair at different house numbers (its score halved) needs to reach
    min_certainty, a margin below for the rounding of scores: 0 when any such pair may reach it, None
    when none can. With full name and phone credit it needs an address credit of `needed`."""
    needed = (2 * (min_certainty - 0.0001) - 0.7) / 0.3
    if needed > 1:
        return None
    if needed <= 0:
        return 0
    ratio = 100 * (0.6 + 0.4 * needed) - 1e-6
    return None if ratio >= 100 else ratio


_LONGEST_EXPANSION = max(-(-len(full) // len(short)) for short, full in _ABBREVIATIONS.items())


def match_within(records: Sequence[MatchRecord], min_certainty: float, workers: int = 1,
                 parallel_from: int = 5000) -> list[Match]:
    """Near duplicates inside one batch: each record against the records before it, so the
    first of a group stays primary and the later ones point at it (chains resolve to the first).
    With workers > 1 and at least parallel_from records, large comparisons are scored by that many
    threads (same result; see _best)."""
    if len(records) < 2:
        return []
    parallel = workers > 1 and len(records) >= parallel_from
    best = _best(_Side(records, {}), None, min_certainty, workers if parallel else 1)
    primary: dict[int, int] = {}
    matches = []
    found = list(map(best.get, map(_ID, records)))
    for rec, m in compress(zip(records, found), found):
        root = primary.get(m.candidate_id, m.candidate_id)
        primary[rec.id] = root
        matches.append(Match(rec.id, root, m.certainty))
    return matches


def _cached(cache: dict[str, str], value: str, key_of) -> str:
    key = cache.get(value)
    if key is None:
        key = cache[value] = key_of(value)
    return key


class _Side:
    """The records of one side of a match (the records, or the candidates) grouped by block key,
    with comparison keys computed only for the positions that need them.

    blocks maps each block key (as block_keys gives them) to its positions, in order. zip_city
    maps each postal-code block key to the city block key all its records share (None when they
    do not all have one and the same city): such a block's pairs are all pairs of that city block
    too, so scoring it again would change nothing. city_keys caches the block key of each city
    string (there are far fewer cities than records); both sides of a match share it."""

    def __init__(self, records: Sequence[MatchRecord], city_keys: dict[str, str]):
        self.records = records
        blocks: dict[str, list[int]] = {}
        zip_city: dict[str, str | None] = {}
        zip_keys: dict[str, str] = {}
        for position, rec in enumerate(records):
            city_key = _cached(city_keys, rec.city, _city_block) if rec.city else None
            if city_key is not None:
                blocks.setdefault(city_key, []).append(position)
            if rec.zip:
                zip_key = _cached(zip_keys, rec.zip, _zip_block)
                blocks.setdefault(zip_key, []).append(position)
                if zip_city.setdefault(zip_key, city_key) != city_key:
                    zip_city[zip_key] = None  # records of other cities (or of none) in this postal code
        self.blocks = blocks
        self.zip_city = zip_city
        # comparison keys by position, None until computed
        self.names: list[str | None] = [None] * len(records)  # name_key's words, sorted (sorted_name_keys)
        self.addresses: list[str | None] = [None] * len(records)  # address_key
        self.numbers: list[str | None] = [None] * len(records)  # house number of the address key, if any

    def prepare_addresses(self, positions: Collection[int]) -> None:
        """address_key and house number of the positions (those without them yet)."""
        addresses, numbers, records = self.addresses, self.numbers, self.records
        todo = [p for p in positions if addresses[p] is None]
        for p, address in zip(todo, address_keys([records[p].address1 for p in todo])):
            addresses[p] = address
            numbers[p] = _house_number(address)

    def prepare_names(self, positions: Collection[int]) -> None:
        """The sorted name key of the positions (those without one yet)."""
        names, records = self.names, self.records
        todo = [p for p in positions if names[p] is None]
        for p, name in zip(todo, sorted_name_keys([records[p].name for p in todo])):
            names[p] = name


def sorted_name_keys(names: Iterable[str | None]) -> list[str]:
    """For each name, the words of name_key(name) in sorted order, joined by single spaces: so that
    fuzz.ratio of two of them is fuzz.token_sort_ratio of the name keys (which sorts the words of
    both each time it compares them)."""
    return [" ".join(sorted(name_key(name).split())) for name in names]


def address_keys(addresses: Iterable[str | None]) -> list[str]:
    """address_key of each address."""
    return [address_key(address) for address in addresses]


# Below this many pairs in one cdist, more threads cost more than they save.
_PARALLEL_PAIRS = 1_000_000


def _best(left: _Side, right: _Side | None, min_certainty: float, workers: int) -> dict[int, Match]:
    """Each left record's best match over the blocks it shares with right (or, when right is None,
    with the earlier records of left), ties to the lower candidate id.

    A pair whose addresses carry different house numbers scores half. For min_certainty 0.5 such a
    pair would need equal names, the same phone and equal addresses, which cannot have different
    numbers; generally, when the address ratio such a pair needs is more than two different
    addresses of the sides can reach (_halved_can_match), only pairs where a house number is
    missing or equal can match. Then each block is split (_split_block): most of its pairs, at
    different numbers, are never compared, and names are only keyed for the records of a part.
    Otherwise each block is scored whole.

    With workers > 1, large parts are scored by that many threads (rapidfuzz's cdist lets go of the
    GIL): no process is forked, so nothing the caller holds (connections, threads) is copied."""
    within = right is None
    other = left if right is None else right
    keys = []
    for key, rows in left.blocks.items():
        cols = other.blocks.get(key)
        if cols is None or (within and len(rows) < 2):
            continue
        if key.startswith("zip:"):
            city = left.zip_city[key]
            if city is not None and city == other.zip_city[key]:
                continue  # every pair of this block is a pair of the block of that city
        keys.append(key)
    if not keys:
        return {}
    left.prepare_addresses(set().union(*(left.blocks[key] for key in keys)))
    if not within:
        other.prepare_addresses(set().union(*(other.blocks[key] for key in keys)))
    parts: list[tuple[list[int], list[int]]] = []  # rows against cols, scored by _cdist_pairs
    pairs: list[tuple[int, int]] = []  # a few pairs, scored one by one
    if _halved_can_match(left, other, min_certainty):
        parts = [(left.blocks[key], other.blocks[key]) for key in keys]
    else:
        for key in keys:
            _split_block(left.numbers, left.blocks[key], other.numbers, other.blocks[key], within, parts, pairs)
    return _best_of_parts(left, right, parts, pairs, min_certainty, workers)


def _best_of_parts(left: _Side, right: _Side | None, parts: list[tuple[list[int], list[int]]],
                   pairs: list[tuple[int, int]], min_certainty: float, workers: int = 1) -> dict[int, Match]:
    """Each left record's best match among the parts (rows against cols) and the pairs."""
    best: dict[int, Match] = {}
    within = right is None
    other = left if right is None else right
    left_needed = set().union(*(rows for rows, _ in parts))
    right_needed = set().union(*(cols for _, cols in parts))
    if pairs:
        left_rows, right_cols = zip(*pairs)
        left_needed.update(left_rows)
        right_needed.update(right_cols)
    if within:
        left.prepare_names(left_needed | right_needed)
    else:
        left.prepare_names(left_needed)
        other.prepare_names(right_needed)
    for rows, cols in parts:
        threads = workers if len(rows) * len(cols) >= _PARALLEL_PAIRS else 1
        _cdist_pairs(left, rows, other, cols, min_certainty, best, within, threads)
    _score_pairs(left, other, pairs, min_certainty, best)
    return best


def _halved_can_match(left: _Side, right: _Side, min_certainty: float) -> bool:
    """Whether a pair at different house numbers (its score halved) might reach min_certainty: it
    needs an address ratio of _halved_ratio, and two different address keys of lengths a and b
    (b - 1 edits at least) reach at most 100 * (1 - 1 / (a + b)); equal ones have the same house
    number."""
    ratio = _halved_ratio(min_certainty)
    if ratio is None:
        return False
    if ratio == 0:
        return True
    longest = (max(map(len, filter(None, left.addresses)), default=0)
               + max(map(len, filter(None, right.addresses)), default=0))
    return longest > 0 and 100 * (1 - 1 / longest) >= ratio


# Up to this many pairs, a part of a block is scored pair by pair rather than in cdist.
_FEW_PAIRS = 48


def _split_block(left_numbers: list[str | None], rows: list[int], right_numbers: list[str | None], cols: list[int],
                 within: bool, parts: list[tuple[list[int], list[int]]], pairs: list[tuple[int, int]]) -> None:
    """The pairs of a block where a house number is missing or both are equal: rows without a
    number against all cols, rows with one against cols without one and against cols with the
    same one. Large parts go to parts, the pairs of small ones to pairs; within (rows is cols),
    only pairs of a row and an earlier col."""

    def add(part_rows: list[int], part_cols: list[int]) -> None:
        if len(part_rows) * len(part_cols) > _FEW_PAIRS:
            parts.append((part_rows, part_cols))
        elif within:
            pairs.extend((i, j) for i in part_rows for j in part_cols if j < i)
        else:
            pairs.extend((i, j) for i in part_rows for j in part_cols)

    # (the scans below run in C: a block has a few records sharing a number among many that do not)
    row_numbers = list(map(left_numbers.__getitem__, rows))
    rows_without = list(compress(rows, map(is_, row_numbers, repeat(None)))) if None in row_numbers else []
    if rows_without:
        add(rows_without, cols)
    if within:
        counts = Counter(row_numbers)
        if len(counts) < len(rows):
            for number, count in counts.items():
                if count > 1 and number is not None:
                    group = list(compress(rows, map(eq, row_numbers, repeat(number))))
                    add(group, group)
        if rows_without and len(rows_without) < len(rows):
            add(list(compress(rows, row_numbers)), rows_without)
        return
    col_numbers = list(map(right_numbers.__getitem__, cols))
    if None in col_numbers and len(rows_without) < len(rows):
        add(list(compress(rows, row_numbers)), list(compress(cols, map(is_, col_numbers, repeat(None)))))
    wanted = set(row_numbers)
    wanted.discard(None)
    same: dict[str, list[int]] = {}
    for j, number in compress(zip(cols, col_numbers), map(wanted.__contains__, col_numbers)):
        group = same.get(number)
        if group is None:
            same[number] = [j]
        else:
            group.append(j)
    for number, group in same.items():
        add(list(compress(rows, map(eq, row_numbers, repeat(number)))), group)


def _score_pairs(left: _Side, right: _Side, pairs: Iterable[tuple[int, int]], min_certainty: float,
                 best: dict[int, Match]) -> None:
    """Scores the given (left position, right position) pairs one by one, as _cdist_pairs would."""
    cut = max(0.0, _name_cut(min_certainty, 1.0))
    halved_cut = _name_cut(min_certainty, 0.5)
    ratio = fuzz.ratio
    left_names, right_names = left.names, right.names
    for i, j in pairs:
        name_ratio = ratio(left_names[i], right_names[j], score_cutoff=cut)
        if name_ratio:
            _keep_best(left, i, right, j, name_ratio, min_certainty, halved_cut, best)


def _keep_best(left: _Side, i: int, right: _Side, j: int, name_ratio: float, min_certainty: float,
               halved_cut: float, best: dict[int, Match]) -> None:
    """The certainty of left record i and right record j, kept as i's best match if it is."""
    num_a, num_b = left.numbers[i], right.numbers[j]
    if num_a and num_b and num_a != num_b and name_ratio < halved_cut:
        return
    rec, cand = left.records[i], right.records[j]
    score = _score(name_ratio, left.addresses[i], num_a, rec.phone, right.addresses[j], num_b, cand.phone)
    if score < min_certainty:
        return
    current = best.get(rec.id)
    if current is None or score > current.certainty or (
            score == current.certainty and cand.id < current.candidate_id):
        best[rec.id] = Match(rec.id, cand.id, score)


def _cdist_pairs(left: _Side, rows: list[int], right: _Side, cols: list[int], min_certainty: float,
                 best: dict[int, Match], later_only: bool, workers: int = 1) -> None:
    """Scores rows against cols: all name pairs and all address pairs at once in C (rapidfuzz
    cdist), then the full certainty only for pairs that could reach min_certainty. With
    later_only, only pairs of a row and an earlier col."""
    cut = max(0.0, _name_cut(min_certainty, 1.0))
    row_names = [left.names[i] for i in rows]
    row_addresses = [left.addresses[i] for i in rows]
    if rows is cols:
        col_names, col_addresses = row_names, row_addresses
    else:
        col_names = [right.names[j] for j in cols]
        col_addresses = [right.addresses[j] for j in cols]
    # the ratio of the sorted words is token_sort_ratio of the name keys
    ratios = process.cdist(row_names, col_names, scorer=fuzz.ratio, score_cutoff=cut, dtype=np.float64,
                           workers=workers)
    # the address share of the score, as _score gives it: nothing below a ratio of 60, half when
    # either address is empty
    addresses = process.cdist(row_addresses, col_addresses, scorer=fuzz.ratio, score_cutoff=60, dtype=np.float64,
                              workers=workers)
    credit = np.clip((addresses / 100 - 0.6) / 0.4, 0.0, 1.0)
    if "" in row_addresses:
        credit[[not a for a in row_addresses], :] = 0.5
    if "" in col_addresses:
        credit[:, [not a for a in col_addresses]] = 0.5
    # The most each pair could score (full phone credit, no halving, a margin for the rounding):
    # most pairs drop out here, in C. A name ratio below the cut (0) never matches.
    possible = (0.6 / 100 * ratios + 0.3 * credit >= min_certainty - 0.1 - 0.0001) & (ratios > 0)
    if later_only:
        possible &= np.less.outer(cols, rows).T
    found_rows, found_cols = np.nonzero(possible)
    if not len(found_rows):
        return
    halved_cut = _name_cut(min_certainty, 0.5)
    for r, c, name_ratio in zip(found_rows.tolist(), found_cols.tolist(), ratios[found_rows, found_cols].tolist()):
        _keep_best(left, rows[r], right, cols[c], name_ratio, min_certainty, halved_cut, best)


def classify(score: float, auto_match: float, review: float) -> str:
    """match (>= auto_match), review (>= review) or new."""
    if score >= auto_match:
        return "match"
    if score >= review:
        return "review"
    return "new"

"""Fuzzy matching of listings within blocks (same city or same postal code), scored into a certainty.

certainty = 0.6 * name similarity + 0.3 * address agreement + 0.1 * phone agreement, halved when
both addresses carry different house numbers (two shops of one chain on one street). Address
similarity below 0.6 counts as no agreement: "40 Water St" and "40 Main St" are different places.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context

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


@dataclass(frozen=True)
class MatchRecord:
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
    keys = []
    if rec.city:
        keys.append("city:" + match_key(rec.city))
    if rec.zip:
        keys.append("zip:" + rec.zip.replace(" ", "").upper())
    return keys


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


class BlockIndex:
    """Candidates grouped by block key, with their comparison keys computed once."""

    def __init__(self, candidates: Iterable[MatchRecord]):
        self.records: list[MatchRecord] = []
        self.names: list[str] = []
        self.addresses: list[str] = []
        self.numbers: list[str | None] = []
        self.blocks: dict[str, list[int]] = {}
        for rec in candidates:
            self.add(rec)

    def add(self, rec: MatchRecord) -> None:
        index = len(self.records)
        self.records.append(rec)
        self.names.append(name_key(rec.name))
        address = address_key(rec.address1)
        self.addresses.append(address)
        self.numbers.append(_house_number(address))
        for key in block_keys(rec):
            self.blocks.setdefault(key, []).append(index)

    def best_match(self, rec: MatchRecord, min_certainty: float, exclude_id: int | None = None) -> Match | None:
        positions = sorted({i for key in block_keys(rec) for i in self.blocks.get(key, ())})
        if not positions:
            return None
        name, address = name_key(rec.name), address_key(rec.address1)
        number = _house_number(address)
        # Every candidate whose name could reach min_certainty, best names first. No fixed limit: a
        # chain's same-named branches all tie on the name, and only the address tells them apart.
        shortlist = process.extract(
            name, [self.names[i] for i in positions], scorer=fuzz.token_sort_ratio,
            score_cutoff=max(0.0, (min_certainty - 0.4) / 0.6 * 100), limit=None,
        )
        best: Match | None = None
        full_cut, halved_cut = _name_cut(min_certainty, 1.0), _name_cut(min_certainty, 0.5)
        for _, name_ratio, pos in shortlist:
            if name_ratio < full_cut:
                break
            i = positions[pos]
            other = self.numbers[i]
            if number and other and number != other and name_ratio < halved_cut:
                continue
            cand = self.records[i]
            if cand.id == exclude_id:
                continue
            score = _score(name_ratio, address, number, rec.phone, self.addresses[i], other, cand.phone)
            if score >= min_certainty and (best is None or score > best.certainty or
                                           (score == best.certainty and cand.id < best.candidate_id)):
                best = Match(rec.id, cand.id, score)
                full_cut, halved_cut = _name_cut(score, 1.0), _name_cut(score, 0.5)
        return best


def match_against(records: Sequence[MatchRecord], candidates: Iterable[MatchRecord], min_certainty: float,
                  workers: int = 1, parallel_from: int = 20000) -> list[Match]:
    """Best candidate for each record scoring at least min_certainty. With workers > 1 and at least
    parallel_from records and candidates together, the blocks are scored in that many processes."""
    candidates = list(candidates)
    if workers > 1 and len(records) + len(candidates) >= parallel_from:
        best = _best_parallel(records, candidates, min_certainty, workers)
    else:
        best = _best_against(records, candidates, min_certainty, None)
    return [best[rec.id] for rec in records if rec.id in best]


def _best_against(records: Sequence[MatchRecord], candidates: Sequence[MatchRecord], min_certainty: float,
                  keys: Iterable[str] | None) -> dict[int, Match]:
    left, right = BlockIndex(records), BlockIndex(candidates)
    best: dict[int, Match] = {}
    for key in left.blocks if keys is None else keys:
        rows, cols = left.blocks.get(key), right.blocks.get(key)
        if rows and cols:
            _best_pairs(left, rows, right, cols, min_certainty, best, later_only=False)
    return best


def match_within(records: Sequence[MatchRecord], min_certainty: float, workers: int = 1,
                 parallel_from: int = 5000) -> list[Match]:
    """Near duplicates inside one batch: each record against the records before it, so the
    first of a group stays primary and the later ones point at it (chains resolve to the first).
    With workers > 1 and at least parallel_from records, the blocks are scored in that many
    processes (same result: each block is scored whole by one of them)."""
    if workers > 1 and len(records) >= parallel_from:
        best = _best_parallel(records, None, min_certainty, workers)
    else:
        best = _best_within(records, min_certainty, None)
    primary: dict[int, int] = {}
    matches = []
    for rec in records:
        m = best.get(rec.id)
        if m:
            root = primary.get(m.candidate_id, m.candidate_id)
            primary[rec.id] = root
            matches.append(Match(rec.id, root, m.certainty))
    return matches


def _best_within(records: Sequence[MatchRecord], min_certainty: float, keys: Iterable[str] | None) -> dict[int, Match]:
    """Each record's best earlier match, over the blocks named by keys (all blocks when None)."""
    index = BlockIndex(records)
    best: dict[int, Match] = {}
    for key in index.blocks if keys is None else keys:
        members = index.blocks[key]
        if len(members) > 1:
            _best_pairs(index, members, index, members, min_certainty, best, later_only=True)
    return best


# What a forked worker reads: (records, candidates or None, min_certainty,
# [(record positions, candidate positions, block keys)] per share).
_fork_state: tuple[Sequence[MatchRecord], Sequence[MatchRecord] | None, float,
                   list[tuple[list[int], list[int], list[str]]]] | None = None


def _best_of_share(share: int) -> dict[int, Match]:
    assert _fork_state is not None
    records, candidates, min_certainty, shares = _fork_state
    rows, cols, keys = shares[share]
    if candidates is None:
        return _best_within([records[p] for p in rows], min_certainty, keys)
    return _best_against([records[p] for p in rows], [candidates[p] for p in cols], min_certainty, keys)


def _best_parallel(records: Sequence[MatchRecord], candidates: Sequence[MatchRecord] | None, min_certainty: float,
                   workers: int) -> dict[int, Match]:
    """The blocks (of records against candidates, or of the records among themselves when candidates
    is None) dealt out by size (pairs scored) to `workers` shares; each share indexes only the records
    and candidates of its blocks, in their order, so a block's scoring is unchanged. The calling
    process scores one share while forked processes score the others; a record found in blocks of
    two shares keeps the better match, ties going to the lower candidate id as within one."""
    global _fork_state

    def blocks_of(items: Sequence[MatchRecord]) -> dict[str, list[int]]:
        blocks: dict[str, list[int]] = {}
        for position, rec in enumerate(items):
            for key in block_keys(rec):
                blocks.setdefault(key, []).append(position)
        return blocks

    left = blocks_of(records)
    right = left if candidates is None else blocks_of(candidates)
    sizes = {key: len(rows) * len(right.get(key, ())) for key, rows in left.items()}
    loads = [0] * workers
    rows_of: list[set[int]] = [set() for _ in range(workers)]
    cols_of: list[set[int]] = [set() for _ in range(workers)]
    keys_of: list[list[str]] = [[] for _ in range(workers)]
    for key, size in sorted(sizes.items(), key=lambda kv: -kv[1]):
        if size < 2 if candidates is None else size < 1:
            break
        share = loads.index(min(loads))
        loads[share] += size
        rows_of[share].update(left[key])
        cols_of[share].update(right[key])
        keys_of[share].append(key)
    shares = [(sorted(rows), sorted(cols), keys) for rows, cols, keys in zip(rows_of, cols_of, keys_of)]
    _fork_state = (records, candidates, min_certainty, shares)
    try:
        with ProcessPoolExecutor(workers - 1, mp_context=get_context("fork")) as pool:
            futures = [pool.submit(_best_of_share, share) for share in range(1, workers)]
            best = _best_of_share(0)
            for future in futures:
                for rid, m in future.result().items():
                    current = best.get(rid)
                    if current is None or m.certainty > current.certainty or (
                            m.certainty == current.certainty and m.candidate_id < current.candidate_id):
                        best[rid] = m
    finally:
        _fork_state = None
    return best


def _best_pairs(left: BlockIndex, rows: list[int], right: BlockIndex, cols: list[int], min_certainty: float,
                best: dict[int, Match], later_only: bool) -> None:
    """Scores one block: all name pairs at once in C (rapidfuzz cdist), then the full certainty
    only for pairs whose names could reach min_certainty. Keeps each left record's best match
    (ties to the lower candidate id); with later_only, a record only matches earlier positions."""
    cut = max(0.0, _name_cut(min_certainty, 1.0))
    ratios = process.cdist([left.names[i] for i in rows], [right.names[j] for j in cols],
                           scorer=fuzz.token_sort_ratio, score_cutoff=cut, dtype=np.float64)
    addresses = process.cdist([left.addresses[i] for i in rows], [right.addresses[j] for j in cols],
                              scorer=fuzz.ratio, dtype=np.float64)
    # The most each pair could score (full phone credit): most pairs of a block drop out here, in C.
    address_credit = np.clip((addresses / 100 - 0.6) / 0.4, 0.0, 1.0)
    address_credit[addresses == 0] = 0.5  # an empty address on either side counts half, as in _score
    ceiling = 0.6 * ratios / 100 + 0.3 * address_credit + 0.1
    ratios[ceiling < min_certainty - 0.0001] = 0
    if later_only:
        ratios = np.tril(ratios, -1)
    halved_cut = _name_cut(min_certainty, 0.5)
    for r, c in zip(*np.nonzero(ratios)):
        i, j = rows[r], cols[c]
        name_ratio = float(ratios[r, c])
        num_a, num_b = left.numbers[i], right.numbers[j]
        if num_a and num_b and num_a != num_b and name_ratio < halved_cut:
            continue
        rec, cand = left.records[i], right.records[j]
        score = _score(name_ratio, left.addresses[i], num_a, rec.phone, right.addresses[j], num_b, cand.phone)
        if score < min_certainty:
            continue
        current = best.get(rec.id)
        if current is None or score > current.certainty or (
                score == current.certainty and cand.id < current.candidate_id):
            best[rec.id] = Match(rec.id, cand.id, score)


def classify(score: float, auto_match: float, review: float) -> str:
    """match (>= auto_match), review (>= review) or new."""
    if score >= auto_match:
        return "match"
    if score >= review:
        return "review"
    return "new"

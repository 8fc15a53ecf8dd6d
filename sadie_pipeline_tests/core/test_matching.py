"""Unit tests for sadie_pipeline.core.matching: certainty, classify, blocking, match_against, match_within."""

from __future__ import annotations

import random
import string

import numpy as np
import pytest
from rapidfuzz import fuzz, process

from sadie_pipeline.core import matching
from sadie_pipeline.core.matching import (
    CandidateFilter,
    Match,
    MatchRecord,
    _halved_can_match,
    _house_number,
    _Side,
    _split_block,
    address_key,
    address_keys,
    block_keys,
    candidate_filter,
    certainty,
    classify,
    match_against,
    match_within,
    name_key,
    sorted_name_keys,
)

CITY = "Charlottetown"


def rec(id: int, name: str | None, address: str | None, city: str | None = CITY, zip: str | None = None,
        phone: str | None = None) -> MatchRecord:
    return MatchRecord(id, name, address, city, zip, phone)


# --- keys -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "name, expected",
    [
        ("The Great George Hotel", "great george hotel"),
        ("Brickhouse Kitchen & Bar", "brickhouse kitchen and bar"),
        ("Theatre Café", "theatre café"),      # "the" only dropped as a word
        (None, ""),
    ],
)
def test_name_key(name, expected):
    assert name_key(name) == expected


@pytest.mark.parametrize(
    "address, expected",
    [
        ("58 Great George St.", "58 great george street"),
        ("100 University Ave", "100 university avenue"),
        ("1 N Main Rd, Ste 4", "1 north main road suite 4"),
        ("Stanley Bridge", "stanley bridge"),
        (None, ""),
    ],
)
def test_address_key_expands_abbreviations(address, expected):
    assert address_key(address) == expected


def test_block_keys():
    assert block_keys(rec(1, "x", "y", " Charlottetown ", "c1a 4j1")) == ["city:charlottetown", "zip:C1A4J1"]
    assert block_keys(rec(1, "x", "y", None, None)) == []
    assert block_keys(rec(1, "x", "y", None, "C1A 4J1")) == ["zip:C1A4J1"]


# --- certainty on realistic pairs -------------------------------------------------------------

def test_article_and_street_abbreviation_are_the_same_place():
    a = rec(1, "The Great George Hotel", "58 Great George St")
    b = rec(2, "Great George Hotel", "58 Great George Street")
    assert certainty(a, b) >= 0.8


def test_spelling_variant_at_same_address_matches():
    a = rec(1, "Harbour View Grill", "12 Water St")
    b = rec(2, "Harbor View Grill", "12 Water St")
    assert certainty(a, b) >= 0.8


def test_identical_records_score_near_one():
    a = rec(1, "Gahan House", "126 Sydney St", phone="+19025550142")
    b = rec(2, "Gahan House", "126 Sydney St", phone="+19025550142")
    assert certainty(a, b) == 1.0


def test_certainty_is_symmetric():
    a = rec(1, "The Great George Hotel", "58 Great George St", phone="+19025550142")
    b = rec(2, "Great George Inn", "58 Great George Street")
    assert certainty(a, b) == certainty(b, a)


@pytest.mark.parametrize("numbers", [("100", "200"), ("100", "102"), ("5", "5a")])
def test_same_chain_at_different_house_numbers_is_not_a_match(numbers):
    a = rec(1, "Tim Hortons", f"{numbers[0]} University Ave", phone="+19025550100")
    b = rec(2, "Tim Hortons", f"{numbers[1]} University Ave", phone="+19025550100")
    assert certainty(a, b) < 0.5


def test_neighbours_with_different_names_are_not_a_match():
    a = rec(1, "Gahan House", "126 Sydney St")
    b = rec(2, "Brickhouse Kitchen & Bar", "125 Sydney St")
    assert certainty(a, b) < 0.5


def test_same_house_number_on_different_streets_different_names():
    a = rec(1, "Peake's Quay", "40 Water St")
    b = rec(2, "Sims Corner", "40 Main St")
    assert certainty(a, b) < 0.5


def test_address_disagreement_costs_the_address_share():
    # same name, same number, different street: address similarity is below 0.6, so no address credit
    same = certainty(rec(1, "Water Street Fish", "40 Water St"), rec(2, "Water Street Fish", "40 Water St"))
    other = certainty(rec(1, "Water Street Fish", "40 Water St"), rec(2, "Water Street Fish", "40 Main St"))
    assert same >= 0.8 > other
    assert other == pytest.approx(0.6 + 0.05, abs=0.15)


def test_phone_agreement_and_disagreement():
    base = dict(name="Harbour View Grill", address="12 Water St")
    same = certainty(rec(1, phone="+19025550142", **base), rec(2, phone="+19025550142", **base))
    unknown = certainty(rec(1, phone=None, **base), rec(2, phone="+19025550142", **base))
    differ = certainty(rec(1, phone="+19025550199", **base), rec(2, phone="+19025550142", **base))
    assert same > unknown > differ
    assert same - unknown == pytest.approx(0.05) and unknown - differ == pytest.approx(0.05)


def test_missing_address_counts_half():
    a, b = rec(1, "Gahan House", None), rec(2, "Gahan House", "126 Sydney St")
    assert certainty(a, b) == pytest.approx(0.6 + 0.15 + 0.05)


def test_certainty_is_rounded_to_four_places():
    score = certainty(rec(1, "Harbour View Grill", "12 Water St"), rec(2, "Harbor View Grill", "12 Water St"))
    assert score == round(score, 4)


# --- classify ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "score, expected",
    [(1.0, "match"), (0.8, "match"), (0.7999, "review"), (0.5, "review"), (0.4999, "new"), (0.0, "new")],
)
def test_classify_boundaries(score, expected):
    assert classify(score, 0.8, 0.5) == expected


def test_classify_with_equal_thresholds_never_reviews():
    assert classify(0.7, 0.7, 0.7) == "match"
    assert classify(0.69, 0.7, 0.7) == "new"


# --- one probe against candidates ----------------------------------------------------------------

class BlockIndex:
    """What the tests compare with: candidates grouped by block_keys, in order, and one probe's
    best match among them through match_against (the staging path)."""

    def __init__(self, candidates):
        self.candidates = list(candidates)
        self.blocks = {}
        for position, candidate in enumerate(self.candidates):
            for key in block_keys(candidate):
                self.blocks.setdefault(key, []).append(position)

    def best_match(self, probe, min_certainty, exclude_id=None):
        found = match_against([probe], [c for c in self.candidates if c.id != exclude_id], min_certainty)
        return found[0] if found else None


def test_best_match_excludes_the_record_itself():
    own = rec(1, "Harbour View Grill", "12 Water St")
    twin = rec(2, "Harbor View Grill", "12 Water St")
    index = BlockIndex([own, twin])
    assert index.best_match(own, 0.8).candidate_id == 1
    m = index.best_match(own, 0.8, exclude_id=1)
    assert m == Match(1, 2, certainty(own, twin))


def test_best_match_respects_min_certainty():
    probe = rec(10, "Harbour View Grill", "12 Water St")
    cand = rec(2, "Harbor View Grill", "12 Water St")
    score = certainty(probe, cand)
    index = BlockIndex([cand])
    assert index.best_match(probe, score) == Match(10, 2, score)
    assert index.best_match(probe, min(1.0, score + 0.0001)) is None


def test_best_match_picks_highest_then_lowest_id():
    probe = rec(10, "Gahan House", "126 Sydney St")
    index = BlockIndex([
        rec(5, "Gahan Hous", "126 Sydney St"),
        rec(3, "Gahan House", "126 Sydney St"),
        rec(4, "Gahan House", "126 Sydney St"),
    ])
    assert index.best_match(probe, 0.5).candidate_id == 3


def test_best_match_none_without_shared_block():
    index = BlockIndex([rec(1, "Gahan House", "126 Sydney St", city="Summerside", zip="C1N 1A1")])
    assert index.best_match(rec(2, "Gahan House", "126 Sydney St", zip="C1A 1A1"), 0.1) is None
    assert index.best_match(rec(2, "Gahan House", "126 Sydney St", city=None), 0.1) is None


def test_best_match_with_a_few_chain_branches_finds_the_right_one():
    branches = [rec(i, "Tim Hortons", f"{i * 10} University Ave") for i in range(1, 6)]
    index = BlockIndex(branches)
    m = index.best_match(rec(99, "Tim Hortons", "30 University Avenue"), 0.8)
    assert m is not None and m.candidate_id == 3


def test_best_match_with_many_chain_branches_finds_the_right_one():
    branches = [rec(i, "Tim Hortons", f"{i} Main St") for i in range(1, 10)]
    index = BlockIndex(branches)
    m = index.best_match(rec(99, "Tim Hortons", "9 Main St"), 0.8)
    assert m is not None and m.candidate_id == 9


def test_best_match_finds_every_branch_of_a_large_chain():
    # 60 branches (some spelled "Tim Horton's") among other places in one block: each probe finds its own
    branches = [rec(i, "Tim Horton's" if i % 3 else "Tim Hortons", f"{i * 7} {['Main St', 'Queen St'][i % 2]}")
                for i in range(1, 61)]
    others = [rec(1000 + i, f"Place {i}", f"{i * 7} Main St") for i in range(1, 61)]
    index = BlockIndex(others + branches)
    for b in branches:
        probe = rec(5000 + b.id, "TIM HORTONS", b.address1.replace(" St", " Street"))
        m = index.best_match(probe, 0.8)
        assert m is not None and m.candidate_id == b.id



@pytest.mark.parametrize("min_certainty", [0.5, 0.65, 0.8])
def test_best_match_equals_scoring_every_candidate(min_certainty):
    # the name shortlist and its pruning are only shortcuts: same result as scoring the whole block
    rnd = random.Random(7)
    chains = ["Tim Hortons", "Sobeys Express", "Irving Big Stop"]
    def random_rec(i: int) -> MatchRecord:
        name = rnd.choice(chains) if rnd.random() < 0.4 else " ".join(rnd.sample(WORDS, rnd.choice([2, 3]))).title()
        address = rnd.choice([f"{rnd.randint(1, 40)} {rnd.choice(STREETS)}", f"Route {rnd.randint(1, 3)}", ""])
        return MatchRecord(i, name, address, rnd.choice(["A", "B"]), rnd.choice([None, "Z1"]), rnd.choice([None, "+1", "+2"]))
    candidates = [random_rec(i) for i in range(80)]
    index = BlockIndex(candidates)
    for probe in (random_rec(i) for i in range(100, 160)):
        keys = set(block_keys(probe))
        scored = [(certainty(probe, c), -c.id) for c in candidates if keys & set(block_keys(c))]
        above = [s for s in scored if s[0] >= min_certainty]
        expected = Match(probe.id, -max(above)[1], max(above)[0]) if above else None
        assert index.best_match(probe, min_certainty) == expected

# --- match_against ----------------------------------------------------------------------------

def test_match_against_finds_best_candidate_per_record():
    candidates = [
        rec(101, "Great George Hotel", "58 Great George Street"),
        rec(102, "Gahan House", "126 Sydney St"),
        rec(103, "Harbor View Grill", "12 Water St"),
    ]
    records = [
        rec(1, "The Great George Hotel", "58 Great George St"),
        rec(2, "Brickhouse Kitchen & Bar", "125 Sydney St"),
        rec(3, "Harbour View Grill", "12 Water St"),
    ]
    matches = match_against(records, candidates, 0.8)
    assert [(m.record_id, m.candidate_id) for m in matches] == [(1, 101), (3, 103)]
    assert all(m.certainty >= 0.8 for m in matches)


def test_match_against_only_within_blocks():
    twin_elsewhere = rec(101, "Gahan House", "126 Sydney St", city="Summerside", zip="C1N 1A1")
    probe = rec(1, "Gahan House", "126 Sydney St", city="Charlottetown", zip="C1A 1A1")
    assert match_against([probe], [twin_elsewhere], 0.5) == []


def test_match_against_blocks_on_postal_code_when_city_differs():
    cand = rec(101, "Gahan House", "126 Sydney St", city="Charlottetown", zip="C1A 1A1")
    probe = rec(1, "Gahan House", "126 Sydney St", city="Ch'town", zip="c1a1a1")
    assert [(m.record_id, m.candidate_id) for m in match_against([probe], [cand], 0.8)] == [(1, 101)]


def test_match_against_blocks_on_city_case_and_punctuation_insensitively():
    cand = rec(101, "Gahan House", "126 Sydney St", city="CHARLOTTETOWN.")
    assert len(match_against([rec(1, "Gahan House", "126 Sydney St")], [cand], 0.8)) == 1


def test_match_against_nothing():
    assert match_against([], [rec(1, "a", "b")], 0.5) == []
    assert match_against([rec(1, "a", "b")], [], 0.5) == []


# --- candidate_filter ------------------------------------------------------------------------

def test_candidate_filter_pairs_each_number_with_every_spelling_of_its_block():
    records = [rec(1, "Gahan House", "12 Water St", city="St. John's", zip="a1c 5m2"),
               rec(2, "Gahan House", "14b Water St", city="ST JOHNS"),
               rec(3, "Gahan House", "7 King St", city="Halifax")]
    wanted = candidate_filter(records, 0.5)
    assert wanted.city_numbers == sorted(["12 st. john's", "12 st johns", "14b st. john's", "14b st johns",
                                          "7 halifax"])
    assert wanted.zip_numbers == ["12 A1C5M2"]
    assert wanted.numbers == ["12", "14b", "7"]
    assert wanted.long_address > 100  # only an address hundreds of characters long escapes the numbers


def test_candidate_filter_is_none_when_every_candidate_may_count():
    assert candidate_filter([rec(1, "a", "12 Water St"), rec(2, "b", "Water Street")], 0.5) is None  # no number
    assert candidate_filter([rec(1, "a", "12 Water St")], 0.3) is None  # halved pairs may match anyway
    assert candidate_filter([], 0.5) is None


def test_candidate_filter_without_a_long_address_escape_where_halved_pairs_never_match():
    assert candidate_filter([rec(1, "a", "12 Water St")], 0.51) == CandidateFilter(["12 charlottetown"], [], ["12"], None)


def test_candidate_filter_long_address_bound_keeps_every_pair_that_could_reach_the_floor():
    """A candidate shorter than long_address, at another number than every record, falls short of
    the floor with each record, even with the same name and phone: halved pairs are out of reach."""
    records = [rec(1, "Gahan House", "12 " + "water " * 300, phone="+19025550100")]
    wanted = candidate_filter(records, 0.5)
    assert 0 < wanted.long_address < 3000
    short = rec(9, "Gahan House", "14 " + "water " * 300, phone="+19025550100")
    assert len(short.address1) >= wanted.long_address  # kept: long enough to come close
    shorter = rec(9, "Gahan House", ("14 " + "water " * 300)[:wanted.long_address - 1], phone="+19025550100")
    assert match_against(records, [shorter], 0.5) == []


# --- match_within -----------------------------------------------------------------------------

def test_match_within_keeps_first_as_primary():
    records = [rec(1, "Harbour View Grill", "12 Water St"), rec(2, "Harbor View Grill", "12 Water St")]
    assert [(m.record_id, m.candidate_id) for m in match_within(records, 0.8)] == [(2, 1)]


def test_match_within_chains_resolve_to_the_first():
    records = [
        rec(1, "Harbour View Grill", "12 Water St"),
        rec(2, "Harbor View Grill", "12 Water St"),
        rec(3, "Harbor View Gril", "12 Water St"),      # closest to 2, must point at 1
        rec(4, "Gahan House", "126 Sydney St"),
        rec(5, "Harbor Vue Gril", "12 Water Street"),
    ]
    matches = match_within(records, 0.8)
    assert {m.record_id: m.candidate_id for m in matches} == {2: 1, 3: 1, 5: 1}
    assert 1 not in {m.record_id for m in matches}


def test_match_within_reports_the_pair_certainty():
    records = [rec(1, "Harbour View Grill", "12 Water St"), rec(2, "Harbor View Grill", "12 Water St")]
    (m,) = match_within(records, 0.8)
    assert m.certainty == certainty(records[1], records[0])


def test_match_within_ignores_other_blocks_and_distinct_places():
    records = [
        rec(1, "Gahan House", "126 Sydney St"),
        rec(2, "Gahan House", "126 Sydney St", city="Summerside"),
        rec(3, "Tim Hortons", "100 University Ave"),
        rec(4, "Tim Hortons", "200 University Ave"),
        rec(5, "Brickhouse Kitchen & Bar", "125 Sydney St"),
    ]
    assert match_within(records, 0.5) == []


# --- property-style: planted typo duplicates --------------------------------------------------

WORDS = (
    "harbour lighthouse maple cedar island north shore red sand dune cove bay point tide anchor "
    "gull lobster oyster mussel pine birch willow ocean breeze sunset sunrise meadow river brook "
    "stone bridge valley hill ridge village market garden orchard bakery bistro grill tavern inn "
    "lodge cottage chalet diner kitchen cafe roastery pub brewery gallery studio outfitters"
).split()
STREETS = ["Water St", "Queen St", "Grafton St", "Kent St", "University Ave", "Main St", "Shore Rd", "Church St"]


def _typo(text: str, rnd: random.Random) -> str:
    """One substitution, deletion or transposition inside a word of at least five letters."""
    words = text.split()
    i = rnd.choice([k for k, w in enumerate(words) if len(w) >= 5])
    w = words[i]
    p = rnd.randrange(1, len(w) - 2)
    kind = rnd.choice(("sub", "del", "swap"))
    if kind == "sub":
        w = w[:p] + rnd.choice([c for c in string.ascii_lowercase if c != w[p]]) + w[p + 1:]
    elif kind == "del":
        w = w[:p] + w[p + 1:]
    else:
        w = w[:p] + w[p + 1] + w[p] + w[p + 2:]
    words[i] = w
    return " ".join(words)


def test_match_within_finds_every_planted_typo_duplicate():
    rnd = random.Random(20240501)
    cities = [(f"Town{c:02d}", f"C{c:02d}0A1") for c in range(20)]
    originals: list[MatchRecord] = []
    next_id = 1
    for city, postal in cities:
        numbers = rnd.sample(range(1, 5000), 90)            # house numbers unique within a city
        for n in numbers:
            name = " ".join(rnd.sample(WORDS, 3)).title()
            while max(len(w) for w in name.split()) < 5:      # room for a typo
                name = " ".join(rnd.sample(WORDS, 3)).title()
            originals.append(MatchRecord(next_id, name, f"{n} {rnd.choice(STREETS)}", city, postal,
                                         rnd.choice([None, f"+1902555{next_id:04d}"])))
            next_id += 1

    # 200 duplicates of distinct originals: a typo in the name, sometimes a spelled-out street type,
    # sometimes a case change or a missing city (then only the postal code blocks them together)
    planted: dict[int, int] = {}
    positions: list[tuple[float, MatchRecord]] = [(float(i), r) for i, r in enumerate(originals)]
    for orig_pos in rnd.sample(range(len(originals)), 200):
        o = originals[orig_pos]
        name = _typo(o.name, rnd)
        if rnd.random() < 0.3:
            name = name.upper()
        address = o.address1.replace(" St", " Street") if rnd.random() < 0.5 else o.address1
        city = None if rnd.random() < 0.2 else o.city
        dup = MatchRecord(next_id, name, address, city, o.zip, o.phone if rnd.random() < 0.5 else None)
        planted[dup.id] = o.id
        # anywhere after the original
        positions.append((rnd.uniform(orig_pos + 0.5, len(originals)), dup))
        next_id += 1
    records = [r for _, r in sorted(positions, key=lambda p: p[0])]
    assert len(records) == 2000

    matches = match_within(records, 0.8)
    found = {m.record_id: m.candidate_id for m in matches}
    missed = {d: o for d, o in planted.items() if found.get(d) != o}
    assert not missed, f"{len(missed)} planted duplicates not matched to their original"
    # and nothing else: distinct places (unique house numbers per city) are never merged
    assert found == planted
    assert all(m.certainty >= 0.8 for m in matches)


def _random_records(seed: int, first_id: int, n: int) -> list[MatchRecord]:
    rng = random.Random(seed)
    names = ["Harbour Inn", "Blue Heron Cafe", "Island Grill", "Red Sands Motel", "Maple Bakery", "Dune Tours"]
    streets = ["Water St", "Queen Street", "Grafton Ave", "Kent Rd"]
    cities = ["Charlottetown", "Summerside", "Cavendish", "Montague", "Souris"]
    records = []
    for i in range(first_id, first_id + n):
        name = rng.choice(names)
        if rng.random() < 0.3:
            name = name.replace("a", "e", 1)
        records.append(rec(i, f"{name} {rng.randint(1, 40)}" if rng.random() < 0.5 else name,
                           f"{rng.randint(1, 60)} {rng.choice(streets)}", rng.choice(cities),
                           rng.choice(["C1A 1A1", "C1A 2B2", "C0A 1H0", None]),
                           rng.choice(["+19025550100", "+19025550111", None])))
    return records


def test_match_against_in_worker_processes_equals_one_process(monkeypatch):
    monkeypatch.setattr(matching, "_PARALLEL_PAIRS", 0)  # fork however little there is to compare
    records, candidates = _random_records(5, 1, 600), _random_records(6, 10_001, 900)
    one = match_against(records, candidates, 0.5)
    assert len(one) > 100
    assert match_against(records, candidates, 0.5, workers=2, parallel_from=1) == one
    assert match_against(records, candidates, 0.5, workers=3, parallel_from=1) == one


def test_match_within_in_worker_processes_equals_one_process(monkeypatch):
    """Blocks dealt out to forked processes (records in a city block and a postal-code block of two
    shares, chains, ties) give exactly the one-process result."""
    monkeypatch.setattr(matching, "_PARALLEL_PAIRS", 0)
    records = _random_records(11, 1, 1200)
    one = match_within(records, 0.5)
    assert len(one) > 100
    assert match_within(records, 0.5, workers=2, parallel_from=1) == one
    assert match_within(records, 0.5, workers=3, parallel_from=1) == one


# --- the fast paths of match_against / match_within against brute force -----------------------

def test_sorted_name_keys_are_the_sorted_words_of_name_key():
    rnd = random.Random(3)
    pieces = ["The", "the", "THE", "&", "and", "Café", "Straße", "St.", "O'Neil's", "Inn", "bar", "B&B", "",
              "  ", "-", "Ünïcode", "A", "z", "Σ", "10", "9a", "_x", "\t", "\x1c"]
    names = [None, "", "The", "The ", "the the inn", "&", "Theatre Café", "Bar & Grill", "B&B"]
    names += ["".join(rnd.choice([" ", ""]) + rnd.choice(pieces) for _ in range(rnd.randint(1, 6))) for _ in range(3000)]
    keys = sorted_name_keys(names)
    assert keys == [" ".join(sorted(name_key(n).split())) for n in names]
    # so the ratio of two of them is token_sort_ratio of the name keys, as cdist gives it
    for _ in range(3000):
        a, b = rnd.randrange(len(names)), rnd.randrange(len(names))
        cut = rnd.choice([0.0, 16.65, 66.65])
        expected = process.cdist([name_key(names[a])], [name_key(names[b])], scorer=fuzz.token_sort_ratio,
                                 score_cutoff=cut, dtype=np.float64)[0, 0]
        assert fuzz.ratio(keys[a], keys[b], score_cutoff=cut) == expected


def test_address_keys_equal_address_key():
    rnd = random.Random(4)
    pieces = ["12", "12a", "St", "st.", "N", "Rd,", "Ave", "Côte", "Route", "#4", "Ste", "\t", "-", "STR", "Blvd."]
    addresses = [None, "", "   ", "St", "1 N Main Rd, Ste 4"]
    addresses += [" ".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 5))) for _ in range(3000)]
    assert address_keys(addresses) == [address_key(a) for a in addresses]


def test_side_groups_records_as_block_index_does():
    records = _shaped_records(random.Random(5), 1, 400)
    side, index = _Side(records, {}), BlockIndex(records)
    assert side.blocks == index.blocks
    city_of = {i: key for key, members in index.blocks.items() if key.startswith("city:") for i in members}
    for key, members in side.blocks.items():
        if key.startswith("zip:"):
            cities = {city_of.get(i) for i in members}
            assert side.zip_city[key] == (cities.pop() if len(cities) == 1 else None)
    assert any(city is None for city in side.zip_city.values())       # postal codes across cities
    assert any(city is not None for city in side.zip_city.values())


def test_side_computes_keys_of_the_positions_asked_for():
    records = _shaped_records(random.Random(9), 1, 60)
    side = _Side(records, {})
    side.prepare_addresses({3, 5, 8})
    side.prepare_names([5, 9])
    assert [i for i, a in enumerate(side.addresses) if a is not None] == [3, 5, 8]
    assert [i for i, n in enumerate(side.names) if n is not None] == [5, 9]
    side.prepare_addresses(range(60))
    side.prepare_names(range(60))
    assert side.addresses == [address_key(r.address1) for r in records]
    assert side.numbers == [_house_number(address_key(r.address1)) for r in records]
    assert side.names == sorted_name_keys(r.name for r in records)
    fresh = _Side(records, {})
    fresh.prepare_addresses(range(60))  # all at once
    fresh.prepare_names(range(60))
    assert (fresh.addresses, fresh.numbers, fresh.names) == (side.addresses, side.numbers, side.names)


@pytest.mark.parametrize("within", [True, False])
def test_split_block_keeps_exactly_the_pairs_with_a_missing_or_equal_number(within):
    rnd = random.Random(6)
    for _ in range(300):
        numbers = [rnd.choice([None, "1", "2", "3", "4a", "10"]) for _ in range(rnd.randint(1, 40))]
        other = numbers if within else [rnd.choice([None, "1", "2", "5", "4a"]) for _ in range(rnd.randint(1, 40))]
        rows = sorted(rnd.sample(range(len(numbers)), rnd.randint(1, len(numbers))))
        cols = rows if within else sorted(rnd.sample(range(len(other)), rnd.randint(1, len(other))))
        parts, pairs = [], []
        _split_block(numbers, rows, other, cols, within, parts, pairs)
        found = list(pairs) + [(i, j) for part_rows, part_cols in parts for i in part_rows for j in part_cols
                               if j < i or not within]
        assert len(found) == len(set(found))  # no pair twice
        expected = {(i, j) for i in rows for j in cols if (j < i or not within)
                    and (numbers[i] is None or other[j] is None or numbers[i] == other[j])}
        assert set(found) == expected


def test_halved_can_match():
    def side(*addresses):
        s = _Side([rec(i, "x", a) for i, a in enumerate(addresses)], {})
        s.prepare_addresses(range(len(addresses)))
        return s

    short = side("12 Water St", "14 Water Street", "")
    assert not _halved_can_match(short, short, 0.5)
    assert not _halved_can_match(short, short, 0.8)
    assert _halved_can_match(short, short, 0.4)
    assert _halved_can_match(short, short, 0.3)
    # addresses so long that two different ones could be 99.97 % alike
    long = side("12 " + "water " * 400, "14 " + "water " * 400)
    assert _halved_can_match(long, long, 0.5)
    assert not _halved_can_match(long, long, 0.51)


def test_halved_cannot_match_means_no_pair_at_different_numbers_reaches_the_floor():
    records = _shaped_records(random.Random(8), 1, 300)
    side = _Side(records, {})
    side.prepare_addresses(range(len(records)))
    for floor in (0.5, 0.55, 0.7):
        assert not _halved_can_match(side, side, floor)
        for i, a in enumerate(records):
            for b in records[i + 1:i + 40]:
                num_a, num_b = side.numbers[i], _house_number(address_key(b.address1))
                if num_a and num_b and num_a != num_b:
                    assert certainty(a, b) < floor


def _shaped_records(rnd: random.Random, first_id: int, n: int, phones: bool = True) -> list[MatchRecord]:
    """Records of many shapes: chains (equal names at other numbers), near-equal names, addresses
    without a number or empty, numbers with a letter, non-ASCII text, postal codes shared by two
    cities, cities spelled differently, missing cities and postal codes."""
    names = ["Tim Hortons", "Tim Horton's", "The Gahan House", "Gahan House", "Café Dolce", "Cafe Dolce",
             "Harbour View Grill", "Harbor View Grill", "Red Sands Motel", "Brickhouse Kitchen & Bar",
             "Brickhouse Kitchen and Bar", "Sobeys", "", "Straße Inn", "Island Grill", "Dune Tours"]
    streets = ["Water St", "Water Street", "Queen St", "Côte Rd", "University Ave", "Main St"]
    cities = [("Charlottetown", "C1A 1A1"), ("CHARLOTTETOWN.", "C1A 1A1"), ("Charlottetown", "C1A 2B2"),
              ("Summerside", "C1N 1A1"), ("Summerside", "C1A 2B2"), ("Montréal", "H2X 1Y4"), (None, "C1A 1A1"),
              ("Souris", None), (None, None)]
    records = []
    for i in range(first_id, first_id + n):
        name = rnd.choice(names)
        if rnd.random() < 0.3:
            name = name.replace("o", "0" if rnd.random() < 0.2 else "oo", 1)
        if rnd.random() < 0.2:
            name = name.upper()
        shape = rnd.random()
        if shape < 0.55:
            address = f"{rnd.randint(1, 12)}{rnd.choice(['', '', 'a'])} {rnd.choice(streets)}"
        elif shape < 0.8:
            address = rnd.choice(["Route 2", "Main Street", "Stanley Bridge", "Rte 6", "Côte Rd"])
        else:
            address = rnd.choice(["", None])
        city, postal = rnd.choice(cities)
        phone = rnd.choice(["+19025550100", "+19025550111", None]) if phones else None
        records.append(MatchRecord(i, name, address, city, postal, phone))
    return records


def _brute_best(records: list[MatchRecord], candidates: list[MatchRecord] | None, floor: float) -> dict[int, Match]:
    """Every pair sharing a block scored by certainty(): the best (then lowest id) of each record,
    among the earlier records when candidates is None. A name ratio of 0 never matches."""
    best: dict[int, Match] = {}
    for i, a in enumerate(records):
        for b in records[:i] if candidates is None else candidates:
            if not set(block_keys(a)) & set(block_keys(b)):
                continue
            if fuzz.token_sort_ratio(name_key(a.name), name_key(b.name)) == 0:
                continue
            score = certainty(a, b)
            current = best.get(a.id)
            if score >= floor and (current is None or (score, -b.id) > (current.certainty, -current.candidate_id)):
                best[a.id] = Match(a.id, b.id, score)
    return best


@pytest.mark.parametrize("floor", [0.3, 0.45, 0.5, 0.6, 0.8])
@pytest.mark.parametrize("forked", [False, True])
def test_match_against_equals_brute_force(floor, forked, monkeypatch):
    rnd = random.Random(int(floor * 100))
    records, candidates = _shaped_records(rnd, 1, 200), _shaped_records(rnd, 1000, 250, phones=False)
    best = _brute_best(records, candidates, floor)
    expected = [best[r.id] for r in records if r.id in best]
    assert len(expected) > 20
    if forked:
        monkeypatch.setattr(matching, "_PARALLEL_PAIRS", 0)
        assert match_against(records, candidates, floor, workers=2, parallel_from=1) == expected
    else:
        assert match_against(records, candidates, floor) == expected
        assert match_against(records, iter(candidates), floor) == expected


@pytest.mark.parametrize("floor", [0.3, 0.45, 0.5, 0.6, 0.8])
@pytest.mark.parametrize("forked", [False, True])
def test_match_within_equals_brute_force(floor, forked, monkeypatch):
    records = _shaped_records(random.Random(int(floor * 100) + 1), 1, 300)
    best = _brute_best(records, None, floor)
    primary: dict[int, int] = {}
    expected = []
    for r in records:
        if r.id in best:
            m = best[r.id]
            primary[r.id] = root = primary.get(m.candidate_id, m.candidate_id)
            expected.append(Match(r.id, root, m.certainty))
    assert len(expected) > 20
    if forked:
        monkeypatch.setattr(matching, "_PARALLEL_PAIRS", 0)
        assert match_within(records, floor, workers=2, parallel_from=1) == expected
    else:
        assert match_within(records, floor) == expected


def test_match_within_with_long_addresses_scores_whole_blocks():
    # addresses long enough that pairs at different house numbers might reach 0.5: no block is split
    records = [rec(i, "Tim Hortons", f"{n} " + "Water Street " * 200, phone="+19025550100")
               for i, n in enumerate([1, 2, 1, 3, 2], 1)]
    side = _Side(records, {})
    side.prepare_addresses(range(len(records)))
    assert _halved_can_match(side, side, 0.5)
    best = _brute_best(records, None, 0.5)
    assert [(m.record_id, m.candidate_id) for m in match_within(records, 0.5)] == [
        (r.id, best[r.id].candidate_id) for r in records if r.id in best]

"""Unit tests for sadie_pipeline.core.matching: certainty, classify, blocking, match_against, match_within."""

from __future__ import annotations

import random
import string

import pytest

from sadie_pipeline.core.matching import (
    BlockIndex,
    Match,
    MatchRecord,
    address_key,
    block_keys,
    certainty,
    classify,
    match_against,
    match_within,
    name_key,
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


# --- BlockIndex.best_match --------------------------------------------------------------------

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


def test_match_against_in_worker_processes_equals_one_process():
    records, candidates = _random_records(5, 1, 600), _random_records(6, 10_001, 900)
    one = match_against(records, candidates, 0.5)
    assert len(one) > 100
    assert match_against(records, candidates, 0.5, workers=2, parallel_from=1) == one
    assert match_against(records, candidates, 0.5, workers=3, parallel_from=1) == one


def test_match_within_in_worker_processes_equals_one_process():
    """Blocks dealt out to forked processes (records in a city block and a postal-code block of two
    shares, chains, ties) give exactly the one-process result."""
    records = _random_records(11, 1, 1200)
    one = match_within(records, 0.5)
    assert len(one) > 100
    assert match_within(records, 0.5, workers=2, parallel_from=1) == one
    assert match_within(records, 0.5, workers=3, parallel_from=1) == one

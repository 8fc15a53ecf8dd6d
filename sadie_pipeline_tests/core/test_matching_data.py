"""The generator of the place-matching benchmark (benchmarks/matching_data.py): seeded, with every
kind of divergence and hard negative, and a truth whose ids exist in both guides."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import matching_data  # noqa: E402


@pytest.fixture(scope="module")
def guides():
    return matching_data.generate(6000, 11)


def test_same_seed_same_guides(guides):
    again = matching_data.generate(6000, 11)
    assert again.a == guides.a
    assert again.b == guides.b
    assert again.truth == guides.truth
    assert again.hard_negatives == guides.hard_negatives


def test_other_seed_other_guides(guides):
    other = matching_data.generate(6000, 12)
    assert other.a != guides.a


def test_size_and_columns(guides):
    total = len(guides.a) + len(guides.b)
    assert 5400 <= total <= 6600
    for row in guides.a[:50] + guides.b[:50]:
        assert list(row) == matching_data.COLUMNS
        assert row["name"]


def test_truth_ids_in_both_guides(guides):
    ids_a = {r["id"] for r in guides.a}
    ids_b = {r["id"] for r in guides.b}
    assert len(ids_a) == len(guides.a) and len(ids_b) == len(guides.b)
    assert not ids_a & ids_b
    assert guides.truth
    for id_a, id_b in guides.truth:
        assert id_a in ids_a and id_b in ids_b
    # each record is in at most one true pair
    assert len({a for a, _ in guides.truth}) == len(guides.truth) == len({b for _, b in guides.truth})
    # only some of guide B has a true match
    assert 0.4 <= len(guides.truth) / len(guides.b) <= 0.6


def test_every_divergence_occurs(guides):
    seen = Counter(kind for kinds in guides.divergences.values() for kind in kinds)
    missing = [kind for kind in matching_data.DIVERGENCES if not seen[kind]]
    assert not missing
    assert set(guides.divergences) == {b for _, b in guides.truth}


def test_divergence_examples(guides):
    a = {r["id"]: r for r in guides.a}
    b = {r["id"]: r for r in guides.b}
    pairs = [(a[i], b[j], guides.divergences[j]) for i, j in guides.truth]
    assert any(x["name"].startswith("The ") and y["name"].endswith(", The") for x, y, _ in pairs)
    assert any("Café" in x["name"] and "Cafe" in y["name"] for x, y, _ in pairs)
    assert any(x["city"] != y["city"] for x, y, k in pairs if "city_label" in k)
    assert any({x["state"], y["state"]} == {"CA", "California"} for x, y, _ in pairs)
    assert any(x["phone"] and not y["phone"] for x, y, _ in pairs)
    assert any(" Street" in x["address1"] and " St" in y["address1"] for x, y, _ in pairs)
    typo = [(x, y) for x, y, k in pairs if "house_number_typo" in k]
    assert any(x["address1"].split()[0] != y["address1"].split()[0] for x, y in typo)
    cities = {r["city"] for r in guides.a + guides.b}
    assert {"Brooklyn", "Santa Monica", "Toronto", "Paris"} <= cities
    assert cities & {"New York City", "NYC", "W. Hollywood", "Saint Louis", "Montreal", "Quebec"}


def test_hard_negatives(guides):
    kinds = Counter(kind for _, _, kind in guides.hard_negatives)
    assert set(matching_data.HARD_NEGATIVE_KINDS) <= set(kinds)
    truth = set(guides.truth)
    assert not truth & {(a, b) for a, b, _ in guides.hard_negatives}
    a = {r["id"]: r for r in guides.a}
    b = {r["id"]: r for r in guides.b}
    chain = [(a[i], b[j]) for i, j, kind in guides.hard_negatives if kind == "chain"]
    # outlets of one brand: one name, other places
    assert any(matching_data.fold_accents(x["name"]) == matching_data.fold_accents(y["name"])
               and x["phone"][-4:] != y["phone"][-4:] for x, y in chain if x["phone"] and y["phone"])
    same = [(a[i], b[j]) for i, j, kind in guides.hard_negatives if kind == "same_address"]
    assert any(x["address1"] and x["address1"].split()[0] == (y["address1"] or " ").split()[0]
               and x["name"] != y["name"] for x, y in same)

"""The generator of the place-matching benchmark (benchmarks/matching_data/): seeded, with every
divergence class of real-world-divergences.md on enough true pairs and labelled as the records
show it, the hard negatives, and a truth whose ids exist in both guides."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import matching_data  # noqa: E402
from matching_data import divergences  # noqa: E402
from matching_data.common import ordinal_words  # noqa: E402

N, SEED = 6000, 11


@pytest.fixture(scope="module")
def guides():
    return matching_data.generate(N, SEED)


@pytest.fixture(scope="module")
def pairs(guides):
    a = {r["id"]: r for r in guides.a}
    b = {r["id"]: r for r in guides.b}
    return [(a[i], b[j], guides.divergences[j]) for i, j in guides.truth]


def test_same_seed_same_guides(guides):
    again = matching_data.generate(N, SEED)
    assert again.a == guides.a
    assert again.b == guides.b
    assert again.truth == guides.truth
    assert again.divergences == guides.divergences
    assert again.hard_negatives == guides.hard_negatives


def test_other_seed_other_guides(guides):
    assert matching_data.generate(N, SEED + 1).a != guides.a


def test_size_and_columns(guides):
    assert 0.9 * N <= len(guides.a) + len(guides.b) <= 1.1 * N
    for row in guides.a[:50] + guides.b[:50]:
        assert list(row) == matching_data.COLUMNS
        assert row["name"]


def test_truth_ids_in_both_guides(guides):
    ids_a = {r["id"] for r in guides.a}
    ids_b = {r["id"] for r in guides.b}
    assert len(ids_a) == len(guides.a) and len(ids_b) == len(guides.b)
    assert not ids_a & ids_b
    for id_a, id_b in guides.truth:
        assert id_a in ids_a and id_b in ids_b
    # each record is in at most one true pair
    assert len({a for a, _ in guides.truth}) == len(guides.truth) == len({b for _, b in guides.truth})
    assert 0.4 <= len(guides.truth) / len(guides.b) <= 0.6


def test_every_class_on_enough_pairs(guides):
    seen = Counter(kind for kinds in guides.divergences.values() for kind in kinds)
    assert not [kind for kind in matching_data.DIVERGENCES if not seen[kind]]
    assert set(guides.divergences) == {b for _, b in guides.truth}
    share = {kind: seen[kind] / len(guides.truth) for kind in matching_data.CLASSES}
    # at least ~200 pairs of each class at 100,000 records (~25,000 true pairs); most 3-25 %
    assert min(share.values()) >= 0.008, share
    assert 0.01 <= share["move"] <= 0.025, share
    assert sum(0.03 <= s <= 0.25 for s in share.values()) >= len(share) // 2, share


_WORD_ORDINALS = re.compile(r"\b(" + "|".join(sorted({w for k in range(1, 200) for w in ordinal_words(k).split()
                                                      if w not in ("one", "two", "hundred")}, key=len,
                                                     reverse=True)) + r")\b")
_NOTE = re.compile(r"\b(between|at|near|off|corner|across|opposite|in|next|by|facing|and)\b|[&@]")
_DIRS = {"n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west", "northeast", "northwest",
         "southeast", "southwest"}


def _digits(phone: str) -> str:
    digits = re.sub(r"\D", "", phone.replace("(0)", ""))
    return digits[1:] if len(digits) == 11 and digits[0] == "1" else digits


def _number(address: str) -> str:
    return next((t for t in re.split(r"[\s,]+", address) if t[:1].isdigit()), "")


def _street_shape(address: str) -> tuple:
    low = address.lower()
    return (bool(_WORD_ORDINALS.search(low)), bool(re.search(r"\b\d+ (st|ave|str|street|avenue|av)\b", low)))


CHECKS = {
    "notes_after_street": lambda x, y: x["address1"] != y["address1"] and any(
        _NOTE.search(a.lower().split(" ", 2)[-1]) for a in (x["address1"], y["address1"])),
    "building_in_address": lambda x, y: x["address1"] != y["address1"],
    "st_as_street": lambda x, y: any(re.search(r"\b(st\.?|saint)[,;]?\s+\S", a.lower()) for a in (x["address1"],
                                                                                          y["address1"])),
    "street_type_spelling": lambda x, y: x["address1"] != y["address1"],
    "ordinal_words_digits": lambda x, y: _street_shape(x["address1"]) != _street_shape(y["address1"])
    or bool(_WORD_ORDINALS.search(x["address1"].lower() + " " + y["address1"].lower())),
    "city_label_differs": lambda x, y: x["city"].lower() != y["city"].lower(),
    "name_qualifier": lambda x, y: x["name"] != y["name"],
    "move": lambda x, y: x["address1"] != y["address1"] and _digits(x["phone"]) == _digits(y["phone"]) != "",
    "phone_format": lambda x, y: x["phone"] != y["phone"] and _digits(x["phone"])[-8:] == _digits(y["phone"])[-8:],
    "name_typo": lambda x, y: x["name"] != y["name"],
    "house_number_typo": lambda x, y: _number(x["address1"]) != _number(y["address1"]),
    "street_typo": lambda x, y: x["address1"] != y["address1"],
    "accents_provinces": lambda x, y: (x["city"] != y["city"] or x["state"] != y["state"]),
}


@pytest.mark.parametrize("kind", [k for k in matching_data.CLASSES if k in CHECKS])
def test_labels_match_the_records(pairs, kind):
    # a typing error or a move may hide what the class wrote
    labelled = [(x, y) for x, y, k in pairs if kind in k and (kind in ("street_typo", "move", "name_typo")
                                                            or not {"street_typo", "move"} & set(k))]
    wrong = [(x["name"], x["address1"], y["name"], y["address1"]) for x, y in labelled if not CHECKS[kind](x, y)]
    assert labelled and not wrong, wrong[:5]


def test_directional_one_side(pairs):  # the directionals a note names aside
    def dirs(address: str) -> set[str]:
        return {t.replace(".", "").lower() for t in address.split()} & _DIRS
    plain = [(x, y) for x, y, k in pairs if "directional_one_side" in k
             and not {"notes_after_street", "building_in_address", "move", "street_typo"} & set(k)]
    assert plain and all(dirs(x["address1"]) != dirs(y["address1"]) for x, y in plain)


def test_examples_of_real_guides(pairs):
    assert any(x["name"].startswith("The ") and y["name"].endswith(", The") for x, y, _ in pairs)
    assert any("Café" in x["name"] and "Cafe" in y["name"] for x, y, _ in pairs)
    assert any({x["state"], y["state"]} == {"CA", "California"} for x, y, _ in pairs)
    assert any(x["phone"] and not y["phone"] for x, y, _ in pairs)
    assert any("  between " in x["address1"] + y["address1"] for x, y, _ in pairs)
    assert any(re.search(r"\bSaint \w", x["address1"] + y["address1"]) for x, y, _ in pairs)
    assert any(re.search(r"/ \d{3}-\d{4}$", x["phone"] + y["phone"]) for x, y, _ in pairs)
    cities = {r["city"] for x, y, _ in pairs for r in (x, y)}
    assert {"Brooklyn", "Santa Monica", "Toronto", "Paris"} <= cities
    assert cities & {"New York City", "NYC", "W. Hollywood", "Saint Louis", "Montreal", "Quebec"}


def test_hard_negatives(guides):
    kinds = Counter(kind for _, _, kind in guides.hard_negatives)
    assert set(matching_data.HARD_NEGATIVE_KINDS) <= set(kinds)
    assert not set(guides.truth) & {(a, b) for a, b, _ in guides.hard_negatives}
    a = {r["id"]: r for r in guides.a}
    b = {r["id"]: r for r in guides.b}
    chain = [(a[i], b[j]) for i, j, kind in guides.hard_negatives if kind == "chain"]
    # outlets of one brand: one name, other places; some on the brand's one central phone
    assert any(matching_data.fold_accents(x["name"]) == matching_data.fold_accents(y["name"])
               and x["phone"][-4:] != y["phone"][-4:] for x, y in chain if x["phone"] and y["phone"])
    assert any(x["phone"] and _digits(x["phone"]) == _digits(y["phone"]) and x["address1"] != y["address1"]
               for x, y in chain)
    same = [(a[i], b[j]) for i, j, kind in guides.hard_negatives if kind == "same_address"]
    assert any(x["address1"] and x["address1"].split()[0] == (y["address1"] or " ").split()[0]
               and x["name"] != y["name"] for x, y in same)
    halves = [(a[i], b[j]) for i, j, kind in guides.hard_negatives if kind == "other_directional"]
    assert len(halves) >= 10


def test_a_class_stream_does_not_move_the_others(guides, monkeypatch):
    kept = [t for t in divergences.TRANSFORMS if t[0] != "name_typo"]
    monkeypatch.setattr(divergences, "TRANSFORMS", kept)
    other = matching_data.generate(N, SEED)
    for kind in ("notes_after_street", "move", "ordinal_words_digits", "accents_provinces"):
        assert ({b for b, k in other.divergences.items() if kind in k}
                == {b for b, k in guides.divergences.items() if kind in k})


def test_a_small_dmo_of_one_metro():
    small = matching_data.generate(300, 5, metros=["Savannah"])
    assert 250 <= len(small.a) + len(small.b) <= 350
    assert len(small.truth) >= 50
    assert all(r["state"] in ("GA", "Georgia", "Ga.") for r in small.a + small.b)

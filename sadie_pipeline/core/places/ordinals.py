"""Ordinals in street names (address.py): in words of any size, mistyped ("Sevethnieth"), or with
the wrong suffix ("22th"), all written as digits with their suffix ("21st"). Pure: no I/O."""

from __future__ import annotations

from rapidfuzz.distance import OSA
from rapidfuzz.process import extractOne

from sadie_pipeline.core.places.tables import CARDINAL_WORDS, ORDINAL_WORDS

ORDINAL_SUFFIXES = frozenset({"st", "nd", "rd", "th"})
ORDINAL_STARTS = {w[:3] for w in ORDINAL_WORDS if len(w) >= 6}


def mistyped_ordinal(word: str) -> str:
    """An ordinal word one or two typing errors off ("Sixtietnh"), or the word as it is."""
    found = extractOne(word, [w for w in ORDINAL_WORDS if w[:3] == word[:3] and len(w) >= 6], scorer=OSA.distance,
                       score_cutoff=2 if len(word) >= 8 else 1)
    return found[0] if found else word


def number_words(toks: list[str], i: int) -> tuple[int, int]:
    """(end, value) of a run of number words that ends in an ordinal word, or (0, 0)."""
    total = 0
    for j in range(i, len(toks)):
        t = toks[j]
        value = ORDINAL_WORDS.get(t)
        if value is not None:
            return j + 1, max(total, 1) * 100 if value == 100 else total + value
        if t == "and" and total:  # "one hundred and twenty fifth"
            continue
        value = CARDINAL_WORDS.get(t)
        if value is None:
            return 0, 0
        total = max(total, 1) * 100 if value == 100 else total + value
    return 0, 0


def ordinal(n: int) -> str:
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def ordinal_suffix(t: str) -> str:
    """"22th" -> "22nd"; other words with digits ("38a", "i95") as they are."""
    digits = t[:-2]
    return ordinal(int(digits)) if t[-2:] in ORDINAL_SUFFIXES and digits.isdigit() else t

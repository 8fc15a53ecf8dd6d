"""The words of a listings search: distinct (case-insensitively), longest first, in slots for the
trigram index and the rest."""

from __future__ import annotations

from sadie_pipeline.core.search_words import MAX_WORDS, search_words, word_slots


def test_words_are_distinct_and_longest_first():
    assert search_words("  Café  CAFÉ LUNE  & ") == ["Café", "LUNE", "&"]
    assert search_words(None) == [] and search_words("   ") == []
    assert len(search_words(" ".join(f"w{i}" for i in range(40)))) == MAX_WORDS


def test_slots_take_the_first_words_and_keep_the_rest():
    assert word_slots(["auberge", "cote"], 4) == (["auberge", "cote", None, None], None)
    assert word_slots(["a", "b", "c", "d", "e", "f"], 4) == (["a", "b", "c", "d"], ["e", "f"])
    assert word_slots([], 2) == ([None, None], None)

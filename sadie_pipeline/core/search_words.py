"""The words of a listings search: the query split on spaces, each word once, the longest first
(the SQL gives the first few to the trigram index: a long word narrows the most)."""

from __future__ import annotations

MAX_WORDS = 12        # more words than a name has narrow nothing further
MAX_WORD_LENGTH = 100


def search_words(text: str | None) -> list[str]:
    """`text`'s distinct words (case-insensitively), longest first; [] for nothing to search."""
    seen: dict[str, str] = {}
    for word in (text or "").split():
        seen.setdefault(word.casefold(), word[:MAX_WORD_LENGTH])
    return sorted(seen.values(), key=len, reverse=True)[:MAX_WORDS]


def word_slots(words: list[str], slots: int) -> tuple[list[str | None], list[str] | None]:
    """The first `slots` words each in a slot (None for an empty one) and the rest (None: no more)."""
    return [*words[:slots], *[None] * (slots - len(words[:slots]))], words[slots:] or None

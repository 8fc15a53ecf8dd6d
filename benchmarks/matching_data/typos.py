"""Typing errors as people make them: a letter swapped with the next, dropped, doubled, or a
neighbouring key hit instead or as well; in a name, the space also slips a letter ("Candlewood
SuitesA bbott", "The Cedar aFlls", "Hilto nLama rBlvd"); in a house number, a digit replaced by
its neighbour on the keyboard or a letter, dropped, or two digits swapped ("384" / "38a",
"759" / "749", "11714" / "11724")."""

from __future__ import annotations

import random

_ROWS = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"]
_NEIGHBOURS: dict[str, str] = {}
for _r, _row in enumerate(_ROWS):
    for _c, _ch in enumerate(_row):
        near = _row[max(0, _c - 1):_c] + _row[_c + 1:_c + 2]
        for _other in (_r - 1, _r + 1):
            if 0 <= _other < len(_ROWS):
                near += _ROWS[_other][max(0, _c - 1):_c + 1]
        _NEIGHBOURS[_ch] = near


def neighbour_key(ch: str, rng: random.Random) -> str:
    near = _NEIGHBOURS.get(ch.lower())
    if not near:
        return ch
    out = rng.choice(near)
    return out.upper() if ch.isupper() else out


def _letter_edit(text: str, rng: random.Random, spaces: bool) -> str:
    """One edit at a letter of text (not its first: people rarely miss the first key)."""
    spots = [i for i in range(1, len(text)) if text[i].isalpha()]
    if not spots:
        return text
    i = rng.choice(spots)
    k = rng.randrange(6 if spaces else 5)
    if k == 0 and i + 1 < len(text) and text[i + 1] != text[i]:
        return text[:i] + text[i + 1] + text[i] + text[i + 2:]  # swapped with the next
    if k == 1 and len(text) > 4:
        return text[:i] + text[i + 1:]  # dropped
    if k == 2:
        return text[:i] + text[i] + text[i:]  # doubled
    if k == 3:
        return text[:i] + neighbour_key(text[i], rng) + text[i:]  # a neighbouring key as well
    if k == 5:
        return _space_slip(text, rng)
    return text[:i] + neighbour_key(text[i], rng) + text[i + 1:]  # a neighbouring key instead


def _space_slip(text: str, rng: random.Random) -> str:
    """The space typed one letter early or late ("Suites Abbott" -> "SuitesA bbott"), or lost."""
    spaces = [i for i in range(1, len(text) - 2) if text[i] == " " and text[i - 1].isalpha() and text[i + 1].isalpha()]
    if not spaces:
        return text
    i = rng.choice(spaces)
    k = rng.randrange(3)
    if k == 0:
        return text[:i] + text[i + 1] + " " + text[i + 2:]  # late
    if k == 1:
        return text[:i - 1] + " " + text[i - 1] + text[i + 1:]  # early
    return text[:i] + text[i + 1:]  # lost


def name_typo(name: str, rng: random.Random) -> str:
    """One typing error, two for one name in four."""
    out = _letter_edit(name, rng, True)
    if rng.random() < 0.25:
        out = _letter_edit(out, rng, True)
    return out


def word_typo(word: str, rng: random.Random) -> str:
    """One or two typing errors in one word ("Boelevard", "Pakrway", "Riverscide")."""
    out = _letter_edit(word, rng, False)
    if rng.random() < 0.25:
        out = _letter_edit(out, rng, False)
    return out


def number_typo(number: str, rng: random.Random) -> str:
    digits = [i for i, ch in enumerate(number) if ch.isdigit()]
    if not digits:
        return number
    k = rng.randrange(6)
    i = rng.choice(digits)
    if k == 0 and len(number) >= 2:
        j = i + 1 if i + 1 < len(number) else i - 1
        if number[i] != number[j]:
            a, b = min(i, j), max(i, j)
            return number[:a] + number[b] + number[a] + number[b + 1:]  # two swapped
    if k == 1 and len(digits) >= 2:
        return number[:i] + number[i + 1:]  # dropped
    if k == 2 and i == len(number) - 1 and len(number) >= 2:
        return number[:i] + rng.choice("abcdeqw")  # "384" -> "38a"
    if k == 3:
        return number[:i] + str((int(number[i]) + rng.choice([-1, 1])) % 10) + number[i + 1:]  # "11714" -> "11724"
    row = _ROWS[0]
    c = row.index(number[i])
    replaced = rng.choice(row[max(0, c - 1):c] + row[c + 1:c + 2])  # the key beside it: "759" -> "749"
    return number[:i] + replaced + number[i + 1:]

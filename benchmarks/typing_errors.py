"""Typing errors as people make them at a keyboard, for the benchmark generators.

Standard library only; deterministic for a seeded ``random.Random``.

* ``typo(rng, text, edits)``: one or two edits of free text (a name, a street word): a letter
  replaced by a neighbour on a QWERTY keyboard, two neighbouring letters swapped, a letter
  dropped or doubled, a neighbour key hit beside a letter, or a space moved one letter over
  ("Candlewood SuitesA bbott Juntcion", "The Cedar aFlls", "Hilto nLama rBlvd", "Boelevard",
  "Pakrway", "Riverscide"). The first letter is left alone: people see it.
* ``number_typo(rng, number)``: one edit of a house number, mostly a digit replaced by a
  neighbour on the number row or the numeric keypad ("759" / "749", "11714" / "11724"), now and
  then a letter of the row below for the last digit ("384" / "38e"), a swap, a drop or a doubled digit.

Edit shares follow the usual findings on keyboard typing errors: substitutions and omissions
most common, then transpositions and insertions, doubled letters and misplaced spaces least.
"""

from __future__ import annotations

import random

_ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm")
_STAGGER = (0.0, 0.5, 0.75, 1.25)  # each row's offset in key widths on a standard keyboard
_KEYPAD = {"7": (0, 0), "8": (1, 0), "9": (2, 0), "4": (0, 1), "5": (1, 1), "6": (2, 1),
           "1": (0, 2), "2": (1, 2), "3": (2, 2), "0": (0.5, 3)}  # the wide 0 under 1 and 2

# edit kind -> weight, for text and for house numbers
TEXT_EDITS = {"substitute": 30, "drop": 22, "swap": 16, "insert": 14, "double": 10, "space": 8}
NUMBER_EDITS = {"substitute": 70, "swap": 12, "drop": 9, "double": 9}


def _near(positions: dict[str, tuple[float, float]], reach: float) -> dict[str, str]:
    out = {}
    for key, (x, y) in positions.items():
        out[key] = "".join(k for k, (kx, ky) in positions.items()
                           if k != key and (kx - x) ** 2 + (ky - y) ** 2 <= reach ** 2)
    return out


# reach 1.3 key widths: the keys beside, and the two above and below a key (q: 1 2 w a)
NEIGHBOURS = _near({ch: (c + _STAGGER[r], r) for r, row in enumerate(_ROWS) for c, ch in enumerate(row)}, 1.3)
KEYPAD_NEIGHBOURS = _near(_KEYPAD, 1.2)


def neighbour(rng: random.Random, ch: str) -> str:
    """A key next to `ch` (its case kept); `ch` itself when it is not on the letter keys."""
    near = [k for k in NEIGHBOURS.get(ch.lower(), "") if k.isalpha()]  # a letter's: letters only
    if not near:
        return ch
    pick = rng.choice(near)
    return pick.upper() if ch.isupper() else pick


def _digit_neighbour(rng: random.Random, digit: str, last: bool) -> str:
    if last and rng.random() < 0.15:  # the last digit, from the row below the number row: 4 -> e or r
        letters = [c for c in NEIGHBOURS[digit] if c.isalpha()]
        if letters:
            return rng.choice(letters)
    digits = sorted(set(c for c in NEIGHBOURS[digit] if c.isdigit()) | set(KEYPAD_NEIGHBOURS[digit]))
    return rng.choice(digits)


def _space_moved(rng: random.Random, text: str) -> str | None:
    """A space between two words moved one letter left ("Hilto nLamar") or right ("SuitesA bbott")."""
    spaces = [i for i in range(2, len(text) - 2) if text[i] == " " and text[i - 2:i].isalpha()
              and text[i + 1:i + 3].isalpha()]
    if not spaces:
        return None
    s = rng.choice(spaces)
    if rng.random() < 0.5:
        return text[:s - 1] + " " + text[s - 1] + text[s + 1:]
    return text[:s] + text[s + 1] + " " + text[s + 2:]


def _apply(rng: random.Random, text: str, kind: str, spots: list[int], digits: bool) -> str | None:
    """`text` with one edit of `kind` at one of `spots` (indices of editable characters), or None."""
    if kind == "space":
        return _space_moved(rng, text)
    if not spots:
        return None
    p = rng.choice(spots)
    ch = text[p]
    if kind == "substitute":
        new = _digit_neighbour(rng, ch, p == len(text) - 1) if digits else neighbour(rng, ch)
        return text[:p] + new + text[p + 1:]
    if kind == "drop":
        return text[:p] + text[p + 1:] if len(text) > 1 else None
    if kind == "double":
        return text[:p] + ch + text[p:]
    if kind == "insert":  # the finger brushes a neighbouring key, before or after the letter
        extra = neighbour(rng, ch)
        return text[:p] + extra + text[p:] if rng.random() < 0.5 else text[:p + 1] + extra + text[p + 1:]
    # swap with the next character when both are editable and differ
    if p + 1 < len(text) and (p + 1) in spots and text[p + 1] != ch:
        return text[:p] + text[p + 1] + ch + text[p + 2:]
    return None


def _edited(rng: random.Random, text: str, weights: dict[str, int], digits: bool, edits: int) -> str:
    kinds, cum = list(weights), []
    for w in weights.values():
        cum.append((cum[-1] if cum else 0) + w)
    for _ in range(20):  # an edit that cannot apply (no space to move, nothing to swap) is drawn again
        out = text
        for _ in range(edits):
            spots = [i for i, c in enumerate(out) if (c.isdigit() if digits else c.isalpha()) and (digits or i > 0)]
            new = _apply(rng, out, rng.choices(kinds, cum_weights=cum)[0], spots, digits)
            if new is not None:
                out = new
        if out != text:
            return out
    return text


def typo(rng: random.Random, text: str, edits: int = 1) -> str:
    """`text` with `edits` typing errors (unchanged when it has no letter past the first)."""
    return _edited(rng, text, TEXT_EDITS, False, edits)


def number_typo(rng: random.Random, number: str) -> str:
    """A house number with one typing error, e.g. "759" -> "749"."""
    return _edited(rng, number, NUMBER_EDITS, True, 1)


def edit_count(rng: random.Random, two: float = 0.25) -> int:
    """One edit, or two with probability `two`."""
    return 2 if rng.random() < two else 1

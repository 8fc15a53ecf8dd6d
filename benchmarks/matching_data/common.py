"""What every module of the generator shares: the row layout, the result type, the place and
street records, seeded hashing and the per-class random streams, and small text helpers."""

from __future__ import annotations

import random
import unicodedata
from typing import NamedTuple

COLUMNS = ["id", "name", "address1", "city", "state", "zip", "country", "phone", "website", "lat", "lng"]
B_ID_BASE = 10_000_000


class Guides(NamedTuple):
    a: list[dict]
    b: list[dict]
    truth: list[tuple[int, int]]
    divergences: dict[int, list[str]]
    hard_negatives: list[tuple[int, int, str]]


class Street(NamedTuple):
    name: str  # "Main", "4th", "Broadway", "St Paul", "Rue Saint-Denis", "Torstraße"
    kind: str | None  # "St" ... (None when the name holds it)
    predir: str | None
    postdir: str | None
    lat: float
    lng: float
    bearing: float
    top: int  # highest house number


class Place:
    __slots__ = ("pid", "metro", "district", "category", "name", "street", "number", "suite", "building", "zip",
                 "phone", "domain", "path", "lat", "lng", "group", "group_kind", "in_a", "in_b", "chain", "moved")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))

    def copy(self, **changes) -> Place:
        out = Place(**{k: getattr(self, k) for k in self.__slots__})
        for k, v in changes.items():
            setattr(out, k, v)
        return out


def hash_seed(*parts) -> int:
    """A stable integer of the parts (str hash is salted per process)."""
    h = 1469598103934665603
    for part in parts:
        for ch in str(part).encode("utf-8") + b"\x1f":
            h = ((h ^ ch) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


class Streams:
    """One random stream per divergence class, seeded from the main seed and the class name.

    Each call of ``draw`` takes exactly two numbers from the class's stream, whatever the record
    or the outcome, and the details of an applied divergence come from a generator of their own:
    so adding a class, or changing what another class writes, leaves this class's records as
    they were."""

    def __init__(self, seed: int):
        self.seed = seed
        self._rngs: dict[str, random.Random] = {}

    def draw(self, name: str, rate: float) -> random.Random | None:
        rng = self._rngs.get(name)
        if rng is None:
            rng = self._rngs[name] = random.Random(hash_seed(self.seed, "class", name))
        u = rng.random()
        sub = rng.getrandbits(52)
        return random.Random(sub) if u < rate else None


def fold_accents(text: str) -> str:
    text = text.replace("œ", "oe").replace("Œ", "OE").replace("ß", "ss")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def bisect_right(seq: list[int], x: float) -> int:
    lo, hi = 0, len(seq)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < seq[mid]:
            hi = mid
        else:
            lo = mid + 1
    return min(lo, len(seq) - 1)


def expand_zips(template: str) -> list[str]:
    if "{" not in template:
        return [template]
    head, rest = template.split("{", 1)
    body, tail = rest.split("}", 1)
    out = []
    for part in body.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out += [head + str(k).zfill(len(lo)) + tail for k in range(int(lo), int(hi) + 1)]
        else:
            out.append(head + part + tail)
    return out


def pick(rng: random.Random, options: tuple[tuple[str, float], ...]) -> str:
    x = rng.random() * sum(w for _, w in options)
    for value, w in options:
        x -= w
        if x < 0:
            return value
    return options[-1][0]


# --- ordinals: "21st", "Twenty-First", "One Hundred Twenty-Fifth" ----------------------------------------

_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
         "seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORD_IRREGULAR = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
                  "nine": "ninth", "twelve": "twelfth"}


def ordinal_suffix(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def cardinal_words(k: int, hyphen: str = "-", and_: bool = False) -> str:
    if k < 20:
        return _UNITS[k]
    if k < 100:
        return _TENS[k // 10] + (hyphen + _UNITS[k % 10] if k % 10 else "")
    rest = k % 100
    head = f"{_UNITS[k // 100]} hundred"
    return head if not rest else f"{head} {'and ' if and_ else ''}{cardinal_words(rest, hyphen)}"


def ordinal_words(k: int, hyphen: str = "-", and_: bool = False) -> str:
    """1 -> "first", 21 -> "twenty-first", 125 -> "one hundred twenty-fifth" (lower case)."""
    words = cardinal_words(k, hyphen, and_)
    cut = max(words.rfind(" "), words.rfind(hyphen) if hyphen else -1)
    head, last = words[:cut + 1], words[cut + 1:]
    if last in _ORD_IRREGULAR:
        return head + _ORD_IRREGULAR[last]
    if last.endswith("y"):
        return head + last[:-1] + "ieth"
    return head + last + "th"


def ordinal_value(word: str) -> int | None:
    """21 for "21st" (None when the word is no digit ordinal)."""
    digits = word[:-2]
    if len(word) > 2 and digits.isdigit() and word[-2:].lower() in ("st", "nd", "rd", "th"):
        return int(digits)
    return None


def title_words(text: str) -> str:
    """"twenty-first" -> "Twenty-First", "one hundred twenty-fifth" -> "One Hundred Twenty-Fifth"."""
    return " ".join("-".join(p[:1].upper() + p[1:] for p in w.split("-")) for w in text.split(" "))

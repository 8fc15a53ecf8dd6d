"""The divergence classes of the address (real-world-divergences.md, "Places"): each function
changes one part of a record's ``Addr`` with its own random generator and marks what it wrote in
``draft.marks[class]``, which the labelling compares between the two records of a place."""

from __future__ import annotations

import random

from .common import Place, Street, hash_seed, ordinal_suffix, ordinal_value, ordinal_words, title_words
from .metros import COMPOUND_STREETS, PLURAL_TYPE, TYPE_VARIANTS
from .render import Draft
from .typos import number_typo, word_typo
from .words import ANCHORS, BUILDING_FORMS, BUILDING_WORDS, GRID_AVENUES, LANDMARKS, SURNAME

_WORD_VALUE = {ordinal_words(k, h): k for k in range(1, 200) for h in ("-", " ")}
# how a note is set off from the street: two spaces most often ("255 courtland st.  at harris st.")
_DIR_WORDS = {"North", "South", "East", "West"}  # streets named so take no directional of their own
_NOTE_SEPS = ["  ", "  ", "  ", ", ", ", ", " ", " (", " - ", "; "]


def _ordinal_text(k: int, rng: random.Random, words: float = 0.2) -> str:
    return title_words(ordinal_words(k)) if rng.random() < words else ordinal_suffix(k)


def cross_street(s: Street, rng: random.Random) -> str:
    """A cross street as a note writes it: "6th St.", "Hudson St.", "W. 4th St", "Park Ave. S"."""
    words = []
    if s.predir and rng.random() < 0.5:
        words.append(s.predir + ("." if len(s.predir) == 1 and rng.random() < 0.6 else ""))
    head, _, rest = s.name.partition(" ")
    k = ordinal_value(head)
    words.append((_ordinal_text(k, rng) + (" " + rest if rest else "")) if k else s.name)
    if s.kind and rng.random() < 0.8:
        words.append(rng.choice(TYPE_VARIANTS[s.kind][:3]))
    if s.postdir and rng.random() < 0.4:
        words.append(s.postdir)
    return " ".join(words)


def _grid_between(p: Place, rng: random.Random) -> str | None:
    """In a grid: a numbered street between two avenues, an avenue between two numbered streets."""
    k = ordinal_value(p.street.name.split(" ")[0])
    if k and p.street.kind == "St":
        i = rng.randrange(len(GRID_AVENUES) - 1)
        a, b = GRID_AVENUES[i], GRID_AVENUES[i + 1]
        if a[0].isdigit() and b[0].isdigit():
            return f"between {a} and {b} {rng.choice(['Aves.', 'Aves', 'Avenues', 'Ave.'])}"
        ave = lambda x: x if x in ("Broadway", "Park Ave. S") or x[0].isdigit() else f"{x} Ave."  # noqa: E731
        return f"between {ave(a)} and {ave(b)}"
    if p.street.kind == "Ave" or p.street.name in ("Broadway", "Amsterdam", "Columbus"):
        j = rng.randint(1, 180)
        return f"between {_ordinal_text(j, rng)} and {_ordinal_text(j + 1, rng)} {rng.choice(['Sts.', 'Sts', 'Streets'])}"
    return None


def _between(p: Place, rng: random.Random, others: list[Street]) -> str | None:
    grid = _grid_between(p, rng) if rng.random() < 0.7 else None
    if grid or len(others) < 2:
        return grid
    x, y = rng.sample(others, 2)
    if x.kind and x.kind == y.kind and x.kind in PLURAL_TYPE and not (x.predir or y.predir) and rng.random() < 0.6:
        return f"between {x.name} and {y.name} {rng.choice(PLURAL_TYPE[x.kind])}"  # "between Walker and White Sts."
    return f"between {cross_street(x, rng)} and {cross_street(y, rng)}"


def make_note(p: Place, rng: random.Random, streets: list[Street]) -> str:
    others = [s for s in streets if s.name != p.street.name] or streets
    x = rng.random()
    if x < 0.32:
        note = _between(p, rng, others)
        if note:
            return note
        x = rng.uniform(0.32, 1)
    cross = cross_street(rng.choice(others), rng)
    if x < 0.52:
        return f"at {cross}"
    if x < 0.64:
        return f"near {cross}"
    if x < 0.72:
        return f"{rng.choice(['off', 'just off'])} {cross}"
    if x < 0.80:
        own = p.street.name
        return rng.choice([f"corner of {own} and {cross}", f"at the corner of {cross}", f"on the corner of {cross}",
                           f"corner of {cross}"])
    if x < 0.86:
        return f"{rng.choice(['&', 'and', '@'])} {cross}"
    return f"{rng.choice(['at', 'near', 'across from', 'opposite', 'in', 'next to', 'by', 'facing'])} " \
           f"{rng.choice(LANDMARKS)}"


def notes_after_street(d: Draft, p: Place, rng: random.Random, gen) -> None:
    """A cross-street or landmark note after the street ("between walker and white sts.")."""
    d.addr.note = make_note(p, rng, gen.district_streets(p.metro, p.district))
    d.addr.note_sep = rng.choice(_NOTE_SEPS)
    d.marks["notes_after_street"] = d.addr.note


def building_name(p: Place, rng: random.Random) -> str:
    head = p.street.name.split(" ")[0]
    x = rng.random()
    word = (head if x < 0.3 and head.isalpha() and len(head) > 3 else rng.choice(BUILDING_WORDS) if x < 0.75
            else rng.choice(SURNAME))
    return rng.choice(BUILDING_FORMS).format(x=word)


def building_in_address(d: Draft, p: Place, rng: random.Random, gen) -> None:
    """A building, mall or complex named after the street or before it ("2290 Peachtree Rd.  Peachtree
    Square Shopping Center"); the place's own building, whichever guide writes it."""
    if d.addr.building:
        return
    own = random.Random(hash_seed(gen.rng_seed, "building", p.pid))
    name = p.building if p.building and own.random() < 0.6 else building_name(p, own)
    if ("Mall" in name or "Center" in name) and rng.random() < 0.3:
        name += rng.choice(["  near ", ", near ", "  next to "]) + rng.choice(ANCHORS)
    d.addr.building = name
    d.addr.building_before = rng.random() < 0.25
    d.addr.building_sep = rng.choice([", ", "  ", " - "] if d.addr.building_before else ["  ", "  ", ", ", " "])
    d.marks["building_in_address"] = name


def is_saint(name: str) -> bool:
    return name.startswith(("St ", "St. ", "Saint ", "ST. "))


def st_as_street(d: Draft, p: Place, rng: random.Random, gen) -> None:
    """A street named after a saint written another way ("St. Charles Ave" / "Saint Charles Avenue"):
    this St is Saint, the street's type St is Street."""
    head, _, rest = d.addr.name.partition(" ")
    d.addr.name = f"{rng.choice([c for c in ('St.', 'St', 'Saint', 'ST.') if c != head])} {rest}"
    d.marks["st_as_street"] = d.addr.name


def street_type_spelling(d: Draft, p: Place, rng: random.Random, gen) -> None:
    """"Blv." / "Blvd." / "Boulevard", "La." / "Lane", the type left out, "Northpoint" / "North Point"."""
    a, kind = d.addr, p.street.kind
    words = a.name.split(" ")
    x = rng.random()
    if len(words) == 2 and (a.name in COMPOUND_STREETS or x < 0.1) and all(w.isalpha() for w in words) and x < 0.4:
        a.name = words[0] + words[1].lower()  # "804 Northpoint" / "804 North Point St."
        if rng.random() < 0.5:
            a.kind = None
    elif x < 0.3 and not ordinal_value(words[0]) and not is_saint(a.name) and a.name not in _DIR_WORDS:
        a.kind = None  # not "678 South" for "678 South St."
    else:
        a.kind = rng.choice([v for v in TYPE_VARIANTS[kind] if v != a.kind])
    d.marks["street_type_spelling"] = f"{a.name}|{a.kind}"


def ordinal_words_digits(d: Draft, p: Place, rng: random.Random, gen) -> None:
    """"Ninth Ave." / "9th Ave.", "One Hundred Twenty-Fifth St." / "125th St.", "42 St"."""
    head, _, rest = d.addr.name.partition(" ")
    k = ordinal_value(head) or _WORD_VALUE.get(head.lower())
    if not k:
        return
    if ordinal_value(head):
        hyphen = "-" if rng.random() < 0.8 else " "
        form = title_words(ordinal_words(k, hyphen, and_=k > 100 and rng.random() < 0.2))
        form = form if rng.random() < 0.8 or not d.addr.kind else str(k)  # "42 St"
    else:
        form = ordinal_suffix(k) if rng.random() < 0.8 or not d.addr.kind else str(k)
    d.addr.name = form + (" " + rest if rest else "")
    d.marks["ordinal_words_digits"] = form


_DIR_FORMS = {"N": ["N.", "N", "North"], "S": ["S.", "S", "South"], "E": ["E.", "E", "East"],
              "W": ["W.", "W", "West"], "NE": ["NE", "N.E.", "Northeast"], "NW": ["NW", "N.W.", "Northwest"],
              "SE": ["SE", "S.E.", "Southeast"], "SW": ["SW", "S.W.", "Southwest"]}


def directional_one_side(d: Draft, p: Place, rng: random.Random, gen) -> None:
    """A directional one guide writes and the other leaves out, before or after the street
    ("3000 W. Paradise Rd." / "3000 Paradise Rd.", "2637 Peachtree Rd. NE", "8358 Sunset Blvd. West")."""
    a = d.addr
    if a.pre and a.post:
        if rng.random() < 0.5:
            a.pre = None
        else:
            a.post = None
    elif a.pre or a.post:
        a.pre = a.post = None
    elif a.name not in _DIR_WORDS:  # the street's own directional, which this guide writes
        h = hash_seed(gen.rng_seed, "dir", p.street.name)
        if h % 5 < 3:
            a.pre = rng.choice(_DIR_FORMS["NSEW"[(h >> 4) % 4]])
        else:
            a.post = rng.choice(_DIR_FORMS[("NE", "NW", "SE", "SW", "W", "E")[(h >> 4) % 6]])
    d.marks["directional_one_side"] = f"{a.pre}|{a.post}"


def street_typo(d: Draft, p: Place, rng: random.Random, gen) -> None:
    """A typing error in a street word ("Boelevard", "Pakrway", "Riverscide")."""
    a = d.addr
    words = a.name.split(" ")
    spots = [("name", i) for i, w in enumerate(words) if len(w) >= 4 and w.isalpha()]
    if a.kind and len(a.kind) >= 5 and a.kind.isalpha():
        spots.append(("kind", 0))
    if not spots:
        return
    where, i = rng.choice(spots)
    if where == "kind":
        a.kind = word_typo(a.kind, rng)
    else:
        words[i] = word_typo(words[i], rng)
        a.name = " ".join(words)
    d.marks["street_typo"] = a.street()


def house_number_typo(d: Draft, p: Place, rng: random.Random, gen) -> None:
    d.addr.number = number_typo(d.addr.number, rng)
    d.marks["house_number_typo"] = d.addr.number

"""Two parsed street lines compared (address.Street): one street, the same but for a typo, or two,
and house numbers that may be one door. Decided here:
- names are compared without spaces ("north point" = "northpoint"), with a directional spelled
  into the name on one side ("804 north point st." = "804 northpoint"), and one name may be the
  other's first words (what followed was a building's or a note's that no rule cut);
- a type or a directional present on one side only does not differ;
- two types of different kinds do differ: "Peachtree Rd" and "Peachtree St" are two streets in
  Atlanta; spellings and translations of one type are one kind ("blv."/"boulevard", "rue"/"street");
- two directionals that differ ("W 14th" / "E 14th") are two streets;
- typing edits (OSA) are allowed from 4 letters: 1 up to 5 letters, 2 from 6 (the pair's other
  fields decide between a typo and a neighbouring street); never between two numbered streets
  ("14th"/"15th") or names that start with other directions ("northpoint"/"southpoint").
Pure: no I/O."""

from __future__ import annotations

from rapidfuzz.distance import OSA

from sadie_pipeline.core.places.address import EMPTY, Street
from sadie_pipeline.core.places.normal import one_typo
from sadie_pipeline.core.places.tables import DIRECTION_WORDS, TYPE_CLASSES

SAME, SAME_TYPO, DIFFERENT, UNKNOWN = 3, 2, 1, 0
_LEAD_DIRS = ("north", "south", "east", "west")


def same_street(a: Street, b: Street) -> int:
    """3 the same street, 2 the same with one or two typing edits in the name, 1 two streets,
    0 unknown (a side has no street name). See the module's docstring for what counts."""
    if not a.name or not b.name:
        return UNKNOWN
    if a[1:5] == b[1:5]:  # predir, name, type, postdir: most pairs of one street
        return SAME
    ka, kb = a.key, b.key
    da = {d for d in (a.predir, a.postdir) if d}
    db = {d for d in (b.predir, b.postdir) if d}
    if ka != kb:  # a directional that is a word of the other side's name: "north point" / "northpoint"
        if _spelled(a, ka) == kb:
            da, ka = set(), kb
        elif _spelled(b, kb) == ka:
            db, kb = set(), ka
    if da and db and not (da <= db or db <= da):  # "W 14th" / "E 14th"
        return DIFFERENT
    if a.type and b.type and a.type != b.type and TYPE_CLASSES.get(a.type, a.type) != TYPE_CLASSES.get(b.type, b.type):
        return DIFFERENT
    if ka == kb:
        return SAME
    # "Avenue B" / "Avenue B Union Square": a one-letter name is the other's first word under one type
    shortest = 1 if a.type and a.type == b.type else 4
    return SAME_TYPO if _typo(ka, kb) or _first_words(a.name, b.name, shortest) else DIFFERENT


def _first_words(a: str, b: str, shortest: int = 4) -> bool:
    """One name is the other's first words: what follows is a building's or a note's that no rule
    cut ("Saint Laurent" / "Saint Laurent Nolan Mall", "Fulton Market" / "... Fulton House")."""
    short, long = sorted((a.split(), b.split()), key=len)
    return len(short) < len(long) and long[:len(short)] == short and len("".join(short)) >= shortest and not any(
        c.isdigit() for c in "".join(long[len(short):]))


def _spelled(s: Street, key: str) -> str:
    """The name with its directionals spelled in, or "" when it has none."""
    if not s.predir and not s.postdir:
        return ""
    return DIRECTION_WORDS.get(s.predir, "") + key + DIRECTION_WORDS.get(s.postdir, "")


def _typo(a: str, b: str) -> bool:
    """One typing edit from 4 letters, two from 6 ("Pind"/"Pine", "Femonf"/"Fremont"): the pair's
    other fields decide between a typo and a neighbouring street. Never between two numbered
    streets ("14th"/"15th"), a digit typed into a word is a typo ("Lak3")."""
    shortest, longest = sorted((len(a), len(b)))
    if shortest < 4 or longest - shortest > 2:
        return False
    digits_a, digits_b = [c for c in a if c.isdigit()], [c for c in b if c.isdigit()]
    if digits_a and digits_b and digits_a != digits_b:  # "14th" / "15th"
        return False
    lead_a = next((d for d in _LEAD_DIRS if a.startswith(d)), "")
    lead_b = next((d for d in _LEAD_DIRS if b.startswith(d)), "")
    if lead_a != lead_b and lead_a and lead_b:  # "northpoint" / "southpoint"
        return False
    return OSA.distance(a, b, score_cutoff=2) <= (1 if longest < 6 else 2)


def street_form(form: str) -> Street:
    """A Street back from its stored form "predir|name|type|postdir" (form.PlaceForm.street_form)."""
    if not form:
        return EMPTY
    predir, name, kind, postdir = form.split("|")
    return Street("", predir, name, kind, postdir)


def one_street(a: str, b: str) -> bool:
    """Whether two stored street forms are one street (a typo in the name included)."""
    return a == b or same_street(street_form(a), street_form(b)) >= SAME_TYPO


def number_close(a: str, b: str) -> bool:
    """Two house numbers that may be one door: equal, one keystroke apart (normal.one_typo:
    "384"/"38a", "759"/"749"), or one with a suffix the other lacks ("293b"/"293", "12-14"/"12",
    "123-1/2"/"123"). Only evidence together with the rest: "100"/"108" are close too."""
    if not a or not b:
        return False
    if a == b or one_typo(a, b) or a.lstrip("0") == b.lstrip("0"):
        return True
    base_a, base_b = _base(a), _base(b)
    return bool(base_a) and base_a == base_b


def _base(number: str) -> str:
    return number.split("-", 1)[0].rstrip("abcdefghijklmnopqrstuvwxyz")

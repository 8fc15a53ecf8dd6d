"""A street line as fields: house number, directionals, street name, street type, unit, and the
note that leaves the comparison (cross streets, landmarks, building and mall names).

    parse_street("42 e. 20th st. between park ave. s and broadway")
    -> Street(number="42", predir="e", name="20th", type="street", postdir="", unit="",
              note="between park ave s and broadway")

How a line is read, on folded words (normal.fold):
- units ("#8", "Suite 4", "Ste. 200", "2nd Floor", "Unit B") come out first, wherever they are;
- the house number is the first word, else the last ("Oranienstrasse 197", "Carrer de Verdi, 92");
  "293-b" is "293b", "12-14" and "123 1/2" are "12-14" and "123-1/2", leading zeros dropped;
- a line that starts with a note word ("in central park at 67th st.") has no street: all is note;
- the street ends at its type: the first strong type after a name word ("peachtree rd" in "3393
  peachtree rd. lenox square mall"), else a misspelt long type ("Boelevard"), else a weak type
  ("Court", "Square", also name words), else a type before the name ("Avenue Laurier", "Ave. A");
  a street known without a type ends after its name ("1501 Broadway Paramount Building");
  a directional after the type is the postdir; a note word ("at", "between", "near", "off",
  "corner", "and") ends it earlier; what follows is the note;
- "St" is Saint before a name at the start ("St Charles Ave", "rue St-Denis"), or before one
  name word and a strong type other than St ("Old St Augustine Rd"); elsewhere it is Street.

Comparison (same_street), decided here:
- names are compared without spaces ("north point" = "northpoint"), and with a directional
  spelled into the name on one side ("804 north point st." = "804 northpoint");
- a type or a directional present on one side only does not differ;
- two types of different kinds do differ: "Peachtree Rd" and "Peachtree St" are two streets in
  Atlanta, and a type changes with the street far more often than a source miswrites it; spellings
  and translations of one type are one kind ("blv."/"boulevard", "rue"/"street");
- two directionals that differ ("W 14th" / "E 14th") are two streets;
- typing edits (OSA) are allowed from 4 letters: 1 up to 5 letters, 2 from 6 (the pair's other
  fields decide between a typo and a neighbouring street); never between two numbered streets
  ("14th"/"15th") or names that start with other directions ("northpoint"/"southpoint").

Our own rules, not usaddress (issue 29): benchmarks/address_parsing.py measured the own parser,
usaddress (CRF), usaddress behind this module's note cutting (cut_notes) and usaddress-scourgify on
16 labelled classes of pairs. The own parser judged 98.7% of pairs right at ~6 us a record;
usaddress 86% at ~57 us, 92% behind the note cut at ~65 us, scourgify 84% at ~70 us. usaddress
won no class: it reads notes ("st. at fifth ave."), misspelt types ("Boelevard") and units into
the name, and a European line as a PO box; where all parsers fall short (look-alike names,
"Grant"/"Grand": 80%) same_street's typo rule decides, not the parsing. So no library at run
time. The ordinal words are ours too (text2num reads whole sentences, at a cost per record, for
a table of 30 words). Pure: no I/O."""

from __future__ import annotations

import re
from typing import NamedTuple

from rapidfuzz.distance import OSA
from rapidfuzz.process import extractOne

from sadie_pipeline.core.places.normal import fold, one_typo
from sadie_pipeline.core.places.tables import (
    CARDINAL_WORDS,
    DIRECTION_FORMS,
    DIRECTION_WORDS,
    LONG_TYPES,
    NAME_ABBREVIATIONS_STREET,
    NAME_PARTICLES,
    NOTE_WORDS,
    ORDINAL_WORDS,
    PRE_TYPE_ONLY,
    PRE_TYPES,
    ROUTE_TYPES,
    STREET_TYPE_FORMS,
    STRONG_TYPES,
    TYPE_CLASSES,
    TYPE_SUFFIXES,
    TYPELESS_STREETS,
    UNIT_FORMS,
)


class Street(NamedTuple):
    number: str = ""
    predir: str = ""
    name: str = ""
    type: str = ""
    postdir: str = ""
    unit: str = ""
    note: str = ""

    @property
    def key(self) -> str:
        """The name without spaces: what a blocking key "number + street" should hold, so that
        a type, a directional or a space present on one side only still finds the pair."""
        return self.name.replace(" ", "")


EMPTY = Street()
_HOUSE = re.compile(r"\d+[a-z]?(?:_\d+[a-z]?){0,2}$")
_TYPO_HOUSE = re.compile(r"\d[0-9a-z]*\d$")  # "9b4": a digit misread as a letter
_NUMBER_JOIN = re.compile(r"(?<!\w)(\d+)\s*(?:-\s*([a-z])(?!\w)|-\s*(\d+)(?![\w/])|\s+(\d)/(\d)(?!\w))", re.I)
_HASH = re.compile(r"#\s*(?=\w)")
_BRACKETS = re.compile(r"\(([^)]*)\)?|\[([^]]*)\]?")
_SUFFIXES = frozenset({"st", "nd", "rd", "th"})


def parse_street(line: str | None) -> Street:
    """The street line's fields; EMPTY when there is none. Never raises on text."""
    if not line:
        return EMPTY
    number, toks, unit, note = _prepare(line)
    if not toks or toks[0] in NOTE_WORDS:  # "in central park at 67th st.": no street to compare
        return Street(number, "", "", "", "", unit, _join(note, toks))
    predir = ""
    if len(toks) > 1 and toks[0] in DIRECTION_FORMS and _starts_name(toks, 1):
        predir, toks = DIRECTION_FORMS[toks[0]], toks[1:]
    words, kind, postdir, rest = _split_street(toks)
    name = _name_words(words, bool(kind) and kind not in ROUTE_TYPES)
    if not name:
        return Street(number, predir, "", "", "", unit, _join(note, toks))
    return Street(number, predir, name, kind, postdir, unit, _join(note, rest))


def cut_notes(line: str | None) -> tuple[str, str]:
    """(street line without its notes, the notes): the own parser's cut, as a pre-pass for a
    parser that would read the notes into the street (usaddress)."""
    if not line:
        return "", ""
    number, toks, unit, note = _prepare(line)
    if not toks or toks[0] in NOTE_WORDS:
        return " ".join(filter(None, (number, unit))), _join(note, toks)
    start = 1 if len(toks) > 1 and toks[0] in DIRECTION_FORMS and _starts_name(toks, 1) else 0
    rest = _split_street(toks[start:])[3]
    kept = toks[:len(toks) - len(rest)]
    return " ".join(filter(None, (number, *kept, unit))), _join(note, rest)


def street_of(number: str = "", predir: str = "", name: str = "", type: str = "", postdir: str = "",
              unit: str = "", note: str = "", pre_type: bool = False) -> Street:
    """A Street from another parser's raw fields (usaddress's tags), normalised as parse_street
    normalises its own: the parsers then differ only in how they cut the line."""
    words = _tokens(number)
    number = _number(words[0]) if len(words) == 1 and _HOUSE.match(words[0]) else "".join(words)
    kind = fold(type).replace(" ", "")
    kind = STREET_TYPE_FORMS.get(kind, kind)
    words = fold(name).split()
    if not kind and len(words) == 1 and (compound := _compound(words[0])):
        words, kind = [compound[0]], compound[1]
    return Street(number, DIRECTION_FORMS.get(fold(predir).replace(" ", ""), ""),
                  _name_words(words, bool(kind) and not pre_type) if words else "", kind,
                  DIRECTION_FORMS.get(fold(postdir).replace(" ", ""), ""), fold(unit), fold(note))


def _join(note: list[str], toks: list[str]) -> str:
    return ", ".join(filter(None, (*note, " ".join(toks))))


def _prepare(line: str) -> tuple[str, list[str], str, list[str]]:
    """(house number, street words, unit, notes cut so far) of a line."""
    note: list[str] = []
    if "(" in line or "[" in line:  # "(between 5th and 6th)"
        note = [fold(a or b) for a, b in _BRACKETS.findall(line)]
        line = _BRACKETS.sub(" ", line)
    toks, before, after = _street_part(line)
    for part in after:  # "123 Main St, Suite 200, Atlanta": a unit in its own part
        words = _tokens(part)
        if len(words) > 1 and (words[0] in UNIT_FORMS or (words[1] == "floor" and _floor(words[0]))):
            toks = toks + words
        elif words:
            note.append(" ".join(words))
    unit, toks = _take_unit(toks)
    number, toks, lead = _take_number(toks)
    return number, toks, unit, [*before, *lead, *note]


def _street_part(line: str) -> tuple[list[str], list[str], list[str]]:
    """(street words, folded parts before, raw parts after): the street is the first comma part
    that starts with a number, or a number alone with the part after it ("263, Avenue Laurier"), or
    a street written type first with the number after it ("Carrer de Verdi, 92", "C/ Parlament, 175
    Crown Center"); a building's name may come first, a unit or the town after."""
    if "," not in line:
        return _tokens(line), [], []
    parts = [p.strip() for p in line.split(",")]
    for k in range(len(parts) - 1):
        here, after = parts[k], parts[k + 1]
        if here.isdigit() and after and not after[:1].isdigit():  # "Nolan Center, 7619, boulevard Nguyen"
            return _tokens(f"{here} {after}"), _folded(parts[:k]), parts[k + 2:]
        if after[:1].isdigit() and not here[:1].isdigit() and _type_written_first(here):
            number, _, rest = after.partition(" ")  # "The Weiss Building, C/ Parlament, 91, Unit 212"
            return _tokens(f"{here} {number}"), _folded(parts[:k]), [p for p in (rest, *parts[k + 2:]) if p]
    k = next((k for k, p in enumerate(parts) if p[:1].isdigit()), 0)
    return _tokens(parts[k]), _folded(parts[:k]), parts[k + 1:]


def _folded(parts: list[str]) -> list[str]:
    return [fold(p) for p in parts if p]


def _type_written_first(part: str) -> bool:
    words = _tokens(part)
    return len(words) > 1 and STREET_TYPE_FORMS.get(words[0]) in PRE_TYPES


def _tokens(text: str) -> list[str]:
    """Folded words, a house number's hyphen, fraction or letter kept ("293-b", "12-14", "1/2")."""
    if "#" in text:  # "#8": a unit; a lone "#" is punctuation
        text = _HASH.sub(" unit ", text)
    if "½" in text:
        text = text.replace("½", " 1/2")
    if "-" in text or "/" in text:
        text = _NUMBER_JOIN.sub(_number_join, text)
    return fold(text).split()


def _number_join(m: re.Match) -> str:
    number, letter, second, top, bottom = m.groups()
    if letter:
        return number + letter
    return f"{number}_{second}" if second else f"{number}_{top}_{bottom}"


def _take_unit(toks: list[str]) -> tuple[str, list[str]]:
    """Units out of the words, wherever they are: "suite 4", "unit 8" ("#8"), "floor 2"."""
    units, keep, k, n = [], [], 0, len(toks)
    while k < n:
        t = toks[k]
        kind = UNIT_FORMS.get(t)
        if kind is not None:
            if kind == "floor" and keep and _floor(keep[-1]):  # "2nd floor", "ground floor"
                units.append(f"floor {_floor(keep.pop())}")
                k += 1
                continue
            if k + 1 < n and _unit_id(toks[k + 1]) and (k > 0 or n == 2 or kind != "box"):
                if kind == "box" and keep and keep[-1] == "po":
                    keep.pop()
                units.append(f"{kind} {toks[k + 1].replace('_', '-')}")
                k += 2
                continue
        keep.append(t)
        k += 1
    return " ".join(units), keep if units else toks


def _unit_id(t: str) -> bool:
    # short: a Florida "FL 33101" is a state and a postal code, not a floor
    return len(t) <= 4 and (len(t) == 1 or any(c.isdigit() for c in t))


def _floor(t: str) -> str:
    if t == "ground":
        return "ground"
    if t in ORDINAL_WORDS:
        return str(ORDINAL_WORDS[t])
    digits = t.rstrip("abcdefghijklmnopqrstuvwxyz")
    return digits if digits and digits.isdigit() and t[len(digits):] in _SUFFIXES else ""


def _take_number(toks: list[str]) -> tuple[str, list[str], list[str]]:
    """(house number, the other words, words before the number that are a building's name)."""
    if not toks:
        return "", toks, []
    t = toks[0]
    if t[0].isdigit() and (_HOUSE.match(t) or (len(toks) > 1 and _TYPO_HOUSE.match(t))):
        return _number(t), toks[1:], []
    last = toks[-1]
    if len(toks) > 1 and last[0].isdigit() and _HOUSE.match(last) and _not_route(toks[-2]):
        return _number(last), toks[:-1], []  # "Oranienstrasse 197", "Carrer de Verdi, 92"
    if t == "one" and len(toks) > 2 and toks[1] not in CARDINAL_WORDS and toks[1] not in ORDINAL_WORDS:
        return "1", toks[1:], []  # "One Market St", as buildings downtown are numbered
    if t not in NOTE_WORDS:  # "Lenox Square Mall 3393 Peachtree Rd"
        for k in range(1, len(toks) - 1):
            if toks[k][0].isdigit() and _HOUSE.match(toks[k]) and _not_route(toks[k - 1]):
                if STREET_TYPE_FORMS.get(t) in PRE_TYPES:  # "C/ Verdi 116 Carrer Arcade": a building after
                    return _number(toks[k]), toks[:k], [" ".join(toks[k + 1:])]
                return _number(toks[k]), toks[k + 1:], [" ".join(toks[:k])]
    return "", toks, []


def _not_route(t: str) -> bool:
    """"Route 66", "Calle 8", "Highway 1": the number after a type is the street's name."""
    kind = STREET_TYPE_FORMS.get(t)
    return kind is None or (kind not in PRE_TYPES and kind not in ROUTE_TYPES)


def _number(t: str) -> str:
    parts = t.split("_")
    # leading zeros kept: "082" is "2082" mistyped more often than a number written "0082"
    head = parts[0]
    if len(parts) == 3:
        return f"{head}-{parts[1]}/{parts[2]}"
    return f"{head}-{parts[1]}" if len(parts) == 2 else head


def _starts_name(toks: list[str], k: int) -> bool:
    """Whether toks[k] can begin a street name after a directional: not a strong type ("N St NW"
    is the street N) nor a note word."""
    t = toks[k]
    if t in NOTE_WORDS:
        return False
    if t == "st":
        return _saint_at(toks, k, len(toks))
    if t == "la" and k + 1 < len(toks) and toks[k + 1] not in DIRECTION_FORMS:
        return True  # "S La Cienega Blvd": an article
    return STREET_TYPE_FORMS.get(t) not in STRONG_TYPES or t in PRE_TYPE_ONLY


def _saint_at(toks: list[str], k: int, cut: int) -> bool:
    """"St" as Saint: before a name word, at the start or after a type written first ("rue St
    Denis"), or before one name word and a strong type other than St ("Old St Augustine Rd")."""
    if k + 1 >= cut:
        return False
    nxt = toks[k + 1]
    if nxt in STREET_TYPE_FORMS or nxt in DIRECTION_FORMS or nxt in UNIT_FORMS or nxt[0].isdigit():
        return False
    if k == 0 or STREET_TYPE_FORMS.get(toks[k - 1]) in PRE_TYPES or (k == 1 and toks[0] in DIRECTION_FORMS):
        return True  # "St Charles Ave", "rue St Denis", "N St Helena Pl"
    return k + 2 < cut and toks[k + 2] != "st" and STREET_TYPE_FORMS.get(toks[k + 2]) in STRONG_TYPES


def _split_street(toks: list[str]) -> tuple[list[str], str, str, list[str]]:
    """(name words, canonical type, postdir, the rest: the note)."""
    cut = next((k for k in range(1, len(toks)) if toks[k] in NOTE_WORDS and not _number_and(toks, k)), len(toks))
    if (pre := _type_first(toks, cut)) is not None:
        return pre
    strong = weak = -1
    for k in range(1, cut):
        kind = STREET_TYPE_FORMS.get(toks[k])
        if kind is None or toks[k] in PRE_TYPE_ONLY or (toks[k] == "st" and _saint_at(toks, k, cut)):
            continue
        if toks[k] == "la" and (toks[k - 1] in NAME_PARTICLES or STREET_TYPE_FORMS.get(toks[0]) in PRE_TYPES
                                or (k + 1 < cut and toks[k + 1] not in DIRECTION_FORMS)):
            continue  # "Calle de la Paz", "S La Cienega Blvd": an article; "Shady La.": Lane
        if kind in STRONG_TYPES:
            strong = k
            break
        if weak < 0:
            weak = k
    kind = STREET_TYPE_FORMS.get(toks[strong]) if strong > 0 else ""
    if strong < 0:
        strong, kind = _misspelt_type(toks, weak if weak > 0 else cut)
    if strong < 0 and (end := _typeless(toks, cut)):
        return _after_type(toks, toks[:end], "", end)
    if strong < 0 and weak > 0:
        while weak + 1 < cut and toks[weak + 1] in STREET_TYPE_FORMS:  # "River Walk Ct": the last one
            weak += 1
        strong, kind = weak, STREET_TYPE_FORMS[toks[weak]]
    if strong > 0:
        return _after_type(toks, toks[:strong], kind, strong + 1)
    if len(toks) == 1 and (compound := _compound(toks[0])):  # "oranienstrasse"
        return [compound[0]], compound[1], "", []
    first = STREET_TYPE_FORMS.get(toks[0])
    if first in PRE_TYPES and cut > 1 and (toks[1] not in STREET_TYPE_FORMS or _saint_at(toks, 1, cut)):
        # "avenue laurier", "ave a", "rue st denis"
        name, postdir = toks[1:cut], ""
        if len(name) > 1 and name[-1] in DIRECTION_FORMS:
            name, postdir = name[:-1], DIRECTION_FORMS[name[-1]]
        return name, first, postdir, toks[cut:]
    name, postdir = toks[:cut], ""
    if cut > 1 and name[-1] in DIRECTION_FORMS:  # "broadway e"
        name, postdir = name[:-1], DIRECTION_FORMS[name[-1]]
    return name, "", postdir, toks[cut:]


def _type_first(toks: list[str], cut: int) -> tuple[list[str], str, str, list[str]] | None:
    """A street whose type comes first ("Avenue du Mont-Royal Est", "Rue St-Denis"): its name runs to
    the next type word ("... Avenue Station": a building's), note word or the end; None otherwise."""
    first = STREET_TYPE_FORMS.get(toks[0])
    if first not in PRE_TYPES or len(toks) < 2 or (toks[1] in STREET_TYPE_FORMS and not _saint_at(toks, 1, cut)):
        return None
    end = next((k for k in range(2, cut) if toks[k] in STREET_TYPE_FORMS and toks[k] not in NAME_PARTICLES
                and not (toks[k] == "st" and _saint_at(toks, k, cut))), cut)
    name, postdir = toks[1:end], ""
    if len(name) > 1 and name[-1] in DIRECTION_FORMS:
        name, postdir = name[:-1], DIRECTION_FORMS[name[-1]]
    return name, first, postdir, toks[end:]


def _number_and(toks: list[str], k: int) -> bool:
    """"and" inside a number in words ("one hundred and twenty fifth"), not a note's."""
    return toks[k] == "and" and toks[k - 1] in CARDINAL_WORDS and k + 1 < len(toks) and (
        toks[k + 1] in CARDINAL_WORDS or toks[k + 1] in ORDINAL_WORDS)


def _after_type(toks: list[str], name: list[str], kind: str, j: int) -> tuple[list[str], str, str, list[str]]:
    if kind in ROUTE_TYPES and j < len(toks) and toks[j][0].isdigit():  # "US Highway 1": route "1"
        name, j = [toks[j]], j + 1
    postdir = ""
    if j < len(toks) and toks[j] in DIRECTION_FORMS:
        postdir, j = DIRECTION_FORMS[toks[j]], j + 1
    return name, kind, postdir, toks[j:]


def _typeless(toks: list[str], cut: int) -> int:
    """Where a street named without a type ends ("broadway", "the embarcadero"), or 0."""
    k = 1 if toks[0] == "the" else 0
    return k + 1 if k + 1 < cut and toks[k] in TYPELESS_STREETS else 0


def _misspelt_type(toks: list[str], end: int) -> tuple[int, str]:
    """A long type one edit away (two from 8 letters): "Boelevard", "Pakrway", "Steeet"; a
    word of five letters only where the type stands, last ("Stret")."""
    for k in range(1, end):
        t = toks[k]
        if (len(t) >= 6 or (len(t) == 5 and k == end - 1)) and not t[0].isdigit() and t not in NAME_PARTICLES:
            found = extractOne(t, LONG_TYPES, scorer=OSA.distance, score_cutoff=2 if len(t) >= 8 else 1)
            if found:
                return k, found[0]
    return -1, ""


def _compound(word: str) -> tuple[str, str] | None:
    for suffix, kind in TYPE_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[:-len(suffix)], kind
    return None


def _name_words(toks: list[str], numbered: bool) -> str:
    """The name: ordinals as digits ("twenty first" -> "21st"), St/Ste/Mt/Ft spelled out,
    particles dropped; a bare number before a type is an ordinal ("W 21 St" = "W 21st St")."""
    out: list[str] = []
    i, n = 0, len(toks)
    while i < n:
        t = toks[i]
        i += 1
        if t in NAME_PARTICLES:
            continue
        if t in CARDINAL_WORDS or t in ORDINAL_WORDS:
            end, value = _number_words(toks, i - 1)
            if end:
                out.append(_ordinal(value))
                i = end
                continue
        elif t[0].isdigit():
            if t[-1] > "9":
                t = _ordinal_suffix(t)
        else:
            t = NAME_ABBREVIATIONS_STREET.get(t, t)
        out.append(t)
    if not out:  # "the", "la" alone are the name
        out = toks[:]
    if numbered and len(out) == 1 and out[0].isdigit():
        out[0] = _ordinal(int(out[0]))
    return " ".join(out)


def _number_words(toks: list[str], i: int) -> tuple[int, int]:
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


def _ordinal(n: int) -> str:
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _ordinal_suffix(t: str) -> str:
    """"22th" -> "22nd"; other words with digits ("38a", "i95") as they are."""
    digits = t[:-2]
    return _ordinal(int(digits)) if t[-2:] in _SUFFIXES and digits.isdigit() else t


# --- comparison -----------------------------------------------------------------------------------
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
    return SAME_TYPO if _typo(ka, kb) or _first_words(a.name, b.name) else DIFFERENT


def _first_words(a: str, b: str) -> bool:
    """One name is the other's first words: what follows is a building's or a note's that no rule
    cut ("Saint Laurent" / "Saint Laurent Nolan Mall", "Fulton Market" / "... Fulton House")."""
    short, long = sorted((a.split(), b.split()), key=len)
    return len(short) < len(long) and long[:len(short)] == short and len("".join(short)) >= 4 and not any(
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

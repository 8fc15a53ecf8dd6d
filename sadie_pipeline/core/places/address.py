"""A street line as fields: house number, directionals, street name, street type, unit, and the
note that leaves the comparison (cross streets, landmarks, building and mall names).

    parse_street("42 e. 20th st. between park ave. s and broadway")
    -> Street(number="42", predir="e", name="20th", type="street", postdir="", unit="",
              note="between park ave s and broadway")

How a line is read, on folded words (normal.fold):
- units ("#8", "Suite 4", "Ste. 200", "2nd Floor", "Unit B") come out first, wherever they are;
- the house number is the first word, else the last ("Oranienstrasse 197", "Carrer de Verdi, 92");
  "293-b" is "293b", "12-14" and "123 1/2" are "12-14" and "123-1/2", leading zeros kept;
- a line that starts with a note word ("in central park at 67th st.") has no street: all is note;
- the street ends at its type: the first strong type after a name word ("peachtree rd" in "3393
  peachtree rd. lenox square mall"), else a misspelt long type ("Boelevard"), else a weak type
  ("Court", "Square", also name words), else a type before the name ("Avenue Laurier", "Ave. A");
  a street known without a type ends after its name ("1501 Broadway Paramount Building");
  a directional after the type is the postdir; a note word ("at", "between", "near", "off",
  "corner", "and") ends it earlier; what follows is the note;
- "St" is Saint before a name at the start ("St Charles Ave", "rue St-Denis"), or before one
  name word and a strong type other than St ("Old St Augustine Rd"); elsewhere it is Street.

Comparison: streets.py. A building, a note or a second address part may come first ("Plaza Tower -
724 Avenue du Mont-Royal Est", "The Weiss Building, C/ Parlament, 91").

Our own rules, not usaddress: benchmarks/address_parsing.py measures this parser, usaddress (CRF),
usaddress behind this module's note cutting and usaddress-scourgify per class of pairs; usaddress
won no class (it reads notes, misspelt types and units into the name) at ten times the cost. The
ordinal words are ours too (text2num reads whole sentences, for a table of 30 words). Pure."""

from __future__ import annotations

import re
from typing import NamedTuple

from rapidfuzz.distance import OSA
from rapidfuzz.process import extractOne

from sadie_pipeline.core.places.normal import fold
from sadie_pipeline.core.places.ordinals import (
    ORDINAL_STARTS,
    ORDINAL_SUFFIXES,
    mistyped_ordinal,
    number_words,
    ordinal,
    ordinal_suffix,
)
from sadie_pipeline.core.places.tables import (
    CARDINAL_WORDS,
    DIRECTION_FORMS,
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
# A house number inside a comma part, after a note or a building's name: a number then a word.
_TAIL_NUMBER = re.compile(r"(?:^|[\s-])(\d+[A-Za-z]?)\s*$")
_INNER_NUMBER = re.compile(r"(?:^|[\s-])(\d+[A-Za-z]?\s+[A-Za-z])")


def parse_street(line: str | None) -> Street:
    """The street line's fields; EMPTY when there is none. Never raises on text."""
    if not line:
        return EMPTY
    number, toks, unit, note = _prepare(line)
    if not toks or toks[0] in NOTE_WORDS:  # "in central park at 67th st.": no street to compare
        return Street(number, "", "", "", "", unit, _join(note, toks))
    predir = ""
    if len(toks) > 1 and toks[0] in DIRECTION_FORMS and _starts_name(toks, 1) and not (
            len(toks) == 2 and _misspelt_type(toks, 2)[0] > 0):  # "267 South Streset": South is the name
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
            toks = toks + words[:2]  # "Suite 100 Peter Arcade": the arcade is a note
            if words[2:]:
                note.append(" ".join(words[2:]))
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
        tail = _TAIL_NUMBER.search(here)
        if tail and _type_written_first(after):  # "The Harbor - 1880, Rue Sainte-Catherine Ouest"
            return (_tokens(f"{tail.group(1)} {after}"), [*_folded(parts[:k]), fold(here[:tail.start(1)])],
                    parts[k + 2:])
        if after[:1].isdigit() and not here[:1].isdigit() and _type_written_first(here):
            number, _, rest = after.partition(" ")  # "The Weiss Building, C/ Parlament, 91, Unit 212"
            return _tokens(f"{here} {number}"), _folded(parts[:k]), [p for p in (rest, *parts[k + 2:]) if p]
    k = next((k for k, p in enumerate(parts) if p[:1].isdigit()), None)
    if k is None:  # "Edgewood Square, near Barneys - 3957 Edgewood Ave": the number inside a part
        k = next((k for k, p in enumerate(parts) if _INNER_NUMBER.search(p)), None)
        if k is not None:
            at = _INNER_NUMBER.search(parts[k]).start(1)
            return _tokens(parts[k][at:]), [*_folded(parts[:k]), fold(parts[k][:at])], parts[k + 1:]
        # "Cooper Plaza, Espositostraße 114, Ste. 121": a building's name, then a street written
        # number last (not a unit: "Suite 121" ends with a number too)
        k = next((k for k, p in enumerate(parts) if k and _number_last_street(p)), 0)
    return _tokens(parts[k]), _folded(parts[:k]), parts[k + 1:]


def _number_last_street(part: str) -> bool:
    words = _tokens(part)
    return (len(words) > 1 and bool(_TAIL_NUMBER.search(part)) and words[0] not in UNIT_FORMS
            and not _floor(words[0]) and any(w.isalpha() for w in words[:-1]))


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
            street_after = kind == "building" and any(STREET_TYPE_FORMS.get(w) in STRONG_TYPES for w in toks[k + 2:])
            if k + 1 < n and _unit_id(toks[k + 1]) and (k > 0 or n == 2 or kind != "box") and not street_after:
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
    return digits if digits and digits.isdigit() and t[len(digits):] in ORDINAL_SUFFIXES else ""


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
    if t == "one" and len(toks) > 2 and toks[1] not in CARDINAL_WORDS and toks[1] not in ORDINAL_WORDS \
            and not any(w[0].isdigit() for w in toks[2:]):
        return "1", toks[1:], []  # "One Market St", as buildings downtown are numbered (not "One Lenox Place 3550 ...")
    if t not in NOTE_WORDS:  # "Lenox Square Mall 3393 Peachtree Rd"
        for k in range(1, len(toks) - 1):
            # a number after a type word is a route's ("Calle 8") unless a street follows it
            # ("One Kintetsu Place 1622 Melrose Ave": a building, then the address)
            if toks[k][0].isdigit() and _HOUSE.match(toks[k]) and (
                    _not_route(toks[k - 1]) or any(STREET_TYPE_FORMS.get(w) in STRONG_TYPES for w in toks[k + 2:])):
                after = toks[k + 1:]
                if k == 1 and _compound(t):  # "Oranienstr. 40 Oranienstrasse Towers"
                    return _number(toks[k]), toks[:k], [" ".join(after)]
                if STREET_TYPE_FORMS.get(t) in PRE_TYPES and not any(w in STREET_TYPE_FORMS for w in after):
                    # "C/ Verdi 116 Galleria": the street before its number, a building after; but
                    # "Plaza Tower 724 Avenue du Mont-Royal": a building, then the address
                    return _number(toks[k]), toks[:k], [" ".join(after)]
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
    if k + 1 < len(toks) and toks[k + 1] in STREET_TYPE_FORMS:
        return True  # "E Pike St": a type word named by the type after it
    return STREET_TYPE_FORMS.get(t) not in STRONG_TYPES or t in PRE_TYPE_ONLY


def _saint_at(toks: list[str], k: int, cut: int) -> bool:
    """"St" as Saint: before a name word, at the start or after a type written first ("rue St
    Denis"), or before one name word and a strong type other than St ("Old St Augustine Rd")."""
    if k + 1 >= cut:
        return False
    nxt = toks[k + 1]
    if nxt in STREET_TYPE_FORMS or nxt in DIRECTION_FORMS or nxt in UNIT_FORMS or nxt[0].isdigit():
        return False
    if k == 0 or STREET_TYPE_FORMS.get(toks[k - 1]) in PRE_TYPES or (k == 1 and toks[0] in DIRECTION_FORMS) or (
            k == 1 and _misspelt_pre_type(toks[0])):
        return True  # "St Charles Ave", "rue St Denis", "N St Helena Pl", "boluevard St-Laurent"
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
            while strong + 1 < cut and STREET_TYPE_FORMS.get(toks[strong + 1]) in STRONG_TYPES:
                strong += 1  # "Pike Street", "Park Avenue Road": the last of a run is the type
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
    if first is None and len(toks) > 1 and _misspelt_type(toks, len(toks))[0] < 0:
        first = _misspelt_pre_type(toks[0])  # not when a type follows: "Boelevard Pakrway"
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


def _misspelt_pre_type(word: str) -> str | None:
    """A long type written first and mistyped ("Boulevaafd Saint-Germain", "Avneue Laurier")."""
    if len(word) < 6 or word[0].isdigit():
        return None
    found = extractOne(word, _LONG_PRE_TYPES, scorer=OSA.distance, score_cutoff=2 if len(word) >= 8 else 1)
    return found[0] if found else None


_LONG_PRE_TYPES = tuple(t for t in LONG_TYPES if t in PRE_TYPES)


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
        if t not in CARDINAL_WORDS and t not in ORDINAL_WORDS and len(t) >= 6 and t[:3] in ORDINAL_STARTS:
            t = toks[i - 1] = mistyped_ordinal(t)  # "Sevethnieth", "Thirteentgh"
        if t in CARDINAL_WORDS or t in ORDINAL_WORDS:
            end, value = number_words(toks, i - 1)
            if end:
                out.append(ordinal(value))
                i = end
                continue
        elif t[0].isdigit():
            if t[-1] > "9":
                t = ordinal_suffix(t)
        else:
            t = NAME_ABBREVIATIONS_STREET.get(t, t)
        out.append(t)
    if not out:  # "the", "la" alone are the name
        out = toks[:]
    if numbered and len(out) == 1 and out[0].isdigit():
        out[0] = ordinal(int(out[0]))
    return " ".join(out)

"""Normalisation of place fields into comparison keys: accents folded, names without a city
suffix or a moved "The", street and house number apart, states and provinces as codes, cities
through an alias table, phones as E.164, websites as registrable domain plus property key."""

from __future__ import annotations

import re
import unicodedata
from enum import IntEnum
from functools import lru_cache

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from sadie_pipeline.core.normalize import PhoneError, match_key, phone_to_e164, registrable_domain
from sadie_pipeline.core.places.tables import (
    CITY_ALIASES,
    DIRECTION_WORDS,
    DISTINCT_WORDS,
    LODGING_WORDS,
    NAME_ABBREVIATIONS,
    NAME_ABBREVIATIONS_STREET,
    NAME_STOP,
    PARENT_BRANDS,
    STATES,
    VENUE_WORDS,
)

_CITY_ABBREVIATIONS = {**NAME_ABBREVIATIONS_STREET, "pt": "port", **{d: DIRECTION_WORDS[d] for d in "nsew"}}
# Letters NFKD does not take apart: "Sœur" is "Soeur", not "Sur".
_LIGATURES = str.maketrans({"ß": "ss", "œ": "oe", "Œ": "Oe", "æ": "ae", "Æ": "Ae", "ø": "o", "Ø": "O", "ł": "l",
                            "Ł": "L", "đ": "d", "Đ": "D", "þ": "th", "ı": "i"})
_PARENS = re.compile(r"\([^)]*\)|\[[^]]*\]")
_TRAILING_THE = re.compile(r",\s*(the|le|la|les|el|il)\s*$", re.IGNORECASE)
_LOCALE = re.compile(r"^[a-z]{2}(?:[-_][a-z]{2})?$")
_PAGE_EXT = re.compile(r"\.(?:html?|php|aspx?|jsp)$")
_GENERIC_SEGMENTS = frozenset({
    "hotels", "hotel", "home", "index", "default", "overview", "hoteldetail", "hotel-detail",
    "hotel-overview", "travel", "stay", "rooms", "welcome", "main", "book", "booking", "reservations",
    "reserve", "properties", "property", "locations", "location", "amp", "restaurants", "restaurant",
})


def fold(value: str | None) -> str:
    """match_key with accents folded: "Québec" and "Quebec" are one key."""
    if not value:
        return ""
    if not value.isascii():
        value = unicodedata.normalize("NFKD", value.translate(_LIGATURES)).encode("ascii", "ignore").decode()
    return match_key(value.replace("&", " and ").replace("'", "").replace("-", " "))


# Caches only where values repeat (towns, states): a cache of every name or address would hold
# hundreds of thousands of entries that are never asked for again.
@lru_cache(maxsize=16384)
def city_key(city: str | None) -> str:
    """The town's key: abbreviations spelled out, aliases resolved, a state or country after a
    comma dropped ("Savannah, GA", "London, UK")."""
    if city and "," in city:
        head, _, tail = city.rpartition(",")
        if head.strip() and (fold(tail) in STATES or fold(tail) in _COUNTRIES or len(fold(tail)) == 2):
            city = head
    key = " ".join(_CITY_ABBREVIATIONS.get(t, t) for t in fold(city).split())
    return CITY_ALIASES.get(key, key)


@lru_cache(maxsize=4096)
def state_key(state: str | None) -> str:
    """A state or province as its code: "Ill.", "Illinois", "IL"; "P.Q.", "Qué.", "Québec", "QC"."""
    key = fold(state)
    code = STATES.get(key) or STATES.get(key.replace(" ", ""))
    if code:
        return code
    return key.upper()


_COUNTRIES = frozenset({"uk", "usa", "us", "united states", "canada", "france", "spain", "germany", "england",
                        "united kingdom", "espana", "deutschland", "mexico", "italy", "italia"})


def zip_key(postal: str | None) -> str:
    return (postal or "").replace(" ", "").replace("-", "")[:5].upper()


def name_core(name: str | None, city: str = "") -> str:
    """The name's distinctive form: no bracketed or dashed city suffix, no leading or trailing
    "The", "&" as "and", abbreviations spelled out, the record's own city name dropped."""
    if city and name and (" - " in name or ", " in name):
        return _name_core(name, city)
    full = _name_core(name, "")  # shared by the records of every town
    if not city or not full:
        return full
    words = full.split()
    core = _without_town(words, city)
    return full if core is words else " ".join(core)  # the same string when nothing was dropped


@lru_cache(maxsize=1024)  # a record asks for its name twice: with its town and without
def _name_core(name: str | None, city: str) -> str:
    raw = _TRAILING_THE.sub("", _PARENS.sub(" ", name or ""))
    for sep in (" - ", ", "):  # "Spago - Beverly Hills", "Honest Mill Records, Chicago"
        head, _, tail = raw.rpartition(sep)
        if city and head and (fold(tail) == city or city_key(tail) == city):
            raw = head
    toks = [NAME_ABBREVIATIONS.get(t, t) for t in fold(raw).split()]
    toks = [t for k, t in enumerate(toks) if t != "and" and not _parent_tail(toks, k)]
    if toks and toks[0] == "the":  # not "La" or "El": "La Quinta" is the name
        toks = toks[1:]
    return " ".join(_without_town(toks, city))


def _without_town(toks: list[str], city: str) -> list[str]:
    """The name's words without the town's name, also misspelt ("Goldpurt" in Goldport)."""
    words = city.split()
    if not words or len(toks) <= len(words):
        return toks
    for start in range(len(toks) - len(words) + 1):
        window = " ".join(toks[start:start + len(words)])
        if window == city or (len(city) >= 6 and window[0] == city[0] and abs(len(window) - len(city)) <= 2
                              and fuzz.ratio(window, city) >= 85):
            return toks[:start] + toks[start + len(words):]
    return toks


def lookalike_words(a: str, b: str) -> bool:
    """Every distinctive word one name has and the other lacks has a look-alike there: a typo
    ("hottel"), a short form ("deli" for "delicatessen") or spacing. Not "uptown" for "midtown",
    an added "airport" or "north" for "south"."""
    sa, sb = set(a.split()), set(b.split())
    left_a = [t for t in a.split() if t not in sb]
    left_b = [t for t in b.split() if t not in sa]
    if all(t in NAME_STOP for t in left_a) and all(t in NAME_STOP for t in left_b):
        return True
    if left_a and left_b and all(any(len(x) >= 3 and (y.startswith(x) or x.startswith(y)) for y in left_b) for x in left_a) \
            and all(any(len(y) >= 3 and (x.startswith(y) or y.startswith(x)) for x in left_a) for y in left_b):
        return True
    return bool(left_a) and bool(left_b) and fuzz.ratio("".join(left_a), "".join(left_b)) >= 75


class Venues(IntEnum):
    """How two names differ in the kind of venue they name."""
    SAME = 0  # no kind of venue on one side only
    ONE_SIDED = 1  # one adds a kind ("Lee" / "Lee Restaurant"): its own qualifier, or a hotel's restaurant
    TWO = 2  # two venues ("Ritz-Carlton Cafe" / "Restaurant Ritz-Carlton", "Crow Hotel" / "Crow Hotel Grill")


def venues(a: str, b: str) -> Venues:
    """Two names' kinds of venue: each a kind the other lacks, a hotel's name and a kind added to it,
    or "<kind> at <the other>" ("The Bar at Martin" / "The Martin") are two venues of one building."""
    wa, wb = a.split(), b.split()
    sa, sb = set(wa), set(wb)
    # a kind the other side has mistyped ("Mexican Girll") is no other kind
    kinds_a = {w for w in (sa - sb) & VENUE_WORDS if not _lookalike(w, sb - sa)}
    kinds_b = {w for w in (sb - sa) & VENUE_WORDS if not _lookalike(w, sa - sb)}
    if kinds_a and kinds_b:
        return Venues.TWO
    if not kinds_a and not kinds_b:
        return Venues.SAME
    longer, shorter, kinds = (wa, sb, kinds_a) if kinds_a else (wb, sa, kinds_b)
    if shorter & LODGING_WORDS:
        return Venues.TWO
    if "at" in longer:
        at = longer.index("at")
        if set(longer[:at]) & kinds and shorter <= set(longer[at + 1:]) | {"the"}:
            return Venues.TWO
    return Venues.ONE_SIDED


def _lookalike(word: str, others: set[str]) -> bool:
    """Whether one of `others` is `word` mistyped (one edit from four letters, two from seven)."""
    return any(min(len(word), len(o)) >= 4 and OSA.distance(word, o, score_cutoff=2) <= (2 if len(word) >= 7 else 1)
               for o in others)


def contained(a: str, b: str) -> bool:
    """Whether every word of the shorter name is in the longer, also mistyped ("The Kim Colelction" /
    "Kim Collection, The Garden", "Carbone" / "Carbonne at the Schwartz House")."""
    short, long = sorted((a.split(), b.split()), key=len)
    pool = set(long)
    if (pool - set(short)) & DISTINCT_WORDS:  # "Blue Heron Lodge North": another of the name's places
        return False
    return bool(short) and all(w in pool or _lookalike(w, pool) for w in short if w != "the")


def unrelated(a: str, b: str) -> bool:
    """Two names without a distinctive word in common, mistyped or not ("Hollow Rooster Food Hall" /
    "Hungry Harvest Records"): two places that share a phone or a building, not one written twice."""
    wa = {w for w in a.split() if len(w) >= 3 and w not in NAME_STOP}
    wb = {w for w in b.split() if len(w) >= 3 and w not in NAME_STOP}
    if wa & wb or any(_lookalike(w, wb) for w in wa):
        return False
    # a space moved or dropped ("BuonaBakeshop" / "Buona Bakery") leaves a long common run
    return fuzz.partial_ratio(a.replace(" ", ""), b.replace(" ", "")) < 75


def _parent_tail(toks: list[str], k: int) -> bool:
    """"by Wyndham" says which group, not which hotel (also mistyped: "by Hilto nLamar")."""
    return (toks[k] == "by" and k + 1 < len(toks) and _parent(toks[k + 1])) or (
        k > 0 and toks[k - 1] == "by" and _parent(toks[k]))


def _parent(word: str) -> bool:
    return word in PARENT_BRANDS or (len(word) >= 5 and any(OSA.distance(word, p, score_cutoff=1) <= 1
                                                            for p in PARENT_BRANDS))


_GROUP_TAIL = re.compile("by(?:" + "|".join(sorted(PARENT_BRANDS)) + ")")


def compact(name: str) -> str:
    """A name without spaces nor a "by <group>" ("DoubleTree b yHilton" is "doubletree")."""
    squeezed = name.replace(" ", "")
    return _GROUP_TAIL.sub("", squeezed) if "by" in squeezed else squeezed


def typo_close(a: str, b: str, distance: int) -> bool:
    """Two names `distance` typing errors apart once their spaces are gone (letters swapped,
    dropped, doubled or inserted, a space moved): close at one error from five letters, two from
    nine. Not when a number differs ("Motel 6" / "Motel 8") or a word that tells places apart
    ("Hampton Inn East" / "West")."""
    length = min(len(a), len(b)) - max(a.count(" "), b.count(" "))
    if distance > 2 or length < 5 or (distance == 2 and length < 9):
        return False
    digits_a, digits_b = [c for c in a if c.isdigit()], [c for c in b if c.isdigit()]
    if digits_a and digits_b and digits_a != digits_b:  # a digit typed into a word is a typo ("Coffe3")
        return False
    wa, wb = set(a.split()), set(b.split())
    return not ((wa - wb) & DISTINCT_WORDS or (wb - wa) & DISTINCT_WORDS)


def short_form(core: str) -> str:
    """Each word cut to four letters: "arts delicatessen" and "arts deli" agree."""
    return " ".join(t[:4] for t in core.split())


def one_typo(a: str, b: str) -> bool:
    """Two house numbers one keystroke apart: one character replaced ("924"/"9b4", "12374"/
    "12375"), dropped or two swapped. Such a pair is a typo only if other evidence agrees."""
    if a == b:
        return False
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if abs(len(a) - len(b)) != 1:
        return False
    long, short = (a, b) if len(a) > len(b) else (b, a)
    return any(long[:k] + long[k + 1:] == short for k in range(len(long)))


def phone_key(phone: str | None, region: str = "US") -> str:
    if not phone or not phone.strip():
        return ""
    try:
        return phone_to_e164(phone, region) or ""
    except (PhoneError, ValueError):
        return ""


@lru_cache(maxsize=4096)  # a brand's pages repeat
def website_parts(url: str | None) -> tuple[str, str] | None:
    """(registrable domain, property key) of a website, or None when it is not a URL.

    The domain comes from the public suffix list (``hotel.qc.ca``, ``inn.co.uk``). The property
    key is the host without ``www.`` plus the path without locale segments, generic words and page
    extensions; "" when nothing identifying is left (a brand's home page)."""
    if not url or not url.strip():
        return None
    u = url.strip().lower()
    scheme = u.find("://")
    u = (u[scheme + 3:] if scheme >= 0 else u).lstrip("/")
    u = re.split(r"[?#]", u, maxsplit=1)[0]
    host, _, path = u.partition("/")
    host = host.rsplit("@", 1)[-1].split(":", 1)[0].strip(".")
    if "." not in host or " " in host:
        return None
    domain = registrable_domain(host)
    sub = host[:-len(domain)].rstrip(".")
    for prefix in ("www", "www2", "www3", "m"):
        if sub == prefix or sub.startswith(prefix + "."):
            sub = sub[len(prefix) + 1:]
            break
    host = f"{sub}.{domain}" if sub else domain
    segs = [s for s in (_PAGE_EXT.sub("", s) for s in path.split("/"))
            if s and s not in _GENERIC_SEGMENTS and not _LOCALE.match(s) and not s.startswith("index")]
    if not segs and host == domain:
        return domain, ""
    return domain, "/".join([host, *segs])

"""Normalisation of place fields into comparison keys: accents folded, names without a city
suffix or a moved "The", street and house number apart, states and provinces as codes, cities
through an alias table, phones as E.164, websites as registrable domain plus property key."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from rapidfuzz import fuzz

from sadie_pipeline.core.normalize import PhoneError, match_key, phone_to_e164, registrable_domain
from sadie_pipeline.core.places.tables import (
    CITY_ALIASES,
    DIRECTIONS,
    NAME_ABBREVIATIONS,
    NAME_STOP,
    ORDINALS,
    PARENT_BRANDS,
    STATES,
    STREET_ABBREVIATIONS,
    STREET_TYPES,
    UNIT_WORDS,
)

_CITY_ABBREVIATIONS = {"st": "saint", "ste": "sainte", "ft": "fort", "mt": "mount", "pt": "port"}
_HOUSE = re.compile(r"^(\d+[a-z]?|\d+-\d+)$")
_TYPO_HOUSE = re.compile(r"^\d[0-9a-z]*\d$|^\d$")  # "9b4": a digit misread as a letter
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
        value = unicodedata.normalize("NFKD", value.replace("ß", "ss")).encode("ascii", "ignore").decode()
    return match_key(value.replace("&", " and ").replace("'", "").replace("-", " "))


# Caches only where values repeat (towns, states): a cache of every name or address would hold
# hundreds of thousands of entries that are never asked for again.
@lru_cache(maxsize=16384)
def city_key(city: str | None) -> str:
    key = " ".join(_CITY_ABBREVIATIONS.get(t, t) for t in fold(city).split())
    return CITY_ALIASES.get(key, key)


@lru_cache(maxsize=4096)
def state_key(state: str | None) -> str:
    key = fold(state)
    if len(key) == 2:
        return key.upper()
    return STATES.get(key, key.upper())


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


def _parent_tail(toks: list[str], k: int) -> bool:
    """"by Wyndham" says which group, not which hotel."""
    return (toks[k] == "by" and k + 1 < len(toks) and toks[k + 1] in PARENT_BRANDS) or (
        k > 0 and toks[k - 1] == "by" and toks[k] in PARENT_BRANDS)


def short_form(core: str) -> str:
    """Each word cut to four letters: "arts delicatessen" and "arts deli" agree."""
    return " ".join(t[:4] for t in core.split())


def address_parts(address: str | None) -> tuple[str, str]:
    """(house number, street core) of the address's street line; "" when absent. The line is the
    first comma part that starts with a number (a building's name may come first); the core drops
    the street type, direction and unit ("#8", "Suite 4", "2nd Floor"), spells ordinals as digits."""
    if not address:
        return "", ""
    raw = fold(_UNIT.sub(" ", _street_line(address))).split()
    toks = [_SAINT if t == "st" and _saint(raw, k) else STREET_ABBREVIATIONS.get(t, t) for k, t in enumerate(raw)]
    num = ""
    if toks and (_HOUSE.match(toks[0]) or (_TYPO_HOUSE.match(toks[0]) and len(toks) > 1)):
        num, toks = toks[0].lstrip("0") or "0", toks[1:]
    elif len(toks) > 1 and _HOUSE.match(toks[-1]):  # "Oranienstrasse 197", "Carrer de Verdi, 92"
        num, toks = toks[-1].lstrip("0") or "0", toks[:-1]
    for k, t in enumerate(toks):
        if t in UNIT_WORDS:
            toks = toks[:k - 1] if k > 1 and toks[k - 1] in ORDINALS.values() else toks[:k]  # "2nd floor"
            break
    toks = [ORDINALS.get(t, t) for t in toks]
    core = [t for t in toks if t not in STREET_TYPES and t not in DIRECTIONS and t not in _PARTICLES]
    return num, " ".join(core or toks)


_PARTICLES = frozenset("de del la le du des di da von of the".split())  # "Carrer de Verdi" is "C/ Verdi"
_UNIT = re.compile(r"#\s*\w+")


def _street_line(address: str) -> str:
    parts = [p.strip() for p in address.split(",")]
    if len(parts) > 1 and parts[0].isdigit():  # "263, Avenue Laurier"
        return f"{parts[0]} {parts[1]}"
    if len(parts) > 1 and parts[1].isdigit():  # "Carrer de Verdi, 92"
        return f"{parts[0]} {parts[1]}"
    return next((p for p in parts if p[:1].isdigit()), parts[0])


_SAINT = "saint"
_AFTER_STREET = frozenset("n s e w ne nw se sw".split()) | DIRECTIONS | UNIT_WORDS


def _saint(toks: list[str], k: int) -> bool:
    """"St" before a name is Saint ("St Jean", "St Clair Ave"); at the end, or before a direction
    or a unit, it is Street."""
    return 0 < k < len(toks) - 1 and toks[k + 1] not in _AFTER_STREET and not toks[k + 1].startswith("#") \
        and not toks[k + 1].isdigit()


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

"""Comparing candidate pairs: each field into a level (model.LEVELS; 0 = a side is empty, no
evidence), then the guards that stand above the weights (README.md, "Guard" and "Identifiers"):

* vetoes, each on a field that really differs (a typo never is one): another state, too far
  apart, unrelated names, two house numbers on one street while a second field differs too,
  another city label with nothing that puts the two together;
* identifiers: a phone or website of the place's own, or its very address, together with its
  name (exact or close) says "one place" whatever the weights say, unless the two stand on two
  streets or far apart: then a person decides;
* what the pair shares (a phone, a website, a name at one address): a pair sharing one is never
  left unseen (matching.py sends it to review when it is not merged)."""

from __future__ import annotations

from enum import IntEnum, IntFlag
from typing import NamedTuple

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import OSA
from rapidfuzz.process import cpdist

from sadie_pipeline.core.places.index import PlaceIndex
from sadie_pipeline.core.places.model import FIELDS, LEVELS, Model
from sadie_pipeline.core.places.normal import (
    Venues,
    compact,
    contained,
    lookalike_words,
    typo_close,
    unrelated,
    venues,
)
from sadie_pipeline.core.places.streets import number_close, same_street, street_form

_COL = {f: k for k, f in enumerate(FIELDS)}
# name levels, location levels
_DIFFERENT, _SIMILAR, _CLOSE, _CHAIN, _SAME = 1, 2, 3, 4, 5
_CONFLICT, _OTHER_LABEL, _AREA, _ADDRESS_TYPO, _ADDRESS = 1, 2, 3, 4, 5


class Veto(IntEnum):
    NONE, STATE, DISTANCE, HOUSE_NUMBER, CITY, NAME = 0, 1, 2, 3, 4, 5


VETO_NAMES = ("", "state", "distance", "house_number", "city", "name")


class Identified(IntEnum):
    """An identifier with the name: one place (MATCH), or one place that two streets or a long
    way part (APART: a move, or two outlets of one number; a person decides)."""
    NONE, MATCH, APART = 0, 1, 2


class Shared(IntFlag):
    NONE = 0
    PHONE = 1
    WEBSITE = 2
    ADDRESS = 4  # the name's core, house number and street


# The least certainty of a pair an identifier decides: above any sensible auto-match threshold.
IDENTIFIED = 0.99


def identified_certainty(probability: np.ndarray) -> np.ndarray:
    """An identified pair's certainty: at least IDENTIFIED, ordered by the weights above it (of
    two identified candidates, the one more fields agree with is the better)."""
    return np.round(IDENTIFIED + (1 - IDENTIFIED) * probability, 4)


SHARED_NAMES = {Shared.PHONE: "phone", Shared.WEBSITE: "website", Shared.ADDRESS: "name and address"}


class Comparison(NamedTuple):
    levels: np.ndarray  # pairs x fields, int8
    veto: np.ndarray  # Veto
    identified: np.ndarray  # Identified
    shared: np.ndarray  # Shared flags


class _Parts(NamedTuple):
    """The raw comparisons a pair's levels and guards are made of."""
    name: np.ndarray
    num: np.ndarray  # 0 unknown, 1 different, 2 one keystroke apart, 3 same
    street: np.ndarray  # 0 unknown, 1 different, 2 a typo apart, 3 same
    city: np.ndarray  # 0 unknown, 1 other label, 2 same
    postal: np.ndarray  # 0, 1 other area, 2 same area, 3 same code
    geo: np.ndarray  # 0 unknown, 1 > 2 km, 2 <= 2 km, 3 <= 300 m, 4 <= 50 m
    km: np.ndarray
    phone: np.ndarray
    web: np.ndarray
    state: np.ndarray  # True: both known and different


def compare(ix: PlaceIndex, i: np.ndarray, j: np.ndarray, max_distance_km: float) -> Comparison:
    """Levels, vetoes, identifiers and shared identifiers of every pair."""
    parts = _parts(ix, i, j)
    levels = np.zeros((len(i), len(FIELDS)), dtype=np.int8)
    levels[:, _COL["name"]] = parts.name
    levels[:, _COL["phone"]] = parts.phone
    levels[:, _COL["website"]] = parts.web
    # nothing says another town: a neighbourhood's label for the city is no other town
    town = ~((parts.postal == 1) | (parts.geo == 1) | parts.state)
    # a house number one keystroke apart is a typo when the name and the town agree (a name inside
    # the other agrees when a phone or website of its own does too)
    named = (parts.name >= _CLOSE) | ((parts.name == _SIMILAR) & (_strong(parts) == 2))
    typo = (parts.num == 2) & named & town
    location = _location(parts, typo)
    levels[:, _COL["location"]] = location
    name = levels[:, _COL["name"]]
    _contained_names(ix, i, j, name, (location >= _ADDRESS_TYPO) | (parts.phone == 2) | (parts.web == 2))
    name[(name == _CHAIN) & (location == _ADDRESS)] = _SAME  # a chain's outlet, once its address agrees
    veto = _vetoes(parts, name, location, typo, max_distance_km)
    identified = _identified(ix, i, j, parts, name, location, max_distance_km)
    return Comparison(levels, veto, identified, _shared(ix, i, j, parts, name, veto))


def _parts(ix: PlaceIndex, i: np.ndarray, j: np.ndarray) -> _Parts:
    num, street = _address_levels(ix, i, j)
    km = _distance_km(ix, i, j)
    geo = np.select([np.isnan(km), km <= 0.05, km <= 0.3, km <= 2.0], [0, 4, 3, 2], default=1).astype(np.int8)
    state_a, state_b = _take(ix.state, i), _take(ix.state, j)
    return _Parts(_name_levels(ix, i, j), num, street, _equal_levels(ix.city, i, j), _zip_levels(ix, i, j), geo, km,
                  _equal_levels(ix.phone, i, j), _equal_levels(ix.web, i, j),
                  (state_a != "") & (state_b != "") & (state_a != state_b))


def _location(p: _Parts, typo: np.ndarray) -> np.ndarray:
    on_street = p.street >= 2
    # a postal code's first three characters span a region, not a town: no evidence either way
    conflict = ((on_street & (p.num == 1)) | (on_street & (p.num == 2) & ~typo) | (p.geo == 1)
                | ((p.postal == 1) & (p.city == 1)) | ((p.street == 1) & (p.num >= 1)))
    same_address = (on_street & (p.num == 3)) | (p.geo == 4)
    area = (p.city == 2) | (p.postal == 3) | (p.geo >= 2)
    return np.select([conflict, same_address, on_street & typo, area, p.city == 1],
                     [_CONFLICT, _ADDRESS, _ADDRESS_TYPO, _AREA, _OTHER_LABEL], default=0).astype(np.int8)


def _strong(p: _Parts) -> np.ndarray:
    """2 when a phone or website agrees and none differs, 1 when one differs, else 0."""
    return np.where((p.phone == 1) | (p.web == 1), 1, np.where((p.phone == 2) | (p.web == 2), 2, 0))


def _vetoes(p: _Parts, name: np.ndarray, location: np.ndarray, typo: np.ndarray, max_km: float) -> np.ndarray:
    veto = np.zeros(len(name), dtype=np.int8)
    veto[p.state] = Veto.STATE
    veto[(veto == 0) & (p.km > max_km)] = Veto.DISTANCE
    strong = _strong(p)
    # Two numbers on one street are two places when a second field differs too: the name (not
    # only a typo of it), or a phone or website. A typo of the number is no difference.
    other_number = (p.street >= 2) & ((p.num == 1) | ((p.num == 2) & ~typo))
    veto[(veto == 0) & other_number & ((name <= _SIMILAR) | (strong == 1))] = Veto.HOUSE_NUMBER
    # Another city label and nothing that puts the two together (postal code, map point, phone,
    # website, or the name at the very address): a name and a street repeat between towns.
    together = (p.postal == 3) | (p.geo >= 3) | (strong == 2) | ((name >= _CLOSE) & (location == _ADDRESS))
    veto[(veto == 0) & (p.city == 1) & ~together] = Veto.CITY
    # Two unrelated names on one phone or at one address are two places sharing it (a food hall,
    # a hotel and its restaurant) or a new business: never one by the weights.
    veto[(veto == 0) & (name == _DIFFERENT)] = Veto.NAME
    return veto


def _identified(ix: PlaceIndex, i: np.ndarray, j: np.ndarray, p: _Parts, name: np.ndarray, location: np.ndarray,
                max_km: float) -> np.ndarray:
    """A phone or website of the place's own with its name, or its name at its very address (the
    same number on the same street: a number a typo apart is weighed, not taken), identifies it.
    Apart: two numbers on two streets, another state, or far apart."""
    named = name >= _CLOSE
    # a record without a name (a phone list) has none to contradict its phone; a website with
    # another phone against it is no identifier (a small group's outlets share their website)
    by_contact = (named | (name == 0)) & ((p.phone == 2) | ((p.web == 2) & (p.phone != 1)))
    # the very address in the same town: "120 Main St" of another town is another place
    at_address = (location == _ADDRESS) & (p.num == 3) & (p.street >= 2) & (
        (p.city != 1) | (p.postal == 3) | (p.geo >= 3))
    # a name inside the other ("Le Montrachet Bistro") at the very address, no phone or website
    # saying otherwise: the place's own qualifier
    inside = np.zeros(len(name), dtype=bool)
    check = np.flatnonzero((name == _SIMILAR) & (_strong(p) == 0) & at_address)
    inside[check] = [contained(ix.core[i[k]], ix.core[j[k]]) for k in check.tolist()]
    by_address = (named | inside) & at_address
    two_streets = (p.street == 1) & (p.num == 1)  # the same number on another street is a typo of it
    far = p.state | (p.km > max_km) | (p.geo == 1) | ((p.postal == 1) & (p.city == 1))
    apart = two_streets | far
    out = np.zeros(len(name), dtype=np.int8)
    out[(by_contact | by_address) & ~apart] = Identified.MATCH
    # a phone is one place's; a website with one name in two towns is a small group's outlets, in
    # one town a move or a second outlet: a person decides
    out[named & (((p.phone == 2) & apart) | ((p.web == 2) & two_streets & ~far))] = Identified.APART
    return out


def _shared(ix: PlaceIndex, i: np.ndarray, j: np.ndarray, p: _Parts, name: np.ndarray, veto: np.ndarray) -> np.ndarray:
    """What a pair shares that a person must see when it is not merged: a phone, a website, the
    name's core at the very number and street. Not what plainly two places share: unrelated names
    in two towns (a phone or website one of them has wrong), two names without a word in common
    (a food hall and its stalls), one name's website in two towns (a group of two outlets)."""
    shared = (np.where(p.phone == 2, Shared.PHONE, 0) | np.where(p.web == 2, Shared.WEBSITE, 0)).astype(np.int8)
    core_a, core_b = _take(ix.core, i), _take(ix.core, j)
    same_core = (core_a == core_b) & (core_a != "")
    shared |= np.where(same_core & (p.num == 3) & (p.street >= 2), Shared.ADDRESS, 0).astype(np.int8)
    far = np.isin(veto, (Veto.STATE, Veto.DISTANCE, Veto.CITY))
    shared[(name == _DIFFERENT) & far] = 0
    shared[far] &= ~np.int8(Shared.WEBSITE)
    check = np.flatnonzero((shared != 0) & (name == _DIFFERENT))
    shared[check] = [0 if unrelated(ix.full[i[k]], ix.full[j[k]]) else shared[k] for k in check.tolist()]
    return shared


def _take(values, idx: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=object)[idx]


def _equal_levels(values, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    a, b = _take(values, i), _take(values, j)
    return np.where((a == "") | (b == ""), 0, np.where(a == b, 2, 1)).astype(np.int8)


def _name_levels(ix: PlaceIndex, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """In one town the names are compared without the town's name ("Seabreeze Inn Orlando" is
    "Seabreeze Inn" there); across towns with it ("Hampton Inn Orlando" is not "Hampton Inn Tampa").
    A distinctive word on one side only ("East", "Airport", "Plus") keeps two names apart; one or
    two typing errors do not ("SuitesA bbott Juntcion"); two venues of one building make two
    names different ("Ritz-Carlton Cafe" / "Restaurant Ritz-Carlton"), and a kind of venue on one
    side only ("Lee" / "Lee Restaurant") at most similar."""
    same_city = (_take(ix.city, i) == _take(ix.city, j)) & (_take(ix.city, i) != "")
    # each pair's names in the form its towns call for, so that each pair is compared once
    forms = [(np.where(same_city, _take(c, i), _take(f, i)), np.where(same_city, _take(c, j), _take(f, j)))
             for c, f in zip(ix.forms["core"], ix.forms["full"])]
    close, inside, same, bare = _similarities(forms)
    names = forms[0]
    level = np.select([same, bare | (close >= 88), (close >= 75) | (inside >= 100)], [_SAME, _CLOSE, _SIMILAR],
                      default=_DIFFERENT)
    check = np.flatnonzero(level == _CLOSE)
    level[check] = [_CLOSE if lookalike_words(names[0][k], names[1][k]) else _SIMILAR for k in check]
    _typed_names(ix, i, j, names, level)
    kinds = np.flatnonzero((level == _SIMILAR) | (level == _CLOSE))
    level[kinds] = [_venue_level(level[k], venues(names[0][k], names[1][k])) for k in kinds.tolist()]
    level[(level == _SAME) & ix.chain[i] & ix.chain[j]] = _CHAIN
    a, b = _take(ix.core, i), _take(ix.core, j)
    return np.where((a == "") | (b == ""), 0, level).astype(np.int8)


def _contained_names(ix: PlaceIndex, i: np.ndarray, j: np.ndarray, name: np.ndarray, placed: np.ndarray) -> None:
    """Names found different that are one inside the other but for typos ("The Kim Colelction" /
    "Kim Collection, The Garden"), at one address or on one phone: similar, for the weights to
    weigh. Only there: elsewhere such names are common words in two places' names."""
    check = np.flatnonzero((name == _DIFFERENT) & placed)
    for k in check.tolist():
        a, b = ix.core[i[k]], ix.core[j[k]]
        if contained(a, b) and venues(a, b) != Venues.TWO:
            name[k] = _SIMILAR


def _venue_level(level: int, kinds: Venues) -> int:
    """A name that adds a kind of venue is at most similar (its own qualifier, or a hotel's
    restaurant: the other fields decide); two venues are two names."""
    if kinds == Venues.TWO:
        return _DIFFERENT
    return min(level, _SIMILAR) if kinds == Venues.ONE_SIDED else level


def _typed_names(ix: PlaceIndex, i: np.ndarray, j: np.ndarray, names: tuple[np.ndarray, np.ndarray],
                 level: np.ndarray) -> None:
    """Names one or two typing errors apart once spaces and a "by <group>" are gone, in the form
    compared or with their towns' names kept ("Days In nFos Creek" / "Days Inn Fox Creek"): one
    error in a name of eight letters is the same name, otherwise close."""
    typos = np.flatnonzero(level < _SAME)
    if not len(typos):
        return
    apart = np.minimum(
        cpdist([compact(names[0][k]) for k in typos], [compact(names[1][k]) for k in typos], scorer=OSA.distance,
               workers=-1),
        cpdist([compact(ix.full[i[k]]) for k in typos], [compact(ix.full[j[k]]) for k in typos], scorer=OSA.distance,
               workers=-1))
    for k, d in zip(typos[apart <= 2].tolist(), apart[apart <= 2].tolist()):
        a, b = names[0][k], names[1][k]
        if typo_close(a, b, int(d)):
            one = d <= 1 and min(len(compact(a)), len(compact(b))) >= 8
            level[k] = _SAME if one else max(level[k], _CLOSE)


def _similarities(forms: list[tuple[np.ndarray, np.ndarray]]):
    """(close, inside, equal, bare equal) of the pairs' names, given as (name, short, bare) pairs:
    close covers word order, typos and a short form ("arts deli" / "arts delicatessen"); inside,
    one name's words all in the other; bare, the same but for spacing and generic words
    ("Sea Breeze Motel" / "Seabreeze Inn")."""
    (a, b), (sa, sb), (ba, bb) = forms
    close = np.maximum(cpdist(list(a), list(b), scorer=fuzz.token_sort_ratio, workers=-1),
                       cpdist(list(sa), list(sb), scorer=fuzz.token_sort_ratio, workers=-1))
    inside = cpdist(list(a), list(b), scorer=fuzz.token_set_ratio, workers=-1)
    return close, inside, a == b, ba == bb


def _address_levels(ix: PlaceIndex, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(number, street) levels: a street's name compared without its notes, a type or directional
    on one side only, spacing and one or two typos (streets.same_street); a number one keystroke
    off or with a suffix ("293b" / "293") is close on one street."""
    sa, sb = _take(ix.street_form, i), _take(ix.street_form, j)
    street = np.where((sa == "") | (sb == ""), 0, np.where(sa == sb, 3, 1)).astype(np.int8)
    differ = np.flatnonzero(street == 1)
    street[differ] = [same_street(street_form(sa[k]), street_form(sb[k])) for k in differ.tolist()]
    na, nb = _take(ix.num, i), _take(ix.num, j)
    num = np.where((na == "") | (nb == ""), 0, np.where(na == nb, 3, 1)).astype(np.int8)
    # a typo only matters on one street (elsewhere the location conflicts anyway)
    differ = np.flatnonzero((num == 1) & (street >= 2))
    num[differ] = [2 if number_close(na[k], nb[k]) else 1 for k in differ.tolist()]
    return num, street


def _zip_levels(ix: PlaceIndex, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    a, b = _take(ix.zip, i), _take(ix.zip, j)
    area_a = np.array([z[:3] for z in a], dtype=object)
    area_b = np.array([z[:3] for z in b], dtype=object)
    return np.where((a == "") | (b == ""), 0, np.where(a == b, 3, np.where(area_a == area_b, 2, 1))).astype(np.int8)


def _distance_km(ix: PlaceIndex, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    lat1, lng1, lat2, lng2 = ix.lat[i], ix.lng[i], ix.lat[j], ix.lng[j]
    dy = (lat2 - lat1) * 110.57
    dx = (lng2 - lng1) * 111.32 * np.cos(np.radians((lat1 + lat2) / 2))
    return np.hypot(dx, dy)


def explain(levels_row: np.ndarray, model: Model, veto: int = 0, identified: int = 0, shared: int = 0) -> dict:
    """The fields a pair was compared on: their level and match weight (bits); its veto, the
    identifier that decided it and what it shares."""
    out: dict[str, object] = {}
    for k, f in enumerate(FIELDS):
        level = int(levels_row[k])
        if level:
            out[f] = {"level": LEVELS[f][level - 1], "weight": round(float(model.weights(f)[level]), 2)}
    if veto:
        out["veto"] = VETO_NAMES[veto]
    if identified:
        out["identified"] = "one place" if identified == Identified.MATCH else "apart"
    if shared:
        out["shared"] = [name for flag, name in SHARED_NAMES.items() if shared & flag]
    return out


def describe(explanation: dict | None) -> str:
    """One line for a person: "name same +10.8, location same_address +7.9, phone different -6.9; veto city"."""
    if not explanation:
        return ""
    parts = [f"{f} {v['level']} {v['weight']:+.1f}" for f, v in explanation.items() if isinstance(v, dict)]
    tail = [f"veto {explanation['veto']}"] if explanation.get("veto") else []
    if explanation.get("identified"):
        tail.append(f"identified ({explanation['identified']})")
    if explanation.get("shared"):
        tail.append("shares " + ", ".join(explanation["shared"]))
    if explanation.get("review"):
        tail.append("to a person: " + explanation["review"])
    return ", ".join(parts) + ("; " + "; ".join(tail) if tail else "")

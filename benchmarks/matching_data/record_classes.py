"""The divergence classes of the name, the city and the state (real-world-divergences.md,
"Places"): a qualifier in one guide only, typing errors in the name, another label for the city,
accents and the ways of writing a province or state."""

from __future__ import annotations

import random
import re

from .common import Place, fold_accents
from .metros import METROS, STATE_VARIANTS
from .render import Draft
from .typos import name_typo as _name_typo
from .words import BUILDING_WORDS, HOST_WORDS, PREFIXES, QUALIFIERS, SPELLINGS, SURNAME

_ALL_QUALIFIERS = sorted({q for qs in QUALIFIERS.values() for q in qs}, key=len, reverse=True)
_ALL_PREFIXES = sorted({q for qs in PREFIXES.values() for q in qs if q != "The"}, key=len, reverse=True)


def _the_forms(name: str, rng: random.Random) -> str:
    """"Palm, The" / "The Palm" / "Palm  The" / "Palm (The)" / "Palm"."""
    core = name[4:] if name.startswith("The ") else name[:-5] if name.endswith(", The") else name
    forms = [f"{core}, The", f"The {core}", f"{core}  The", f"{core} (The)", core]
    return rng.choice([f for f in forms if f != name])


def _host(p: Place, name: str, rng: random.Random) -> str:
    """Where the place is, after its name: "Fenix at the Argyle", "Spago (Los Angeles)", "Arnie Morton's of Chicago"."""
    metro = METROS[p.metro]
    hood = metro[10][p.district][0]
    x = rng.random()
    if x < 0.35:
        host = rng.choice(BUILDING_WORDS + SURNAME)
        return f"{name} at the {host}" + (f" {rng.choice(HOST_WORDS)}" if rng.random() < 0.4 else "")
    if x < 0.6:
        return f"{name} ({rng.choice([hood, metro[0]])})"
    if x < 0.75:
        return f"{name} - {hood}"
    if x < 0.87:
        return f"{name} of {metro[0]}"
    return f"{name} on {p.street.name}"


def _spelling(name: str, rng: random.Random) -> str | None:
    pairs = [(a, b) for a, b in SPELLINGS if re.search(rf"\b{re.escape(a)}\b", name)]
    pairs += [(b, a) for a, b in SPELLINGS if re.search(rf"\b{re.escape(b)}(?!\w)", name)]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    return re.sub(rf"\b{re.escape(a)}(?!\w)", b, name, count=1)


def _qualifier_options(p: Place, name: str) -> list[str]:
    options = ["add_tail", "host"]
    if any(name.endswith(" " + q) and len(name) > len(q) + 3 for q in _ALL_QUALIFIERS):
        options += ["drop_tail"] * 3
    if any(name.startswith(q + " ") and len(name) > len(q) + 3 for q in _ALL_PREFIXES):
        options += ["drop_head"] * 3
    elif p.category in PREFIXES and not any(q in name for q in PREFIXES[p.category]):
        options.append("add_head")
    if (name.startswith("Hotel ") or name.endswith(" Hotel")) and " " in name:
        options += ["swap_hotel"] * 3
    if name.startswith("The ") or name.endswith(", The"):
        options += ["the"] * 2
    if "'s" in name:
        options.append("possessive")
    return options + ["spelling"] * 2


def name_qualifier(d: Draft, p: Place, rng: random.Random, gen) -> None:
    """A qualifier in one guide only: "Le Montrachet" / "Le Montrachet Bistro", "Palm, The" / "Palm  The",
    "Restaurant Katsu" / "Katsu", "Hotel Bel-Air" / "Bel-Air Hotel", "Second Street Grille" / "Grill"."""
    name = d.name
    kind = rng.choice(_qualifier_options(p, name))
    if kind == "drop_tail":
        q = next(q for q in _ALL_QUALIFIERS if name.endswith(" " + q))
        new = name[:-len(q) - 1]
    elif kind == "drop_head":
        q = next(q for q in _ALL_PREFIXES if name.startswith(q + " "))
        new = name[len(q) + 1:]
    elif kind == "add_head":
        new = f"{rng.choice(PREFIXES[p.category])} {name}"
    elif kind == "swap_hotel":
        new = f"{name[6:]} Hotel" if name.startswith("Hotel ") else f"Hotel {name[:-6]}"
    elif kind == "the":
        new = _the_forms(name, rng)
    elif kind == "possessive":
        new = name.replace("'s", rng.choice(["s", ""]), 1)  # "Philippe's" / "Philippes" / "Philippe"
    elif kind == "host":
        new = _host(p, name, rng)
    else:
        new = _spelling(name, rng) if kind == "spelling" else None
        new = new or f"{name} {rng.choice(QUALIFIERS.get(p.category, QUALIFIERS['restaurant']))}"
    if new.strip() and new.lower() not in ("the", "le", "la", "el", "hotel") and new != name:
        d.name = new
        d.marks["name_qualifier"] = new


def name_typo(d: Draft, p: Place, rng: random.Random, gen) -> None:
    d.name = _name_typo(d.name, rng)
    d.marks["name_typo"] = d.name


def _city_short(city: str, metro: tuple, rng: random.Random) -> str:
    """The short or loose ways of writing a city: "W. Hollywood", "L.A.", "NYC", "Hollywood"."""
    for long, short in (("West ", "W. "), ("North ", "N. "), ("South ", "S. "), ("East ", "E. "), ("Mount ", "Mt. "),
                        ("Saint ", "St. "), ("St. ", "Saint ")):
        if city.startswith(long):
            return rng.choice([short + city[len(long):], city[len(long):]])  # "Hollywood" for West Hollywood
    loose = {"Los Angeles": ["L.A.", "LA", "West LA", "Hollywood"], "New York": ["New York City", "N.Y.C.", "Manhattan"],
             "San Francisco": ["S.F.", "SF", "San Fran"], "Washington": ["Washington, D.C.", "D.C."],
             "Philadelphia": ["Philly"], "Las Vegas": ["Vegas"]}
    return rng.choice(loose.get(city, metro[8]))


def city_label_differs(d: Draft, p: Place, rng: random.Random, gen) -> None:
    """Another label for the city: a neighbourhood ("Studio City", "Buckhead"), the next district, the
    metro or one of its names ("New York City"), a short form ("W. Hollywood")."""
    metro = METROS[p.metro]
    districts = metro[10]
    hood, postal = districts[p.district][:2]
    x = rng.random()
    if x < 0.3 and len(districts) > 1:
        other = districts[rng.randrange(len(districts))]
        new = other[0] if rng.random() < 0.6 else other[1]
    elif x < 0.55:
        new = rng.choice(metro[8] + [metro[0]])
    elif x < 0.75:
        new = hood
    else:
        new = _city_short(d.city if rng.random() < 0.6 else postal, metro, rng)
    if new.lower() == d.city.lower():
        new = postal if postal.lower() != d.city.lower() else metro[8][0]
    d.city = d.city_base = new
    d.marks["city_label_differs"] = new


_TRANSLIT = (("ö", "oe"), ("ü", "ue"), ("ä", "ae"), ("ß", "ss"), ("Ö", "Oe"), ("Ü", "Ue"))
_ACCENTED = {"Montreal": "Montréal", "Quebec": "Québec", "Quebec City": "Québec City", "Gracia": "Gràcia",
             "Neukolln": "Neukölln"}


def accents_provinces(d: Draft, p: Place, rng: random.Random, gen) -> None:
    """"Québec" / "Quebec" / "QC" / "P.Q.", "Montréal" / "Montreal", "Neukölln" / "Neukoelln", "Calif."."""
    code, country = METROS[p.metro][1], METROS[p.metro][3]
    if code in STATE_VARIANTS and (country == "US" or rng.random() < 0.6):
        d.state = rng.choice([v for v in STATE_VARIANTS[code] if v != d.state])
    if country != "US":
        folded = fold_accents(d.city)
        if folded != d.city:
            translit = d.city
            for a, b in _TRANSLIT:
                translit = translit.replace(a, b)
            d.city = translit if translit != d.city and rng.random() < 0.5 else folded
        elif d.city in _ACCENTED:
            d.city = _ACCENTED[d.city]
    d.marks["accents_provinces"] = f"{d.city}|{d.state}"

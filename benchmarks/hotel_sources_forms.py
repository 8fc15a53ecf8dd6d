"""How each source writes one record of a hotel, for ``hotel_sources_data.py``: name variants,
street forms, phone and website choices, missing values and typing errors, each recorded as a
divergence token, and the divergence classes of a true pair (``pair_classes``).

Standard library only; every choice drawn from the generator's seeded ``random.Random``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hotel_sources_world import DIRS, SUFFIX_LONG  # noqa: E402
from typing_errors import edit_count, number_typo, typo  # noqa: E402

# Share of a source's records with typing errors in a field: DMO and CSV rows are typed by people,
# Serper's come from owners' listings, checked more often. A pair of records has about the sum of
# its two records' rates (a DMO-CSV pair: a name typo in ~13 % of them).
TYPO_RATES = {
    "name": {"serper": 0.02, "dmo": 0.06, "csv": 0.07},
    "house_number": {"serper": 0.01, "dmo": 0.04, "csv": 0.05},
    "street": {"serper": 0.02, "dmo": 0.05, "csv": 0.06},
}

# A record's divergence tokens are "class" or "class:detail". These classes are random edits or
# missing values, so a pair has them when either record has; the others are forms a source picks
# (a suffix written out, the central phone), a difference only when the two records differ in them.
_STREET_CLASSES = ("street_format", "house_number_typo", "street_typo", "unit")
EITHER_CLASSES = frozenset({"name_typo", "house_number_typo", "street_typo", "unit", "missing_address",
                            "missing_phone", "missing_website", "missing_coordinates", "serper_repeat"})


def pair_classes(a: str, b: str) -> list[str]:
    """The divergence classes of a true pair from its two records' ``divergences`` (";"-joined
    tokens); "none" when the two records differ in no labelled way."""
    ta, tb = set(filter(None, a.split(";"))), set(filter(None, b.split(";")))
    classes = {t.split(":")[0] for t in ta ^ tb}
    classes |= {t for t in ta | tb if t in EITHER_CLASSES}
    return sorted(classes) or ["none"]


def _phone_format(rng: random.Random, digits: str) -> str:
    a, b, c = digits[:3], digits[3:6], digits[6:]
    k = rng.randrange(6)
    if k == 0:
        return f"({a}) {b}-{c}"
    if k == 1:
        return f"{a}-{b}-{c}"
    if k == 2:
        return f"+1 {a}-{b}-{c}"
    if k == 3:
        return f"{a}.{b}.{c}"
    if k == 4:
        return f"1 ({a}) {b}-{c}"
    return digits


def record(rng: random.Random, h: dict, source: str, first: bool, repeat: bool = False) -> dict:
    """One source's record of hotel `h` (all of ``COLUMNS`` but ``external_id``), with its
    divergence tokens. `first`: the hotel's first record, its name as the hotel has it."""
    tags: list[str] = ["serper_repeat"] if repeat else []
    name = _name(rng, h, source, first, tags)
    address, city, state = _location(rng, h, source, tags)
    phone = _phone_of(rng, h, source, tags)
    website = _website(rng, h, source, tags)
    lat, lng = _coordinates(rng, h, source, tags)
    return {"source": source, "name": name, "address": address, "city": city, "state": state,
            "zip": h["zip"] if source != "csv" or rng.random() < 0.7 else "", "phone": phone,
            "website": website, "lat": lat, "lng": lng, "entity": h["entity"], "divergences": ";".join(tags)}


def _name(rng: random.Random, h: dict, source: str, first: bool, tags: list[str]) -> str:
    name = h["name"] if first else _name_variant(rng, h, source, tags)
    if rng.random() < TYPO_RATES["name"][source]:
        typed = typo(rng, name, edit_count(rng))
        if typed != name:
            name = typed
            tags.append("name_typo")
    if source == "csv" and rng.random() < 0.3:
        name = name.upper()
        tags.append("upper_case:name")
    return name


def _name_variant(rng: random.Random, h: dict, source: str, tags: list[str]) -> str:
    """The hotel's name as another source writes it: article, "&", "Stes", city, parent brand."""
    name = h["name"]
    if rng.random() < 0.15:
        name = name[4:] if name.startswith("The ") else "The " + name
        tags.append("name_variant:the")
    if "&" in name and rng.random() < 0.3:
        name = name.replace("&", "and")
        tags.append("name_variant:and")
    elif " and " in name and rng.random() < 0.3:
        name = name.replace(" and ", " & ")
        tags.append("name_variant:and")
    if rng.random() < 0.05 and "Suites" in name:
        name = name.replace("Suites", "Stes")
        tags.append("name_variant:stes")
    if h["kind"] != "chain":
        return name
    if source == "dmo" and rng.random() < 0.4 and h["city"] in name:
        name = " ".join(name.replace(h["city"], "").split())
        tags.append("name_variant:no_city")
    if h["brand"] in ("Days Inn", "Super 8", "La Quinta Inn & Suites") and rng.random() < 0.3:
        name = name.replace(h["brand"], h["brand"] + " by Wyndham")
        tags.append("name_variant:by_wyndham")
    return name


def _location(rng: random.Random, h: dict, source: str, tags: list[str]) -> tuple[str, str, str]:
    """(address, city, state) as the source writes them."""
    st = h["st"]
    line = _street_line(rng, h, source, tags)
    city = h["city"]
    if city.startswith("Saint ") and rng.random() < 0.5:
        city = "St. " + city[6:]
        tags.append("city_label:st")
    state = st[0] if source != "dmo" or rng.random() < 0.5 else st[1]
    if state == st[1]:
        tags.append("state_name")
    if source == "serper":
        address = f"{line}, {city}, {st[0]} {h['zip']}" if rng.random() < 0.98 else ""
    elif source == "dmo":
        address = line if rng.random() < 0.92 else ""
    else:
        if rng.random() < 0.5:
            line = line.upper()
            tags.append("upper_case:address")
        address = line if rng.random() < 0.9 else ""
    if not address:  # nothing of the street left to differ in
        tags[:] = [t for t in tags if t.split(":")[0] not in _STREET_CLASSES] + ["missing_address"]
    if source == "csv" and rng.random() < 0.3:
        city, state = city.upper(), state.lower()
        tags.append("upper_case:city")
    return address, city, state


def _street_line(rng: random.Random, h: dict, source: str, tags: list[str]) -> str:
    """"384 N Main St" in the source's forms (suffix and direction written out or not), with
    its typing errors and now and then a suite."""
    num, d, street, suffix = h["num"], h["dir"], h["street"], h["suffix"]
    if source == "dmo" or (source == "csv" and rng.random() < 0.3):
        if rng.random() < 0.6 and suffix in SUFFIX_LONG:
            suffix = SUFFIX_LONG[suffix]
            tags.append("street_format:suffix")
        if d and rng.random() < 0.6:
            d = DIRS[d]
            tags.append("street_format:direction")
    if rng.random() < TYPO_RATES["house_number"][source]:
        typed = number_typo(rng, num)
        if typed != num:
            num = typed
            tags.append("house_number_typo")
    words = [w for w in (street, suffix) if len(w) >= 4 and w.isalpha()]
    if words and rng.random() < TYPO_RATES["street"][source]:
        k = rng.randrange(len(words))
        typed = typo(rng, words[k], edit_count(rng, 0.2))
        if typed != words[k]:
            street, suffix = (typed, suffix) if words[k] == street else (street, typed)
            tags.append("street_typo")
    line = " ".join(p for p in (num, d, street, suffix) if p)
    if source != "serper" and rng.random() < 0.05:
        line += rng.choice([" Suite 100", ", Ste 2", " #B"])
        tags.append("unit")
    return line


def _phone_of(rng: random.Random, h: dict, source: str, tags: list[str]) -> str:
    """The local number, the chain's (or group's) central one, or none, in one of six formats."""
    r = rng.random()
    if h["kind"] == "chain":
        local, central = {"serper": (0.85, 0.10), "dmo": (0.50, 0.35), "csv": (0.40, 0.30)}[source]
    else:
        local, central = {"serper": (0.90, 0.0), "dmo": (0.72, 0.08), "csv": (0.62, 0.08)}[source]
        if not h["central"]:
            local, central = local + central, 0.0
    if r < local:
        return _phone_format(rng, h["phone"])
    if r < local + central:
        tags.append("phone_central")
        return _phone_format(rng, h["central"])
    tags.append("missing_phone")
    return ""


def _website(rng: random.Random, h: dict, source: str, tags: list[str]) -> str:
    """The property's page (scheme, www and tracking queries vary), the brand's or group's home
    page, or none."""
    r = rng.random()
    site_p, home_p = {"serper": (0.80, 0.12), "dmo": (0.55, 0.25), "csv": (0.45, 0.20)}[source]
    if not h["home"]:
        home_p = 0.0
    if r < site_p and h["site"]:
        website = h["site"]
        q = rng.random()
        if q < 0.2:
            website = "https://" + website
        elif q < 0.35:
            website = "http://" + website.removeprefix("www.")
        if h["kind"] == "chain" and rng.random() < 0.3:
            website += (("&" if "?" in website else "?") + "SEO_id=GMB-" + rng.choice(["EN", "US"]) + "-"
                        + str(rng.randint(1, 999)))
        return website
    if site_p <= r < site_p + home_p:
        tags.append("brand_home")
        return ("https://" if rng.random() < 0.5 else "") + h["home"] + rng.choice(["", "/"])
    tags.append("missing_website")
    return ""


def _coordinates(rng: random.Random, h: dict, source: str, tags: list[str]) -> tuple[float | None, float | None]:
    if source == "serper" or (source == "dmo" and rng.random() < 0.6):
        jitter = 0.0002 if source == "serper" else 0.0008
        return round(h["lat"] + rng.uniform(-jitter, jitter), 6), round(h["lng"] + rng.uniform(-jitter, jitter), 6)
    tags.append("missing_coordinates")
    return None, None

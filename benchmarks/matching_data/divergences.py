"""The divergence classes: which records each applies to and at what rate in each guide, and the
labels of a true pair (what differs between its two records).

``CLASSES`` are the classes of real-world-divergences.md ("Places"); ``DIVERGENCES`` all labels,
the older, finer ones first. A class labels a pair when it changed at least one of the two records
and the part it changes differs between them (a note on one side only, two spellings of a type)."""

from __future__ import annotations

from . import address_classes as ac
from . import record_classes as rc
from .common import Place, Streams, fold_accents
from .metros import METROS, STATE_VARIANTS
from .render import Draft

CLASSES = [
    "notes_after_street", "building_in_address", "st_as_street", "street_type_spelling", "ordinal_words_digits",
    "directional_one_side", "city_label_differs", "name_qualifier", "move", "phone_format", "name_typo",
    "house_number_typo", "street_typo", "accents_provinces",
]
_OLDER = [
    "city_label", "name_city_suffix", "name_short_form", "name_the_moved", "name_the_dropped", "name_accents",
    "name_ampersand", "name_apostrophe", "name_case", "city_accents", "state_name_vs_code", "phone_missing",
    "address_abbreviation", "address_ordinal", "suite", "address_building", "address_missing", "zip_missing",
    "zip_format", "website_missing", "website_variant", "coordinates_jitter", "coordinates_one_side",
]
DIVERGENCES = _OLDER + CLASSES
HARD_NEGATIVE_KINDS = ["chain", "same_address", "similar_name_same_street", "neighbouring_number", "same_name",
                       "other_directional"]
MOVE_RATE = 0.015  # of the places in both guides


def _na(d: Draft, p: Place) -> bool:
    return d.addr is not None and d.addr.north_american


def _ordinal_street(d: Draft, p: Place) -> bool:
    head = d.addr.name.partition(" ")[0] if _na(d, p) else ""
    return bool(ac.ordinal_value(head) or head.lower() in ac._WORD_VALUE)


# (class, change, applies to, rate in guide A, rate in guide B): rates are of the records a class applies to
TRANSFORMS = [
    ("notes_after_street", ac.notes_after_street, _na, 0.14, 0.05),
    ("building_in_address", ac.building_in_address, lambda d, p: d.addr is not None, 0.05, 0.025),
    ("st_as_street", ac.st_as_street, lambda d, p: _na(d, p) and ac.is_saint(d.addr.name), 0.3, 0.3),
    ("street_type_spelling", ac.street_type_spelling, lambda d, p: _na(d, p) and p.street.kind, 0.07, 0.1),
    ("ordinal_words_digits", ac.ordinal_words_digits, _ordinal_street, 0.25, 0.25),
    ("directional_one_side", ac.directional_one_side, _na, 0.07, 0.1),
    ("street_typo", ac.street_typo, lambda d, p: d.addr is not None, 0.02, 0.035),
    ("house_number_typo", ac.house_number_typo, lambda d, p: d.addr is not None and d.addr.number.isdigit(),
     0.012, 0.02),
    ("name_qualifier", rc.name_qualifier, lambda d, p: True, 0.05, 0.08),
    ("name_typo", rc.name_typo, lambda d, p: len(d.name) >= 5, 0.02, 0.035),
    ("city_label_differs", rc.city_label_differs, lambda d, p: True, 0.03, 0.06),
    ("accents_provinces", rc.accents_provinces, lambda d, p: METROS[p.metro][3] != "US", 0.25, 0.35),
    ("accents_provinces_us", rc.accents_provinces,
     lambda d, p: METROS[p.metro][3] == "US" and METROS[p.metro][1] in STATE_VARIANTS, 0.02, 0.04),
]


def apply_classes(d: Draft, p: Place, side: int, streams: Streams, gen) -> None:
    """Each class's decision for this record (side 0: guide A, 1: guide B), from its own stream and
    on the base record (so that no class decides another's records)."""
    rates = [rates[side] if applies(d, p) else 0.0 for _, _, applies, *rates in TRANSFORMS]
    for (name, change, *_), rate in zip(TRANSFORMS, rates):
        rng = streams.draw(name, rate)
        if rng is not None:
            change(d, p, rng, gen)


def _features(d: Draft) -> dict[str, object]:
    a = d.addr
    if a is None:
        return {}
    return {"notes_after_street": a.note, "building_in_address": a.building, "st_as_street": a.name,
            "street_type_spelling": (a.name, a.kind), "ordinal_words_digits": a.name.partition(" ")[0],
            "directional_one_side": (bool(a.pre), bool(a.post)), "street_typo": a.street(),
            "house_number_typo": a.number}


def _st_before_note(d: Draft) -> bool:
    """"255 Courtland St.  at Harris St.": the type St right before a note or a cross street."""
    a = d.addr
    return bool(a and a.note and not a.suite and not a.building and a.kind and a.kind.rstrip(".").lower() == "st"
                and not a.post)


def _address_classes(a: dict, da: Draft, b: dict, db: Draft, out: set[str]) -> None:
    fa, fb = _features(da), _features(db)
    for kind in ("notes_after_street", "building_in_address", "street_type_spelling", "ordinal_words_digits",
                 "directional_one_side", "street_typo", "house_number_typo"):
        if (kind in da.marks or kind in db.marks) and fa[kind] != fb[kind]:
            out.add(kind)
    if "address_building" in out:
        out.add("building_in_address")
    saint = ac.is_saint(da.addr.name) or ac.is_saint(db.addr.name)
    if (saint or _st_before_note(da) or _st_before_note(db)) and a["address1"].lower() != b["address1"].lower():
        out.add("st_as_street")
    if "house_number_typo" in (da.ops | db.ops) and fa["house_number_typo"] != fb["house_number_typo"]:
        out.add("house_number_typo")


def _older_address(a: dict, ops_a: set[str], b: dict, ops_b: set[str], out: set[str]) -> None:
    both = ops_a | ops_b
    if (("type_full" in ops_a) != ("type_full" in ops_b) or ("dir_full" in ops_a) != ("dir_full" in ops_b)
            or ("type_short" in both) or (("type_dot" in ops_a) != ("type_dot" in ops_b))):
        if a["address1"].split(",")[0] != b["address1"].split(",")[0]:
            out.add("address_abbreviation")
    if ("ordinal_words" in ops_a) != ("ordinal_words" in ops_b):
        out.add("address_ordinal")
    if {o for o in ops_a if o.startswith("suite:")} != {o for o in ops_b if o.startswith("suite:")}:
        out.add("suite")
    if ("address_building" in ops_a) != ("address_building" in ops_b):
        out.add("address_building")


def _name_city_state(a: dict, da: Draft, b: dict, db: Draft, out: set[str]) -> None:
    ops_a, ops_b = da.ops, db.ops
    if a["name"] != b["name"]:
        for kind in ("name_city_suffix", "name_short_form", "name_the_moved", "name_the_dropped", "name_ampersand",
                     "name_apostrophe", "name_case", "name_typo"):
            if kind in ops_a or kind in ops_b:
                out.add(kind)
        for kind in ("name_qualifier", "name_typo"):
            if kind in da.marks or kind in db.marks:
                out.add(kind)
        accented = fold_accents(a["name"]) != a["name"] or fold_accents(b["name"]) != b["name"]
        if accented and da.fold != db.fold:
            out.add("name_accents")
    ca, cb = a["city"], b["city"]
    if ca.lower() != cb.lower():
        if fold_accents(ca).lower() == fold_accents(cb).lower():
            out.update(("city_accents", "accents_provinces"))
        elif fold_accents(da.city_base).lower() != fold_accents(db.city_base).lower():
            out.update(("city_label", "city_label_differs"))
        else:  # a transliteration ("Neukoelln")
            out.add("accents_provinces")
    if a["state"] and b["state"] and a["state"] != b["state"]:
        out.add("state_name_vs_code")
        if a["country"] != "US" or "accents_provinces" in da.marks or "accents_provinces" in db.marks:
            out.add("accents_provinces")


def pair_divergences(a: dict, da: Draft, b: dict, db: Draft, moved: bool) -> list[str]:
    """What differs between the two records of one place (labels of DIVERGENCES)."""
    out: set[str] = set()
    _name_city_state(a, da, b, db, out)
    if a["phone"] and b["phone"] and a["phone"] != b["phone"]:
        out.add("phone_format")
    if bool(a["phone"]) != bool(b["phone"]):
        out.add("phone_missing")
    if a["address1"] and b["address1"]:
        _older_address(a, da.ops, b, db.ops, out)
        _address_classes(a, da, b, db, out)
    if bool(a["address1"]) != bool(b["address1"]):
        out.add("address_missing")
    if moved:
        out.add("move")
    if bool(a["zip"]) != bool(b["zip"]):
        out.add("zip_missing")
    elif a["zip"] and a["zip"] != b["zip"]:
        out.add("zip_format")
    if bool(a["website"]) != bool(b["website"]):
        out.add("website_missing")
    elif a["website"] and a["website"] != b["website"]:
        out.add("website_variant")
    if a["lat"] != "" and b["lat"] != "":
        out.add("coordinates_jitter")
    elif (a["lat"] != "") != (b["lat"] != ""):
        out.add("coordinates_one_side")
    return [k for k in DIVERGENCES if k in out]

"""A place's comparison form: every key the engine derives from one record alone. It is computed
once per record and can be stored (listings keep it on the staged row, written by the stage's
worker processes, and on the listing's keys), so that an index of 100,000 records normalises no
text; what depends on the other records (brands, chains, rare words) is left to PlaceIndex."""

from __future__ import annotations

from collections.abc import Sequence
from sys import intern
from typing import NamedTuple

from sadie_pipeline.core.places.address import parse_street
from sadie_pipeline.core.places.normal import (
    city_key,
    name_core,
    phone_key,
    short_form,
    state_key,
    website_parts,
    zip_key,
)
from sadie_pipeline.core.places.tables import NAME_STOP


class Place(NamedTuple):
    name: str | None
    address: str | None
    city: str | None
    state: str | None = None
    zip: str | None = None
    phone: str | None = None
    website: str | None = None
    lat: float | None = None
    lng: float | None = None


class PlaceForm(NamedTuple):
    """Normalised fields; "" where absent. Stored as a text array in this order."""
    city: str
    state: str
    zip: str
    full: str  # the name's core, its town's name kept
    core: str  # without it
    full_short: str
    full_bare: str
    core_short: str
    core_bare: str
    num: str
    street: str  # the street's name without spaces: the blocking key's
    street_form: str  # predir|name|type|postdir (address.Street), for the comparison
    phone: str
    domain: str  # registrable domain of the website
    site: str  # its property key ("" for a home page)

    @classmethod
    def stored(cls, values: Sequence[str] | None) -> PlaceForm | None:
        """A form read back from storage; None when absent or of another shape (an older release).
        Lean, since 100,000 of them are held at once: a name without its town's name shares its
        forms' strings, and the values that repeat (town, state, postal code, street, domain) are
        interned."""
        if isinstance(values, PlaceForm):
            return values
        if values is None or len(values) != len(cls._fields):
            return None
        city, state, postal, full, core, fs, fb, cs, cb, num, street, street_form, phone, domain, site = values
        if core == full:
            core, cs, cb = full, fs, fb
        return cls(intern(city), intern(state), intern(postal), full, core, fs, fb, cs, cb, num, intern(street),
                   intern(street_form), phone, intern(domain), site)


def place_form(p: Place) -> PlaceForm:
    city = city_key(p.city)
    full = name_core(p.name)
    core = name_core(p.name, city)
    full_short, full_bare = short_form(full), bare_name(full)
    # most names do not hold their town's name: their core's forms are the full name's
    core_short, core_bare = (full_short, full_bare) if core == full else (short_form(core), bare_name(core))
    street = parse_street(p.address)
    # the note (cross streets, a mall's name) leaves the comparison; the record keeps its address
    street_form = f"{street.predir}|{street.name}|{street.type}|{street.postdir}" if street.name else ""
    site = website_parts(p.website) or ("", "")
    return PlaceForm(city, state_key(p.state), zip_key(p.zip), full, core, full_short, full_bare, core_short,
                     core_bare, street.number, street.key, street_form, phone_key(p.phone), *site)


def bare_name(name: str) -> str:
    """The name without generic words and spaces: "Sea Breeze Motel" and "Seabreeze Inn" agree."""
    return "".join(t for t in name.split() if t not in NAME_STOP) or name.replace(" ", "")


def name_words(core: str) -> list[str]:
    """The name's distinctive words, cut to six letters (a typo at the end still blocks)."""
    return sorted({t[:6] for t in core.split() if len(t) >= 3 and t not in NAME_STOP and not t.isdigit()})

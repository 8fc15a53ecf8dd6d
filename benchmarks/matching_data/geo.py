"""Streets, house numbers, postal codes, coordinates and phone numbers of the generated places.

Streets have a position and a bearing, so neighbouring house numbers are neighbours on the map
and coordinates of one street line up. A district's streets come from a generator seeded by the
district alone, so they are the same whatever else is generated."""

from __future__ import annotations

import math
import random

from .common import Street, expand_zips, hash_seed, ordinal_suffix
from .metros import COMPOUND_STREETS, DIR_LONG, GENERIC_STREETS, GENERIC_TYPES, METROS, SAINT_STREETS, TYPE_LONG
from .words import SPANISH, SURNAME

_SAINTS_FR = ("Saint-Denis Saint-Laurent Sainte-Catherine Saint-Jean Saint-Joseph Saint-Paul Saint-Hubert "
              "Sainte-Anne Saint-Viateur Saint-Urbain").split()
_NAMES_FR = "Rivoli Bretagne Charonne Martyrs Oberkampf Lepic Cler Mouffetard Turenne Vieille-du-Temple".split()


def parse_street(text: str, country: str) -> tuple[str, str | None, str | None, str | None]:
    """"W 14th St" -> ("14th", "St", "W", None); streets outside North America stay whole."""
    if country not in ("US", "CA") or text.startswith(("Rue ", "Boulevard ", "Avenue ", "Grande ")):
        return text, None, None, None
    words = text.split()
    predir = words.pop(0) if len(words) >= 2 and words[0] in DIR_LONG else None
    postdir = words.pop() if len(words) > 2 and words[-1] in DIR_LONG else None
    if len(words) >= 2 and words[-1] in TYPE_LONG:
        return " ".join(words[:-1]), words[-1], predir, postdir
    return " ".join(words), None, predir, postdir


def _ordinal_number(rng: random.Random) -> int:
    # most numbered streets are low; big cities run to the hundreds ("W 125th St")
    x = rng.random()
    return rng.randint(1, 30) if x < 0.7 else rng.randint(31, 99) if x < 0.92 else rng.randint(100, 199)


def _north_american_street(rng: random.Random) -> str:
    x = rng.random()
    if x < 0.25:
        return (f"{rng.choice(['', 'E ', 'W ', 'N ', 'S '])}{ordinal_suffix(_ordinal_number(rng))} "
                f"{rng.choice(['St', 'Ave'])}")
    if x < 0.33:
        return f"{rng.choice(SAINT_STREETS)} {rng.choice(['St', 'Ave', 'Pl', 'Blvd'])}"
    if x < 0.39:
        return f"{rng.choice(['', '', 'N ', 'W '])}{rng.choice(COMPOUND_STREETS)} {rng.choice(GENERIC_TYPES)}"
    return f"{rng.choice(['', '', '', 'N ', 'S ', 'E ', 'W '])}{rng.choice(GENERIC_STREETS)} {rng.choice(GENERIC_TYPES)}"


def _local_street(rng: random.Random, metro: tuple) -> str:
    country = metro[3]
    if country == "US" or (country == "CA" and metro[1] != "QC"):
        return _north_american_street(rng)
    if country == "CA":
        return (f"{rng.choice(['Rue', 'Rue', 'Avenue', 'Boulevard'])} "
                f"{rng.choice(_SAINTS_FR + SURNAME)}{rng.choice(['', '', ' Est', ' Ouest'])}")
    if country == "FR":
        return (f"{rng.choice(['Rue', 'Rue', 'Rue', 'Boulevard', 'Avenue'])} "
                f"{rng.choice(['de ', 'des ', 'du ', ''])}{rng.choice(_NAMES_FR + SURNAME)}")
    if country == "GB":
        return f"{rng.choice(GENERIC_STREETS + SURNAME)} {rng.choice(['Street', 'Street', 'Road', 'Lane', 'Place'])}"
    if country == "DE":
        return f"{rng.choice(SURNAME + GENERIC_STREETS)}{rng.choice(['straße', 'straße', 'weg', 'platz'])}"
    return f"Carrer {rng.choice(['de ', 'del ', 'de la '])}{rng.choice(SURNAME + SPANISH)}"


class Geography:
    def __init__(self, seed: int):
        self.rng_seed = seed
        self.phones: set[str] = set()
        self.streets: dict[tuple[int, int], list[Street]] = {}
        self.zips: dict[tuple[int, int], list[str]] = {}

    def district_streets(self, m: int, d: int) -> list[Street]:
        key = (m, d)
        if key in self.streets:
            return self.streets[key]
        metro = METROS[m]
        rng = random.Random(hash_seed(self.rng_seed, m, d))
        count = 6 + metro[10][d][4] * 2
        names: list[str] = []
        # each signature street runs through one district (a long one through a second too)
        districts = len(metro[10])
        for k, street in enumerate(metro[9]):
            if k % districts == d or (districts > 1 and hash_seed(self.rng_seed, m, street) % (3 * districts) == d):
                names.append(street)
        while len(names) < count:
            names.append(_local_street(rng, metro))
        dlat = metro[4] + rng.uniform(-0.06, 0.06)
        dlng = metro[5] + rng.uniform(-0.08, 0.08)
        streets, seen = [], set()
        for text in names:
            if text in seen:
                continue
            seen.add(text)
            name, kind, predir, postdir = parse_street(text.strip(), metro[3])
            top = (rng.choice([400, 900, 1800, 3000, 6000, 12000]) if metro[3] in ("US", "CA")
                   else rng.choice([60, 120, 250]))
            streets.append(Street(name, kind, predir, postdir, dlat + rng.uniform(-0.02, 0.02),
                                  dlng + rng.uniform(-0.025, 0.025), rng.uniform(0, math.pi), top))
        self.streets[key] = streets
        return streets

    def district_zips(self, m: int, d: int) -> list[str]:
        key = (m, d)
        if key not in self.zips:
            self.zips[key] = expand_zips(METROS[m][10][d][3])
        return self.zips[key]

    def pick_street(self, m: int, d: int, rng: random.Random) -> Street:
        streets = self.district_streets(m, d)
        # a few commercial streets hold most places
        k = min(len(streets) - 1, int(rng.paretovariate(1.1)) - 1)
        return streets[k]

    @staticmethod
    def number(street: Street, rng: random.Random) -> str:
        return str(rng.randint(1, street.top))

    def zip_for(self, m: int, d: int, street: Street, number: str) -> str:
        zips = self.district_zips(m, d)
        num = int("".join(c for c in number if c.isdigit()) or 0)
        base = zips[hash_seed(self.rng_seed, street.name, num // 400) % len(zips)]
        country = METROS[m][3]
        if country == "CA":
            r = random.Random(hash_seed(self.rng_seed, street.name, num // 100))
            return f"{base} {r.randint(1, 9)}{r.choice('ABCEGHJKLMNPRSTVWXYZ')}{r.randint(1, 9)}"
        if country == "GB":
            r = random.Random(hash_seed(self.rng_seed, street.name, num // 20))
            return f"{base} {r.randint(1, 9)}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}{r.choice('ABDEFGHJLNPQRSTUWXYZ')}"
        return base

    @staticmethod
    def coords(street: Street, number: str) -> tuple[float, float]:
        num = int("".join(c for c in number if c.isdigit()) or 0)
        metres = num * (0.8 if street.top > 300 else 6.0)
        side = 8.0 if num % 2 else -8.0
        dn = metres * math.cos(street.bearing) + side * math.sin(street.bearing)
        de = metres * math.sin(street.bearing) - side * math.cos(street.bearing)
        lat = street.lat + dn / 111_320
        lng = street.lng + de / (111_320 * math.cos(math.radians(street.lat)))
        return round(lat, 6), round(lng, 6)

    def phone(self, m: int, rng: random.Random) -> str:
        """The national digits: ten for North America, else the country's own length."""
        metro = METROS[m]
        country = metro[3]
        while True:
            area = rng.choice(metro[7])
            if country in ("US", "CA"):
                digits = f"{area}{rng.randint(200, 999)}{rng.randint(0, 9999):04d}"
            elif country == "FR":
                digits = f"{rng.choice(['1', '1', '1', '9'])}{rng.randint(0, 99_999_999):08d}"
            elif country == "GB":
                digits = f"20{rng.choice('378')}{rng.randint(0, 9_999_999):07d}"
            elif country == "ES":
                digits = f"93{rng.randint(0, 9_999_999):07d}"
            else:
                digits = f"30{rng.randint(1_000_000, 99_999_999)}"
            if digits not in self.phones:
                self.phones.add(digits)
                return digits

    def central_phone(self, brand: str, m: int) -> str | None:
        """A brand's toll-free reservations line, the same for all its North American outlets."""
        if METROS[m][3] not in ("US", "CA"):
            return None
        h = hash_seed(self.rng_seed, "central", brand)
        area = ("800", "888", "877", "866", "855", "844")[h % 6]
        return f"{area}{200 + (h >> 8) % 800}{(h >> 20) % 10_000:04d}"


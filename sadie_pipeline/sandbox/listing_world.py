"""Tourism listings that the sandbox's listing sources publish (WordPress, Drupal, the partner API,
the GeoJSON host, the scrapeable sites), generated deterministically per site name:

* "demo": 24 listings around Prince Edward Island, the same on every source;
* "big-N": N listings (benchmarks: "big-20000");
* "defects": the demo listings with the bad input each source can give (a page that hangs, a page
  of HTML, records missing fields, a feature without geometry), per `DEFECTS`.

`Catalog.touch(k)` changes k listings (a new description, a later modification time), so an
incremental pull has something to find. Catalogs live as long as their service (`reset_state`
forgets the changes)."""

from __future__ import annotations

import datetime as dt
import random
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

CITIES = (("Charlottetown", "C1A", 46.2382, -63.1311), ("Summerside", "C1N", 46.3934, -63.7902),
          ("Cavendish", "C0A", 46.4914, -63.3786), ("Montague", "C0A", 46.1654, -62.6485),
          ("Souris", "C0A", 46.3534, -62.2490), ("Alberton", "C0B", 46.8133, -64.0658))
EXCHANGES = ("368", "566", "436", "963", "838", "687", "853", "357")
KINDS = (("hotel", "Lodging", "Hotel"), ("inn", "Lodging", "Inn"), ("restaurant", "Restaurant", "Kitchen"),
         ("museum", "Attraction", "Museum"), ("shop", "Shop", "Market"), ("tour", "Activity", "Tours"),
         ("cafe", "Restaurant", "Café"), ("campground", "Lodging", "Campground"))
WORDS = ("Harbour", "Island", "Red Sands", "Lighthouse", "Seaside", "Gulf", "Maple", "Dune", "Anne's", "Cove",
         "Tidewater", "Blue Heron", "Kings", "Founders", "Point Prim", "Oyster Bed", "Boardwalk", "Fiddler's")
STREETS = ("Water St", "Queen St", "Grafton St", "Richmond St", "Harbour Dr", "Shore Rd", "Main St", "Cape Rd")
BASE_TIME = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)
DEMO_SIZE = 24

# The defects site: listing numbers and page numbers that misbehave, per source.
DEFECTS = {
    "missing_fields": (5, 6),   # listings whose address fields are gone (a changed schema)
    "no_geometry": (7,),        # GeoJSON features without geometry
    "hang_page": 2,             # the second page never answers within a client's timeout
    "html_page": 3,             # the third page answers an HTML maintenance page
}


@dataclass(frozen=True)
class Listing:
    n: int
    name: str
    kind: str
    category: str
    street: str
    city: str
    province: str
    postal: str
    lat: float
    lng: float
    phone: str
    email: str
    website: str
    description: str
    modified: dt.datetime
    uuid: str
    missing_fields: bool = False
    no_geometry: bool = False

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-") + f"-{self.n}"


def _listing(n: int, rng: random.Random, defects: bool) -> Listing:
    kind, category, suffix = KINDS[(n - 1) % len(KINDS)]
    city, postal, lat, lng = CITIES[rng.randrange(len(CITIES))]
    name = f"{WORDS[rng.randrange(len(WORDS))]} {suffix}"
    if n > len(WORDS):
        name = f"{name} {n}"
    domain = re.sub(r"[^a-z0-9]+", "", name.lower())
    return Listing(
        n=n, name=name, kind=kind, category=category,
        street=f"{rng.randrange(1, 400)} {STREETS[rng.randrange(len(STREETS))]}", city=city, province="PE",
        postal=f"{postal} {rng.randrange(1, 9)}{'ABCEGHJK'[rng.randrange(8)]}{rng.randrange(1, 9)}",
        lat=round(lat + rng.uniform(-0.03, 0.03), 5), lng=round(lng + rng.uniform(-0.03, 0.03), 5),
        phone=f"(902) {EXCHANGES[rng.randrange(len(EXCHANGES))]}-{rng.randrange(1000, 9999)}",
        email=f"info@{domain}.test", website=f"http://www.{domain}.test/",
        description=f"{name} is a {kind} in {city}, Prince Edward Island. Open May to October.",
        modified=BASE_TIME + dt.timedelta(minutes=n), uuid=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        missing_fields=defects and n in DEFECTS["missing_fields"], no_geometry=defects and n in DEFECTS["no_geometry"])


@dataclass
class Catalog:
    """One site's listings, ordered by number, and what was changed since it was generated."""
    name: str
    listings: list[Listing]
    defects: bool = False
    clock: dt.datetime = field(default_factory=lambda: BASE_TIME + dt.timedelta(days=60))
    _cache: dict[tuple[str, int], tuple[dt.datetime, Any]] = field(default_factory=dict, repr=False)

    def touch(self, count: int) -> list[int]:
        """Changes `count` listings spread over the catalog; returns their numbers."""
        if count <= 0 or not self.listings:
            return []
        step = max(1, len(self.listings) // count)
        changed = []
        for index in range(0, len(self.listings), step)[:count]:
            self.clock += dt.timedelta(seconds=1)
            old = self.listings[index]
            self.listings[index] = replace(old, modified=self.clock,
                                           description=f"{old.description} Updated {self.clock:%Y-%m-%d %H:%M:%S}.")
            changed.append(old.n)
        return changed

    def changed_after(self, moment: dt.datetime | None) -> list[Listing]:
        return self.listings if moment is None else [x for x in self.listings if x.modified > moment]

    def cached(self, kind: str, x: Listing, build: Callable[[], Any]) -> Any:
        """What a service renders of a listing (its JSON), kept until the listing changes: serving
        pages of a 20,000-listing site must cost the sandbox little next to the latency it simulates."""
        key = (kind, x.n)
        found = self._cache.get(key)
        if found is None or found[0] != x.modified:
            found = self._cache[key] = (x.modified, build())
        return found[1]

    def encoded(self, kind: str, x: Listing, build: Callable[[], Any]) -> bytes:
        return self.cached(kind, x, lambda: orjson.dumps(build()))


def catalog(name: str) -> Catalog | None:
    """The catalog a site name stands for, or None for an unknown site."""
    if name in ("demo", "defects"):
        size = DEMO_SIZE
    elif (match := re.fullmatch(r"big-(\d{1,6})", name)) and 0 < int(match.group(1)) <= 200_000:
        size = int(match.group(1))
    else:
        return None
    rng = random.Random(f"listings:{'demo' if name == 'defects' else name}")
    defects = name == "defects"
    return Catalog(name, [_listing(n, rng, defects) for n in range(1, size + 1)], defects)


class Catalogs:
    """The catalogs a service has served, created on first use."""

    def __init__(self) -> None:
        self._sites: dict[str, Catalog] = {}

    def get(self, name: str) -> Catalog | None:
        if name not in self._sites:
            found = catalog(name)
            if found is None:
                return None
            self._sites[name] = found
        return self._sites[name]

    def reset(self) -> None:
        self._sites.clear()

    def state(self) -> dict[str, int]:
        return {name: len(c.listings) for name, c in self._sites.items()}


def json_array(parts: list[bytes]) -> bytes:
    return b"[" + b",".join(parts) + b"]"


def parse_time(text: str) -> dt.datetime | None:
    """An ISO 8601 time or Unix time from a query parameter (naive = UTC), None if unreadable."""
    text = text.strip()
    try:
        if text.lstrip("-").isdigit():
            return dt.datetime.fromtimestamp(int(text), dt.UTC)
        moment = dt.datetime.fromisoformat(text.replace(" ", "+"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def iso(moment: dt.datetime, zone: bool = True) -> str:
    text = moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{text}+00:00" if zone else text

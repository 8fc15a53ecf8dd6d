"""The sandbox's world: the places (hotels, attractions, noise) every fake service answers from.

A `World` is built from the bundled demo region (`fixtures/demo_region.json`), from
`generate_hotels()` (N synthetic hotels for benchmarks), or both. Every service of the sandbox
reads the same world, so a hotel found through Serper has a website, an RDAP record and DNS
records that agree with each other and with the ground truth kept on the `Place`.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

FIXTURES_DIR = Path(__file__).resolve().parent / "fixtures"

# Kinds of website a hotel can have (Place.site).
SITE_KINDS = (
    "ok",             # static pages, booking engine visible in the HTML
    "js_only",        # booking link/iframe injected by JavaScript after load
    "huge",           # a page of several MB
    "redirect_www",   # listed as http://apex/, 301 to http://www.apex/
    "moved",          # listed URL 301s to another domain (Place.moved_to)
    "redirect_loop",  # / -> /home -> / ...
    "dead_refused",   # the connection is dropped without a response
    "dead_5xx",       # every page answers 503
    "dead_timeout",   # the server never answers within a client's timeout
    "nxdomain",       # the domain does not resolve
    "parked",         # a domain-parking page, no hotel
    "none",           # no website at all
)
DEAD_KINDS = ("dead_refused", "dead_5xx", "dead_timeout", "nxdomain", "parked")


@dataclass(frozen=True)
class Engine:
    """A booking engine as it appears on the hotel's site."""

    name: str
    url: str
    embed: str = "link"  # link | iframe | form | script
    ota: bool = False    # an online travel agency link, not a booking engine


@dataclass(frozen=True)
class Contact:
    name: str
    title: str
    email: str | None = None
    phone: str | None = None


@dataclass(frozen=True)
class Place:
    """One place of the world. `kind` is "hotel", "attraction" or "lodging_noise"."""

    id: str
    name: str
    city: str
    state: str
    address: str
    lat: float
    lon: float
    kind: str = "hotel"
    phone: str | None = None
    rating: float | None = None
    reviews: int | None = None
    category: str = "Hotel"
    website: str | None = None
    site: str = "ok"
    moved_to: str | None = None
    engine: Engine | None = None
    rooms: int | None = None
    rooms_text: str | None = None
    type: str = "hotel"
    brand: str | None = None
    management: str | None = None
    amenities: tuple[str, ...] = ()
    contacts: tuple[Contact, ...] = ()
    mail: str | None = None
    rdap: dict[str, Any] | None = field(default=None, hash=False, compare=False)
    also_in: tuple[str, ...] = ()
    country: str = "US"

    # ---- derived -------------------------------------------------------------------------
    @property
    def region(self) -> str:
        return f"{self.country}-{self.state}"

    @property
    def host(self) -> str | None:
        return urlsplit(self.website).hostname if self.website else None

    @property
    def domain(self) -> str | None:
        """Registrable domain of the listed website (`www.x.test` -> `x.test`)."""
        return registrable(self.host) if self.host else None

    @property
    def serving_url(self) -> str | None:
        """The URL where the site's pages are actually served (after redirects)."""
        if not self.website:
            return None
        if self.site == "moved" and self.moved_to:
            return self.moved_to
        if self.site == "redirect_www":
            parts = urlsplit(self.website)
            return f"{parts.scheme}://www.{parts.hostname}{parts.path or '/'}"
        return self.website

    @property
    def cid(self) -> str:
        return str(int(_h(self.id, "cid")[:16], 16) % 10**19).rjust(19, "1")

    @property
    def place_id(self) -> str:
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
        digest = bytes.fromhex(_h(self.id, "placeid"))
        return "ChIJ" + "".join(alphabet[b % 64] for b in digest[:23])

    @property
    def fid(self) -> str:
        h = _h(self.id, "fid")
        return f"0x{h[:16]}:0x{h[16:32]}"

    def truth(self) -> dict[str, Any]:
        """Ground truth for assertions in tests and benchmarks."""
        return {
            "id": self.id, "name": self.name, "city": self.city, "state": self.state,
            "website": self.website, "site": self.site, "domain": self.domain,
            "engine": self.engine.name if self.engine and not self.engine.ota else None,
            "rooms": self.rooms, "type": self.type, "brand": self.brand,
            "is_chain": self.brand is not None, "management": self.management,
            "amenities": list(self.amenities),
            "contacts": [c.__dict__ for c in self.contacts], "mail": self.mail,
        }


def _h(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def registrable(host: str) -> str:
    labels = host.lower().rstrip(".").split(".")
    return ".".join(labels[-2:]) if len(labels) >= 2 else host.lower()


def _place_from_json(d: dict[str, Any], state: str) -> Place:
    d = dict(d)
    engine = d.pop("engine", None)
    contacts = d.pop("contacts", []) or []
    return Place(
        state=d.pop("state", state),
        engine=Engine(**engine) if engine else None,
        contacts=tuple(Contact(**c) for c in contacts),
        amenities=tuple(d.pop("amenities", []) or []),
        also_in=tuple(d.pop("also_in", []) or []),
        lat=d.pop("lat"), lon=d.pop("lon"),
        reviews=d.pop("reviews", None),
        **d,
    )


@dataclass
class City:
    name: str
    state: str
    lat: float
    lon: float
    state_name: str = ""


@dataclass
class Domain:
    """A registrable domain of the world: what RDAP and DNS answer for it."""

    name: str
    mail: str | None = None
    rdap: dict[str, Any] | None = None
    resolves: bool = True


class World:
    """All places, sites, domains and cities the sandbox serves."""

    def __init__(self, places: Iterable[Place], cities: Iterable[City] = (),
                 domains: Iterable[Domain] = ()) -> None:
        self.places: list[Place] = list(places)
        self.cities: dict[str, City] = {}
        for c in cities:
            self.cities.setdefault(c.name.lower(), c)
        for p in self.places:  # cities implied by places
            if p.city.lower() not in self.cities:
                self.cities[p.city.lower()] = City(p.city, p.state, p.lat, p.lon)
        self.domains: dict[str, Domain] = {}
        for d in domains:
            self.domains[d.name] = d
        self.by_id = {p.id: p for p in self.places}
        # host -> list of (base_path, place), longest path first
        self.sites: dict[str, list[tuple[str, Place]]] = {}
        # host -> (kind, detail) for hosts that only redirect or are dead
        self.hosts: dict[str, tuple[str, Any]] = {}
        for p in self.places:
            self._index_site(p)
        for entries in self.sites.values():
            entries.sort(key=lambda e: -len(e[0]))

    # ---- construction ------------------------------------------------------------------------
    @classmethod
    def demo(cls) -> World:
        return cls.from_json(FIXTURES_DIR / "demo_region.json")

    @classmethod
    def from_json(cls, path: Path) -> World:
        data = json.loads(Path(path).read_text())
        state = data["state"]
        places = [_place_from_json(h, state) for h in data.get("hotels", [])]
        places += [_place_from_json(p, state) for p in data.get("places", [])]
        cities = [City(c["name"], state, c["lat"], c["lon"], data.get("state_name", ""))
                  for c in data.get("cities", [])]
        domains = [Domain(d["domain"], d.get("mail"), d.get("rdap")) for d in data.get("brand_domains", [])]
        return cls(places, cities, domains)

    @classmethod
    def synthetic(cls, n: int, **kwargs: Any) -> World:
        return cls(generate_hotels(n, **kwargs), _SYNTH_CITIES_AS_CITY)

    def plus(self, other: World) -> World:
        return World(self.places + other.places, list(self.cities.values()) + list(other.cities.values()),
                     list(self.domains.values()) + list(other.domains.values()))

    def _index_site(self, p: Place) -> None:
        if not p.website or p.site == "none":
            return
        listed = urlsplit(p.website)
        host, path = listed.hostname or "", listed.path or "/"
        dom = registrable(host)
        if dom not in self.domains:
            self.domains[dom] = Domain(dom, p.mail, p.rdap, resolves=p.site != "nxdomain")
        if p.site == "nxdomain":
            self.hosts[host] = ("nxdomain", None)
            return
        if p.site in ("dead_refused", "dead_5xx", "dead_timeout", "parked", "redirect_loop"):
            self.hosts[host] = (p.site, p)
            if host.startswith("www."):
                self.hosts.setdefault(host[4:], ("redirect", f"http://{host}/"))
            return
        if p.site == "moved" and p.moved_to:
            self.hosts[host] = ("redirect", p.moved_to)
            if host.startswith("www."):
                self.hosts.setdefault(host[4:], ("redirect", p.moved_to))
            target = urlsplit(p.moved_to)
            host, path = target.hostname or "", target.path or "/"
            tdom = registrable(host)
            if tdom not in self.domains:
                self.domains[tdom] = Domain(tdom, p.mail, p.rdap)
        elif p.site == "redirect_www":
            www = f"www.{host}"
            self.hosts[host] = ("redirect_www", www)
            host = www
        if not path.endswith("/"):
            path += "/"
        self.sites.setdefault(host, []).append((path, p))
        if host.startswith("www.") and host[4:] not in self.hosts and host[4:] not in self.sites:
            self.hosts[host[4:]] = ("redirect_www", host)

    # ---- queries -----------------------------------------------------------------------------
    @property
    def hotels(self) -> list[Place]:
        return [p for p in self.places if p.kind == "hotel"]

    def hotel(self, key: str) -> Place:
        """A hotel by id, name, host or domain."""
        if key in self.by_id:
            return self.by_id[key]
        k = key.lower()
        for p in self.hotels:
            if k in (p.name.lower(), (p.host or "").lower(), (p.domain or "").lower()):
                return p
        raise KeyError(key)

    def site_for(self, host: str, path: str) -> tuple[str, Place | None] | None:
        """(base_path, place) serving `path` on `host`; place None = the host's own root page."""
        entries = self.sites.get(host)
        if not entries:
            return None
        for base, p in entries:
            if path.startswith(base) or path + "/" == base:
                return base, p
        return "/", None

    def find_city(self, text: str) -> City | None:
        t = " " + re.sub(r"[^a-z0-9]+", " ", text.lower()) + " "
        best: City | None = None
        for key, c in self.cities.items():
            k = " " + re.sub(r"[^a-z0-9]+", " ", key) + " "
            if k in t and (best is None or len(key) > len(best.name)):
                best = c
        return best


# ---- synthetic hotels ------------------------------------------------------------------------

_SYNTH_CITIES = [
    ("Miami", 25.7617, -80.1918), ("Miami Beach", 25.7907, -80.1300), ("Orlando", 28.5384, -81.3789),
    ("Key West", 24.5551, -81.7800), ("Tampa", 27.9506, -82.4572), ("St. Petersburg", 27.7676, -82.6403),
    ("Clearwater", 27.9659, -82.8001), ("Sarasota", 27.3364, -82.5307), ("Naples", 26.1420, -81.7948),
    ("Fort Myers", 26.6406, -81.8723), ("Fort Lauderdale", 26.1224, -80.1373), ("West Palm Beach", 26.7153, -80.0534),
    ("Daytona Beach", 29.2108, -81.0228), ("St. Augustine", 29.9012, -81.3124), ("Jacksonville", 30.3322, -81.6557),
    ("Tallahassee", 30.4383, -84.2807), ("Pensacola", 30.4213, -87.2169), ("Destin", 30.3935, -86.4958),
    ("Panama City Beach", 30.1766, -85.8055), ("Gainesville", 29.6516, -82.3248),
]
AU_CITIES = [("Sydney", -33.8688, 151.2093), ("Newcastle", -32.9283, 151.7817), ("Wollongong", -34.4278, 150.8931),
             ("Byron Bay", -28.6474, 153.6020), ("Port Macquarie", -31.4333, 152.9000)]
_SYNTH_CITIES_AS_CITY = [City(n, "FL", la, lo, "Florida") for n, la, lo in _SYNTH_CITIES]

_ADJ = ["Sea", "Palm", "Coral", "Sunset", "Harbor", "Bay", "Royal", "Golden", "Breeze", "Island", "Pelican",
        "Seagull", "Mango", "Citrus", "Lighthouse", "Driftwood", "Tropic", "Azure", "Magnolia", "Cypress"]
_NOUN = ["View", "Point", "Shores", "Gardens", "Landing", "Cove", "Sands", "Crest", "Park", "Pier", "Grove", "Key"]
_TYPES = [("Hotel", "hotel", "Hotel"), ("Inn", "inn", "Inn"), ("Resort", "resort", "Resort hotel"),
          ("Motel", "motel", "Motel"), ("Suites", "hotel", "Hotel"), ("Bed & Breakfast", "bed_and_breakfast", "Bed & breakfast"),
          ("Boutique Hotel", "boutique_hotel", "Boutique hotel"), ("Lodge", "lodge", "Lodge")]
_FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
          "William", "Barbara", "Carlos", "Sofia", "Wei", "Priya", "Ahmed", "Fatima", "Ivan", "Yuki"]
_LAST = ["Smith", "Johnson", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Lee", "Walker", "Hall",
         "Allen", "Young", "Nguyen", "Patel", "Kim", "Cohen", "Silva", "Novak", "Okafor", "Tanaka"]
_MGMT = ["Coastal Hospitality Group", "Sunshine Hotel Management", "Keys Lodging Partners",
         "Orange Blossom Hospitality", "Gulf Coast Hotel Partners", "Peninsula Hospitality LLC"]
_AMEN = ["outdoor pool", "free wifi", "fitness center", "restaurant", "bar", "spa", "free parking",
         "complimentary breakfast", "beach access", "pet friendly", "shuttle", "meeting rooms"]
_MAIL = ["google", "microsoft", "godaddy", "zoho", "self", None]
_REGISTRARS = ["GoDaddy.com, LLC", "NameCheap, Inc.", "Network Solutions, LLC", "Tucows Domains Inc.",
               "Squarespace Domains II LLC"]


def engine_for(name: str, slug: str, rnd: random.Random) -> Engine:
    """A realistic booking-engine link for engine `name` and a hotel slug."""
    n = rnd.randint(10000, 99999)
    camel = "".join(w.capitalize() for w in re.split(r"[^a-z0-9]+", slug) if w)
    code = "".join(rnd.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789") for _ in range(6))
    uuid = "-".join(_h(slug, name)[a:b] for a, b in ((0, 8), (8, 12), (12, 16), (16, 20), (20, 32)))
    urls = {
        "SynXis": f"https://be.synxis.com/?hotel={n}&chain={rnd.choice([10237, 24447, 5154, 7736])}",
        "Cloudbeds": f"https://hotels.cloudbeds.com/reservation/{code}",
        "TravelClick": f"https://reservations.travelclick.com/{n}",
        "Mews": f"https://app.mews.com/distributor/{uuid}",
        "SiteMinder": f"https://book-directonline.com/properties/{camel}Direct",
        "WebRezPro": f"https://secure.webrez.com/hotel/{n % 9000 + 1000}/",
        "ResNexus": f"https://resnexus.com/resnexus/reservations/book/{uuid.upper()}",
        "Little Hotelier": f"https://app.littlehotelier.com/properties/{slug.replace('-', '')}direct",
        "ThinkReservations": f"https://secure.thinkreservations.com/{slug.replace('-', '')}/reservations",
        "Guesty": f"https://{slug.replace('-', '')}.guestybookings.com/",
        "Lodgify": f"https://checkout.lodgify.com/{slug.replace('-', '')}/en/",
    }
    return Engine(name, urls[name], rnd.choice(["link", "link", "iframe", "form", "script"]))


SYNTH_ENGINES = ["SynXis", "Cloudbeds", "TravelClick", "Mews", "SiteMinder", "WebRezPro", "ResNexus",
                 "Little Hotelier", "ThinkReservations", "Guesty", "Lodgify"]


def generate_hotels(n: int, *, seed: int = 0, js_share: float = 0.2, dead_share: float = 0.1,
                    no_engine_share: float = 0.1, cities: list[tuple[str, float, float]] | None = None,
                    state: str = "FL", id_prefix: str = "syn", country: str = "US") -> list[Place]:
    """N synthetic hotels with websites, deterministic for a seed.

    Shares are of all hotels: `js_share` get a JavaScript-injected booking engine,
    `dead_share` a dead site (refused, 5xx, timeout, nxdomain, parked in turn),
    `no_engine_share` a working site without any booking engine. `country` "AU" with
    `AU_CITIES` (state "NSW") makes Australian hotels (ABN Lookup knows them).
    """
    rnd = random.Random(f"sandbox-synthetic:{seed}")
    cities = cities or _SYNTH_CITIES
    n_dead, n_js, n_none = round(n * dead_share), round(n * js_share), round(n * no_engine_share)
    kinds = (["dead"] * n_dead + ["js_only"] * n_js + ["no_engine"] * n_none)[:n]
    kinds += ["ok"] * (n - len(kinds))
    rnd.shuffle(kinds)
    out: list[Place] = []
    dead_i = 0
    for i, kind in enumerate(kinds):
        city, clat, clon = cities[i % len(cities)]
        word, ptype, category = rnd.choice(_TYPES)
        name = f"{rnd.choice(_ADJ)} {rnd.choice(_NOUN)} {word}"
        city_slug = re.sub(r"[^a-z0-9]+", "", city.lower())
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        apex = f"{slug.replace('-', '')}-{city_slug}-{i:04d}.test"
        site = "ok" if kind in ("ok", "no_engine") else kind
        if kind == "dead":
            site = DEAD_KINDS[dead_i % len(DEAD_KINDS)]
            dead_i += 1
        rooms = rnd.choice([rnd.randint(6, 30), rnd.randint(30, 150), rnd.randint(150, 600)])
        engine = None if kind == "no_engine" or site in DEAD_KINDS else engine_for(rnd.choice(SYNTH_ENGINES), slug, rnd)
        first, last = rnd.choice(_FIRST), rnd.choice(_LAST)
        contacts = (Contact(f"{first} {last}", rnd.choice(["General Manager", "Owner", "Innkeeper", "Hotel Manager"]),
                            f"{first[0].lower()}{last.lower()}@{apex}", f"(555) 555-{rnd.randint(0, 9999):04d}"),)
        mgmt = rnd.choice(_MGMT) if rnd.random() < 0.4 else None
        mail = rnd.choice(_MAIL)
        privacy = rnd.random() < 0.3
        out.append(Place(
            id=f"{id_prefix}-{i:05d}", name=f"{name} {city}", city=city, state=state, country=country,
            address=f"{rnd.randint(100, 9999)} {rnd.choice(_ADJ)} {rnd.choice(['St', 'Ave', 'Blvd', 'Dr'])}, {city}, {state} {rnd.randint(32000, 34999)}",
            lat=round(clat + rnd.uniform(-0.05, 0.05), 6), lon=round(clon + rnd.uniform(-0.05, 0.05), 6),
            phone=f"(555) 555-{i % 10000:04d}", rating=round(rnd.uniform(2.8, 4.9), 1),
            reviews=rnd.randint(5, 4000), category=category, website=f"http://www.{apex}/", site=site,
            engine=engine, rooms=rooms, rooms_text=f"{rooms} guest rooms", type=ptype, brand=None,
            management=mgmt, amenities=tuple(rnd.sample(_AMEN, rnd.randint(2, 6))), contacts=contacts,
            mail=mail if site != "nxdomain" else None,
            rdap=None if site == "nxdomain" else {
                "registrar": rnd.choice(_REGISTRARS), "org": None if privacy else f"{name} LLC",
                "name": None if privacy else f"{first} {last}",
                "email": None if privacy else f"{first[0].lower()}{last.lower()}@{apex}",
                "privacy": privacy, "created": f"{rnd.randint(1998, 2023)}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"},
        ))
    return out


def with_site(place: Place, site: str) -> Place:
    """A copy of `place` with another site kind (for tests)."""
    return replace(place, site=site)

"""Hotel entity resolution: one entity per real hotel from discovery records of several sources.

Pure logic (no Dagster, no I/O). ``resolve(records)`` takes source records (Serper/Google Maps
places, DMO lodging listings, CSV imports, ...) and returns, for every record, the index of its
entity, the merged entities with every source's ids, and the pairs that need a human look.

Signals (the hotel-lead seed, "Entity Resolution Strategy", stage 4), for a pair of records:

==============  ======  =============================================================================
signal          weight  when
==============  ======  =============================================================================
place_id        1.0     same Google place id (or the same source and the same external id)
website         0.9     same *identifying* website: the registrable domain (``www.`` and scheme,
                        path, query ignored); for brand-level domains only the property URL path
                        (``hilton.com/en/hotels/mcoabhh-.../`` -> ``hilton.com/mcoabhh-...``) counts
phone           0.8     same E.164 number, unless it is brand-level (central reservations)
name_exact      0.7     same city and same name core (lower case, no punctuation, "&" = "and",
                        no leading "The", no "by Wyndham" tail, the city's name removed)
address         0.6     same city, same house number and the same street (the street's words
                        without type and direction equal, or similar >= 85), so "St"/"Street",
                        "N"/"North", a suite number or Serper's ", City, ST zip" tail do not matter
name_fuzzy      0.5     same city and name cores similar >= 85 (max of ratio, token-sort ratio,
                        token-set ratio), when every distinctive word that differs has a look-alike
                        on the other side (a typo: "Hottel"/"Hotel", "Seabrese"/"Seabreeze"; not
                        "Uptown"/"Midtown" nor an extra "Airport"), and the same direction words
                        and numbers ("North" != "South")
==============  ======  =============================================================================

Combination (a noisy-OR: the strongest signal sets the floor and each corroborating signal
raises it, without ever reaching 1.0 on weak evidence)::

    score = (1 - prod(1 - w for each signal present)) * penalties

    website alone 0.9, phone alone 0.8 -> merge;  name_exact alone 0.7, address alone 0.6,
    name_fuzzy alone 0.5 -> review;  name_exact + address 0.88, name_fuzzy + address 0.80,
    phone + name_fuzzy 0.90 -> merge.

Penalties (x0.85 each): both addresses carry different house numbers on different streets; both
names present but unrelated (token-set ratio and spaceless ratio < 50); both records carry an
identifying website and they differ; both carry an identifying phone and they differ. So one strong signal against such
evidence goes to review, while two strong ones (website + phone) still merge; and a dual-branded
site (a Holiday Inn and a Holiday Inn Express at one address, each with its own phone and
property URL) is not merged on "address + similar name" alone. "Suites" and "Express" count as
distinctive words in names for the same reason.

Vetoes (the pair is never merged; it goes to review only when its score reaches the merge
threshold, a strong match contradicted, e.g. two place ids with one website and phone): two different Google place ids; different house numbers on the same street; both
states known and different; both coordinates known and more than ``max_distance_km`` apart.
A place id match (1.0) overrides every veto but the place id one.

``score >= merge_threshold`` (0.8) merges, ``review_threshold <= score < merge_threshold`` (0.5)
goes to ``Resolution.review_pairs``, below is distinct.

Chains. A brand domain (``hilton.com``, ``marriott.com``, ...) or a central reservations phone is
shared by many properties, so it identifies nothing. "Shared" is detected from the data: a
domain, property URL or phone seen at ``shared_min_locations`` (3) distinct (city, house number)
locations, in as many distinct cities, on more than ``MAX_LISTINGS_PER_HOTEL`` (8) distinct
listings, or on more than ``max_block`` records is brand-level (toll-free numbers already at 2
locations or cities). Built-in ``BRAND_DOMAINS`` (hotel brands, OTAs, social sites,
site builders) are always brand-level. For brand-level domains the property URL path (or
subdomain) may still identify a hotel.

Blocking (no all-pairs): candidate pairs come only from records sharing a place id, an
identifying phone, an identifying website key, (city, house number), (city, name core), or for
fuzzy names (city, word) for the two rarest distinctive words of the name (rarity counted in the
city), compared with a C-speed similarity pre-filter. Blocks larger than ``max_block`` are skipped
(another key of the record still finds its duplicates). The work is near-linear in the records.

Merging. Candidate pairs >= merge_threshold are applied strongest first to a union-find whose
components remember their place id and their (street -> house number) map; a union that would put
two place ids, or two house numbers on one street, into one entity is refused (and the pair goes to
review), so transitive chaining cannot glue two different hotels together through a weak record.
Review pairs are reported once per pair of entities (the best scoring record pair), never inside
one entity. Records without a city only match through place id, phone and website.

Cost: 100,000 records resolve in about 6-10 s and 260 MB on a slow 2-core VM
(``benchmarks/entity_resolution.py``); the cyclic GC is paused during ``resolve`` (nothing here
builds cycles, and rescanning the records would double the time).
"""

from __future__ import annotations

import gc
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz, process

from sadie_pipeline.core.matching import address_key, name_key
from sadie_pipeline.core.normalize import PhoneError, match_key, phone_to_e164

__all__ = [
    "BRAND_DOMAINS",
    "PLACE_ID_SOURCES",
    "WEIGHTS",
    "Entity",
    "PairScore",
    "Resolution",
    "SourceRecord",
    "resolve",
    "score_pair",
    "website_parts",
]

WEIGHTS = {
    "place_id": 1.0,
    "website": 0.9,
    "phone": 0.8,
    "name_exact": 0.7,
    "address": 0.6,
    "name_fuzzy": 0.5,
}
PENALTY = 0.85
FUZZY_NAME_MIN = 85
LOOKALIKE_MIN = 75
STREET_MIN = 85
#: More distinct listings (place ids, source ids) than one hotel plausibly has across sources.
MAX_LISTINGS_PER_HOTEL = 8

#: Sources whose ``external_id`` is a Google place id (so ids from two of them are comparable).
PLACE_ID_SOURCES = frozenset({"serper", "google", "google_maps", "google_places", "gmaps", "places"})

#: Domains that never identify a hotel by themselves: brands, OTAs, social sites, site builders.
BRAND_DOMAINS = frozenset({
    # brands
    "hilton.com", "marriott.com", "ihg.com", "choicehotels.com", "wyndhamhotels.com", "bestwestern.com",
    "hyatt.com", "radissonhotels.com", "accor.com", "sonesta.com", "redlion.com", "motel6.com",
    "extendedstayamerica.com", "redroof.com", "omnihotels.com", "fourseasons.com", "loewshotels.com",
    "hiltongrandvacations.com", "marriottvacationclub.com", "americasbestvalueinn.com", "oyorooms.com",
    # OTAs and listings
    "booking.com", "expedia.com", "hotels.com", "tripadvisor.com", "airbnb.com", "vrbo.com",
    "priceline.com", "kayak.com", "agoda.com", "trivago.com", "orbitz.com", "travelocity.com",
    "yelp.com", "google.com", "goo.gl", "g.page", "business.site",
    # social and site builders
    "facebook.com", "instagram.com", "twitter.com", "x.com", "linktr.ee", "wixsite.com", "weebly.com",
    "squarespace.com", "wordpress.com", "blogspot.com", "godaddysites.com", "webs.com",
})

_SECOND_LEVEL = frozenset({
    "co.uk", "org.uk", "ac.uk", "com.au", "net.au", "org.au", "co.nz", "com.mx", "com.br", "co.jp",
    "co.za", "com.cn", "com.sg", "co.in", "com.ar",
})
_LOCALE = re.compile(r"^[a-z]{2}(?:[-_][a-z]{2})?$")
_GENERIC_SEGMENTS = frozenset({
    "hotels", "hotel", "home", "index", "default", "overview", "hoteldetail", "hotel-detail",
    "hotel-overview", "travel", "stay", "rooms", "welcome", "main", "book", "booking", "reservations",
    "reserve", "properties", "property", "locations", "location", "amp",
})
_PAGE_EXT = re.compile(r"\.(?:html?|php|aspx?|jsp)$")
_TOLL_FREE = frozenset({"800", "833", "844", "855", "866", "877", "888"})

_NAME_ABBREV = {
    "intl": "international", "arpt": "airport", "htl": "hotel", "ste": "suite", "stes": "suites",
    "ctr": "center", "cntr": "center", "centre": "center", "dwtn": "downtown", "dtwn": "downtown",
    "mt": "mount", "st": "saint", "ft": "fort", "conv": "convention", "univ": "university",
    "bch": "beach", "hwy": "highway", "n": "north", "s": "south", "e": "east", "w": "west",
    "ext": "extended", "exp": "express", "expr": "express", "resrt": "resort",
}
_NAME_STOP = frozenset(
    "hotel hotels inn inns motel motels lodge lodges resort resorts and the of at by a an spa".split()
)
_PARENT_BRANDS = frozenset("hilton marriott wyndham ihg hyatt choice radisson sonesta accor".split())
_DIRECTIONS = frozenset(
    "north south east west northeast northwest southeast southwest ne nw se sw".split()
)
_CITY_ABBREV = {"st": "saint", "ste": "sainte", "ft": "fort", "mt": "mount", "pt": "port"}
_UNIT_WORDS = frozenset("suite unit apt apartment room rm bldg building floor fl lot space spc".split())
_STREET_TYPES = frozenset(
    "street avenue road drive boulevard highway lane court place parkway square terrace crescent route "
    "way circle trail plaza pike loop alley expressway freeway".split()
)
_HOUSE = re.compile(r"^(\d+)")

_STATES = {
    "alabama": "AL", "alaska": "AK", "arizona": "AZ", "arkansas": "AR", "california": "CA", "colorado": "CO",
    "connecticut": "CT", "delaware": "DE", "district of columbia": "DC", "florida": "FL", "georgia": "GA",
    "hawaii": "HI", "idaho": "ID", "illinois": "IL", "indiana": "IN", "iowa": "IA", "kansas": "KS",
    "kentucky": "KY", "louisiana": "LA", "maine": "ME", "maryland": "MD", "massachusetts": "MA",
    "michigan": "MI", "minnesota": "MN", "mississippi": "MS", "missouri": "MO", "montana": "MT",
    "nebraska": "NE", "nevada": "NV", "new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM",
    "new york": "NY", "north carolina": "NC", "north dakota": "ND", "ohio": "OH", "oklahoma": "OK",
    "oregon": "OR", "pennsylvania": "PA", "rhode island": "RI", "south carolina": "SC",
    "south dakota": "SD", "tennessee": "TN", "texas": "TX", "utah": "UT", "vermont": "VT",
    "virginia": "VA", "washington": "WA", "west virginia": "WV", "wisconsin": "WI", "wyoming": "WY",
    "puerto rico": "PR", "alberta": "AB", "british columbia": "BC", "manitoba": "MB",
    "new brunswick": "NB", "newfoundland and labrador": "NL", "nova scotia": "NS", "ontario": "ON",
    "prince edward island": "PE", "quebec": "QC", "saskatchewan": "SK", "northwest territories": "NT",
    "nunavut": "NU", "yukon": "YT",
}


@dataclass(frozen=True)
class SourceRecord:
    """One discovery record. ``place_id`` is a Google place id carried by a source whose own
    ``external_id`` is something else (a CSV import with a place id column); for the sources in
    ``PLACE_ID_SOURCES`` the ``external_id`` is the place id."""

    source: str
    external_id: str | None
    name: str | None
    address: str | None
    city: str | None
    state: str | None = None
    zip: str | None = None
    phone: str | None = None
    website: str | None = None
    lat: float | None = None
    lng: float | None = None
    place_id: str | None = None


@dataclass(frozen=True)
class Entity:
    members: list[int]  # record indices, ascending
    ids: dict[str, list[str]]  # source -> external ids (record order, no repeats)


@dataclass
class Resolution:
    entity_of: list[int]  # entity index per record
    review_pairs: list[tuple[int, int, float]]  # (record i, record j, score), i < j, best per entity pair
    merges: int  # successful unions (= records - entities)
    entities: list[Entity] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PairScore:
    score: float
    signals: tuple[str, ...]
    veto: str | None = None


# --- normalisation --------------------------------------------------------------------------------

def _city_key(city: str | None) -> str:
    key = match_key(city)
    if not key:
        return ""
    return " ".join(_CITY_ABBREV.get(t, t) for t in key.split())


def _state_key(state: str | None) -> str:
    key = match_key(state)
    if not key:
        return ""
    if len(key) == 2:
        return key.upper()
    return _STATES.get(key, key.upper())


def _name_core(name: str | None, city: str) -> str:
    toks = [_NAME_ABBREV.get(t, t) for t in name_key(name).split()]
    out: list[str] = []
    k = 0
    while k < len(toks):
        t = toks[k]
        if t == "by" and k + 1 < len(toks) and _is_parent_brand(toks[k + 1]):
            k += 2
            continue
        if t != "and":
            out.append(t)
        k += 1
    if out and out[0] == "the":
        out = out[1:]
    if city and len(out) > 1:
        c = city.split()
        k = len(c)
        for start in range(len(out) - k + 1):
            window = out[start:start + k]
            # the town's name, also with a typo ("Willowbulg" in Willowburg)
            if window == c or (
                    len(city) >= 6 and window[0][0] == city[0]
                    and abs(sum(map(len, window)) + k - 1 - len(city)) <= 2
                    and fuzz.ratio(" ".join(window), city) >= 85):
                rest = out[:start] + out[start + k:]
                if any(t not in _NAME_STOP for t in rest):
                    out = rest
                break
    return " ".join(out)


def _is_parent_brand(word: str) -> bool:
    return word in _PARENT_BRANDS or (
        len(word) >= 5 and any(fuzz.ratio(word, p) >= 80 for p in _PARENT_BRANDS if p[0] == word[0]))


def _address_parts(address: str | None) -> tuple[str, str, str]:
    """(house number, street, street core); "" when absent."""
    if not address:
        return "", "", ""
    first = address.split(",", 1)[0]
    toks = address_key(first).split()
    if not toks:
        return "", "", ""
    num = ""
    m = _HOUSE.match(toks[0])
    if m:
        num = m.group(1).lstrip("0") or "0"
        toks = toks[1:]
    for k, t in enumerate(toks):
        if t in _UNIT_WORDS and k > 0:
            toks = toks[:k]
            break
    while len(toks) > 1 and toks[-1].isdigit() and toks[-2] in _STREET_TYPES:
        toks = toks[:-1]
    street = " ".join(toks)
    core = " ".join(t for t in toks if t not in _STREET_TYPES and t not in _DIRECTIONS) or street
    return num, street, core


def _phone_key(phone: str | None) -> str:
    if not phone or not phone.strip():
        return ""
    try:
        return phone_to_e164(phone, "US") or ""
    except (PhoneError, ValueError):
        return ""


def website_parts(url: str | None) -> tuple[str, str] | None:
    """(registrable domain, property key) of a website, or None when it is not a URL.

    The property key is the host without ``www.`` plus the path with locale segments
    (``en``, ``en-us``), generic words (``hotels``, ``overview``, ...) and page extensions
    removed; "" when nothing identifying is left (a brand home page)."""
    if not url:
        return None
    u = url.strip().lower()
    if not u:
        return None
    scheme = u.find("://")
    if scheme >= 0:
        u = u[scheme + 3:]
    u = u.lstrip("/")
    cut = len(u)
    for ch in "?#":
        k = u.find(ch)
        if 0 <= k < cut:
            cut = k
    u = u[:cut]
    slash = u.find("/")
    host, path = (u, "") if slash < 0 else (u[:slash], u[slash:])
    host = host.rsplit("@", 1)[-1].split(":", 1)[0].strip(".")
    if "." not in host or " " in host or not host:
        return None
    for prefix in ("www.", "www2.", "www3.", "m."):
        if host.startswith(prefix):
            host = host[len(prefix):]
            break
    labels = host.split(".")
    keep = 3 if len(labels) >= 3 and ".".join(labels[-2:]) in _SECOND_LEVEL else 2
    domain = ".".join(labels[-keep:])
    segs = []
    for s in path.split("/"):
        s = _PAGE_EXT.sub("", s)
        if s and s not in _GENERIC_SEGMENTS and not _LOCALE.match(s) and not s.startswith("index"):
            segs.append(s)
    if not segs and host == domain:
        return domain, ""
    return domain, "/".join([host, *segs])


def _distance_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    dy = (lat2 - lat1) * 110.57
    dx = (lng2 - lng1) * 111.32 * math.cos(math.radians((lat1 + lat2) / 2))
    return math.hypot(dx, dy)


@lru_cache(maxsize=65536)
def _marks(core: str) -> frozenset[str]:
    """Direction words and numbers of a name: "Inn North" and "Inn South" are two hotels."""
    return frozenset(t for t in core.split() if t in _DIRECTIONS or t[0].isdigit())


def _fuzzy_name(a: str, b: str) -> float:
    """Similarity (0-100) of two name cores that differ only by typos, word order, generic words
    ("Inn", "Suites", ...) or spacing; 0 when a distinctive word has no look-alike on the other
    side ("Uptown" / "Midtown", "Castle" / "Orchard", an added "Airport")."""
    ta, tb = a.split(), b.split()
    sa, sb = set(ta), set(tb)
    left_a = [t for t in ta if t not in sb]
    left_b = [t for t in tb if t not in sa]
    if any(t not in _NAME_STOP for t in left_a) or any(t not in _NAME_STOP for t in left_b):
        # a distinctive word differs: only a look-alike (a typo, "Hottel" / "Hotel") will do
        if fuzz.ratio("".join(left_a), "".join(left_b)) < LOOKALIKE_MIN:
            return 0.0
    s = max(fuzz.ratio(a, b), fuzz.token_sort_ratio(a, b))
    if s < FUZZY_NAME_MIN:
        s = max(s, fuzz.token_set_ratio(a, b))
    return s


# --- the index ------------------------------------------------------------------------------------

class _Index:
    """Comparison keys of every record, computed once (struct of arrays)."""

    def __init__(self, records: Sequence[SourceRecord], max_block: int, shared_min_locations: int,
                 max_distance_km: float):
        self.n = n = len(records)
        self.max_block = max_block
        self.max_distance_km = max_distance_km
        city_cache: dict[str | None, str] = {}
        state_cache: dict[str | None, str] = {}
        self.city = city = [""] * n
        self.state = [""] * n
        self.core = [""] * n
        self.num = [""] * n
        self.street = [""] * n
        self.street_core = [""] * n
        self.phone = [""] * n
        self.place = [""] * n
        self.idkey = [""] * n
        self.lat: list[float | None] = [None] * n
        self.lng: list[float | None] = [None] * n
        domains = [""] * n
        props = [""] * n
        for i, r in enumerate(records):
            c = city_cache.get(r.city)
            if c is None:
                c = city_cache[r.city] = _city_key(r.city)
            city[i] = c
            s = state_cache.get(r.state)
            if s is None:
                s = state_cache[r.state] = _state_key(r.state)
            self.state[i] = s
            core = _name_core(r.name, c)
            self.core[i] = core
            self.num[i], self.street[i], self.street_core[i] = _address_parts(r.address)
            self.phone[i] = _phone_key(r.phone)
            ext = (r.external_id or "").strip()
            if r.source.lower() in PLACE_ID_SOURCES and ext:
                self.place[i] = ext
            elif r.place_id and r.place_id.strip():
                self.place[i] = r.place_id.strip()
            if ext:
                self.idkey[i] = f"{r.source}\x00{ext}"
            if r.lat is not None and r.lng is not None and (r.lat or r.lng):
                self.lat[i], self.lng[i] = float(r.lat), float(r.lng)
            site = website_parts(r.website)
            if site:
                domains[i], props[i] = site
        self.stats: Counter[str] = Counter()
        self.shared_min = shared_min_locations

        # Identifying website key: the domain, or for a brand-level domain the property key.
        by_domain = self._groups(domains)
        shared_domains = {d for d, m in by_domain.items() if d in BRAND_DOMAINS or self._shared(m)}
        for i in range(n):
            if domains[i] and domains[i] not in shared_domains:
                props[i] = ""
        by_prop = self._groups(props)
        shared_props = {p for p, m in by_prop.items() if self._shared(m)}
        self.web = [""] * n
        for i in range(n):
            d = domains[i]
            if not d:
                continue
            if d not in shared_domains:
                self.web[i] = d
            elif props[i] and props[i] not in shared_props:
                self.web[i] = props[i]
        self.stats["shared_domains"] = len(shared_domains)
        self.stats["shared_property_urls"] = len(shared_props)

        by_phone = self._groups(self.phone)
        shared_phones = {p for p, m in by_phone.items()
                         if self._shared(m, 2 if p[2:5] in _TOLL_FREE and p.startswith("+1") else None)}
        self.stats["shared_phones"] = len(shared_phones)
        for p in shared_phones:
            for i in by_phone[p]:
                self.phone[i] = ""

    @staticmethod
    def _groups(keys: list[str]) -> dict[str, list[int]]:
        groups: dict[str, list[int]] = defaultdict(list)
        for i, k in enumerate(keys):
            if k:
                groups[k].append(i)
        return groups

    def _shared(self, members: list[int], min_locations: int | None = None) -> bool:
        if len(members) < 2:
            return False
        if len(members) > self.max_block:
            return True
        if len(members) > MAX_LISTINGS_PER_HOTEL and len(
                {self.place[i] or self.idkey[i] or i for i in members}) > MAX_LISTINGS_PER_HOTEL:
            return True
        need = min_locations or self.shared_min
        cities = {self.city[i] for i in members if self.city[i]}
        locations = {(self.city[i], self.num[i]) for i in members if self.num[i]}
        return len(cities) >= need or len(locations) >= need

    # -- pair scoring ------------------------------------------------------------------------------

    def compare(self, i: int, j: int) -> tuple[float, tuple[str, ...], str | None]:
        pi, pj = self.place[i], self.place[j]
        if pi and pi == pj:
            return 1.0, ("place_id",), None
        if self.idkey[i] and self.idkey[i] == self.idkey[j]:
            return 1.0, ("place_id",), None
        veto = "place_id" if pi and pj else None
        signals: list[str] = []
        miss = 1.0
        penalty = 1.0
        wi, wj = self.web[i], self.web[j]
        if wi and wj:
            if wi == wj:
                signals.append("website")
                miss *= 1 - WEIGHTS["website"]
            else:
                penalty *= PENALTY
        pi, pj = self.phone[i], self.phone[j]
        if pi and pj:
            if pi == pj:
                signals.append("phone")
                miss *= 1 - WEIGHTS["phone"]
            else:
                penalty *= PENALTY
        same_city = bool(self.city[i]) and self.city[i] == self.city[j]
        ni, nj = self.num[i], self.num[j]
        if ni and nj and self.street[i] and self.street[j]:
            same_street = (self.street_core[i] == self.street_core[j]
                           or fuzz.ratio(self.street_core[i], self.street_core[j]) >= STREET_MIN)
            if ni == nj:
                if same_street and same_city:
                    signals.append("address")
                    miss *= 1 - WEIGHTS["address"]
            elif same_street:
                veto = veto or "house_number"
            else:
                penalty *= PENALTY
        ci, cj = self.core[i], self.core[j]
        if ci and cj:
            if ci == cj:
                if same_city:
                    signals.append("name_exact")
                    miss *= 1 - WEIGHTS["name_exact"]
            else:
                related = (fuzz.token_set_ratio(ci, cj) >= 50
                           or fuzz.ratio(ci.replace(" ", ""), cj.replace(" ", "")) >= 50)
                if not related:
                    penalty *= PENALTY
                elif same_city and _marks(ci) == _marks(cj) and _fuzzy_name(ci, cj) >= FUZZY_NAME_MIN:
                    signals.append("name_fuzzy")
                    miss *= 1 - WEIGHTS["name_fuzzy"]
        if not veto:
            si, sj = self.state[i], self.state[j]
            if si and sj and si != sj:
                veto = "state"
            elif self.lat[i] is not None and self.lat[j] is not None:
                if _distance_km(self.lat[i], self.lng[i], self.lat[j], self.lng[j]) > self.max_distance_km:
                    veto = "distance"
        return round((1.0 - miss) * penalty, 4), tuple(signals), veto

    # -- blocking ----------------------------------------------------------------------------------

    def id_groups(self) -> Iterable[list[int]]:
        for keys in (self.place, self.idkey):
            for members in self._groups(keys).values():
                if len(members) > 1:
                    yield members

    def blocks(self) -> Iterable[list[int]]:
        """Small groups whose pairs are all compared."""
        cap = self.max_block
        n = self.n
        for keys in (self.phone, self.web):
            for members in self._groups(keys).values():
                if 1 < len(members) <= cap:
                    yield members
        addr = [f"{self.city[i]}\x00{self.num[i]}" if self.city[i] and self.num[i] else "" for i in range(n)]
        name = [f"{self.city[i]}\x00{self.core[i]}" if self.city[i] and self.core[i] else "" for i in range(n)]
        for keys in (addr, name):
            for members in self._groups(keys).values():
                if 1 < len(members) <= cap:
                    yield members
                elif len(members) > cap:
                    self.stats["skipped_blocks"] += 1

    def fuzzy_blocks(self) -> Iterable[list[int]]:
        """(city, word) blocks for the two rarest distinctive words of each name."""
        words: list[list[str]] = [[]] * self.n
        freq: Counter[tuple[str, str]] = Counter()
        for i in range(self.n):
            c, core = self.city[i], self.core[i]
            if not c or not core:
                continue
            ws = sorted({t for t in core.split() if len(t) >= 3 and t not in _NAME_STOP and not t.isdigit()})
            words[i] = ws
            for w in ws:
                freq[(c, w)] += 1
        groups: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i in range(self.n):
            ws = words[i]
            if not ws:
                continue
            c = self.city[i]
            for w in sorted(ws, key=lambda w: (freq[(c, w)], w))[:2]:
                if freq[(c, w)] > 1:
                    groups[(c, w)].append(i)
        for members in groups.values():
            if len(members) <= self.max_block:
                if len(members) > 1:
                    yield members
            else:
                self.stats["skipped_blocks"] += 1


# --- union-find with a contradiction guard ----------------------------------------------------------

class _Components:
    def __init__(self, index: _Index):
        n = index.n
        self.parent = list(range(n))
        self.size = [1] * n
        self.place: list[str] = list(index.place)
        self.streets: list[dict[str, str] | None] = [
            {index.street_core[i]: index.num[i]} if index.num[i] and index.street_core[i] else None
            for i in range(n)
        ]

    def find(self, i: int) -> int:
        parent = self.parent
        root = i
        while parent[root] != root:
            root = parent[root]
        while parent[i] != root:
            parent[i], i = root, parent[i]
        return root

    def union(self, i: int, j: int, force: bool = False) -> bool | None:
        """True when merged, None when already one entity, False when refused."""
        ri, rj = self.find(i), self.find(j)
        if ri == rj:
            return None
        pi, pj = self.place[ri], self.place[rj]
        if pi and pj and pi != pj:
            return False
        si, sj = self.streets[ri], self.streets[rj]
        if si and sj and not force:
            small, big = (si, sj) if len(si) <= len(sj) else (sj, si)
            for street, num in small.items():
                other = big.get(street)
                if other is not None and other != num:
                    return False
        if self.size[ri] < self.size[rj]:
            ri, rj = rj, ri
            si, sj = sj, si
        self.parent[rj] = ri
        self.size[ri] += self.size[rj]
        self.place[ri] = self.place[ri] or self.place[rj]
        if sj:
            if si is None:
                self.streets[ri] = dict(sj)
            else:
                for street, num in sj.items():
                    si.setdefault(street, num)
        self.streets[rj] = None
        return True


# --- the API ----------------------------------------------------------------------------------------

def resolve(
    records: Sequence[SourceRecord],
    merge_threshold: float = 0.8,
    review_threshold: float = 0.5,
    *,
    max_block: int = 64,
    shared_min_locations: int = 3,
    max_distance_km: float = 5.0,
) -> Resolution:
    """Resolve discovery records into entities (see the module docstring for the rules)."""
    # Hundreds of thousands of small tuples and lists: the cyclic GC would rescan every record
    # again and again (half the run time) while nothing here makes a cycle.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _resolve(records, merge_threshold, review_threshold, max_block, shared_min_locations,
                        max_distance_km)
    finally:
        if paused:
            gc.enable()


def _resolve(records: Sequence[SourceRecord], merge_threshold: float, review_threshold: float,
             max_block: int, shared_min_locations: int, max_distance_km: float) -> Resolution:
    index = _Index(records, max_block, shared_min_locations, max_distance_km)
    comps = _Components(index)
    n = index.n
    merges = 0
    candidates: list[tuple[float, int, int]] = []  # score >= merge, not vetoed
    review: list[tuple[float, int, int]] = []

    # Same place id / same source id: definitive, chained without pairwise comparison.
    for members in index.id_groups():
        first = members[0]
        for other in members[1:]:
            merged = comps.union(first, other, force=True)
            if merged:
                merges += 1
            elif merged is False:
                review.append((1.0, first, other))

    seen: set[int] = set()
    compare = index.compare
    compared = 0

    def consider(i: int, j: int) -> None:
        nonlocal compared
        if i > j:
            i, j = j, i
        key = i * n + j
        if key in seen:
            return
        seen.add(key)
        compared += 1
        score, _, veto = compare(i, j)
        if score >= merge_threshold:
            (review if veto else candidates).append((score, i, j))
        elif score >= review_threshold and not veto:
            review.append((score, i, j))

    for members in index.blocks():
        for a in range(len(members) - 1):
            i = members[a]
            for b in range(a + 1, len(members)):
                consider(i, members[b])

    core = index.core
    cutoff = FUZZY_NAME_MIN - 10
    for members in index.fuzzy_blocks():
        names = [core[i] for i in members]
        for a in range(len(members) - 1):
            hits = process.extract(names[a], names[a + 1:], scorer=fuzz.token_sort_ratio,
                                   score_cutoff=cutoff, limit=None)
            i = members[a]
            for _, _, pos in hits:
                consider(i, members[a + 1 + pos])

    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    for score, i, j in candidates:
        merged = comps.union(i, j)
        if merged:
            merges += 1
        elif merged is False:
            review.append((score, i, j))

    best: dict[tuple[int, int], tuple[float, int, int]] = {}
    find = comps.find
    for score, i, j in review:
        ri, rj = find(i), find(j)
        if ri == rj:
            continue
        key = (ri, rj) if ri < rj else (rj, ri)
        prev = best.get(key)
        if prev is None or (-score, i, j) < (-prev[0], prev[1], prev[2]):
            best[key] = (score, i, j)
    review_pairs = sorted(((i, j, s) for s, i, j in best.values()), key=lambda p: (-p[2], p[0], p[1]))

    entity_of = [0] * n
    root_entity: dict[int, int] = {}
    members_of: list[list[int]] = []
    for i in range(n):
        r = find(i)
        e = root_entity.get(r)
        if e is None:
            e = root_entity[r] = len(members_of)
            members_of.append([])
        entity_of[i] = e
        members_of[e].append(i)
    entities = []
    for members in members_of:
        ids: dict[str, list[str]] = {}
        for i in members:
            rec = records[i]
            if rec.external_id:
                lst = ids.setdefault(rec.source, [])
                if rec.external_id not in lst:
                    lst.append(rec.external_id)
        entities.append(Entity(members, ids))

    stats = dict(index.stats)
    stats.update(records=n, entities=len(entities), merges=merges, compared_pairs=compared,
                 review_pairs=len(review_pairs))
    return Resolution(entity_of=entity_of, review_pairs=review_pairs, merges=merges,
                      entities=entities, stats=stats)


def score_pair(a: SourceRecord, b: SourceRecord, *, max_distance_km: float = 5.0) -> PairScore:
    """The score of two records on their own (built-in brand domains and toll-free numbers only,
    no data-driven sharing), for explanations and tests."""
    index = _Index([a, b], max_block=64, shared_min_locations=3, max_distance_km=max_distance_km)
    score, signals, veto = index.compare(0, 1)
    return PairScore(score, signals, veto)

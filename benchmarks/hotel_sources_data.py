"""Deterministic synthetic hotel discovery records from three sources, with the truth, for the
entity resolution benchmark.

Standard library only. The same ``(n, seed)`` gives the same rows on any platform (only
``random.Random`` with an explicit seed; no iteration over sets or hashes).

Layout of ``generate(n, seed)`` (rows are dicts with ``COLUMNS`` keys, ``entity`` is the truth):

* Real hotels are drawn until there are ``n`` records. 80 % appear in one source (serper 45 %,
  dmo 30 %, csv 25 %), 20 % in two (70 %) or all three (30 %) sources. About 1 % of the Serper
  records are repeated with the same place id (overlapping city searches).
* About 30 % of the hotels are chain properties of ~35 brands, on the brand's domain
  (hilton.com, marriott.com, ihg.com, choicehotels.com, wyndhamhotels.com, bestwestern.com,
  hyatt.com, motel6.com, and brands that no built-in list knows: druryhotels.com,
  staycobblestone.com, staystudio6.com, ...). Their website is the property URL (with tracking
  queries, ``http``/``https``, with or without ``www``), the brand's home page, or missing; their
  phone is the local number, the brand's central toll-free number or missing.
* About 4 % of the independent hotels belong to small management groups (2-6 properties in
  several cities) sharing the group's domain (with a path per property) and, in some sources,
  the group's local office phone.
* Some independents use a hosted site (``name.wixsite.com``) or a Facebook page.
* Cities: ``max(20, n // 40)`` cities in the 50 states (city names repeat across states), with
  Zipf-like sizes (the largest holds about 2,500 hotels), so blocks are big and chains
  cluster.
* Variations between the sources of one hotel: "The " prefix added or dropped, one typo in a
  long word, "&" / "and", upper case, "Suites" -> "Stes", the city dropped from a chain name or
  " by Wyndham" added, street suffixes and directions written out or abbreviated ("St" /
  "Street", "N" / "North"), a suite number, Serper's ", City, ST zip" tail, city as
  "St." / "Saint", state as code or name, six phone formats, missing phones, websites, addresses
  and coordinates (DMO: 60 % have coordinates, CSV: none).
* About 3 % of the chain properties are dual-branded sites: a second hotel of the same group (a
  Hampton Inn and a Homewood Suites) at the same address and coordinates, a separate entity.
* Distinct hotels never share a phone except the chains' central and the groups' office numbers;
  two distinct independents in a city may share a name.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
import time

COLUMNS = ["source", "external_id", "name", "address", "city", "state", "zip", "phone", "website",
           "lat", "lng", "entity"]

# abbr, name, lat_min, lat_max, lng_min, lng_max, area codes, zip3 start
_STATES = [
    ("AL", "Alabama", 30.4, 34.9, -88.3, -85.1, (205, 251, 256, 334), 350),
    ("AK", "Alaska", 58.3, 64.8, -151.5, -134.5, (907,), 995),
    ("AZ", "Arizona", 31.5, 36.9, -114.5, -109.2, (480, 520, 602, 623, 928), 850),
    ("AR", "Arkansas", 33.1, 36.4, -94.4, -89.8, (479, 501, 870), 716),
    ("CA", "California", 32.6, 41.9, -124.2, -114.4, (209, 213, 310, 408, 415, 510, 619, 714, 805), 900),
    ("CO", "Colorado", 37.1, 40.9, -108.9, -102.2, (303, 719, 720, 970), 800),
    ("CT", "Connecticut", 41.1, 41.9, -73.6, -71.9, (203, 860), 60),
    ("DE", "Delaware", 38.5, 39.7, -75.7, -75.1, (302,), 197),
    ("FL", "Florida", 25.2, 30.9, -87.4, -80.1, (239, 305, 321, 352, 386, 407, 561, 727, 813, 904), 320),
    ("GA", "Georgia", 30.5, 34.9, -85.5, -81.0, (229, 404, 470, 478, 678, 706, 770, 912), 300),
    ("HI", "Hawaii", 19.1, 22.1, -159.7, -155.0, (808,), 967),
    ("ID", "Idaho", 42.1, 48.9, -117.1, -111.1, (208,), 832),
    ("IL", "Illinois", 37.1, 42.4, -91.3, -87.6, (217, 309, 312, 618, 630, 708, 773, 815, 847), 600),
    ("IN", "Indiana", 37.9, 41.7, -88.0, -84.9, (219, 260, 317, 574, 765, 812), 460),
    ("IA", "Iowa", 40.5, 43.4, -96.4, -90.2, (319, 515, 563, 641, 712), 500),
    ("KS", "Kansas", 37.1, 39.9, -101.9, -94.7, (316, 620, 785, 913), 660),
    ("KY", "Kentucky", 36.6, 39.0, -89.3, -82.0, (270, 502, 606, 859), 400),
    ("LA", "Louisiana", 29.2, 32.9, -93.8, -89.2, (225, 318, 337, 504, 985), 700),
    ("ME", "Maine", 43.2, 47.3, -70.9, -67.1, (207,), 39),
    ("MD", "Maryland", 38.1, 39.7, -79.4, -75.1, (240, 301, 410, 443), 206),
    ("MA", "Massachusetts", 41.3, 42.8, -73.4, -70.0, (339, 413, 508, 617, 774, 781, 978), 10),
    ("MI", "Michigan", 41.8, 47.4, -90.3, -82.5, (231, 248, 269, 313, 517, 586, 616, 734, 810), 480),
    ("MN", "Minnesota", 43.6, 49.2, -97.1, -89.6, (218, 320, 507, 612, 651, 763, 952), 550),
    ("MS", "Mississippi", 30.3, 34.9, -91.5, -88.2, (228, 601, 662, 769), 386),
    ("MO", "Missouri", 36.1, 40.5, -95.7, -89.2, (314, 417, 573, 636, 660, 816), 630),
    ("MT", "Montana", 44.5, 48.9, -115.9, -104.1, (406,), 590),
    ("NE", "Nebraska", 40.1, 42.9, -103.9, -95.4, (308, 402, 531), 680),
    ("NV", "Nevada", 35.1, 41.9, -119.9, -114.1, (702, 725, 775), 889),
    ("NH", "New Hampshire", 42.8, 45.2, -72.5, -70.7, (603,), 30),
    ("NJ", "New Jersey", 39.0, 41.3, -75.5, -74.0, (201, 609, 732, 856, 908, 973), 70),
    ("NM", "New Mexico", 31.4, 36.9, -108.9, -103.1, (505, 575), 870),
    ("NY", "New York", 40.6, 44.9, -79.7, -72.0, (212, 315, 347, 516, 518, 585, 607, 631, 716, 718), 100),
    ("NC", "North Carolina", 33.9, 36.5, -84.2, -75.6, (252, 336, 704, 828, 910, 919, 980), 270),
    ("ND", "North Dakota", 46.0, 48.9, -103.9, -96.7, (701,), 580),
    ("OH", "Ohio", 38.5, 41.9, -84.7, -80.6, (216, 330, 419, 440, 513, 614, 740, 937), 430),
    ("OK", "Oklahoma", 33.7, 36.9, -102.9, -94.5, (405, 580, 918), 730),
    ("OR", "Oregon", 42.1, 46.2, -124.3, -116.6, (503, 541, 971), 970),
    ("PA", "Pennsylvania", 39.8, 41.9, -80.4, -74.8, (215, 267, 412, 484, 570, 610, 717, 724, 814), 150),
    ("RI", "Rhode Island", 41.2, 41.9, -71.8, -71.2, (401,), 28),
    ("SC", "South Carolina", 32.1, 35.1, -83.2, -78.6, (803, 843, 864), 290),
    ("SD", "South Dakota", 42.6, 45.8, -103.9, -96.5, (605,), 570),
    ("TN", "Tennessee", 35.1, 36.6, -90.2, -81.7, (423, 615, 731, 865, 901, 931), 370),
    ("TX", "Texas", 26.1, 36.4, -106.4, -93.6, (210, 214, 254, 281, 361, 409, 512, 713, 806, 817), 750),
    ("UT", "Utah", 37.1, 41.9, -113.9, -109.1, (385, 435, 801), 840),
    ("VT", "Vermont", 42.8, 44.9, -73.3, -71.6, (802,), 50),
    ("VA", "Virginia", 36.6, 39.4, -83.5, -75.3, (276, 434, 540, 571, 703, 757, 804), 220),
    ("WA", "Washington", 45.6, 48.9, -124.5, -117.0, (206, 253, 360, 425, 509), 980),
    ("WV", "West Virginia", 37.3, 40.5, -82.5, -77.8, (304, 681), 247),
    ("WI", "Wisconsin", 42.6, 46.9, -92.8, -86.9, (262, 414, 608, 715, 920), 530),
    ("WY", "Wyoming", 41.1, 44.9, -110.9, -104.1, (307,), 820),
]

_CITY_PREFIX = (
    "Spring Oak Cedar Maple Fair Green Clear Pine Elm Ash Birch Willow Bright Glen Rock Stone Sand "
    "Salt Silver Gold Red White Black Blue Brook Lake River Harbor Bay Mill Bridge Port New North "
    "South East West Frank Lincoln Madison Clinton Marion Jackson Monroe Warren Summer Winter Wood "
    "Fox Deer Eagle Hawk Crow Mid Kings Queens Bell"
).split()
_CITY_SUFFIX = (
    "field|ville|ton|wood|port|dale|burg|ford|view|land|mont|haven|boro|bury|crest|ridge| Springs"
    "| Falls| Harbor| Beach| Heights| Point| Valley| City| Hills| Grove| Junction| Landing| Creek| Lake"
).split("|")
_SAINTS = "Augustine Petersburg Charles Joseph Cloud Paul George Clair Louis Helens".split()

_ADJ = (
    "Blue Red Golden Silver Old Harbor Bay Lake River Maple Oak Cedar Pine Willow Stone Iron Copper "
    "Sunset Sunrise Morning Lighthouse Sea Wild Green White Grand Little Twin Lazy Happy Hidden "
    "Crystal Misty Eagle Tidewater Driftwood Sandy Rusty Painted Whispering Rolling Lucky Cozy Rustic "
    "Coastal Prairie Mountain Valley Canyon Desert Summit Amber Royal Regal Coral Emerald Sapphire "
    "Ivory Scarlet Heritage Liberty Colonial Victorian Majestic Serene Tranquil Breezy Sunny Shady "
    "Quiet Peaceful Windy Starlight Moonlight Evergreen Aspen Magnolia Palmetto Cypress Juniper Sage"
).split()
_NOUN = (
    "Heron Mill Fox Bear Gull Pelican Anchor Ridge Creek Hollow Meadow Bluff Cove Point Landing "
    "Bridge Barn Orchard Garden Dock Wharf Pier Rock Trail Hill Spring Pines Oaks Moose Otter Lantern "
    "Compass Kettle Acorn Elk Falcon Wren Sparrow Harvest Tide Shore Dune Reef Marsh Hearth "
    "Lodgepole Prairie Crossing Station Junction Depot Saddle Spur Mesa Palms Sands Waves Breeze "
    "Horizon Vista Haven Retreat Manor Court Gate Terrace Harbor Bay Key Island Lagoon Canyon Peak "
    "Cabin Chalet Cottage Villa Castle Tower Crown Star Sun Moon"
).split()
_TYPES = ["Inn", "Inn", "Hotel", "Hotel", "Motel", "Motel", "Lodge", "Suites", "Inn & Suites",
          "Resort", "Resort & Spa", "Motor Inn", "Guest House", "Boutique Hotel", "Beach Resort"]
_LAST = (
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Wilson Anderson Thomas Taylor Moore "
    "Martin Lee Thompson White Harris Clark Lewis Robinson Walker Young Allen King Wright Scott Hill "
    "Adams Baker Nelson Carter Mitchell Roberts Turner Phillips Campbell Parker Evans Edwards Collins"
).split()

_STREETS = (
    "Main Oak Maple Cedar Pine Elm Washington Lake Hill Park Church Water Harbor Bay River Mill Spring "
    "Market Front Center Bridge Union Highland Sunset Ocean Beach Forest Meadow Orchard Franklin "
    "Jefferson Lincoln Madison Jackson Walnut Chestnut Willow Cherry Railroad Depot Shore Bluff Canyon "
    "Prospect Pleasant Liberty Commerce Broad High School College Lighthouse Dune Ridge Airport "
    "International Gulf Atlantic Pacific Magnolia Palm Colonial Kings Queens Riverside Lakeshore"
).split()
_SUFFIX_LONG = {
    "St": "Street", "Ave": "Avenue", "Rd": "Road", "Blvd": "Boulevard", "Dr": "Drive",
    "Ln": "Lane", "Pkwy": "Parkway", "Ct": "Court", "Pl": "Place", "Hwy": "Highway",
}
_SUFFIXES = ["St"] * 8 + ["Ave"] * 5 + ["Rd"] * 4 + ["Dr"] * 3 + ["Blvd", "Ln", "Pkwy", "Ct", "Pl", "Hwy"]
_DIRS = {"N": "North", "S": "South", "E": "East", "W": "West"}

# brand, domain, central phone, URL style, weight
_BRANDS = [
    ("Hampton Inn", "hilton.com", "800-426-7866", "hilton", 6),
    ("Hampton Inn & Suites", "hilton.com", "800-426-7866", "hilton", 5),
    ("Hilton Garden Inn", "hilton.com", "877-782-9444", "hilton", 4),
    ("Homewood Suites by Hilton", "hilton.com", "800-225-5466", "hilton", 2),
    ("DoubleTree by Hilton", "hilton.com", "800-222-8733", "hilton", 3),
    ("Embassy Suites by Hilton", "hilton.com", "800-362-2779", "hilton", 2),
    ("Home2 Suites by Hilton", "hilton.com", "800-445-8667", "hilton", 2),
    ("Courtyard by Marriott", "marriott.com", "888-236-2427", "marriott", 5),
    ("Fairfield Inn & Suites", "marriott.com", "888-236-2427", "marriott", 5),
    ("Residence Inn", "marriott.com", "888-236-2427", "marriott", 3),
    ("SpringHill Suites", "marriott.com", "888-236-2427", "marriott", 2),
    ("TownePlace Suites", "marriott.com", "888-236-2427", "marriott", 2),
    ("Holiday Inn Express & Suites", "ihg.com", "877-859-5095", "ihg", 6),
    ("Holiday Inn", "ihg.com", "877-859-5095", "ihg", 3),
    ("Candlewood Suites", "ihg.com", "877-834-3613", "ihg", 2),
    ("Staybridge Suites", "ihg.com", "877-238-8889", "ihg", 1),
    ("Comfort Inn", "choicehotels.com", "877-424-6423", "choice", 4),
    ("Comfort Suites", "choicehotels.com", "877-424-6423", "choice", 2),
    ("Quality Inn", "choicehotels.com", "877-424-6423", "choice", 4),
    ("Sleep Inn", "choicehotels.com", "877-424-6423", "choice", 2),
    ("Econo Lodge", "choicehotels.com", "877-424-6423", "choice", 3),
    ("Days Inn", "wyndhamhotels.com", "800-225-3297", "wyndham", 4),
    ("Super 8", "wyndhamhotels.com", "800-454-3213", "wyndham", 4),
    ("La Quinta Inn & Suites", "wyndhamhotels.com", "800-753-3757", "wyndham", 4),
    ("Microtel Inn & Suites", "wyndhamhotels.com", "800-337-0050", "wyndham", 1),
    ("Baymont Inn & Suites", "wyndhamhotels.com", "877-229-6668", "wyndham", 1),
    ("Best Western", "bestwestern.com", "800-780-7234", "bestwestern", 4),
    ("Best Western Plus", "bestwestern.com", "800-780-7234", "bestwestern", 3),
    ("Hyatt Place", "hyatt.com", "800-233-1234", "hyatt", 2),
    ("Hyatt House", "hyatt.com", "800-233-1234", "hyatt", 1),
    ("Motel 6", "motel6.com", "800-899-9841", "motel6", 3),
    # brands on domains that no built-in list knows
    ("Studio 6", "staystudio6.com", "888-897-0202", "plain", 1),
    ("Drury Inn & Suites", "druryhotels.com", "800-378-7946", "plain", 1),
    ("Cobblestone Inn & Suites", "staycobblestone.com", "855-376-2020", "plain", 1),
    ("Red Lion Inn & Suites", "redlion.com", "800-733-5466", "plain", 1),
    ("Country Inn & Suites", "radissonhotels.com", "800-830-5222", "plain", 1),
    ("AmeriVu Inn & Suites", "amerivuhotels.com", "866-555-0199", "plain", 1),
]
_BRAND_CUM = [sum(b[4] for b in _BRANDS[:k + 1]) for k in range(len(_BRANDS))]
_QUALIFIERS = [
    "Airport", "Downtown", "North", "South", "East", "West", "Convention Center", "University Area",
    "Medical Center", "Midtown", "Uptown", "Beachfront", "Waterfront", "Historic District",
    "Near the Mall", "Stadium", "Riverfront", "Lakeside", "Central", "Old Town",
]
_GROUP_WORDS = "Coastal Heritage Summit Harbor Lantern Keystone Pioneer Meridian Beacon Landmark".split()

_SOURCES = ["serper", "dmo", "csv"]
_SINGLE_SOURCE = ["serper"] * 45 + ["dmo"] * 30 + ["csv"] * 25
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _slug(text: str) -> str:
    out = []
    for ch in text.lower():
        out.append(ch if ch.isalnum() else "-")
    return "-".join(p for p in "".join(out).split("-") if p)


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


def _typo(rng: random.Random, name: str) -> str:
    words = name.split(" ")
    spots = [k for k, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if not spots:
        return name
    k = rng.choice(spots)
    w = words[k]
    p = rng.randrange(1, len(w) - 1)
    kind = rng.randrange(4)
    if kind == 0:  # swap
        w = w[:p] + w[p + 1] + w[p] + w[p + 2:]
    elif kind == 1:  # delete
        w = w[:p] + w[p + 1:]
    elif kind == 2:  # replace
        w = w[:p] + rng.choice("aeiourstnl") + w[p + 1:]
    else:  # double
        w = w[:p] + w[p] + w[p:]
    words[k] = w
    return " ".join(words)


class _Generator:
    def __init__(self, n: int, seed: int):
        self.n = n
        self.rng = random.Random(seed)
        self.phones_used: set[str] = set()
        self.place_ids_used: set[str] = set()
        self.domains_used: set[str] = set()
        self.rows: list[dict] = []
        self.dmo_seq = 0
        self.csv_seq = 0
        self._make_cities()

    # -- world -------------------------------------------------------------------------------------

    def _make_cities(self) -> None:
        rng = self.rng
        count = max(20, self.n // 40)
        self.cities = []
        used: set[tuple[str, str]] = set()
        for k in range(count):
            st = _STATES[k % len(_STATES)] if k < len(_STATES) else rng.choice(_STATES)
            while True:
                r = rng.random()
                if r < 0.04:
                    name = "Saint " + rng.choice(_SAINTS)
                elif r < 0.06:
                    name = "Fort " + rng.choice(_LAST)
                else:
                    name = rng.choice(_CITY_PREFIX) + rng.choice(_CITY_SUFFIX)
                if (name, st[0]) not in used:
                    used.add((name, st[0]))
                    break
            lat = rng.uniform(st[2], st[3])
            lng = rng.uniform(st[4], st[5])
            zip3 = min(999, st[7] + rng.randrange(0, 9))
            self.cities.append((name, st, lat, lng, zip3))
        # Zipf-like sizes: weight 1 / rank, the largest holding ~2 % of the hotels.
        self.city_weights = [1.0 / (r + 1) ** 0.7 for r in range(count)]
        total = 0.0
        self.city_cum = []
        for w in self.city_weights:
            total += w
            self.city_cum.append(total)
        self.city_big = [w / total > 0.005 for w in self.city_weights]

    def _phone(self, st) -> str:
        rng = self.rng
        while True:
            digits = f"{rng.choice(st[6])}{rng.randint(200, 999)}{rng.randint(0, 9999):04d}"
            if digits not in self.phones_used:
                self.phones_used.add(digits)
                return digits

    def _place_id(self) -> str:
        rng = self.rng
        while True:
            pid = "ChIJ" + "".join(rng.choice(_B64) for _ in range(23))
            if pid not in self.place_ids_used:
                self.place_ids_used.add(pid)
                return pid

    def _address(self, city_streets: dict) -> tuple[str, str, str, str]:
        """(number, direction, street, suffix), unique within the city."""
        rng = self.rng
        while True:
            num = str(rng.choice([rng.randint(1, 999), rng.randint(100, 9999), rng.randint(1000, 29999)]))
            d = rng.choice(["", "", "", "N", "S", "E", "W"])
            street = rng.choice(_STREETS)
            if rng.random() < 0.1:
                street = rng.choice(["1st", "2nd", "3rd", "4th", "5th", "7th", "10th", "12th"])
            suffix = rng.choice(_SUFFIXES)
            key = (num, street)
            if key not in city_streets:
                city_streets[key] = True
                return num, d, street, suffix

    # -- hotels ------------------------------------------------------------------------------------

    def build(self) -> list[dict]:
        rng = self.rng
        per_city_names: dict[int, dict[str, int]] = {}
        per_city_streets: dict[int, dict] = {}
        city_ids = list(range(len(self.cities)))
        groups: list[dict] = []
        entity = 0
        while len(self.rows) < self.n:
            ci = rng.choices(city_ids, cum_weights=self.city_cum)[0]
            city_name, st, clat, clng, zip3 = self.cities[ci]
            streets = per_city_streets.setdefault(ci, {})
            num, d, street, suffix = self._address(streets)
            spread = 0.12 if self.city_big[ci] else 0.05
            lat = clat + rng.uniform(-spread, spread)
            lng = clng + rng.uniform(-spread, spread)
            hotel = {
                "entity": entity, "city": city_name, "st": st, "num": num, "dir": d, "street": street,
                "suffix": suffix, "zip": f"{zip3:03d}{rng.randint(0, 99):02d}", "lat": lat, "lng": lng,
                "phone": self._phone(st), "place_id": self._place_id(),
            }
            r = rng.random()
            if r < 0.30:
                self._chain(hotel, per_city_names.setdefault(ci, {}))
            else:
                self._independent(hotel, groups)
            self._emit_sources(hotel)
            entity += 1
            if hotel["kind"] == "chain" and rng.random() < 0.03:
                # a dual-branded site: another hotel of the same group at the same address
                sibling = dict(hotel, entity=entity, phone=self._phone(st), place_id=self._place_id(),
                               lat=lat + rng.uniform(-0.0003, 0.0003), lng=lng + rng.uniform(-0.0003, 0.0003))
                self._chain(sibling, per_city_names[ci], domain=hotel["home"].removeprefix("www."),
                            not_brand=hotel["brand"])
                self._emit_sources(sibling)
                entity += 1
        del self.rows[self.n:]
        rng.shuffle(self.rows)
        return self.rows

    def _emit_sources(self, hotel: dict) -> None:
        rng = self.rng
        r = rng.random()
        if r < 0.80:
            sources = [rng.choice(_SINGLE_SOURCE)]
        elif r < 0.94:
            sources = rng.sample(_SOURCES, 2)
        else:
            sources = list(_SOURCES)
        first = True
        for src in sources:
            self._emit(hotel, src, first)
            first = False
            if src == "serper" and rng.random() < 0.01:
                self._emit(hotel, src, True)

    def _chain(self, hotel: dict, names: dict[str, int], domain: str = "", not_brand: str = "") -> None:
        rng = self.rng
        while True:
            b = rng.choices(range(len(_BRANDS)), cum_weights=_BRAND_CUM)[0]
            if not domain or (_BRANDS[b][1] == domain and _BRANDS[b][0] != not_brand):
                break
            if all(x[1] != domain or x[0] == not_brand for x in _BRANDS):
                domain = ""  # a brand alone on its domain: any other brand
        brand, domain, central, style, _ = _BRANDS[b]
        city = hotel["city"]
        base = f"{brand} {city}"
        used = names.get(base, 0)
        if used == 0:
            name = base
        elif used <= len(_QUALIFIERS):
            name = f"{base} {_QUALIFIERS[(used - 1 + hash_str(base)) % len(_QUALIFIERS)]}"
        else:
            name = f"{base} {hotel['street']} {_SUFFIX_LONG.get(hotel['suffix'], hotel['suffix'])}"
            if name in names:
                name = f"{name} {hotel['num']}"
        names[base] = used + 1
        names[name] = 1
        code = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(5))
        slug = _slug(name)
        cs, ss = _slug(city), hotel["st"][0].lower()
        if style == "hilton":
            url = f"www.hilton.com/en/hotels/{code}{rng.choice('hxtsu')}{rng.choice('hxtsu')}-{slug}/"
        elif style == "marriott":
            url = f"www.marriott.com/en-us/hotels/{code}-{slug}/overview/"
        elif style == "ihg":
            url = f"www.ihg.com/{_slug(brand).replace('-', '')}/hotels/us/en/{cs}/{code}/hoteldetail"
        elif style == "choice":
            url = f"www.choicehotels.com/{ss}/{cs}/{_slug(brand)}-hotels/{ss}{rng.randint(100, 999)}"
        elif style == "wyndham":
            url = f"www.wyndhamhotels.com/{_slug(brand)}/{cs}-{ss}/{slug}/overview"
        elif style == "bestwestern":
            url = f"www.bestwestern.com/en_US/book/hotels-in-{cs}/{slug}/propertyCode.{rng.randint(10000, 99999)}.html"
        elif style == "hyatt":
            url = f"www.hyatt.com/{_slug(brand)}/en-US/{code}-{slug}"
        elif style == "motel6":
            url = f"www.motel6.com/en/home/motels.{ss}.{cs}.{rng.randint(1000, 9999)}.html"
        else:
            url = f"www.{domain}/{cs}-{ss}/{slug}"
        hotel.update(kind="chain", name=name, brand=brand, home=f"www.{domain}", site=url,
                     central="".join(ch for ch in central if ch.isdigit()))

    def _independent(self, hotel: dict, groups: list[dict]) -> None:
        rng = self.rng
        r = rng.random()
        if r < 0.55:
            name = f"{rng.choice(_ADJ)} {rng.choice(_NOUN)} {rng.choice(_TYPES)}"
        elif r < 0.75:
            name = f"The {rng.choice(_ADJ)} {rng.choice(_NOUN)} {rng.choice(_TYPES)}"
        elif r < 0.85:
            name = f"{rng.choice(_NOUN)} {rng.choice(_TYPES)} of {hotel['city']}"
        elif r < 0.93:
            name = f"{rng.choice(_LAST)}'s {rng.choice(_NOUN)} {rng.choice(_TYPES)}"
        else:
            name = f"{hotel['city']} {rng.choice(_ADJ)} {rng.choice(_TYPES)}"
        slug = _slug(name.removeprefix("The "))
        hotel.update(kind="independent", name=name, central="")
        r = rng.random()
        if r < 0.04:
            # a small management group: consecutive hotels, so its properties are in other cities
            if not groups or groups[-1]["left"] == 0:
                word = rng.choice(_GROUP_WORDS)
                groups.append({"domain": f"{word.lower()}{rng.choice(['hotels', 'hospitality', 'inns'])}"
                                         f"{rng.randint(1, 999)}.com",
                               "phone": self._phone(hotel["st"]), "left": rng.randint(2, 6)})
            g = groups[-1]
            g["left"] -= 1
            hotel.update(site=f"www.{g['domain']}/{slug}", home=f"www.{g['domain']}", central=g["phone"])
        elif r < 0.07:
            hotel.update(site=f"{self._unique(slug, hotel)}.wixsite.com/{slug}", home="")
        elif r < 0.10:
            hotel.update(site=f"www.facebook.com/{self._unique('fb' + slug, hotel)}", home="")
        elif r < 0.85:
            hotel.update(site=f"www.{self._unique(slug, hotel)}.com", home="")
        else:
            hotel.update(site="", home="")

    def _unique(self, slug: str, hotel: dict) -> str:
        """A site name of its own: namesakes elsewhere get the town added."""
        name = slug.replace("-", "")
        if name in self.domains_used:
            name += _slug(hotel["city"]).replace("-", "")
            while name in self.domains_used:
                name += str(self.rng.randint(0, 9))
        self.domains_used.add(name)
        return name

    # -- one record ----------------------------------------------------------------------------------

    def _emit(self, h: dict, source: str, first: bool) -> None:
        rng = self.rng
        st = h["st"]
        chain = h["kind"] == "chain"
        name = h["name"]
        if not first:
            if rng.random() < 0.15:
                name = name[4:] if name.startswith("The ") else "The " + name
            if rng.random() < 0.15:
                name = _typo(rng, name)
            if "&" in name and rng.random() < 0.3:
                name = name.replace("&", "and")
            elif " and " in name and rng.random() < 0.3:
                name = name.replace(" and ", " & ")
            if rng.random() < 0.05:
                name = name.replace("Suites", "Stes")
            if chain and source == "dmo" and rng.random() < 0.4:
                name = " ".join(name.replace(h["city"], "").split())
            if chain and h["brand"] in ("Days Inn", "Super 8", "La Quinta Inn & Suites") and rng.random() < 0.3:
                name = name.replace(h["brand"], h["brand"] + " by Wyndham")
        if source == "csv" and rng.random() < 0.3:
            name = name.upper()
        # address
        d, suffix = h["dir"], h["suffix"]
        if source == "dmo" or (source == "csv" and rng.random() < 0.3):
            if rng.random() < 0.6:
                suffix = _SUFFIX_LONG.get(suffix, suffix)
            if d and rng.random() < 0.6:
                d = _DIRS[d]
        street = " ".join(p for p in (h["num"], d, h["street"], suffix) if p)
        if source != "serper" and rng.random() < 0.05:
            street += rng.choice([" Suite 100", ", Ste 2", " #B"])
        city = h["city"]
        if city.startswith("Saint ") and rng.random() < 0.5:
            city = "St. " + city[6:]
        state = st[0] if source != "dmo" or rng.random() < 0.5 else st[1]
        if source == "serper":
            address = f"{street}, {city}, {st[0]} {h['zip']}" if rng.random() < 0.98 else ""
        elif source == "dmo":
            address = street if rng.random() < 0.92 else ""
        else:
            address = street.upper() if rng.random() < 0.5 else street
            address = address if rng.random() < 0.9 else ""
        if source == "csv" and rng.random() < 0.3:
            city, state = city.upper(), state.lower()
        # phone
        r = rng.random()
        if chain:
            local, central = {"serper": (0.85, 0.10), "dmo": (0.50, 0.35), "csv": (0.40, 0.30)}[source]
        else:
            local, central = {"serper": (0.90, 0.0), "dmo": (0.72, 0.08), "csv": (0.62, 0.08)}[source]
            if not h["central"]:
                local, central = local + central, 0.0
        if r < local:
            phone = _phone_format(rng, h["phone"])
        elif r < local + central:
            phone = _phone_format(rng, h["central"])
        else:
            phone = ""
        # website
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
            if chain and rng.random() < 0.3:
                website += ("&" if "?" in website else "?") + "SEO_id=GMB-" + rng.choice(["EN", "US"]) + "-" + str(rng.randint(1, 999))
        elif site_p <= r < site_p + home_p:
            website = ("https://" if rng.random() < 0.5 else "") + h["home"] + rng.choice(["", "/"])
        else:
            website = ""
        # coordinates and ids
        if source == "serper" or (source == "dmo" and rng.random() < 0.6):
            jitter = 0.0002 if source == "serper" else 0.0008
            lat = round(h["lat"] + rng.uniform(-jitter, jitter), 6)
            lng = round(h["lng"] + rng.uniform(-jitter, jitter), 6)
        else:
            lat = lng = None
        if source == "serper":
            ext = h["place_id"]
        elif source == "dmo":
            self.dmo_seq += 1
            ext = f"dmo-{st[0].lower()}-{self.dmo_seq:07d}"
        else:
            self.csv_seq += 1
            ext = f"csv-{self.csv_seq:07d}"
        self.rows.append({
            "source": source, "external_id": ext, "name": name, "address": address, "city": city,
            "state": state, "zip": h["zip"] if source != "csv" or rng.random() < 0.7 else "",
            "phone": phone, "website": website, "lat": lat, "lng": lng, "entity": h["entity"],
        })


def hash_str(text: str) -> int:
    """A stable (unsalted) hash."""
    value = 0
    for ch in text:
        value = (value * 131 + ord(ch)) % 1_000_003
    return value


def generate(n: int = 100_000, seed: int = 7) -> list[dict]:
    """``n`` source records (dicts with ``COLUMNS`` keys; ``entity`` is the true hotel)."""
    return _Generator(n, seed).build()


def write_csv(rows: list[dict], path: str) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if row[k] is None else row[k]) for k in COLUMNS})


def read_csv(path: str) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", required=True, help="CSV file to write")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rows = generate(args.n, args.seed)
    write_csv(rows, args.out)
    entities = len({r["entity"] for r in rows})
    print(json.dumps({"rows": len(rows), "entities": entities,
                      "seconds": round(time.perf_counter() - started, 2)}), file=sys.stderr)


if __name__ == "__main__":
    main()

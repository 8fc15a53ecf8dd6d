"""Deterministic synthetic tourism listings for the import/dedupe benchmark.

Uses only the standard library. The same ``(n, seed)`` always gives the same rows,
on any platform (only ``random.Random`` with an explicit seed is used).

The CSV header is ``COLUMNS``. ``benchmarks/listings_bench.config.json`` maps every
column to its canonical field. There is no explicit source-id column, and the
config's default country is "US".

Layout of ``generate(n)``:

* ``n_exact = n * 5 // 100`` rows are identical copies of other rows.
* ``n_near = n * 5 // 100`` rows are near duplicates: the same place, with one
  small name typo, an added or removed "The " prefix, "&" swapped with "and", or
  the street suffix written out ("St" -> "Street"). The phone is always in
  another format. Every other field is the same as in the original, including
  google_place_id when the original has one.
* The remaining ``n - n_exact - n_near`` rows are distinct places ("entities").
  Each copy or near duplicate points to a different original.
* Rows come back shuffled. ``generate_with_truth`` also returns each row's
  entity id.
* Places lie in ``n // 100`` cities (at least 1, at most 1,000), about 100
  listings per city. The first 50 cities cover all 50 US states. City names are
  unique nationwide.
* Distinct places never share (name, city). They also never share a normalised
  name within a city (lower case, "&" = "and", no punctuation or accents, no
  leading "The"). So a matcher that merges near duplicates cannot be misled by a
  distinct place with an equivalent name.
* Phone numbers and website domains are unique per place.

Contact data is synthetic. Domains are built from the names, and image URLs
point at ``images.example.com``. ``generate(100_000)`` takes about 4 s on a slow
2-core VM and holds about 210 MB of rows. To write a file, run
``python benchmarks/listings_data.py --n 100000 --out /tmp/listings.csv``.
"""

from __future__ import annotations

import argparse
import base64
import csv
import random
import re
import time
import unicodedata
from collections.abc import Iterable

__all__ = [
    "COLUMNS",
    "generate",
    "generate_with_truth",
    "revise",
    "revise_detailed",
    "write_csv",
    "normalise_name",
]

COLUMNS = [
    "name",
    "category",
    "google_place_id",
    "address1",
    "address2",
    "city",
    "state",
    "zip",
    "country",
    "latitude",
    "longitude",
    "description",
    "contact_name",
    "email",
    "phone",
    "website",
    "facebook",
    "instagram",
    "twitter",
    "tripadvisor",
    "images",
    "hours",
    "open_date",
    "close_date",
]

EXACT_SHARE = 5  # percent of rows
NEAR_SHARE = 5  # percent of rows
LISTINGS_PER_CITY = 100
MAX_CITIES = 1000

# abbr, name, lat_min, lat_max, lng_min, lng_max, area codes, zip3 range
_STATES = [
    ("AL", "Alabama", 30.4, 34.9, -88.3, -85.1, (205, 251, 256, 334), (350, 369)),
    ("AK", "Alaska", 58.3, 64.8, -151.5, -134.5, (907,), (995, 999)),
    ("AZ", "Arizona", 31.5, 36.9, -114.5, -109.2, (480, 520, 602, 623, 928), (850, 865)),
    ("AR", "Arkansas", 33.1, 36.4, -94.4, -89.8, (479, 501, 870), (716, 729)),
    ("CA", "California", 32.6, 41.9, -124.2, -114.4,
     (209, 213, 310, 408, 415, 510, 530, 559, 619, 707, 714, 805, 831, 909, 916, 949), (900, 961)),
    ("CO", "Colorado", 37.1, 40.9, -108.9, -102.2, (303, 719, 720, 970), (800, 816)),
    ("CT", "Connecticut", 41.1, 41.9, -73.6, -71.9, (203, 860), (60, 69)),
    ("DE", "Delaware", 38.5, 39.7, -75.7, -75.1, (302,), (197, 199)),
    ("FL", "Florida", 25.2, 30.9, -87.4, -80.1,
     (239, 305, 321, 352, 386, 407, 561, 727, 772, 813, 850, 863, 904, 941, 954), (320, 349)),
    ("GA", "Georgia", 30.5, 34.9, -85.5, -81.0, (229, 404, 470, 478, 678, 706, 770, 912), (300, 319)),
    ("HI", "Hawaii", 19.1, 22.1, -159.7, -155.0, (808,), (967, 968)),
    ("ID", "Idaho", 42.1, 48.9, -117.1, -111.1, (208,), (832, 838)),
    ("IL", "Illinois", 37.1, 42.4, -91.3, -87.6, (217, 309, 312, 618, 630, 708, 773, 815, 847), (600, 629)),
    ("IN", "Indiana", 37.9, 41.7, -88.0, -84.9, (219, 260, 317, 574, 765, 812), (460, 479)),
    ("IA", "Iowa", 40.5, 43.4, -96.4, -90.2, (319, 515, 563, 641, 712), (500, 528)),
    ("KS", "Kansas", 37.1, 39.9, -101.9, -94.7, (316, 620, 785, 913), (660, 679)),
    ("KY", "Kentucky", 36.6, 39.0, -89.3, -82.0, (270, 502, 606, 859), (400, 427)),
    ("LA", "Louisiana", 29.2, 32.9, -93.8, -89.2, (225, 318, 337, 504, 985), (700, 714)),
    ("ME", "Maine", 43.2, 47.3, -70.9, -67.1, (207,), (39, 49)),
    ("MD", "Maryland", 38.1, 39.7, -79.4, -75.1, (240, 301, 410, 443), (206, 219)),
    ("MA", "Massachusetts", 41.3, 42.8, -73.4, -70.0, (339, 413, 508, 617, 774, 781, 978), (10, 27)),
    ("MI", "Michigan", 41.8, 47.4, -90.3, -82.5,
     (231, 248, 269, 313, 517, 586, 616, 734, 810, 906, 989), (480, 499)),
    ("MN", "Minnesota", 43.6, 49.2, -97.1, -89.6, (218, 320, 507, 612, 651, 763, 952), (550, 567)),
    ("MS", "Mississippi", 30.3, 34.9, -91.5, -88.2, (228, 601, 662, 769), (386, 397)),
    ("MO", "Missouri", 36.1, 40.5, -95.7, -89.2, (314, 417, 573, 636, 660, 816), (630, 658)),
    ("MT", "Montana", 44.5, 48.9, -115.9, -104.1, (406,), (590, 599)),
    ("NE", "Nebraska", 40.1, 42.9, -103.9, -95.4, (308, 402, 531), (680, 693)),
    ("NV", "Nevada", 35.1, 41.9, -119.9, -114.1, (702, 725, 775), (889, 898)),
    ("NH", "New Hampshire", 42.8, 45.2, -72.5, -70.7, (603,), (30, 38)),
    ("NJ", "New Jersey", 39.0, 41.3, -75.5, -74.0, (201, 609, 732, 856, 908, 973), (70, 89)),
    ("NM", "New Mexico", 31.4, 36.9, -108.9, -103.1, (505, 575), (870, 884)),
    ("NY", "New York", 40.6, 44.9, -79.7, -72.0,
     (212, 315, 347, 516, 518, 585, 607, 631, 716, 718, 845, 914), (100, 149)),
    ("NC", "North Carolina", 33.9, 36.5, -84.2, -75.6, (252, 336, 704, 828, 910, 919, 980), (270, 289)),
    ("ND", "North Dakota", 46.0, 48.9, -103.9, -96.7, (701,), (580, 588)),
    ("OH", "Ohio", 38.5, 41.9, -84.7, -80.6, (216, 330, 419, 440, 513, 614, 740, 937), (430, 459)),
    ("OK", "Oklahoma", 33.7, 36.9, -102.9, -94.5, (405, 580, 918), (730, 749)),
    ("OR", "Oregon", 42.1, 46.2, -124.3, -116.6, (503, 541, 971), (970, 979)),
    ("PA", "Pennsylvania", 39.8, 41.9, -80.4, -74.8, (215, 267, 412, 484, 570, 610, 717, 724, 814), (150, 196)),
    ("RI", "Rhode Island", 41.2, 41.9, -71.8, -71.2, (401,), (28, 29)),
    ("SC", "South Carolina", 32.1, 35.1, -83.2, -78.6, (803, 843, 864), (290, 299)),
    ("SD", "South Dakota", 42.6, 45.8, -103.9, -96.5, (605,), (570, 577)),
    ("TN", "Tennessee", 35.1, 36.6, -90.2, -81.7, (423, 615, 731, 865, 901, 931), (370, 385)),
    ("TX", "Texas", 26.1, 36.4, -106.4, -93.6,
     (210, 214, 254, 281, 361, 409, 512, 713, 806, 817, 903, 915, 956, 972), (750, 799)),
    ("UT", "Utah", 37.1, 41.9, -113.9, -109.1, (385, 435, 801), (840, 847)),
    ("VT", "Vermont", 42.8, 44.9, -73.3, -71.6, (802,), (50, 59)),
    ("VA", "Virginia", 36.6, 39.4, -83.5, -75.3, (276, 434, 540, 571, 703, 757, 804), (220, 246)),
    ("WA", "Washington", 45.6, 48.9, -124.5, -117.0, (206, 253, 360, 425, 509), (980, 994)),
    ("WV", "West Virginia", 37.3, 40.5, -82.5, -77.8, (304, 681), (247, 268)),
    ("WI", "Wisconsin", 42.6, 46.9, -92.8, -86.9, (262, 414, 608, 715, 920), (530, 549)),
    ("WY", "Wyoming", 41.1, 44.9, -110.9, -104.1, (307,), (820, 831)),
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

_FIRST = (
    "James Mary John Linda Robert Maria David Susan Carlos Karen Daniel Nancy Paul Lisa Mark Betty "
    "Kevin Sandra Brian Ashley Jose Emily Ryan Donna Eric Michelle Jacob Laura Gary Amy Tim Angela "
    "Luis Rebecca Sam Grace Noah Chloe Ethan Hannah Omar Priya Wei Mei Hiro Ana Sofia Liam Olivia"
).split()
_LAST = (
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Wilson "
    "Anderson Thomas Taylor Moore Jackson Martin Lee Thompson White Harris Clark Lewis Robinson Walker "
    "Young Allen King Wright Scott Hill Green Adams Baker Nelson Carter Mitchell Roberts Turner Phillips "
    "Campbell Parker Evans Edwards Collins Stewart Murphy Cook Rogers Morgan Cooper Peterson Reed Bailey "
    "Kelly Howard Ward Cox Brooks Hayes Sullivan Russell Foster Bryant Fischer Nguyen Patel Kim Chen"
).split()

_ADJ = (
    "Blue Red Golden Silver Old Harbor Bay Lake River Maple Oak Cedar Pine Willow Stone Iron Copper "
    "Sunset Sunrise Morning Lighthouse Sea Salty Wild Green White Black Grand Little Big Twin Lazy "
    "Happy Hidden North South East West Crystal Misty Eagle Tidewater Driftwood Sandy Rusty Painted "
    "Whispering Rolling Lucky Cozy Rustic Coastal Prairie Mountain Valley Canyon Desert Summit Amber"
).split()
_NOUN = (
    "Heron View Mill Fox Bear Gull Pelican Anchor Ridge Creek Hollow Meadow Bluff Cove Point Landing "
    "Bridge Barn Orchard Garden Dock Wharf Pier Rock Trail Hill Spring Pines Oaks Moose Otter Lantern "
    "Compass Kettle Acorn Elk Falcon Wren Sparrow Harvest Tide Shore Dune Reef Marsh Willow Hearth "
    "Lodgepole Summit Prairie Crossing Station Junction Depot Saddle Spur Mesa"
).split()
_PAIRS = (
    "Rod and Reel|Bread and Butter|Salt and Pepper|Sea and Sky|Fork and Knife|Hook and Line|"
    "Sun and Sand|Ale and Anchor|Rock and Rye|Pine and Palm|Barrel and Vine|Bit and Spur"
).split("|")

# (type word, category)
_TYPES = {
    "lodging": [
        ("Inn", "Inn"), ("Motel", "Motel"), ("Lodge", "Lodge"), ("Hotel", "Hotel"), ("Suites", "Hotel"),
        ("Resort", "Resort"), ("Bed & Breakfast", "Bed and Breakfast"), ("Cottages", "Cottage"),
        ("Guest House", "Inn"), ("Cabins", "Cabin"), ("Campground", "Campground"),
    ],
    "food": [
        ("Grill", "Restaurant"), ("Cafe", "Cafe"), ("Café", "Cafe"), ("Bistro", "Restaurant"),
        ("Diner", "Restaurant"), ("Tavern", "Bar"), ("Bar & Grill", "Restaurant"), ("Kitchen", "Restaurant"),
        ("Pizzeria", "Restaurant"), ("Bakery", "Bakery"), ("Seafood Shack", "Restaurant"),
        ("Steakhouse", "Restaurant"), ("Brewing Co.", "Brewery"), ("Taproom", "Bar"),
        ("Oyster Bar", "Restaurant"), ("Crab House", "Restaurant"), ("Smokehouse", "Restaurant"),
        ("Coffee House", "Cafe"), ("Ice Cream Parlor", "Ice Cream"), ("Trattoria", "Restaurant"),
    ],
    "attraction": [
        ("Museum", "Museum"), ("Gallery", "Gallery"), ("Gardens", "Garden"), ("Zoo", "Zoo"),
        ("Aquarium", "Aquarium"), ("Park", "Park"), ("Nature Center", "Park"), ("Lighthouse", "Attraction"),
        ("Theater", "Theater"), ("Historic Site", "Historic Site"), ("Farm", "Farm"), ("Winery", "Winery"),
        ("Vineyard", "Winery"), ("Golf Club", "Golf"), ("Marina", "Marina"), ("Adventure Park", "Attraction"),
        ("Kayak Tours", "Tour"), ("Trolley Tours", "Tour"),
    ],
    "shopping": [
        ("Market", "Market"), ("Trading Post", "Shopping"), ("General Store", "Shopping"),
        ("Antiques", "Shopping"), ("Books", "Shopping"), ("Outfitters", "Shopping"), ("Day Spa", "Spa"),
        ("Mercantile", "Shopping"), ("Craft & Gift Shop", "Shopping"), ("Farm Stand", "Market"),
    ],
}
_GROUPS = ["lodging"] * 25 + ["food"] * 35 + ["attraction"] * 25 + ["shopping"] * 15
_KIND_NOUN = {
    "lodging": "place to stay",
    "food": "place to eat",
    "attraction": "local attraction",
    "shopping": "shop",
}
_TA_KIND = {"lodging": "Hotel", "food": "Restaurant", "attraction": "Attraction", "shopping": "Attraction"}

_STREETS = (
    "Main Oak Maple Cedar Pine Elm Washington Lake Hill Park Church Water Harbor Bay River Mill Spring "
    "Market Front Center Bridge Union Highland Sunset Ocean Beach Forest Meadow Orchard Franklin "
    "Jefferson Lincoln Madison Jackson Walnut Chestnut Willow Cherry Railroad Depot Shore Bluff Canyon "
    "Prospect Pleasant Liberty Commerce Broad High School College Lighthouse Dune Ridge"
).split()
_ORDINALS = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th", "12th", "14th"]
_SUFFIX_LONG = {
    "St": "Street", "Ave": "Avenue", "Rd": "Road", "Blvd": "Boulevard", "Dr": "Drive",
    "Ln": "Lane", "Pkwy": "Parkway", "Ct": "Court", "Pl": "Place", "Hwy": "Highway",
}
_SUFFIXES = ["St"] * 8 + ["Ave"] * 5 + ["Rd"] * 4 + ["Dr"] * 3 + ["Blvd", "Ln", "Ln", "Pkwy", "Ct", "Pl", "Hwy"]
_DIRS = ["N", "S", "E", "W"]

_HOURS = {
    "lodging": ["Mon-Sun 00:00-23:59", "Mon-Sun 00:00-23:59", "Mon-Sun 07:00-23:00"],
    "food": [
        "Mon-Sun 11:00-22:00", "Mon-Thu 11:00-21:00; Fri-Sat 11:00-23:00; Sun 12:00-20:00",
        "Tue-Sun 17:00-22:00", "Mon-Fri 07:00-15:00; Sat-Sun 08:00-14:00", "Mon-Sat 06:00-14:00",
        "Wed-Sun 16:00-23:00", "Mon-Sun 07:00-19:00", "Mon-Fri 11:30-21:30; Sat-Sun 10:00-22:00",
    ],
    "attraction": [
        "Mon-Fri 09:00-17:00; Sat 10:00-14:00", "Tue-Sun 10:00-17:00", "Mon-Sun 09:00-18:00",
        "Wed-Sun 10:00-16:00", "Mon-Sat 10:00-17:00; Sun 12:00-17:00", "Mon-Sun 08:00-20:00",
    ],
    "shopping": [
        "Mon-Sat 10:00-18:00; Sun 12:00-17:00", "Mon-Sun 09:00-19:00", "Tue-Sat 10:00-17:00",
        "Thu-Sun 10:00-16:00", "Sat 08:00-13:00",
    ],
}
_ALL_HOURS = sorted({h for hs in _HOURS.values() for h in hs})

_OPENERS = [
    "{name} is a {style} {kind} in {city}, {state_name}.",
    "Locals and visitors alike know {name} as a {style} {kind} on {street} in {city}.",
    "Set on {street} in {city}, {name} is a {style} {kind} that has welcomed guests since {year}.",
    "Family-run since {year}, {name} is a {style} {kind} in the heart of {city}, {state}.",
]
_STYLES = [
    "friendly", "charming", "historic", "laid-back", "family-friendly", "award-winning", "cozy",
    "lively", "beloved", "quirky", "well-kept", "welcoming", "modern", "old-fashioned",
]
_SENTENCES = {
    "lodging": [
        "Rooms are bright and simply furnished, and many look out over {feature}.",
        "Guests get free parking, fast Wi-Fi and a hot breakfast served until ten every morning.",
        "The outdoor pool and fire pit are open from Memorial Day to Labor Day.",
        "Pets are welcome in selected ground-floor rooms for a small nightly fee.",
        "Several suites have kitchenettes, which makes longer family stays easy.",
        "Check-in is from 3 pm and the front desk can book tours, bikes and restaurant tables.",
        "The owners restored the {year} building room by room and kept its original pine floors.",
        "It is a short walk to {feature} and about ten minutes by car to downtown {city}.",
    ],
    "food": [
        "The menu leans on local produce and changes with the seasons.",
        "Regulars come back for the {dish}, made from scratch every morning.",
        "There is a covered patio with a view of {feature} and live music on summer weekends.",
        "Vegetarian and gluten-free options are marked on the menu, and kids eat half price on Tuesdays.",
        "Reservations are recommended on Friday and Saturday nights; walk-ins are welcome at the bar.",
        "The drinks list features beer from nearby breweries and a short list of regional wines.",
        "Breakfast is served all day, and the pie case empties fast on weekends.",
        "Takeout and curbside pickup are available by phone or through the website.",
    ],
    "attraction": [
        "Exhibits tell the story of {city} from its founding in {year} to the present day.",
        "Guided tours run every hour and take about forty-five minutes.",
        "The grounds include walking trails, picnic tables and a lookout over {feature}.",
        "Admission is free for children under twelve and for members.",
        "Seasonal events include a spring festival, summer concerts and a lantern walk in October.",
        "Most paths and buildings are wheelchair accessible, and there is free parking on site.",
        "A small gift shop sells books, prints and work by local artists.",
        "School groups and private tours can be booked in advance by phone or email.",
    ],
    "shopping": [
        "The shelves are stocked with work by more than forty local makers.",
        "Expect everything from handmade soap and pottery to maps, books and {goods}.",
        "The shop has been a fixture of downtown {city} since {year}.",
        "Staff are happy to ship purchases anywhere in the country.",
        "Saturday mornings bring demonstrations, tastings and a small farmers market out front.",
        "Gift cards are available, and there is a loyalty program for regulars.",
    ],
}
_GENERIC = [
    "Free parking is available nearby, and the entrance is step-free.",
    "Opening hours can change on public holidays, so check the website before visiting.",
    "It is one of the most reviewed places in the county and a favorite of visiting families.",
    "The team also supports local charities and hosts fundraisers throughout the year.",
    "Gift certificates make a popular souvenir of a trip to {city}.",
    "Follow along on social media for news, specials and seasonal opening dates.",
]
_POOLS = {g: s + _GENERIC for g, s in _SENTENCES.items()}
_FEATURES = [
    "the harbor", "the river", "the lake", "the old mill pond", "the town green", "the marina",
    "the mountains", "the marsh", "the beach", "Main Street", "the rail trail", "the state park",
]
_DISHES = [
    "clam chowder", "blueberry pancakes", "smoked brisket", "crab cakes", "apple pie", "fish tacos",
    "cinnamon rolls", "green chile stew", "lobster rolls", "biscuits and gravy", "local honey",
    "maple fudge", "hand-pulled noodles", "wood-fired pizza",
]
_GOODS = [
    "local honey", "maple fudge", "hand-knit scarves", "driftwood art", "hot sauce", "beeswax candles",
    "vintage postcards", "quilts", "saltwater taffy", "jams and pickles",
]
_UPDATES = [
    "New this season: an expanded patio and extended evening hours on weekends.",
    "Under new management since the spring, with a refreshed menu and renovated interior.",
    "Recently renovated, with new accessible restrooms and an enlarged parking lot.",
    "Now accepting online bookings and contactless payment.",
    "Closed Mondays from November to March; open daily the rest of the year.",
]

_TLDS = (".com", ".com", ".com", ".com", ".net", ".us", ".co")
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_IMG_BASE = "https://images.example.com/listings/"


# --------------------------------------------------------------------------- helpers

_NON_ALNUM = re.compile(r"[^a-z0-9 ]+")


def normalise_name(name: str) -> str:
    """Key under which two names count as the same: 'The Rod & Reel Café' -> 'rod and reel cafe'."""
    if not name.isascii():
        name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    s = _NON_ALNUM.sub("", name.lower().replace("&", " and "))
    words = s.split()
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


_NON_SLUG = re.compile(r"[^a-z0-9]+")


def _slug(text: str) -> str:
    s = text.lower() if text.isascii() else (
        unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    )
    s = s.replace("&", "and")
    if s.startswith("the "):
        s = s[4:]
    return _NON_SLUG.sub("", s)


def _format_phone(area: int, exchange: int, line: int, fmt: int) -> str:
    if fmt == 0:
        return f"({area}) {exchange}-{line:04d}"
    if fmt == 1:
        return f"{area}.{exchange}.{line:04d}"
    if fmt == 2:
        return f"+1 {area} {exchange} {line:04d}"
    return f"{area}-{exchange}-{line:04d}"


_PHONE_DIGITS = re.compile(r"\d")


def _phone_parts(phone: str) -> tuple[int, int, int]:
    digits = "".join(_PHONE_DIGITS.findall(phone))[-10:]
    return int(digits[:3]), int(digits[3:6]), int(digits[6:])


def _phone_format_of(phone: str) -> int:
    if phone.startswith("("):
        return 0
    if phone.startswith("+1"):
        return 2
    return 1 if "." in phone else 3


def _typo(name: str, rng: random.Random) -> str:
    """One small edit (swap, drop or double a letter) inside a word of 4+ letters."""
    words = name.split(" ")
    candidates = [i for i, w in enumerate(words) if len(w) >= 4 and w.isalpha()]
    if not candidates:
        return name + "s"
    i = rng.choice(candidates)
    w = words[i]
    p = rng.randrange(1, len(w) - 1)  # never the first or last letter
    op = rng.randrange(3)
    if op == 0 and w[p] != w[p + 1]:
        w = w[:p] + w[p + 1] + w[p] + w[p + 2 :]
    elif op == 1:
        w = w[:p] + w[p + 1 :]
    else:
        w = w[:p] + w[p] + w[p:]
    words[i] = w
    return " ".join(words)


def _flip_amp(name: str) -> str:
    if " & " in name:
        return name.replace(" & ", " and ", 1)
    return name.replace(" and ", " & ", 1)


def _flip_the(name: str) -> str:
    return name[4:] if name.startswith("The ") else "The " + name


def _expand_suffix(address1: str) -> str:
    head, _, suffix = address1.rpartition(" ")
    return f"{head} {_SUFFIX_LONG[suffix]}"


# --------------------------------------------------------------------------- generator


class _Gen:
    """All randomness comes from one ``random.Random(seed)``.

    ``_pick`` and ``_int`` use ``random()`` directly instead of ``choice`` and
    ``randint``. This is about 4x faster and is still deterministic on every
    platform.
    """

    def __init__(self, n: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rnd = self.rng.random
        self.n = n
        self.phones: set[int] = set()
        self.domains: set[str] = set()
        # Pre-shuffled sentence orders, so a description costs no shuffle.
        self.orders = {
            g: [self.rng.sample(range(len(s) + len(_GENERIC)), len(s) + len(_GENERIC)) for _ in range(64)]
            for g, s in _SENTENCES.items()
        }

    def _pick(self, seq):
        return seq[int(self.rnd() * len(seq))]

    def _int(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi]."""
        return lo + int(self.rnd() * (hi - lo + 1))

    # ---- geography
    def cities(self, count: int) -> list[tuple]:
        rng = self.rng
        # skip doubled letters at the join ("Westton")
        names = [p + s for p in _CITY_PREFIX for s in _CITY_SUFFIX if p[-1] != s[0]]
        rng.shuffle(names)
        if count > len(names):
            raise ValueError(f"at most {len(names)} distinct city names are available")
        weights = [len(s[6]) + 2 for s in _STATES]
        cities = []
        for i in range(count):
            # the first 50 cities cover every state once, the rest are weighted by size
            state = _STATES[i] if i < len(_STATES) else rng.choices(_STATES, weights)[0]
            abbr, sname, la0, la1, lo0, lo1, areas, (z0, z1) = state
            lat = rng.uniform(la0 + 0.05, la1 - 0.05)
            lng = rng.uniform(lo0 + 0.05, lo1 - 0.05)
            zip_base = rng.randint(z0, z1) * 100 + rng.randint(1, 90)
            geo = 30000 + i * 37 + rng.randint(0, 30)
            cname = names[i]
            cities.append((cname, abbr, sname, lat, lng, areas, zip_base, geo, _slug(cname), _slug_words(cname)))
        return cities

    # ---- one distinct place
    def name(self, group: str, city: str) -> tuple[str, str]:
        rnd = self.rnd
        tword, category = _TYPES[group][int(rnd() * len(_TYPES[group]))]
        r = self.rnd()
        if r < 0.55:
            name = f"{_ADJ[int(rnd() * len(_ADJ))]} {_NOUN[int(rnd() * len(_NOUN))]} {tword}"
        elif r < 0.70:
            name = f"{_LAST[int(rnd() * len(_LAST))]}'s {tword}"
        elif r < 0.78:
            name = f"{_PAIRS[int(rnd() * len(_PAIRS))]} {tword}"
        elif r < 0.84:
            name = f"{_LAST[int(rnd() * len(_LAST))]} & {_LAST[int(rnd() * len(_LAST))]} {tword}"
        elif r < 0.92:
            name = f"The {_ADJ[int(rnd() * len(_ADJ))]} {_NOUN[int(rnd() * len(_NOUN))]}"
        else:
            name = f"{city} {tword}"
        return name, category

    def phone(self, areas: tuple) -> tuple[int, int, int]:
        rnd = self.rnd
        while True:
            area = areas[int(rnd() * len(areas))]
            exchange = 201 + int(rnd() * 789)
            if exchange % 100 == 11 or exchange == 555:
                continue
            line = int(rnd() * 10_000)
            key = area * 10_000_000 + exchange * 10_000 + line
            if key not in self.phones:
                self.phones.add(key)
                return area, exchange, line

    def domain(self, name: str, city_slug: str, state: str) -> str:
        base = _slug(name)[:40] or "listing"
        tld = self._pick(_TLDS)
        for cand in (base + tld, base + city_slug + tld, base + city_slug + state.lower() + tld):
            if cand not in self.domains:
                self.domains.add(cand)
                return cand
        k = 2
        while f"{base}{k}{tld}" in self.domains:
            k += 1
        self.domains.add(f"{base}{k}{tld}")
        return f"{base}{k}{tld}"

    def description(self, group: str, fields: dict) -> str:
        rnd = self.rnd
        target = 300 + int(rnd() * 301)
        text = _OPENERS[int(rnd() * len(_OPENERS))].format(**fields)
        pool = _POOLS[group]
        orders = self.orders[group]
        for j in orders[int(rnd() * len(orders))]:
            if len(text) >= target:
                break
            s = pool[j].format(**fields)
            if len(text) + 1 + len(s) <= 600:
                text += " " + s
        return text

    def place(self, eid: int, city: tuple, used_names: set, used_addr: set) -> dict:
        rnd, pick, rint = self.rnd, self._pick, self._int
        cname, abbr, sname, clat, clng, areas, zip_base, geo, city_slug, city_words = city
        group = _GROUPS[int(rnd() * len(_GROUPS))]
        for _ in range(1000):
            name, category = self.name(group, cname)
            key = normalise_name(name)
            if key not in used_names:
                used_names.add(key)
                break
        else:  # practically unreachable: fall back on a numbered name
            name = f"{name} {eid}"
            used_names.add(normalise_name(name))
        while True:
            if rnd() < 0.12:
                street = _ORDINALS[int(rnd() * len(_ORDINALS))]
            else:
                street = _STREETS[int(rnd() * len(_STREETS))]
            prefix = f"{_DIRS[int(rnd() * len(_DIRS))]} " if rnd() < 0.12 else ""
            address1 = f"{1 + int(rnd() * 9899)} {prefix}{street} {_SUFFIXES[int(rnd() * len(_SUFFIXES))]}"
            if address1 not in used_addr:
                used_addr.add(address1)
                break
        area, exchange, line = self.phone(areas)
        domain = self.domain(name, city_slug, abbr)
        year = 1885 + int(rnd() * 135)
        fields = {
            "name": name,
            "city": cname,
            "state": abbr,
            "state_name": sname,
            "year": year,
            "street": address1.split(" ", 1)[1],
            "style": _STYLES[int(rnd() * len(_STYLES))],
            "kind": _KIND_NOUN[group],
            "feature": _FEATURES[int(rnd() * len(_FEATURES))],
            "dish": _DISHES[int(rnd() * len(_DISHES))],
            "goods": _GOODS[int(rnd() * len(_GOODS))],
        }
        zip5 = zip_base + int(rnd() * 7)
        zip_code = f"{zip5:05d}-{rint(1, 9999):04d}" if rnd() < 0.05 else f"{zip5:05d}"
        address2 = ""
        if rnd() < 0.10:
            address2 = pick(
                (f"Suite {rint(100, 450)}", f"Unit {rint(1, 20)}", "Floor 2",
                 f"Building {'ABCD'[int(rnd() * 4)]}")
            )
        r = rnd()
        if r < 0.08:
            email = ""
        elif r < 0.55:
            email = f"info@{domain}"
        elif r < 0.75:
            email = f"{_FIRST[int(rnd() * len(_FIRST))].lower()}@{domain}"
        else:
            box = pick(("hello", "contact", "office", "reservations" if group == "lodging" else "events"))
            email = f"{box}@{domain}"
        r = rnd()
        if r < 0.10:
            website = ""
        elif r < 0.70:
            website = f"https://www.{domain}"
        elif r < 0.85:
            website = f"https://{domain}/"
        else:
            website = f"http://www.{domain}"
        handle = domain.split(".")[0]
        n_img = (0, 1, 1, 2, 2, 3, 4)[int(rnd() * 7)]
        images = "|".join([f"{_IMG_BASE}{eid:07d}-{j}.jpg" for j in range(1, n_img + 1)])
        hours = "" if rnd() < 0.10 else _HOURS[group][int(rnd() * len(_HOURS[group]))]
        if rnd() < 0.25:
            open_date = f"2025-{pick(('04', '05', '06'))}-{pick(('01', '15'))}"
            close_date = f"2025-{pick(('09', '10'))}-{pick(('15', '30'))}"
        else:
            open_date = close_date = ""
        ta = ""
        if rnd() < 0.30:
            ta = (
                f"https://www.tripadvisor.com/{_TA_KIND[group]}_Review-g{geo}-d{1_000_000 + eid * 13}-Reviews-"
                f"{_slug_words(name)}-{city_words}_{sname.replace(' ', '_')}.html"
            )
        contact = ""
        if rnd() < 0.6:
            contact = f"{_FIRST[int(rnd() * len(_FIRST))]} {_LAST[int(rnd() * len(_LAST))]}"
        place_id = ""
        if rnd() < 0.6:
            raw = self.rng.getrandbits(144).to_bytes(18, "big")
            place_id = "ChIJ" + base64.urlsafe_b64encode(raw).decode()[:23]
        return {
            "name": name,
            "category": category,
            "google_place_id": place_id,
            "address1": address1,
            "address2": address2,
            "city": cname,
            "state": abbr,
            "zip": zip_code,
            "country": "US" if rnd() < 0.8 else "",
            "latitude": f"{clat + (rnd() - 0.5) * 0.08:.6f}",
            "longitude": f"{clng + (rnd() - 0.5) * 0.10:.6f}",
            "description": self.description(group, fields),
            "contact_name": contact,
            "email": email,
            "phone": _format_phone(area, exchange, line, int(rnd() * 4)),
            "website": website,
            "facebook": f"https://www.facebook.com/{handle}" if rnd() < 0.4 else "",
            "instagram": f"https://www.instagram.com/{handle}" if rnd() < 0.35 else "",
            "twitter": f"https://twitter.com/{handle[:15]}" if rnd() < 0.15 else "",
            "tripadvisor": ta,
            "images": images,
            "hours": hours,
            "open_date": open_date,
            "close_date": close_date,
        }

    def near_duplicate(self, row: dict, city_names: set) -> dict:
        rng = self.rng
        dup = dict(row)
        name = row["name"]
        kinds = ["typo", "the", "street"]
        if " & " in name or " and " in name:
            kinds.append("amp")
        kind = rng.choice(kinds)
        if kind == "typo":
            for _ in range(50):
                cand = _typo(name, rng)
                if cand != name and normalise_name(cand) not in city_names:
                    dup["name"] = cand
                    break
            else:
                kind = "street"
        elif kind == "the":
            dup["name"] = _flip_the(name)
        elif kind == "amp":
            dup["name"] = _flip_amp(name)
        if kind == "street":
            dup["address1"] = _expand_suffix(row["address1"])
        area, exchange, line = _phone_parts(row["phone"])
        old_fmt = _phone_format_of(row["phone"])
        fmt = rng.choice([f for f in range(4) if f != old_fmt])
        dup["phone"] = _format_phone(area, exchange, line, fmt)
        return dup


_NON_WORD = re.compile(r"[^A-Za-z0-9]+")


def _slug_words(text: str) -> str:
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _NON_WORD.sub("_", text).strip("_")


def generate_with_truth(n: int = 100_000, seed: int = 7) -> tuple[list[dict[str, str]], list[int]]:
    """Rows in shuffled order, plus the entity id of each row (copies share their original's id).

    Entity ids run over 0 .. n - n_exact - n_near - 1.
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    gen = _Gen(n, seed)
    rng = gen.rng
    n_exact = n * EXACT_SHARE // 100
    n_near = n * NEAR_SHARE // 100
    n_base = n - n_exact - n_near
    n_cities = max(1, min(MAX_CITIES, n // LISTINGS_PER_CITY))
    cities = gen.cities(n_cities)
    names_by_city: list[set] = [set() for _ in cities]
    addr_by_city: list[set] = [set() for _ in cities]
    city_of: list[int] = []
    rows: list[dict[str, str]] = []
    for eid in range(n_base):
        ci = eid % n_cities  # round-robin: city sizes differ by at most one
        city_of.append(ci)
        rows.append(gen.place(eid, cities[ci], names_by_city[ci], addr_by_city[ci]))
    truth = list(range(n_base))
    originals = rng.sample(range(n_base), n_exact + n_near) if n_base else []
    for eid in originals[:n_exact]:
        rows.append(dict(rows[eid]))
        truth.append(eid)
    for eid in originals[n_exact:]:
        rows.append(gen.near_duplicate(rows[eid], names_by_city[city_of[eid]]))
        truth.append(eid)
    order = list(range(len(rows)))
    rng.shuffle(order)
    return [rows[i] for i in order], [truth[i] for i in order]


def generate(n: int = 100_000, seed: int = 7) -> list[dict[str, str]]:
    """``n`` listing rows (see the module docstring for the duplicate layout)."""
    return generate_with_truth(n, seed)[0]


# --------------------------------------------------------------------------- revision


def revise_detailed(
    rows: list[dict[str, str]], changed: float = 0.10, removed: float = 0.02, seed: int = 11
) -> tuple[list[dict[str, str]], dict]:
    """Like ``revise`` but also returns what was done.

    Exactly ``round(len(rows) * removed)`` rows are dropped and exactly
    ``round(len(rows) * changed)`` rows are changed. Identical copies of a row are
    always treated together (all dropped, or all given the same change), so the
    revised file stays internally consistent.

    The summary maps ``"removed"`` to the dropped input indices and
    ``"changed"`` to ``{input index: field}``.
    """
    rng = random.Random(seed)
    n = len(rows)
    k_removed = int(n * removed + 0.5)
    k_changed = int(n * changed + 0.5)
    if k_removed + k_changed > n:
        raise ValueError("changed + removed exceed the number of rows")
    groups: dict[tuple, list[int]] = {}
    for i, row in enumerate(rows):
        groups.setdefault(tuple(row.get(c, "") for c in COLUMNS), []).append(i)
    group_list = list(groups.values())
    rng.shuffle(group_list)

    def take(k: int, start: int) -> tuple[list[list[int]], int]:
        picked, count, j = [], 0, start
        skipped = []
        while count < k and j < len(group_list):
            g = group_list[j]
            j += 1
            if count + len(g) <= k:
                picked.append(g)
                count += len(g)
            else:
                skipped.append(g)
        # put skipped groups back so the next selection can use them
        group_list[start:j] = picked + skipped
        if count < k:
            raise ValueError("could not select the requested number of rows")
        return picked, start + len(picked)

    removed_groups, pos = take(k_removed, 0)
    changed_groups, _ = take(k_changed, pos)

    drop = {i for g in removed_groups for i in g}
    out_rows = list(rows)
    change_log: dict[int, str] = {}
    fields = ("phone", "description", "hours", "website")
    for g in changed_groups:
        base = rows[g[0]]
        field = rng.choice(fields)
        new = dict(base)
        if field == "phone":
            area, exchange, line = _phone_parts(base["phone"])
            line = (line + rng.randint(1, 9998)) % 10_000
            new["phone"] = _format_phone(area, exchange, line, _phone_format_of(base["phone"]))
        elif field == "description":
            text = base["description"]
            cut = text.rfind(". ", 0, max(1, len(text) - 1))
            head = text[: cut + 1] if cut > 0 else text
            new["description"] = f"{head} {rng.choice(_UPDATES)}"
        elif field == "hours":
            choices = [h for h in _ALL_HOURS if h != base["hours"]]
            new["hours"] = rng.choice(choices)
        else:
            ending = rng.choice(("-new.com", "online.com", ".org"))
            domain = _slug(base["name"])[:30] + _slug(base["city"]) + ending
            new["website"] = f"https://www.{domain}"
        for i in g:
            out_rows[i] = dict(new)
            change_log[i] = field
    result = [r for i, r in enumerate(out_rows) if i not in drop]
    return result, {"removed": sorted(drop), "changed": change_log}


def revise(
    rows: list[dict[str, str]], changed: float = 0.10, removed: float = 0.02, seed: int = 11
) -> list[dict[str, str]]:
    """A later version of ``rows``: 10% of rows changed (phone, description, hours or website),
    2% dropped, the rest untouched and in the same order. Deterministic for a given seed."""
    return revise_detailed(rows, changed, removed, seed)[0]


# --------------------------------------------------------------------------- output


def write_csv(rows: Iterable[dict[str, str]], path) -> None:
    """UTF-8 (no BOM), comma-delimited, header = COLUMNS."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write a synthetic tourism-listings CSV.")
    parser.add_argument("--n", type=int, default=100_000, help="number of rows (default 100000)")
    parser.add_argument("--out", required=True, help="CSV path to write")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--revised-out", help="also write a revision (10%% changed, 2%% removed) here")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    rows = generate(args.n, args.seed)
    write_csv(rows, args.out)
    print(f"wrote {len(rows)} rows to {args.out} in {time.perf_counter() - t0:.2f}s")
    if args.revised_out:
        revised = revise(rows)
        write_csv(revised, args.revised_out)
        print(f"wrote {len(revised)} revised rows to {args.revised_out}")


if __name__ == "__main__":
    main()

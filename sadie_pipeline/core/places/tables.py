"""Word tables of the place normalisation: states and provinces, city aliases, abbreviations,
street types, brand domains. Data only."""

from __future__ import annotations

from sadie_pipeline.regions import REGION_NAMES, subdivision

# State and province names (regions.REGION_NAMES) plus the other spellings in use.
STATES = {name.lower(): subdivision(region) for region, name in REGION_NAMES.items()} | {
    "puerto rico": "PR", "nouveau brunswick": "NB", "newfoundland": "NL", "nouvelle ecosse": "NS",
    "ile du prince edouard": "PE",
    "calif": "CA", "cal": "CA", "fla": "FL", "mass": "MA", "penn": "PA", "tenn": "TN", "tex": "TX",
    "wash": "WA", "ont": "ON", "que": "QC", "pq": "QC", "alta": "AB", "sask": "SK", "man": "MB",
    "nfld": "NL", "washington dc": "DC", "dc": "DC",
}

# Labels a guide uses for a city that another guide names otherwise (folded keys).
CITY_ALIASES = {
    "new york city": "new york", "nyc": "new york", "ny": "new york", "manhattan": "new york",
    "brooklyn": "new york", "queens": "new york", "bronx": "new york", "the bronx": "new york",
    "staten island": "new york", "la": "los angeles", "hollywood": "los angeles",
    "sf": "san francisco", "san fran": "san francisco", "washington dc": "washington",
    "washington d c": "washington", "dc": "washington", "philly": "philadelphia",
    "vegas": "las vegas", "montreal": "montreal", "quebec city": "quebec", "ville de quebec": "quebec",
    "nola": "new orleans", "saint petersburg": "saint petersburg", "ft lauderdale": "fort lauderdale",
}

NAME_ABBREVIATIONS = {
    "intl": "international", "arpt": "airport", "htl": "hotel", "ste": "suite", "stes": "suites",
    "ctr": "center", "cntr": "center", "centre": "center", "dwtn": "downtown", "dtwn": "downtown",
    "mt": "mount", "st": "saint", "ft": "fort", "pt": "port", "conv": "convention", "univ": "university",
    "bch": "beach", "hwy": "highway", "n": "north", "s": "south", "e": "east", "w": "west",
    "ext": "extended", "exp": "express", "expr": "express", "resrt": "resort", "rest": "restaurant",
    "bros": "brothers", "co": "company", "mkt": "market",
}

STREET_ABBREVIATIONS = {
    "st": "street", "str": "street", "ave": "avenue", "av": "avenue", "rd": "road", "dr": "drive",
    "blvd": "boulevard", "hwy": "highway", "ln": "lane", "ct": "court", "pl": "place", "pkwy": "parkway",
    "sq": "square", "ter": "terrace", "cres": "crescent", "n": "north", "s": "south", "e": "east",
    "w": "west", "ne": "northeast", "nw": "northwest", "se": "southeast", "sw": "southwest",
    "rte": "route", "mt": "mount", "ste": "suite", "cir": "circle", "trl": "trail", "plz": "plaza",
    "expy": "expressway", "fwy": "freeway", "aly": "alley", "ctr": "center",
}

STREET_TYPES = frozenset(
    "street avenue road drive boulevard highway lane court place parkway square terrace crescent route "
    "way circle trail plaza pike loop alley expressway freeway rue calle avenida chemin carrer c via viale "
    "rua strasse str boulevard".split()
)
DIRECTIONS = frozenset("north south east west northeast northwest southeast southwest nord sud ouest".split())
UNIT_WORDS = frozenset("suite unit apt apartment room rm bldg building floor fl lot space spc stall level lvl "
                       "ground kiosk booth".split())
ORDINALS = {
    "first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th", "fifth": "5th", "sixth": "6th",
    "seventh": "7th", "eighth": "8th", "ninth": "9th", "tenth": "10th", "eleventh": "11th",
    "twelfth": "12th",
}

# Words too common in place names to pick candidates by.
NAME_STOP = frozenset(
    "hotel hotels inn inns motel motels lodge lodges resort resorts and the of at by a an spa suites "
    "restaurant restaurants cafe bar grill kitchen house bistro pizza pizzeria deli company".split()
)

#: Domains that never identify a place by themselves: brands, OTAs, social sites, site builders.
BRAND_DOMAINS = frozenset({
    # hotel brands
    "hilton.com", "marriott.com", "ihg.com", "choicehotels.com", "wyndhamhotels.com", "bestwestern.com",
    "hyatt.com", "radissonhotels.com", "accor.com", "sonesta.com", "redlion.com", "motel6.com",
    "extendedstayamerica.com", "redroof.com", "omnihotels.com", "fourseasons.com", "loewshotels.com",
    "hiltongrandvacations.com", "marriottvacationclub.com", "americasbestvalueinn.com", "oyorooms.com",
    # OTAs and listings
    "booking.com", "expedia.com", "hotels.com", "tripadvisor.com", "airbnb.com", "vrbo.com",
    "priceline.com", "kayak.com", "agoda.com", "trivago.com", "orbitz.com", "travelocity.com",
    "yelp.com", "google.com", "goo.gl", "g.page", "business.site", "opentable.com", "resy.com",
    "ubereats.com", "doordash.com", "grubhub.com", "toasttab.com",
    # social and site builders
    "facebook.com", "instagram.com", "twitter.com", "x.com", "linktr.ee", "wixsite.com", "weebly.com",
    "squarespace.com", "wordpress.com", "blogspot.com", "godaddysites.com", "webs.com",
})

#: Parent brands whose "by <brand>" tail says nothing about which property it is.
PARENT_BRANDS = frozenset("hilton marriott wyndham ihg hyatt choice radisson sonesta accor".split())
TOLL_FREE = frozenset({"800", "833", "844", "855", "866", "877", "888"})

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
    # the AP style's abbreviations, as newspapers and guides write them ("Ill.", "Mich.")
    "ala": "AL", "ariz": "AZ", "ark": "AR", "colo": "CO", "conn": "CT", "del": "DE", "ill": "IL", "ind": "IN",
    "kan": "KS", "kans": "KS", "mich": "MI", "minn": "MN", "miss": "MS", "mont": "MT", "neb": "NE", "nebr": "NE",
    "nev": "NV", "okla": "OK", "ore": "OR", "oreg": "OR", "wis": "WI", "wisc": "WI", "wyo": "WY",
    "w va": "WV", "n mex": "NM",
    # French abbreviations and names of the provinces ("C.-B.", "Qc", "N.-É.")
    "qc": "QC", "cb": "BC", "colombie britannique": "BC", "nb": "NB", "tnl": "NL",
    "terre neuve et labrador": "NL", "ipe": "PE", "alb": "AB",
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
    "bros": "brothers", "co": "company", "mkt": "market", "grille": "grill", "caffe": "cafe",
    "ristorante": "restaurant",
}

STREET_ABBREVIATIONS = {
    "st": "street", "str": "street", "ave": "avenue", "av": "avenue", "rd": "road", "dr": "drive",
    "blvd": "boulevard", "hwy": "highway", "ln": "lane", "ct": "court", "pl": "place", "pkwy": "parkway",
    "sq": "square", "ter": "terrace", "cres": "crescent", "n": "north", "s": "south", "e": "east",
    "w": "west", "ne": "northeast", "nw": "northwest", "se": "southeast", "sw": "southwest",
    "rte": "route", "mt": "mount", "ste": "suite", "cir": "circle", "trl": "trail", "plz": "plaza",
    "expy": "expressway", "fwy": "freeway", "aly": "alley", "ctr": "center",
}

# Words that tell two places of one name apart: one of them in a name only is never a typo.
DISTINCT_WORDS = frozenset(
    "north south east west northeast northwest southeast southwest n s e w ne nw se sw airport downtown uptown "
    "midtown central express plus ii iii iv vi vii viii ix xi upper lower old new little".split())

# Kinds of venue where one building holds several (a hotel's restaurant, bar and cafe): two names
# that differ in them may be two venues, not one place written two ways.
VENUE_WORDS = frozenset("restaurant cafe bar grill bistro kitchen lounge pub deli pizzeria tavern diner room rooftop "
                        "bakery brasserie trattoria osteria cantina taverna steakhouse spa".split())
LODGING_WORDS = frozenset("hotel inn motel lodge resort suites hostel".split())

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

# --- street lines (address.py) --------------------------------------------------------------------
# Street types: each spelling (folded, without dots) -> one canonical word, USPS-like in English,
# the language's own word elsewhere ("rue", "calle"). "la" (Lane) and "st" (Street or Saint) are
# also decided by their place in the line, in address.py.
_TYPE_SPELLINGS = {
    "street": "st str sts strt street streets", "avenue": "ave av avn aven avenu avnue avenue avenues",
    "boulevard": "blvd blv boul boulv bvd blvrd bd boulevard", "road": "rd rds road",
    "drive": "dr drv driv drive", "lane": "ln la lane", "parkway": "pkwy pky pkway parkwy pwy prkwy parkway",
    "highway": "hwy hiway hway highway", "route": "rte route", "way": "wy way", "court": "ct crt court",
    "place": "pl plc place", "square": "sq sqr square", "terrace": "ter terr terrace",
    "crescent": "cres crsnt crescent", "circle": "cir circ circle", "trail": "trl trail", "plaza": "plz plza plaza",
    "expressway": "expy expwy expressway", "freeway": "fwy freeway", "turnpike": "tpke tpk turnpike",
    "pike": "pike", "loop": "loop", "alley": "aly alley", "row": "row", "walk": "walk",
    "center": "ctr cntr center centre",
    "causeway": "cswy causeway", "esplanade": "esplanade", "promenade": "promenade",
    "rue": "rue", "calle": "calle c cl", "carrer": "carrer", "avenida": "avenida avda", "via": "via",
    "viale": "viale", "rua": "rua", "chemin": "chemin ch", "camino": "camino", "strasse": "strasse",
    "platz": "platz", "allee": "allee", "gasse": "gasse", "weg": "weg", "paseo": "paseo", "passeig": "passeig",
    "placa": "placa praca", "cours": "cours", "quai": "quai", "impasse": "impasse",
}
STREET_TYPE_FORMS = {form: canon for canon, forms in _TYPE_SPELLINGS.items() for form in forms.split()}
# Types that end a street line even when more follows ("peachtree rd lenox square mall"); the
# others are also common name words ("Court St", "Washington Square Dr").
STRONG_TYPES = frozenset(
    "street avenue boulevard road drive lane parkway highway route way expressway freeway turnpike pike "
    "causeway rue calle carrer avenida via viale rua chemin camino strasse".split())
# Types written before the name ("Avenue Laurier", "Carrer de Verdi", "Highway 1", "Ave. A").
PRE_TYPES = frozenset(
    "avenue boulevard rue calle carrer avenida via viale rua chemin camino route highway place plaza paseo "
    "passeig placa cours quai impasse allee".split())
ROUTE_TYPES = frozenset({"highway", "route"})  # "US Highway 1": the route's number is its name
# The type a translation stands for, to compare "Rue Sherbrooke" with "Sherbrooke St".
TYPE_CLASSES = {"rue": "street", "calle": "street", "carrer": "street", "via": "street", "rua": "street",
                "strasse": "street", "gasse": "lane", "weg": "way", "avenida": "avenue", "viale": "avenue",
                "allee": "avenue", "chemin": "road", "camino": "road", "platz": "square", "placa": "plaza",
                "passeig": "paseo"}
# German compounds ("Oranienstrasse", "Oranienstr.") -> (suffix, type), longest first.
TYPE_SUFFIXES = (("strasse", "strasse"), ("platz", "platz"), ("allee", "allee"), ("gasse", "gasse"),
                 ("str", "strasse"), ("weg", "weg"))
# Long canonical types a misspelt word is matched against ("Boelevard", "Pakrway").
LONG_TYPES = tuple(sorted({t for t in STREET_TYPE_FORMS.values() if len(t) >= 6}))
# Streets named without a type: the street ends after the name ("1501 Broadway Paramount Building").
TYPELESS_STREETS = frozenset("broadway bowery embarcadero strand boardwalk esplanade".split())
# Spellings that are a type only before the name ("C/ Verdi", "Ch. Sainte-Foy"): elsewhere a letter.
PRE_TYPE_ONLY = frozenset({"c", "cl", "ch"})

DIRECTION_FORMS = {
    "n": "n", "s": "s", "e": "e", "w": "w", "ne": "ne", "nw": "nw", "se": "se", "sw": "sw",
    "north": "n", "south": "s", "east": "e", "west": "w", "northeast": "ne", "northwest": "nw",
    "southeast": "se", "southwest": "sw", "nord": "n", "sud": "s", "est": "e", "ouest": "w", "o": "w",
}
DIRECTION_WORDS = {"n": "north", "s": "south", "e": "east", "w": "west", "ne": "northeast", "nw": "northwest",
                   "se": "southeast", "sw": "southwest"}

# Words that start a note after the street: cross streets, landmarks ("at", "between", "near").
NOTE_WORDS = frozenset(
    "between btwn btw betw bet at near nr off across opposite opp inside in behind next facing corner cor "
    "and just beside adjacent within located entrance intersection".split())
UNIT_FORMS = {
    "suite": "suite", "ste": "suite", "unit": "unit", "apt": "apt", "apartment": "apt", "room": "room",
    "rm": "room", "bldg": "building", "building": "building", "floor": "floor", "fl": "floor", "flr": "floor",
    "lot": "space", "space": "space", "spc": "space", "stall": "space", "kiosk": "space", "booth": "space",
    "level": "floor", "lvl": "floor", "pmb": "box", "box": "box",
}
# Words a street name loses, as address_parts drops them: "Carrer de Verdi" is "C/ Verdi".
NAME_PARTICLES = frozenset("de del della delle dei la le les du des di da von of the".split())
# Abbreviations in the names of streets and towns ("St. Clair Ave", "Ft. Lauderdale")
NAME_ABBREVIATIONS_STREET = {"st": "saint", "ste": "sainte", "mt": "mount", "ft": "fort"}

# Ordinals in words, any size up to 999th ("one hundred twenty-fifth"): cardinal and ordinal words.
CARDINAL_WORDS = {w: k for k, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())} | {
    w: 10 * k for k, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)} | {
    "hundred": 100}
ORDINAL_WORDS = {w: k for k, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth".split(), 1)} | {
    w: 10 * k for k, w in enumerate("twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth "
                                    "ninetieth".split(), 2)} | {"hundredth": 100}

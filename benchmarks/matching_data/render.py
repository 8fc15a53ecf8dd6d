"""A guide's house style, and a place rendered in it with independent per-record noise (the base
record, before the divergence classes of ``classes``): guide A writes full street words,
"(213) 555-0101" and the postal city; guide B "St.", "213/555-0101", often the neighbourhood,
"Palm, The" index order, often without accents."""

from __future__ import annotations

import math
import random
from typing import NamedTuple

from .common import Place, fold_accents, pick
from .metros import DIR_LONG, METROS, ORDINAL_WORDS, TYPE_DOT, TYPE_LONG
from .words import SHORT, SURNAME


class Style(NamedTuple):
    city: tuple[float, float, float, float]  # postal city, metro name, neighbourhood, alias
    type_full: float  # "Street" rather than "St"
    type_dot: float  # "St." rather than "St" (when abbreviated)
    dir_full: float
    ordinal_words: float  # "First" for "1st"
    the_moved: float  # "Palm, The"
    the_dropped: float
    fold: float  # accents dropped (an ASCII-only guide) for the whole record
    phone_formats: tuple[tuple[str, float], ...]
    phone_missing: float
    zip_missing: float
    zip_plus4: float
    state_name: float
    website: float
    website_forms: tuple[tuple[str, float], ...]
    coords: float
    short_form: float
    city_suffix: float
    typo: float
    upper: float
    ampersand: float
    apostrophe: float
    suite_kept: float
    building: float
    number_typo: float
    address_missing: float


STYLE_A = Style(
    city=(0.78, 0.12, 0.06, 0.04), type_full=0.7, type_dot=0.3, dir_full=0.6, ordinal_words=0.25, the_moved=0.02,
    the_dropped=0.04, fold=0.05,
    phone_formats=(("paren", 0.6), ("dash", 0.1), ("intl", 0.08), ("slash_space", 0.05), ("one_dash", 0.05),
                   ("paren_tight", 0.04), ("dots", 0.04), ("digits", 0.02), ("intl_dash", 0.02)),
    phone_missing=0.06, zip_missing=0.08, zip_plus4=0.05, state_name=0.1, website=0.7,
    website_forms=(("https_www", 0.5), ("http_bare", 0.2), ("www", 0.2), ("path", 0.1)), coords=0.6, short_form=0.04,
    city_suffix=0.015, typo=0.015, upper=0.01, ampersand=0.1, apostrophe=0.03, suite_kept=0.85, building=0.02,
    number_typo=0.01, address_missing=0.01)
STYLE_B = Style(
    city=(0.52, 0.12, 0.28, 0.08), type_full=0.2, type_dot=0.7, dir_full=0.15, ordinal_words=0.05, the_moved=0.6,
    the_dropped=0.15, fold=0.45,
    phone_formats=(("slash", 0.35), ("dots", 0.15), ("intl", 0.1), ("dash", 0.15), ("slash_space", 0.05),
                   ("one_dash", 0.05), ("one_paren", 0.05), ("space", 0.05), ("intl_dash", 0.05)),
    phone_missing=0.14, zip_missing=0.35, zip_plus4=0.0, state_name=0.45, website=0.5,
    website_forms=(("bare", 0.4), ("www", 0.3), ("https_www_slash", 0.2), ("path", 0.1)), coords=0.4, short_form=0.12,
    city_suffix=0.07, typo=0.03, upper=0.03, ampersand=0.25, apostrophe=0.08, suite_kept=0.5, building=0.04,
    number_typo=0.025, address_missing=0.03)


class Addr:
    """An address as parts, so that each divergence class changes its own part: "{building}, {number}
    {pre} {name} {kind} {post}, {suite}  {note}" (or "{street} {number}" where the number follows)."""
    __slots__ = ("number", "sep", "number_last", "pre", "name", "kind", "post", "suite", "suite_sep", "note",
                 "note_sep", "building", "building_sep", "building_before", "north_american")

    def __init__(self, number: str, name: str, north_american: bool, number_last: bool = False, sep: str = " "):
        self.number, self.name, self.north_american, self.number_last, self.sep = number, name, north_american, \
            number_last, sep
        self.pre = self.kind = self.post = None
        self.suite = self.note = self.building = ""
        self.suite_sep, self.note_sep, self.building_sep, self.building_before = ", ", "  ", ", ", True

    def street(self) -> str:
        return " ".join(x for x in (self.pre, self.name, self.kind, self.post) if x)

    def text(self) -> str:
        street = self.street()
        core = f"{street}{self.sep}{self.number}" if self.number_last else f"{self.number}{self.sep}{street}"
        if self.suite:
            core += self.suite_sep + self.suite
        if self.building and self.building_before:
            core = f"{self.building}{self.building_sep}{core}"
        elif self.building:
            core += self.building_sep + self.building
        if self.note:
            core += (self.note_sep + self.note + ")") if self.note_sep == " (" else (self.note_sep + self.note)
        return core.strip()


class Draft:
    """A record being written: its fields, the old noise kinds (``ops``) and, per divergence class,
    what the class wrote (``marks``)."""
    __slots__ = ("name", "addr", "city", "city_base", "state", "zip", "phone", "website", "lat", "lng", "ops",
                 "marks", "country", "fold")

    def row(self) -> dict:
        texts = (self.name, self.addr.text() if self.addr else "", self.city, self.state)
        if self.fold:  # an ASCII-only guide: the whole record without accents
            texts = tuple(fold_accents(t) for t in texts)
        name, address, city, state = texts
        return {"id": 0, "name": name, "address1": address, "city": city, "state": state, "zip": self.zip,
                "country": self.country, "phone": self.phone, "website": self.website or "", "lat": self.lat,
                "lng": self.lng}


def _alias(city: str, rng: random.Random) -> str:
    if city.startswith("St. "):
        return rng.choice(["Saint ", "St "]) + city[4:]
    if city.startswith("West "):
        return "W. " + city[5:]
    if city.startswith("Mount "):
        return "Mt. " + city[6:]
    if city == "New York":
        return rng.choice(["New York City", "NYC", "Manhattan"])
    folded = fold_accents(city)
    return folded if folded != city else city


def city_label(p: Place, style: Style, rng: random.Random) -> tuple[str, str]:
    metro = METROS[p.metro]
    neighbourhood, postal, municipality = metro[10][p.district][:3]
    choice = rng.choices(["postal", "metro", "neighbourhood", "alias"], style.city)[0]
    if choice == "postal":
        return postal, choice
    if choice == "metro":
        return (metro[0] if municipality == metro[0] or rng.random() < 0.7 else municipality), choice
    if choice == "neighbourhood":
        return neighbourhood, choice
    return (rng.choice(metro[8]) if rng.random() < 0.4 else _alias(postal, rng)), choice


def _typo(word: str, rng: random.Random) -> str:
    p = rng.randrange(1, len(word) - 1)
    k = rng.randrange(4)
    if k == 0:
        return word[:p] + word[p + 1] + word[p] + word[p + 2:]
    if k == 1:
        return word[:p] + word[p + 1:]
    if k == 2:
        return word[:p] + word[p] + word[p:]
    return word[:p] + rng.choice("aeiounrst") + word[p + 1:]


def _short_form(name: str, rng: random.Random, ops: set[str]) -> str:
    options = [(long, short) for long, short in SHORT if f" {long} " in f" {name} " or name.startswith(long + " ")]
    if not options:
        return name
    long, short = rng.choice(options)
    changed = " ".join(f" {name} ".replace(f" {long} ", f" {short} " if short else " ").split())
    if not changed or changed.lower() in ("the", "le", "la", "el"):
        return name
    if long == "Delicatessen" and "'s " in changed and rng.random() < 0.6:
        changed = changed.replace("'s ", "s ", 1)  # "Arts Deli"
    ops.add("name_short_form")
    return changed


def _name_words(name: str, style: Style, rng: random.Random, ops: set[str]) -> str:
    """"&" / "and", apostrophes dropped, a one-letter typo."""
    if " & " in name and rng.random() < style.ampersand:
        name = name.replace(" & ", " and ")
        ops.add("name_ampersand")
    elif " and " in name and rng.random() < style.ampersand:
        name = name.replace(" and ", " & ")
        ops.add("name_ampersand")
    if "'" in name and rng.random() < style.apostrophe:
        name = name.replace("'", "")
        ops.add("name_apostrophe")
    if rng.random() < style.typo:
        words = name.split(" ")
        spots = [k for k, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
        if spots:
            k = rng.choice(spots)
            words[k] = _typo(words[k], rng)
            name = " ".join(words)
            ops.add("name_typo")
    return name


def render_name(p: Place, style: Style, rng: random.Random, city: str, ops: set[str]) -> str:
    name = p.name
    if rng.random() < style.short_form:
        name = _short_form(name, rng, ops)
    if name.startswith("The ") and len(name) > 8:
        x = rng.random()
        if x < style.the_moved:
            name = name[4:] + ", The"
            ops.add("name_the_moved")
        elif x < style.the_moved + style.the_dropped:
            name = name[4:]
            ops.add("name_the_dropped")
    name = _name_words(name, style, rng, ops)
    if rng.random() < style.city_suffix:
        label = city if rng.random() < 0.6 else METROS[p.metro][10][p.district][0]
        name = rng.choice([f"{name} ({label})", f"{name} - {label}", f"{name}, {label}", f"{name} {label}"])
        ops.add("name_city_suffix")
    if rng.random() < style.upper:
        name = name.upper()
        ops.add("name_case")
    return name


def house_number_typo(number: str, rng: random.Random) -> str:
    k = rng.randrange(5)
    if len(number) >= 2 and k == 0:
        i = rng.randrange(len(number) - 1)
        if number[i] != number[i + 1]:
            return number[:i] + number[i + 1] + number[i] + number[i + 2:]
    if len(number) >= 2 and k in (1, 2):
        i = rng.randrange(1, len(number))
        return number[:i] + rng.choice("bdeoqsl") + number[i + 1:]  # OCR / keyboard: "9b4"
    if k == 3 and len(number) >= 3:
        i = rng.randrange(len(number))
        return number[:i] + number[i + 1:]
    last = int(number[-1])
    return number[:-1] + str((last + rng.choice([-1, 1])) % 10)


def _direction(d: str | None, style: Style, rng: random.Random, ops: set[str]) -> str | None:
    if d is None:
        return None
    if rng.random() < style.dir_full:
        ops.add("dir_full")
        return DIR_LONG[d]
    ops.add("dir_short")
    return d + "." if len(d) == 1 and rng.random() < 0.5 else d


def _north_american(p: Place, style: Style, rng: random.Random, ops: set[str]) -> Addr:
    s = p.street
    name = s.name
    addr = Addr(p.number, name, True)
    first = name.split(" ", 1)
    if first[0] in ORDINAL_WORDS and rng.random() < style.ordinal_words:
        name = ORDINAL_WORDS[first[0]] + (" " + first[1] if len(first) > 1 else "")
        ops.add("ordinal_words")
    if s.kind:
        if rng.random() < style.type_full:
            addr.kind = TYPE_LONG[s.kind]
            ops.add("type_full")
        else:
            addr.kind = TYPE_DOT[s.kind] if rng.random() < style.type_dot else s.kind
            ops.add("type_dot" if addr.kind.endswith(".") else "type_short")
    if name.startswith("St "):  # a saint, in the guide's own abbreviation ("St. Paul St.")
        name = ("St. " if (addr.kind or "").endswith(".") else "St ") + name[3:]
    addr.name = name
    addr.pre, addr.post = _direction(s.predir, style, rng, ops), _direction(s.postdir, style, rng, ops)
    return addr


def _lower_first(text: str) -> str:
    return text[0].lower() + text[1:]


def _foreign(p: Place, style: Style, rng: random.Random, ops: set[str]) -> Addr:
    """Quebec and Europe: "1234, rue St-Denis", "Torstraße 12", "C/ de Blai, 4"."""
    street, country = p.street.name, METROS[p.metro][3]
    if country == "CA":  # "1234 Rue Saint-Denis" / "1234, rue St-Denis"
        if rng.random() < style.fold * 0.5:
            street = street.replace("Saint-", "St-").replace("Sainte-", "Ste-")
            ops.add("type_short")
        street = _lower_first(street) if rng.random() < 0.4 else street
        return Addr(p.number, street, False, sep=", " if rng.random() < 0.3 else " ")
    if country == "FR":
        if rng.random() < 0.4:
            street = street.replace("Boulevard", "Bd").replace("Avenue", "Av.")
            ops.add("type_short")
        sep = ", " if rng.random() < 0.3 else " "
        return Addr(p.number, street if rng.random() < 0.6 else _lower_first(street), False, sep=sep)
    if country == "GB":
        if rng.random() > style.type_full:
            street = street.replace(" Street", " St").replace(" Road", " Rd").replace(" Lane", " Ln")
            ops.add("type_short")
        return Addr(p.number, street, False)
    if country == "DE":
        r = rng.random()
        if r < 0.3:
            street = street.replace("straße", "str.")
            ops.add("type_short")
        elif r < 0.6:
            street = street.replace("ß", "ss")
        return Addr(p.number, street, False, number_last=True)
    if rng.random() < 0.4:  # ES
        street = street.replace("Carrer de ", "C/ ").replace("Carrer del ", "C/ ").replace("Carrer d'", "C/ ")
        ops.add("type_short")
    return Addr(p.number, street, False, number_last=True, sep=", " if rng.random() < 0.5 else " ")


def render_address(p: Place, style: Style, rng: random.Random, ops: set[str]) -> Addr:
    number_typo = rng.random() < style.number_typo
    french = METROS[p.metro][3] == "CA" and p.street.name.startswith(("Rue", "Boulevard", "Avenue ", "Grande"))
    addr = (_north_american if METROS[p.metro][3] == "US" or (METROS[p.metro][3] == "CA" and not french)
            else _foreign)(p, style, rng, ops)
    if number_typo:
        addr.number = house_number_typo(addr.number, rng)
        ops.add("house_number_typo")
    if p.suite and rng.random() < style.suite_kept:
        suite = p.suite
        if suite.isdigit():
            suite = rng.choice([f"Suite {suite}", f"Ste {suite}", f"Ste. {suite}", f"#{suite}", f"Unit {suite}"])
        addr.suite, addr.suite_sep = suite, rng.choice([", ", " "])
        ops.add("suite:" + suite)
    elif p.suite:
        ops.add("suite:none")
    if rng.random() < style.building and not p.suite:
        addr.suite = rng.choice([f"Suite {rng.randint(1, 4)}{rng.randint(0, 2)}{rng.randint(0, 9)}", "2nd Floor",
                                 "Ground Floor", f"#{rng.randint(1, 30)}"])
        ops.add("suite:" + addr.suite)
    if rng.random() < (style.building * 10 if p.building else style.building * 0.25):
        addr.building = p.building or f"{rng.choice(SURNAME)} {rng.choice(['Building', 'Plaza', 'Center', 'Arcade'])}"
        ops.add("address_building")
    return addr


def format_phone(digits: str, country: str, form: str) -> str:
    if country in ("US", "CA"):
        a, b, c = digits[:3], digits[3:6], digits[6:]
        return {"paren": f"({a}) {b}-{c}", "paren_tight": f"({a}){b}-{c}", "dash": f"{a}-{b}-{c}",
                "slash": f"{a}/{b}-{c}", "slash_space": f"{a}/ {b}-{c}", "dots": f"{a}.{b}.{c}",
                "intl": f"+1 {a} {b} {c}", "intl_dash": f"+1-{a}-{b}-{c}", "one_dash": f"1-{a}-{b}-{c}",
                "one_paren": f"1 ({a}) {b}-{c}", "space": f"{a} {b} {c}", "digits": digits}[form]
    code = {"FR": "33", "GB": "44", "ES": "34", "DE": "49"}[country]
    if form in ("intl", "intl_dash", "one_dash", "one_paren"):
        if country == "FR":
            return f"+33 {digits[0]} " + " ".join(digits[k:k + 2] for k in range(1, 9, 2))
        zero = "(0)" if form == "one_paren" and country != "ES" else ""
        return f"+{code} {zero}{digits[:2]} {digits[2:]}"
    if country == "FR":
        national = "0" + digits
        return (".".join if form == "dots" else " ".join)(national[k:k + 2] for k in range(0, 10, 2))
    if country == "ES":
        return f"{digits[:3]} {digits[3:6]} {digits[6:]}"
    return f"0{digits[:2]} {digits[2:6]} {digits[6:]}" if country == "GB" else f"0{digits[:2]} {digits[2:]}"


def _website(p: Place, style: Style, rng: random.Random) -> str | None:
    if not p.domain or rng.random() >= style.website:
        return None
    form = pick(rng, style.website_forms)
    path = p.path or ""
    return {"https_www": lambda: f"https://www.{p.domain}{path}",
            "https_www_slash": lambda: f"https://www.{p.domain}{path or '/'}",
            "http_bare": lambda: f"http://{p.domain}{path}", "www": lambda: f"www.{p.domain}{path}",
            "path": lambda: f"https://{p.domain}{path or rng.choice(['/home', '/menu', '/en/', '/index.html'])}",
            }.get(form, lambda: p.domain + path)()


def _coordinates(p: Place, style: Style, rng: random.Random) -> tuple:
    if rng.random() >= style.coords:
        return "", ""
    # a few geocoded to the postal code's centroid
    jitter_m = rng.uniform(400, 1500) if rng.random() < 0.04 else abs(rng.gauss(0, 20))
    angle = rng.uniform(0, 2 * math.pi)
    return (round(p.lat + jitter_m * math.cos(angle) / 111_320, 6),
            round(p.lng + jitter_m * math.sin(angle) / (111_320 * math.cos(math.radians(p.lat))), 6))


def render(p: Place, style: Style, rng: random.Random) -> Draft:
    """The base record of p in this style; a moved place keeps its address and phone (a move is a
    true pair that only these can show)."""
    d = Draft()
    d.ops, d.marks, d.fold = set(), {}, False
    metro = METROS[p.metro]
    d.country = metro[3]
    city, how = city_label(p, style, rng)
    d.ops.add("city:" + how)
    d.city = d.city_base = city
    d.name = render_name(p, style, rng, city, d.ops)
    d.addr = render_address(p, style, rng, d.ops)
    if rng.random() < style.address_missing and not p.moved:
        d.addr = None
        d.ops.add("address_missing")
    state = metro[1]
    if state and rng.random() < style.state_name:
        state = metro[2]
    elif not state:
        state = "" if rng.random() < 0.6 else metro[2]
    d.state = state
    d.zip = p.zip
    if rng.random() < style.zip_missing:
        d.zip = ""
    elif d.country == "CA" and rng.random() < 0.3:
        d.zip = d.zip.replace(" ", "")
    elif d.country == "US" and rng.random() < style.zip_plus4:
        d.zip = f"{d.zip}-{rng.randint(1000, 9999)}"
    d.phone = ""
    if p.phone and (rng.random() >= style.phone_missing or p.moved):
        d.phone = format_phone(p.phone, d.country, pick(rng, style.phone_formats))
    d.lat, d.lng = _coordinates(p, style, rng)
    if rng.random() < style.fold:
        d.fold = True
        d.ops.add("fold")
    d.website = _website(p, style, rng) or ""
    return d

"""The places of the generated cities: independent restaurants, cafés, bars, shops, hotels and
sights, and the groups of different places a matcher may take for one (the hard negatives):
chain outlets, places sharing an address, sister places on one street, neighbours at the next
house number, and places on the two halves of one street (W 14th St / E 14th St)."""

from __future__ import annotations

import random

from .common import Place, Streams, Street, bisect_right, fold_accents
from .geo import Geography
from .metros import GENERIC_STREETS, METROS, OPPOSITE_DIR
from .words import (
    ADJ,
    ASIAN,
    CHAIN_CUM,
    CHAINS,
    CUISINE_TYPE,
    FIRST,
    FRENCH,
    ITALIAN,
    NOUN,
    SPANISH,
    SURNAME,
    THINGS,
    TLD,
)


def _asian_name(r: random.Random) -> str:
    w = r.choice(ASIAN)
    return r.choice([f"{w} Sushi", f"Sushi {w}", f"{w} Ramen", f"Pho {w}", f"{w} Thai", f"{w} Noodle House",
                     f"{w} Dumpling House", f"{w} Garden", f"{w} Palace"])


def restaurant_name(r: random.Random) -> str:
    c = r.choice
    k = r.randrange(22)
    forms = {
        0: lambda: f"{c(SURNAME)}'s",
        1: lambda: f"{c(FIRST)}'s {c(['Pizza', 'Pizzeria', 'Diner', 'Kitchen', 'Grill', 'Tavern', 'Place'])}",
        2: lambda: c(ITALIAN) if r.random() < 0.5 else f"{c(['Trattoria', 'Osteria', 'Enoteca'])} {c(ITALIAN)}",
        4: lambda: (f"{c(['Café', 'Brasserie', 'Bistro', 'Chez', 'Le', 'La'])} "
                    f"{c(FRENCH) if r.random() < 0.8 else c(FIRST)}"),
        5: lambda: f"The {c(ADJ)} {c(NOUN)}",
        7: lambda: f"{c(NOUN)} & {c(NOUN)}",
        8: lambda: _asian_name(r),
        10: lambda: f"{c(ADJ + ITALIAN + SPANISH)} {c(CUISINE_TYPE)}",
        12: lambda: f"{c(SURNAME)}'s {c(['Steakhouse', 'Delicatessen', 'Oyster Bar', 'Chop House', 'Barbecue'])}",
        13: lambda: f"{c(FIRST)}'s Delicatessen" if r.random() < 0.5 else f"{c(SURNAME)} & {c(SURNAME)}",
        14: lambda: f"{c(['Taqueria', 'Cantina', 'La Casa de', 'El'])} {c(SPANISH)}",
        15: lambda: (f"{r.randint(1, 999)} {c(GENERIC_STREETS)}" if r.random() < 0.5
                     else f"{c(NOUN)} {r.randint(2, 99)}"),
        16: lambda: f"{c(ADJ)} {c(NOUN)} Restaurant",
        17: lambda: f"{c(SURNAME)} Brothers {c(['Pizza', 'Bakery', 'Restaurant', 'Barbecue'])}",
        18: lambda: f"{c(NOUN)} {c(['Bar & Grill', 'and Vine', '& Larder', 'House'])}",
        19: lambda: c(ITALIAN + FRENCH + SPANISH + ASIAN),
        20: lambda: f"{c(ASIAN)} {c(['Tandoor', 'Curry House', 'Kitchen', 'BBQ', 'Hot Pot'])}",
        21: lambda: f"{c(FIRST)} & {c(FIRST)}'s",
    }
    # some forms take two of the 22 slots (k and k + 1)
    return forms.get(k, forms.get(k - 1, forms[21]))()


def _other_forms(c, w) -> dict[str, list]:
    """For each category, its name forms: functions, so that only the chosen one draws its words."""
    return {
        "cafe": [lambda: f"{w()} Coffee", lambda: f"{w()} Coffee Roasters", lambda: f"{w()} Bakery",
                 lambda: f"Boulangerie {c(FRENCH)}", lambda: f"Pâtisserie {c(FRENCH + FIRST)}", lambda: f"Café {w()}"],
        "bar": [lambda: f"The {c(ADJ)} {c(NOUN)}", lambda: f"{c(SURNAME)}'s Pub", lambda: f"{c(NOUN)} Tavern",
                lambda: f"{c(ITALIAN + FRENCH)} Wine Bar", lambda: f"The {c(NOUN)} Room",
                lambda: f"{c(ADJ)} {c(NOUN)} Brewing Company"],
        "shop": [lambda: f"{c(ADJ + NOUN)} Books", lambda: f"{c(SURNAME)} & Sons", lambda: f"{c(ADJ)} {c(NOUN)} Records",
                 lambda: f"{c(SURNAME)} Gallery", lambda: f"{c(NOUN)} Market", lambda: f"{c(FRENCH + ITALIAN)} Boutique"],
        "hotel": [lambda: f"The {c(SURNAME)}", lambda: f"Hotel {c(FRENCH + ITALIAN + SURNAME)}",
                  lambda: f"The {c(ADJ)} {c(NOUN)} Inn", lambda: f"{c(SURNAME)} House", lambda: f"The {c(NOUN)} Hotel",
                  lambda: f"Hôtel {c(FRENCH)}"],
        "attraction": [lambda: f"Museum of {c(THINGS)}", lambda: f"{c(SURNAME)} Gardens",
                       lambda: f"{c(SURNAME)} Theatre", lambda: f"The {c(SURNAME)} Collection"],
    }


_CAFE_WORDS = ADJ + NOUN + ITALIAN + FRENCH


def place_name(category: str, r: random.Random) -> str:
    if category == "restaurant":
        return restaurant_name(r)
    forms = _other_forms(r.choice, lambda: r.choice(_CAFE_WORDS))[category]
    return forms[r.randrange(len(forms))]()


class Builder(Geography):
    def __init__(self, n: int, seed: int, metros: list[int] | None = None):
        super().__init__(seed)
        self.rng = random.Random(seed)
        self.streams = Streams(seed)
        self.n = n
        self.metros = metros if metros is not None else list(range(len(METROS)))
        self.places: list[Place] = []
        self.groups = 0
        self.chain_groups: dict = {}
        self.chain_outlets: dict = {}

    def domain(self, name: str, m: int, rng: random.Random) -> str:
        words = [w for w in fold_accents(name).lower().replace("&", " ").split() if w not in ("the", "and")]
        slug = "".join(ch for ch in "".join(words) if ch.isalnum())[:24] or "place"
        metro = METROS[m]
        r = rng.random()
        if r < 0.35:
            slug += fold_accents(metro[0]).lower().replace(" ", "").replace(".", "")[:12]
        elif r < 0.5:
            slug += "".join(w[0] for w in metro[0].split()).lower()
        return slug + (TLD[metro[3]] if rng.random() < 0.7 else ".com")

    def new_group(self, kind: str) -> tuple[int, str]:
        self.groups += 1
        return self.groups, kind

    def add(self, m: int, d: int, category: str, name: str, street: Street | None = None, number: str | None = None,
            group: tuple[int, str] | None = None, rng: random.Random | None = None, **kw) -> Place:
        rng = rng or self.rng
        street = street or self.pick_street(m, d, rng)
        number = number or self.number(street, rng)
        lat, lng = self.coords(street, number)
        p = Place(pid=len(self.places), metro=m, district=d, category=category, name=name, street=street,
                  number=number, zip=self.zip_for(m, d, street, number), lat=lat, lng=lng,
                  group=group[0] if group else None, group_kind=group[1] if group else None)
        p.phone = kw["phone"] if "phone" in kw else self.phone(m, rng)
        p.domain = kw["domain"] if "domain" in kw else (self.domain(name, m, rng) if rng.random() < 0.85 else None)
        p.path, p.suite, p.building, p.chain = kw.get("path"), kw.get("suite"), kw.get("building"), kw.get("chain")
        self.places.append(p)
        return p

    def build(self) -> None:
        rng = self.rng
        target = max(40, round(self.n * 0.75))
        total_w = sum(METROS[m][6] for m in self.metros)
        minimum = 8 if len(self.metros) > 1 else 1
        for m in self.metros:
            metro = METROS[m]
            quota = max(minimum, round(target * metro[6] / total_w))
            shares = [d[4] for d in metro[10]]
            start = len(self.places)
            while len(self.places) - start < quota:
                d = rng.choices(range(len(shares)), shares)[0]
                self.add_something(m, d)

    def add_something(self, m: int, d: int) -> None:
        rng = self.rng
        x = rng.random()
        for limit, make in ((0.09, self.add_chain_outlet), (0.105, self.add_food_hall), (0.13, self.add_hotel),
                            (0.15, self.add_building), (0.18, self.add_sister), (0.21, self.add_neighbours)):
            if x < limit:
                make(m, d)
                return
        category = rng.choices(["restaurant", "cafe", "bar", "shop", "attraction"], [62, 14, 12, 9, 3])[0]
        self.add(m, d, category, place_name(category, rng))

    def chain_brand(self, m: int, rng: random.Random) -> tuple[str, str, str, float]:
        brand, domain, category, _, central = CHAINS[bisect_right(CHAIN_CUM, rng.random() * CHAIN_CUM[-1])]
        if brand == "Tim Hortons" and METROS[m][3] != "CA" and rng.random() < 0.8:
            brand, domain, category, central = "Starbucks", "starbucks.com", "cafe", 0.0
        return brand, domain, category, central

    def outlet_name(self, brand: str, category: str, m: int, d: int, street: Street) -> str:
        """Hotel brands name each outlet after its place ("Holiday Inn Express Brooklyn")."""
        sub = self.streams.draw("chain_name", 0.85 if category == "hotel" else 0.0)
        if sub is None:
            return brand
        metro, hood = METROS[m][0], METROS[m][10][d][0]
        road = " ".join(x for x in (street.name, street.kind) if x)
        return sub.choice([f"{brand} {hood}", f"{brand} {metro}-{hood}", f"{brand} {metro} {road}", f"{brand} {road}",
                           f"{brand} {metro} Downtown", f"{brand} & Suites {hood}", f"{brand} {metro} Airport"])

    def add_chain_outlet(self, m: int, d: int) -> None:
        rng = self.rng
        brand, domain, category, central = self.chain_brand(m, rng)
        key = ("chain", m, brand)
        group = self.chain_groups.get(key)
        if group is None:
            group = self.chain_groups[key] = self.new_group("chain")
        street = None
        # outlets of a brand on a street it already has (two Starbucks on Broadway)
        same = [p for p in self.chain_outlets.get(key, []) if p.district == d]
        if same and rng.random() < 0.2:
            street = rng.choice(same).street
        r = rng.random()
        path = f"/store-locator/store/{rng.randint(1000, 99999)}" if r < 0.4 else (
            f"/locations/{fold_accents(METROS[m][0]).lower().replace(' ', '-').replace('.', '')}-{rng.randint(1, 400)}"
            if r < 0.6 else None)
        street = street or self.pick_street(m, d, rng)
        # many brands list one central line for every outlet: a phone that says nothing of the place
        central_phone = self.central_phone(brand, m) if self.streams.draw("chain_phone", central) else None
        kw = {"phone": central_phone} if central_phone else {}
        p = self.add(m, d, category, self.outlet_name(brand, category, m, d, street), street=street, group=group,
                     domain=domain, path=path, chain=brand, **kw)
        self.chain_outlets.setdefault(key, []).append(p)

    def add_food_hall(self, m: int, d: int) -> None:
        rng = self.rng
        group = self.new_group("same_address")
        hall_name = rng.choice([f"{rng.choice(SURNAME)} Market", f"{rng.choice(ADJ)} {rng.choice(NOUN)} Food Hall",
                                f"The {rng.choice(NOUN)} Market Hall", f"{rng.choice(GENERIC_STREETS)} Street Market",
                                f"Mercado {rng.choice(SPANISH)}", f"Marché {rng.choice(FRENCH)}"])
        hall = self.add(m, d, "attraction", hall_name, group=group)
        for k in range(rng.randint(3, 12)):
            category = rng.choice(["restaurant", "restaurant", "restaurant", "cafe", "bar", "shop"])
            stall = rng.choice([None, None, f"Stall {k + 1}", f"#{k + 1}", f"Suite {100 + k}"])
            phone = self.phone(m, rng) if rng.random() < 0.6 else (hall.phone if rng.random() < 0.5 else None)
            domain = None if rng.random() < 0.4 else self.domain(place_name(category, rng), m, rng)
            self.add(m, d, category, place_name(category, rng), street=hall.street, number=hall.number, group=group,
                     suite=stall, phone=phone, domain=domain, building=hall_name if rng.random() < 0.3 else None)

    def add_hotel(self, m: int, d: int) -> None:
        rng = self.rng
        name = place_name("hotel", rng)
        if rng.random() >= 0.45:
            self.add(m, d, "hotel", name)
            return
        group = self.new_group("same_address")
        hotel = self.add(m, d, "hotel", name, group=group)
        base = name[4:] if name.startswith("The ") else name.replace("Hotel ", "").replace("Hôtel ", "")
        for _ in range(rng.choice([1, 1, 1, 2])):
            outlet = rng.choice([f"{base} Grill", f"The Bar at {base}", f"{base} Restaurant", f"{base} Rooftop",
                                 f"{base} Kitchen", place_name("restaurant", rng), place_name("bar", rng),
                                 f"Café {base}"])
            phone = hotel.phone if rng.random() < 0.35 else self.phone(m, rng)
            domain = hotel.domain if rng.random() < 0.4 else None
            path = "/dining" if domain else None
            self.add(m, d, rng.choice(["restaurant", "bar"]), outlet, street=hotel.street, number=hotel.number,
                     group=group, phone=phone, domain=domain or self.domain(outlet, m, rng), path=path,
                     building=name if rng.random() < 0.3 else None)

    def add_building(self, m: int, d: int) -> None:
        """Shops and restaurants of one building or mall, other suites."""
        rng = self.rng
        group = self.new_group("same_address")
        street = self.pick_street(m, d, rng)
        number = self.number(street, rng)
        building = rng.choice([None, f"{rng.choice(SURNAME)} Plaza", f"{rng.choice(SURNAME)} Center",
                               f"The {rng.choice(SURNAME)} Building"])
        for k in range(rng.randint(2, 5)):
            category = rng.choice(["restaurant", "cafe", "shop", "shop"])
            self.add(m, d, category, place_name(category, rng), street=street, number=number, group=group,
                     suite=str(rng.choice([100, 101, 102, 105, 110, 120, 200, 201, 210, 300]) + k), building=building)

    def add_sister(self, m: int, d: int) -> None:
        """Two places of similar names on one street: sister concepts, or names one letter apart."""
        rng = self.rng
        group = self.new_group("similar_name_same_street")
        category = rng.choice(["restaurant", "restaurant", "cafe", "bar"])
        first = self.add(m, d, category, place_name(category, rng), group=group)
        name = first.name
        r = rng.random()
        if r < 0.5:
            base = name[4:] if name.startswith("The ") else name
            other = rng.choice([f"{base} Bar", f"{base} Next Door", f"{base} Express", f"Little {base}",
                                f"{base} To Go", f"{base} Bakery", f"{base} Wine Bar", f"{base} Cantina"])
        elif r < 0.8 and "'s" in name:
            first_word = name.split("'s")[0]
            swaps = [f for f in FIRST + SURNAME if f != first_word and f[:3] == first_word[:3]]
            other = name.replace(first_word, rng.choice(swaps), 1) if swaps else name + " II"
            if rng.random() < 0.5:
                other = other.replace("Pizza", "Pizzeria").replace("Grill", "Kitchen")
        else:
            words = name.split()
            other = (" ".join(reversed(words)) if len(words) == 2 and "&" not in name
                     else f"{name} {rng.choice(['Uptown', 'Downtown', 'East', 'West'])}")
        number = (str(int(first.number) + rng.choice([-1, 1]) * rng.randint(0, 40) * 2)
                  if first.number.isdigit() else None)
        if number is not None and int(number) < 1:
            number = None
        self.add(m, d, category, other, street=first.street, number=number, group=group)

    def add_neighbours(self, m: int, d: int) -> None:
        """Different places at neighbouring house numbers (924 and 926), often of one kind."""
        rng = self.rng
        group = self.new_group("neighbouring_number")
        category = rng.choice(["restaurant", "restaurant", "cafe", "bar", "shop"])
        first = self.add(m, d, category, place_name(category, rng), group=group)
        step = 1 if first.street.top < 300 else 2
        num = int(first.number)
        number = str(num + step if rng.random() < 0.5 or num <= step else num - step)
        self.add(m, d, rng.choice([category, "restaurant"]), place_name(category, rng), street=first.street,
                 number=number, group=group)

    def add_other_directional(self, m: int, d: int, rng: random.Random) -> list[Place]:
        """Two places of one name at one number on the two halves of a street (W 14th St and E 14th
        St): different streets, so different places however alike the rest."""
        streets = [s for s in self.district_streets(m, d) if s.predir in OPPOSITE_DIR and s.kind]
        if streets:
            street = rng.choice(streets)
        else:
            base = rng.choice([s for s in self.district_streets(m, d) if s.kind] or self.district_streets(m, d))
            street = base._replace(predir=rng.choice("NSEW"), postdir=None)
        mirror = street._replace(predir=OPPOSITE_DIR[street.predir], bearing=street.bearing + 3.14159265)
        group = self.new_group("other_directional")
        number = self.number(street, rng)
        other_number = number if rng.random() < 0.7 else str(max(1, int(number) + rng.choice([-4, -2, 2, 4])))
        if rng.random() < 0.5:
            brand, domain, category, central = self.chain_brand(m, rng)
            phone = self.central_phone(brand, m) if rng.random() < central else None
            kw = {"domain": domain, "chain": brand} | ({"phone": phone} if phone else {})
            names = (brand, brand)
        else:
            category = rng.choice(["restaurant", "restaurant", "cafe", "bar", "shop"])
            kw, names = {}, (place_name(category, rng),) * 2
        return [self.add(m, d, category, names[0], street=street, number=number, group=group, rng=rng, **kw),
                self.add(m, d, category, names[1], street=mirror, number=other_number, group=group, rng=rng, **kw)]

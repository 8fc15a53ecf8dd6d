"""Deterministic synthetic hotel discovery records from three sources, with the truth, for the
entity resolution benchmark.

Standard library only. The same ``(n, seed)`` gives the same rows on any platform (only
``random.Random`` with an explicit seed; no iteration over sets or hashes). Written from what
real sources do (the list of real-world divergences), never from the matching engine's code.

Layout of ``generate(n, seed)`` (rows are dicts with ``COLUMNS`` keys, ``entity`` is the truth,
``divergences`` the record's departures from the hotel, see ``pair_classes``):

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
* Variations between the sources of one hotel: "The " prefix added or dropped, "&" / "and",
  upper case, "Suites" -> "Stes", the city dropped from a chain name or " by Wyndham" added,
  street suffixes and directions written out or abbreviated ("St" / "Street", "N" / "North"), a
  suite number, Serper's ", City, ST zip" tail, city as "St." / "Saint", state as code or name,
  six phone formats, missing phones, websites, addresses and coordinates (DMO: 60 % have
  coordinates, CSV: none).
* Typing errors (``typing_errors.py``: keyboard neighbours, swaps, drops, doubles, inserts, a
  moved space; one or two per field), in any record, at the rates of ``TYPO_RATES``: the
  sources typed by people (DMO, CSV) more than Serper's. In the name ("The Cedar aFlls"), in the
  house number ("759" / "749") or in a street word ("Boelevard").
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hotel_sources_forms import TYPO_RATES, pair_classes, record  # noqa: E402
from hotel_sources_world import (  # noqa: E402
    ADJ,
    BRAND_CUM,
    BRANDS,
    CITY_PREFIX,
    CITY_SUFFIX,
    GROUP_WORDS,
    LAST,
    NOUN,
    QUALIFIERS,
    SAINTS,
    STATES,
    STREETS,
    SUFFIX_LONG,
    SUFFIXES,
    TYPES,
)

__all__ = ["COLUMNS", "TYPO_RATES", "generate", "pair_classes", "read_csv", "write_csv"]

COLUMNS = ["source", "external_id", "name", "address", "city", "state", "zip", "phone", "website",
           "lat", "lng", "entity", "divergences"]

SOURCES = ["serper", "dmo", "csv"]
SINGLE_SOURCE = ["serper"] * 45 + ["dmo"] * 30 + ["csv"] * 25
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _slug(text: str) -> str:
    out = []
    for ch in text.lower():
        out.append(ch if ch.isalnum() else "-")
    return "-".join(p for p in "".join(out).split("-") if p)


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
            st = STATES[k % len(STATES)] if k < len(STATES) else rng.choice(STATES)
            while True:
                r = rng.random()
                if r < 0.04:
                    name = "Saint " + rng.choice(SAINTS)
                elif r < 0.06:
                    name = "Fort " + rng.choice(LAST)
                else:
                    name = rng.choice(CITY_PREFIX) + rng.choice(CITY_SUFFIX)
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
            pid = "ChIJ" + "".join(rng.choice(B64) for _ in range(23))
            if pid not in self.place_ids_used:
                self.place_ids_used.add(pid)
                return pid

    def _address(self, city_streets: dict) -> tuple[str, str, str, str]:
        """(number, direction, street, suffix), unique within the city."""
        rng = self.rng
        while True:
            num = str(rng.choice([rng.randint(1, 999), rng.randint(100, 9999), rng.randint(1000, 29999)]))
            d = rng.choice(["", "", "", "N", "S", "E", "W"])
            street = rng.choice(STREETS)
            if rng.random() < 0.1:
                street = rng.choice(["1st", "2nd", "3rd", "4th", "5th", "7th", "10th", "12th"])
            suffix = rng.choice(SUFFIXES)
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
            sources = [rng.choice(SINGLE_SOURCE)]
        elif r < 0.94:
            sources = rng.sample(SOURCES, 2)
        else:
            sources = list(SOURCES)
        first = True
        for src in sources:
            self._emit(hotel, src, first)
            first = False
            if src == "serper" and rng.random() < 0.01:
                self._emit(hotel, src, True, repeat=True)

    def _chain(self, hotel: dict, names: dict[str, int], domain: str = "", not_brand: str = "") -> None:
        rng = self.rng
        while True:
            b = rng.choices(range(len(BRANDS)), cum_weights=BRAND_CUM)[0]
            if not domain or (BRANDS[b][1] == domain and BRANDS[b][0] != not_brand):
                break
            if all(x[1] != domain or x[0] == not_brand for x in BRANDS):
                domain = ""  # a brand alone on its domain: any other brand
        brand, domain, central, style, _ = BRANDS[b]
        city = hotel["city"]
        base = f"{brand} {city}"
        used = names.get(base, 0)
        if used == 0:
            name = base
        elif used <= len(QUALIFIERS):
            name = f"{base} {QUALIFIERS[(used - 1 + hash_str(base)) % len(QUALIFIERS)]}"
        else:
            name = f"{base} {hotel['street']} {SUFFIX_LONG.get(hotel['suffix'], hotel['suffix'])}"
            if name in names:
                name = f"{name} {hotel['num']}"
        names[base] = used + 1
        names[name] = 1
        url = self._chain_url(style, brand, domain, name, hotel)
        hotel.update(kind="chain", name=name, brand=brand, home=f"www.{domain}", site=url,
                     central="".join(ch for ch in central if ch.isdigit()))

    def _chain_url(self, style: str, brand: str, domain: str, name: str, hotel: dict) -> str:
        """The property's page on the brand's site, in the shape of the brand's real URLs."""
        rng = self.rng
        code = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(5))
        slug = _slug(name)
        cs, ss = _slug(hotel["city"]), hotel["st"][0].lower()
        if style == "hilton":
            return f"www.hilton.com/en/hotels/{code}{rng.choice('hxtsu')}{rng.choice('hxtsu')}-{slug}/"
        if style == "marriott":
            return f"www.marriott.com/en-us/hotels/{code}-{slug}/overview/"
        if style == "ihg":
            return f"www.ihg.com/{_slug(brand).replace('-', '')}/hotels/us/en/{cs}/{code}/hoteldetail"
        if style == "choice":
            return f"www.choicehotels.com/{ss}/{cs}/{_slug(brand)}-hotels/{ss}{rng.randint(100, 999)}"
        if style == "wyndham":
            return f"www.wyndhamhotels.com/{_slug(brand)}/{cs}-{ss}/{slug}/overview"
        if style == "bestwestern":
            return f"www.bestwestern.com/en_US/book/hotels-in-{cs}/{slug}/propertyCode.{rng.randint(10000, 99999)}.html"
        if style == "hyatt":
            return f"www.hyatt.com/{_slug(brand)}/en-US/{code}-{slug}"
        if style == "motel6":
            return f"www.motel6.com/en/home/motels.{ss}.{cs}.{rng.randint(1000, 9999)}.html"
        return f"www.{domain}/{cs}-{ss}/{slug}"

    def _independent(self, hotel: dict, groups: list[dict]) -> None:
        rng = self.rng
        r = rng.random()
        if r < 0.55:
            name = f"{rng.choice(ADJ)} {rng.choice(NOUN)} {rng.choice(TYPES)}"
        elif r < 0.75:
            name = f"The {rng.choice(ADJ)} {rng.choice(NOUN)} {rng.choice(TYPES)}"
        elif r < 0.85:
            name = f"{rng.choice(NOUN)} {rng.choice(TYPES)} of {hotel['city']}"
        elif r < 0.93:
            name = f"{rng.choice(LAST)}'s {rng.choice(NOUN)} {rng.choice(TYPES)}"
        else:
            name = f"{hotel['city']} {rng.choice(ADJ)} {rng.choice(TYPES)}"
        slug = _slug(name.removeprefix("The "))
        hotel.update(kind="independent", name=name, central="")
        r = rng.random()
        if r < 0.04:
            # a small management group: consecutive hotels, so its properties are in other cities
            if not groups or groups[-1]["left"] == 0:
                word = rng.choice(GROUP_WORDS)
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

    def _emit(self, h: dict, source: str, first: bool, repeat: bool = False) -> None:
        row = record(self.rng, h, source, first, repeat)
        if source == "serper":
            row["external_id"] = h["place_id"]
        elif source == "dmo":
            self.dmo_seq += 1
            row["external_id"] = f"dmo-{h['st'][0].lower()}-{self.dmo_seq:07d}"
        else:
            self.csv_seq += 1
            row["external_id"] = f"csv-{self.csv_seq:07d}"
        self.rows.append(row)


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

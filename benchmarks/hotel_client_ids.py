"""Booking engines and client ids on the entity resolution benchmark's records (issue 32, item 4).

Standard library only, deterministic for a seed; takes ``hotel_sources_data.generate``'s rows (with
their truth) and returns them with ``booking_engine`` and ``client_id`` columns, plus records of a
fourth source, ``engine_client`` (an engine's page of one property, as found in the crawl). Written
from what engines and their pages do, not from the resolver's code:

* Chain properties book on the brand's engine (SynXis here) under a hotel id of their own: two
  outlets of one brand in one town share the engine and the brand's name, never the id.
* About 60 % of the independents use one of ten engines used by many hotels each (a shared engine
  says nothing), with an id in the engine's own shape.
* The hotels with a website in some record were detected (80 %): their records carry the engine,
  with its client id unless the booking URL did not show it (15 %), except the 3 % that an earlier
  resolution had left on a hotel of their own.
* 40 % of the hotels with an engine have an engine page: a name as the page titles it (" - Book
  Direct", "Book ...", "| Online Reservations", the town added, capitals, a generic "Online
  Booking", a chain's bare brand), rarely an address or phone, no website or coordinates.
* Namesakes on one engine: about 1 % of the independents with an engine get a second hotel of the
  same name in the same town on the same engine (another address, phone and id): a separate entity.
"""

from __future__ import annotations

import random
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hotel_sources_world import BRANDS  # noqa: E402

INDIE_ENGINES = [("Cloudbeds", 30), ("Little Hotelier", 15), ("SiteMinder", 15), ("RMS Cloud", 8), ("Mews", 8),
                 ("ThinkReservations", 6), ("ResNexus", 6), ("Beds24", 5), ("Freetobook", 4), ("Newbook", 3)]
CHAIN_ENGINE = "Sabre SynXis"
_BRANDS = sorted({b[0] for b in BRANDS}, key=len, reverse=True)
PAGE_TITLES = ("{name} - Book Direct", "Book {name}", "{name} | Online Reservations", "{name} {city}", "{upper}",
               "{name}", "Online Booking")


def _client_id(rng: random.Random, engine: str, entity: int) -> str:
    """An id in the engine's shape, unique per hotel (the entity number is in it)."""
    if engine == "Cloudbeds":
        return "".join(rng.choice(string.ascii_letters) for _ in range(3)) + f"{entity % 1000:03d}"[-3:] + \
            str(entity // 1000)
    if engine == "Mews":
        return f"{entity:08x}-{rng.randrange(16**4):04x}-4{rng.randrange(16**3):03x}-a{rng.randrange(16**3):03x}-" \
               f"{rng.randrange(16**12):012x}"
    if engine in ("RMS Cloud", "Beds24", "Freetobook", CHAIN_ENGINE):
        return str(10_000 + entity)
    return f"{''.join(rng.choice(string.ascii_lowercase) for _ in range(5))}-{entity}"


def _brand(rows: list[dict]) -> str | None:
    for r in rows:
        name = (r["name"] or "").lower().removeprefix("the ")
        for brand in _BRANDS:
            if name.startswith(brand.lower()):
                return brand
    return None


def add_client_ids(rows: list[dict], seed: int) -> list[dict]:
    """The rows with ``booking_engine`` and ``client_id`` ("" where unknown), plus engine pages
    and namesakes, shuffled; ``entity`` stays the truth."""
    rng = random.Random(seed * 7919 + 32)
    by_entity: dict[int, list[dict]] = {}
    for r in rows:
        r.setdefault("booking_engine", "")
        r.setdefault("client_id", "")
        by_entity.setdefault(int(r["entity"]), []).append(r)
    next_entity = max(by_entity, default=-1) + 1
    extra: list[dict] = []
    names, weights = zip(*INDIE_ENGINES)
    for entity in sorted(by_entity):
        members = by_entity[entity]
        brand = _brand(members)
        if brand:
            engine = CHAIN_ENGINE if rng.random() < 0.9 else None
        else:
            engine = rng.choices(names, weights)[0] if rng.random() < 0.6 else None
        if engine is None:
            continue
        cid = _client_id(rng, engine, entity)
        if any(r["website"] for r in members) and rng.random() < 0.8:
            shown = cid if rng.random() < 0.85 else ""
            for r in members:
                if rng.random() < 0.97:
                    r["booking_engine"], r["client_id"] = engine, shown
        if rng.random() < 0.4:
            extra.append(_page(rng, members, engine, cid, brand, entity))
        if not brand and rng.random() < 0.01:
            extra.extend(_namesake(rng, members[0], engine, next_entity))
            next_entity += 1
    out = rows + extra
    rng.shuffle(out)
    return out


def _page(rng: random.Random, members: list[dict], engine: str, cid: str, brand: str | None, entity: int) -> dict:
    """The engine's page of the property: its title for a name, little else."""
    base = min(members, key=lambda r: len(r["divergences"] or ""))
    title = rng.choice(PAGE_TITLES)
    name = brand if brand and rng.random() < 0.5 else base["name"]
    shown = title.format(name=name, city=base["city"], upper=name.upper())
    return {"source": "engine_client", "external_id": f"{engine.lower().replace(' ', '')}:{cid.lower()}",
            "name": shown, "address": base["address"] if rng.random() < 0.25 else "",
            "city": base["city"] if rng.random() < 0.9 else "", "state": base["state"] if rng.random() < 0.5 else "",
            "zip": "", "phone": base["phone"] if rng.random() < 0.1 else "", "website": "", "lat": None, "lng": None,
            "entity": entity, "divergences": "engine_page", "booking_engine": engine, "client_id": cid.lower()}


def _namesake(rng: random.Random, like: dict, engine: str, entity: int) -> list[dict]:
    """Another hotel of the same name in the same town on the same engine: two records of it."""
    cid = _client_id(rng, engine, entity)
    address = f"{rng.randint(100, 9999)} {rng.choice(['Harbor', 'Mill', 'Station', 'Orchard'])} Road"
    phone = f"{rng.randint(201, 989)}-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"
    base = {"name": like["name"], "address": address, "city": like["city"], "state": like["state"], "zip": "",
            "phone": phone, "website": "", "lat": None, "lng": None, "entity": entity, "booking_engine": engine}
    return [dict(base, source="csv", external_id=f"csv-namesake-{entity}", client_id="" if rng.random() < 0.5 else cid,
                 divergences="namesake"),
            dict(base, source="engine_client", external_id=f"{engine.lower().replace(' ', '')}:{cid.lower()}",
                 address="", phone="", client_id=cid.lower(), divergences="engine_page;namesake")]


def main(argv: list[str] | None = None) -> None:
    """Rewrites a records CSV (``hotel_sources_data.py --out``) with engines and client ids, in
    a child process of the benchmark so that its own peak RSS stays the resolution's."""
    import argparse
    import csv
    import json

    from hotel_sources_data import COLUMNS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    with open(args.path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    before = len(rows)
    rows = add_client_ids(rows, args.seed)
    with open(args.path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=[*COLUMNS, "booking_engine", "client_id"])
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if row.get(k) is None else row[k]) for k in writer.fieldnames})
    print(json.dumps({"rows": len(rows), "added": len(rows) - before,
                      "with_client_id": sum(1 for r in rows if r["client_id"])}), file=sys.stderr)


if __name__ == "__main__":
    main()

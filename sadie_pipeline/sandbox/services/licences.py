"""Government lodging licence registers, as files: Florida DBPR's public lodging extracts
(``GET /sto/file_download/extracts/hrlodge{1-7}.csv``: one per district, cp1252, quote/comma
delimited, no header) and the Texas Comptroller's hotel occupancy tax receipts
(``GET /api/views/hotel-occupancy-tax-receipts/rows.csv``: UTF-8 with a header).

Use it as SADIE_LICENCE_BASE_URL (`sb.base_url("licences")`): the configured register URLs' paths
are served under it. Rows come from the world: every hotel whose `owner_truth(place).licence` is
set, written as registers write (upper case, street types spelled out or abbreviated, "&" as
AND, the owner as "LAST, FIRST" in Florida), plus what a client must leave aside: licensed lodging
that is no hotel of the world (unmatched noise), the world's vacation-rental agencies and hotel
restaurants' food-service licences (other licence types, filtered out by the config), and in Texas
a location's former taxpayers (a responsibility end date).

For discovery (issue 32) the registers also carry what search does not show: independent lodging
licensed in the world's cities that is no place of the world, so Serper, DMOs and hotel sites never
list it (`licence_only(world)`: the licences a client should discover from the register alone);
closed licences (FL status "Closed"); and a few rows a reader cannot take (no street address, a
line cut short), which a client records as errors and reads past. ``synthetic.csv?records=N``
(DBPR layout) serves N generated licences for load benchmarks.
"""

from __future__ import annotations

import csv
import hashlib
import io
import random
import re
import zlib
from collections.abc import Iterable

from aiohttp import web

from ..owners import owner_truth
from ..world import Place, World
from .base import Service

FL_DISTRICTS = 7
FL_PATH = "/sto/file_download/extracts/hrlodge{district}.csv"
TX_PATH = "/api/views/hotel-occupancy-tax-receipts/rows.csv"
TX_HEADER = ["Taxpayer Number", "Taxpayer Name", "Taxpayer Address", "Taxpayer City", "Taxpayer State",
             "Taxpayer Zip Code", "Officer Name", "Location Number", "Location Name", "Location Address",
             "Location City", "Location State", "Location Zip Code", "Location County", "Location Room Capacity",
             "Responsibility Begin Date", "Responsibility End Date", "Location Tot Room Receipts"]
_LONG = {"ST": "STREET", "AVE": "AVENUE", "DR": "DRIVE", "BLVD": "BOULEVARD", "RD": "ROAD", "HWY": "HIGHWAY",
         "LN": "LANE", "CT": "COURT", "PL": "PLACE", "PKWY": "PARKWAY", "TER": "TERRACE", "CIR": "CIRCLE"}
_RANKS = {"motel": "MOTL", "bed_and_breakfast": "BDBK", "inn": "HOTL"}
_NOISE_A = ["Starlite", "Tradewinds", "Flamingo", "Casa Bonita", "Dolphin", "Silver Sands", "Blue Marlin", "Hibiscus"]
_NOISE_B = ["Motor Court", "Efficiencies", "Guest House", "Apartments", "Motel", "Cottages"]
_NOISE_STREETS = ["Ocean Breeze Ter", "Old Dixie Hwy", "Mangrove Ln", "Poinciana Ave", "Banyan Cir", "Seminole Rd"]
_PEOPLE = ["Walter Pruitt", "Eleanor Vance", "Luis Ortega", "Donna Kessler", "Hector Ruiz", "Janet Ames"]


def _rnd(*parts: str) -> random.Random:
    return random.Random(hashlib.sha256("\x1f".join(parts).encode()).hexdigest())


def _zip(address: str) -> str:
    found = re.search(r"\b(\d{5})(?:-\d{4})?\s*$", address)
    return found.group(1) if found else ""


def register_street(address: str, rnd: random.Random) -> str:
    """The street line as a register writes it: upper case, no dots, the type sometimes spelled out."""
    street = re.sub(r"[.#]", "", address.split(",")[0]).upper().strip()
    if rnd.random() < 0.5:
        street = " ".join(_LONG.get(w, w) for w in street.split())
    return street


def register_name(name: str, rnd: random.Random) -> str:
    out = name.upper()
    if rnd.random() < 0.3:
        out = out.replace("&", "AND")
    if out.startswith("THE ") and rnd.random() < 0.4:
        out = out[4:]
    return out


def _noise(world: World, state: str, cities: Iterable[str]) -> list[tuple[str, str, str, str, str]]:
    """(licence number, name, street, city, licensee) of lodging that is no hotel of the world."""
    names = {p.name.lower() for p in world.places}
    out = []
    for city in sorted(set(cities)):
        rnd = _rnd("licence-noise", state, city)
        for _ in range(3):
            name = f"{rnd.choice(_NOISE_A)} {rnd.choice(_NOISE_B)}"
            if name.lower() in names:
                continue
            street = f"{rnd.randint(10, 9899)} {rnd.choice(_NOISE_STREETS)}".upper()
            out.append((f"{state}{rnd.randint(1000000, 9999999)}", name.upper(), street, city.upper(),
                        f"{name.split()[0].upper()} LODGING LLC"))
    return out


_INDIE_A = ["Pelican", "Coquina", "Seagrape", "Gumbo Limbo", "Sapodilla", "Tarpon", "Royal Poinciana", "Frangipani"]
_INDIE_B = [("Bed and Breakfast", "BDBK"), ("Inn", "HOTL"), ("Guest House", "BDBK"), ("Cottages", "HOTL"),
            ("Lodge", "HOTL"), ("Motel", "MOTL")]
_INDIE_STREETS = ["Fleming St", "Simonton St", "Olivia St", "Petronia St", "Coral Way", "Bay Dr", "Lake Ave", "Palm Ave"]
INDEPENDENTS_PER_CITY = 4


def independents(world: World, state: str, cities: Iterable[str]) -> list[dict[str, str | int | None]]:
    """Licensed independent lodging of the world's cities that is no place of the world (search,
    DMOs and sites never show it): what only the register tells. Deterministic per city."""
    names = {p.name.lower() for p in world.places}
    out: list[dict[str, str | int | None]] = []
    for city in sorted(set(cities)):
        rnd = _rnd("licence-independent", state, city)
        for _ in range(INDEPENDENTS_PER_CITY):
            kind, rank = rnd.choice(_INDIE_B)
            name = f"{rnd.choice(_INDIE_A)} {kind}"
            if name.lower() in names or any(name.lower() == str(o["name"]).lower() for o in out if o["city"] == city):
                continue
            out.append({"licence_number": f"{state}{rnd.randint(1000000, 9999999)}", "name": name, "city": city,
                        "state": state, "street": f"{rnd.randint(100, 1899)} {rnd.choice(_INDIE_STREETS)}",
                        "zip": f"{'33' if state == 'FL' else '78'}{rnd.randint(100, 999)}", "rank": rank,
                        "phone": f"{rnd.randint(201, 989)}555{rnd.randint(1000, 9999)}" if rnd.random() < 0.7 else None,
                        "rooms": rnd.randint(4, 30), "owner": rnd.choice(_PEOPLE), "closed": rnd.random() < 0.15})
    return out


def _fl_cities(world: World) -> list[str]:
    return [p.city for p in world.places if p.country == "US" and p.state == "FL" and p.kind == "hotel"]


def _tx_cities(world: World) -> list[str]:
    return [p.city for p in world.hotels if p.country == "US" and p.state == "TX"] or ["Austin", "Galveston"]


def licence_only(world: World) -> list[dict[str, str | int | None]]:
    """The open licences of the registers whose establishment no other source lists: the
    independents and the licensed lodging that is no hotel of the world (their register rows)."""
    out = [i for i in independents(world, "FL", _fl_cities(world)) + independents(world, "TX", _tx_cities(world))
           if not i["closed"]]
    for state, cities in (("FL", _fl_cities(world)), ("TX", _tx_cities(world))):
        out += [{"licence_number": n, "name": name, "city": city, "state": state, "street": street}
                for n, name, street, city, _ in _noise(world, state, cities)]
    return out


def _unreadable(state: str, city: str) -> list[list[str]]:
    """A row without its street address and a line cut short: what a client reads past."""
    rnd = _rnd("licence-unreadable", state, city)
    number = f"{state}{rnd.randint(1000000, 9999999)}"
    return [[number, f"{city.upper()} SUITES LLC", f"{city.upper()} SUITES", ""], [f"{state}{rnd.randint(1000000, 9999999)}"]]


def _csv(rows: Iterable[list[str]], header: list[str] | None, encoding: str) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    if header:
        writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue().encode(encoding, errors="replace")


def _district(city: str) -> int:
    return zlib.crc32(city.lower().encode()) % FL_DISTRICTS + 1


def _fl_row(district: int, kind: str, number: str, rank: str, licensee: str, dba: str, street: str, city: str,
            zip_code: str, phone: str, units: int | None, mailing: list[str], owner: str) -> list[str]:
    return [str(district), "", "", kind, number, rank, licensee, dba, street, "", city, "FL", zip_code, phone,
            "Current", "2026-10-01", str(units or ""), *mailing, owner]


def _fl_hotel_rows(p: Place) -> list[list[str]]:
    lic = owner_truth(p).licence
    if lic is None:
        return []
    rnd = _rnd("licence-row", p.id)
    street, zip_code, city = register_street(p.address, rnd), _zip(p.address), p.city.upper()
    mail = [part.strip().upper() for part in lic.mailing_address.split(",")]
    mailing = (mail + ["", "", ""])[:3] + [zip_code]
    owner = ""
    if lic.owner_name:
        first, _, last = lic.owner_name.rpartition(" ")
        owner = f"{last}, {first}".upper()
    phone = re.sub(r"\D", "", p.phone or "") if rnd.random() < 0.7 else ""
    district = _district(p.city)
    rows = [_fl_row(district, "2001", lic.number, _RANKS.get(p.type, "HOTL"), lic.licensee.upper(),
                    register_name(p.name, rnd), street, city, zip_code, phone, lic.rooms, mailing, owner)]
    if rnd.random() < 0.3:  # the hotel's restaurant: a food-service licence at the same address
        rows.append(_fl_row(district, "2010", f"SEA{rnd.randint(1000000, 9999999)}", "SEAT", lic.licensee.upper(),
                            f"{p.name.upper()} RESTAURANT", street, city, zip_code, "", None, mailing, ""))
    return rows


def florida_files(world: World) -> dict[int, bytes]:
    """District -> the district's extract (every district has a file, maybe empty)."""
    rows: dict[int, list[list[str]]] = {d: [] for d in range(1, FL_DISTRICTS + 1)}
    fl = [p for p in world.places if p.country == "US" and p.state == "FL"]
    for p in fl:
        if p.kind == "hotel":
            for row in _fl_hotel_rows(p):
                rows[int(row[0])].append(row)
        elif p.kind == "lodging_noise":  # vacation-rental agencies: another rank
            rnd = _rnd("licence-row", p.id)
            rows[_district(p.city)].append(_fl_row(
                _district(p.city), "2001", f"DWE{rnd.randint(1000000, 9999999)}", "VACH", f"{p.name.upper()} INC",
                p.name.upper(), register_street(p.address, rnd), p.city.upper(), _zip(p.address), "", None,
                ["", "", "", ""], ""))
    for number, name, street, city, licensee in _noise(world, "FL", (p.city for p in fl if p.kind == "hotel")):
        rnd = _rnd("licence-noise-row", number)
        rows[_district(city)].append(_fl_row(
            _district(city), "2001", number, "MOTL", licensee, name, street, city, f"33{rnd.randint(100, 999)}", "",
            rnd.randint(8, 40), [f"PO BOX {rnd.randint(100, 9999)}", city, "FL", ""], rnd.choice(_PEOPLE).upper()))
    _florida_discovery_rows(world, rows)
    return {d: _csv(r, None, "cp1252") for d, r in rows.items()}


def _florida_discovery_rows(world: World, rows: dict[int, list[list[str]]]) -> None:
    """The independents (some closed) and the unreadable rows, in their city's district file."""
    for i in independents(world, "FL", _fl_cities(world)):
        city, district = str(i["city"]), _district(str(i["city"]))
        owner = str(i["owner"]).upper().split(" ", 1)
        row = _fl_row(district, "2001", str(i["licence_number"]), str(i["rank"]), f"{str(i['name']).upper()} LLC",
                      str(i["name"]).upper(), str(i["street"]).upper(), city.upper(), str(i["zip"]), str(i["phone"] or ""),
                      int(i["rooms"] or 0), [str(i["street"]).upper(), city.upper(), "FL", str(i["zip"])],
                      f"{owner[-1]}, {owner[0]}")
        row[14] = "Closed" if i["closed"] else "Current"
        rows[district].append(row)
    for city in sorted(set(_fl_cities(world))):
        district = _district(city)
        number, licensee, dba, _ = _unreadable("FL", city)[0]
        rows[district].append(_fl_row(district, "2001", number, "HOTL", licensee, dba, "", city.upper(), "", "", 20,
                                      ["", "", "", ""], ""))
        rows[district].append([str(district), "", "", "2001", *_unreadable("FL", city)[1], "HOTL"])


def _tx_row(number: str, licensee: str, mailing: list[str], officer: str, name: str, street: str, city: str,
            zip_code: str, rooms: int | None, begin: str, end: str) -> list[str]:
    return [number, licensee, *mailing, officer, "00001", name, street, city, "TX", zip_code, "", str(rooms or ""),
            begin, end, f"{(rooms or 10) * 9125:.2f}"]


def texas_file(world: World) -> bytes:
    rows: list[list[str]] = []
    tx = [p for p in world.hotels if p.country == "US" and p.state == "TX"]
    for p in tx:
        lic = owner_truth(p).licence
        if lic is None:
            continue
        rnd = _rnd("licence-row", p.id)
        street, zip_code, name = register_street(p.address, rnd), _zip(p.address), register_name(p.name, rnd)
        box, city, _ = ([part.strip().upper() for part in lic.mailing_address.split(",")] + ["", ""])[:3]
        mailing = [box, city, "TX", zip_code]
        if rnd.random() < 0.3:  # the location's former taxpayer, whose responsibility ended
            rows.append(_tx_row(f"1{rnd.randint(10**9, 10**10 - 1)}", f"{name} PARTNERS LP", mailing,
                                rnd.choice(_PEOPLE).upper(), name, street, p.city.upper(), zip_code, lic.rooms,
                                "2009-04-01", "2016-12-31"))
        rows.append(_tx_row(lic.number, lic.licensee.upper(), mailing, (lic.owner_name or "").upper(), name, street,
                            p.city.upper(), zip_code, lic.rooms, "2017-01-01", ""))
    cities = _tx_cities(world)
    for number, name, street, city, licensee in _noise(world, "TX", cities):
        rnd = _rnd("licence-noise-row", number)
        rows.append(_tx_row(number, licensee, [f"PO BOX {rnd.randint(100, 9999)}", city, "TX", ""],
                            rnd.choice(_PEOPLE).upper(), name, street, city, f"78{rnd.randint(100, 999)}",
                            rnd.randint(8, 40), "2019-01-01", ""))
    for i in independents(world, "TX", cities):
        owner = str(i["owner"]).upper()
        end = "2024-06-30" if i["closed"] else ""  # a closed location: its taxpayer's responsibility ended
        rows.append(_tx_row(str(i["licence_number"]), f"{str(i['name']).upper()} LLC",
                            [str(i["street"]).upper(), str(i["city"]).upper(), "TX", str(i["zip"])], owner,
                            str(i["name"]).upper(), str(i["street"]).upper(), str(i["city"]).upper(), str(i["zip"]),
                            int(i["rooms"] or 0), "2018-03-01", end))
    for city in sorted(set(cities)):
        number, licensee, dba, _ = _unreadable("TX", city)[0]
        rows.append(_tx_row(number, licensee, ["", "", "TX", ""], "", dba, "", city.upper(), "", 20, "2020-01-01", ""))
        rows.append(_unreadable("TX", city)[1])
    return _csv(rows, TX_HEADER, "utf-8")


SYNTHETIC_PATH = "/sto/file_download/extracts/synthetic.csv"
_SYNTH_CITIES = ["MIAMI", "ORLANDO", "TAMPA", "JACKSONVILLE", "KEY WEST", "NAPLES", "SARASOTA", "PENSACOLA",
                 "DAYTONA BEACH", "FORT MYERS", "ST AUGUSTINE", "PANAMA CITY BEACH", "CLEARWATER", "DESTIN"]
_SYNTH_RANKS = ["HOTL", "MOTL", "BDBK", "TRAN", "VACH", "SEAT"]  # the last two: not lodging the config keeps


def synthetic_file(records: int, seed: int = 0) -> bytes:
    """`records` DBPR-layout rows (lodging and not, a few closed), for load benchmarks: the
    register of a large state without building a world of that size."""
    rnd = random.Random(f"licence-synthetic:{seed}")
    buf = io.StringIO()
    writer = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    for k in range(records):  # written as generated: a large file is not held twice
        rank = _SYNTH_RANKS[k % len(_SYNTH_RANKS)] if k % 10 == 9 else _SYNTH_RANKS[k % 4]
        city = _SYNTH_CITIES[k % len(_SYNTH_CITIES)]
        name = f"{rnd.choice(_INDIE_A).upper()} {rnd.choice(_NOISE_B).upper()} {k}"
        row = _fl_row(k % FL_DISTRICTS + 1, "2001", f"SYN{k:08d}", rank, f"{name} LLC", name,
                      f"{rnd.randint(1, 19999)} {rnd.choice(_NOISE_STREETS).upper()}", city,
                      f"3{rnd.randint(2000, 4999)}", f"{rnd.randint(201, 989)}555{rnd.randint(1000, 9999)}",
                      rnd.randint(4, 400), [f"PO BOX {rnd.randint(100, 9999)}", city, "FL", ""],
                      rnd.choice(_PEOPLE).upper())
        if k % 50 == 7:
            row[14] = "Closed"
        writer.writerow(row)
    return buf.getvalue().encode("cp1252", errors="replace")


class LicenceRegisterService(Service):
    name = "licences"
    prefix = "/licences"
    real_base_url = "https://www2.myfloridalicense.com"
    description = "lodging licence registers: FL DBPR hrlodge{1-7}.csv, TX hotel occupancy tax rows.csv"

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._files: dict[str, bytes] | None = None

    def routes(self) -> list[web.RouteDef]:
        return [web.get(FL_PATH.replace("{district}", r"{district:\d+}"), self.florida), web.get(TX_PATH, self.texas),
                web.get(SYNTHETIC_PATH, self.synthetic)]

    def files(self) -> dict[str, bytes]:
        if self._files is None:  # the world does not change under a running sandbox
            fl = florida_files(self.ctx.world)
            self._files = {FL_PATH.format(district=d): body for d, body in fl.items()}
            self._files[TX_PATH] = texas_file(self.ctx.world)
        return self._files

    def _file(self, path: str) -> web.Response:
        body = self.files().get(path)
        if body is None:
            return self.error(404, f"No such file: {path}")
        return web.Response(body=body, content_type="text/csv", charset=None,
                            headers={"ETag": f'"{hashlib.sha256(body).hexdigest()[:16]}"'})

    async def florida(self, request: web.Request) -> web.Response:
        return self._file(FL_PATH.format(district=int(request.match_info["district"])))

    async def texas(self, request: web.Request) -> web.Response:
        return self._file(TX_PATH)

    async def synthetic(self, request: web.Request) -> web.Response:
        try:
            records, seed = int(request.query.get("records", "1000")), int(request.query.get("seed", "0"))
        except ValueError:
            return self.error(400, "records and seed must be integers")
        if not 0 <= records <= 2_000_000:
            return self.error(400, "records: 0 to 2,000,000")
        key = f"{SYNTHETIC_PATH}?records={records}&seed={seed}"
        if key not in self.files():
            self.files()[key] = synthetic_file(records, seed)
        return self._file(key)

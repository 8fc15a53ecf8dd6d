"""Licence registers (core/licences.py): the per-state configuration, both register formats as
the sandbox writes them, and matching to hotels (precision against the world's owner truth)."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from pydantic import ValidationError

from sadie_pipeline.core.licences import RegistryConfig, match_hotels, parse_catalog, parse_register, person_name
from sadie_pipeline.resources.licences import BUNDLED_REGISTERS, LicenceRegisterResource
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline.sandbox.services.licences import florida_files, texas_file
from sadie_pipeline.sandbox.world import World

CATALOG = json.loads(BUNDLED_REGISTERS.read_text())
FL, TX = (RegistryConfig.model_validate(r) for r in CATALOG["registries"])


def _with(base: dict, **changes) -> dict:
    return {**json.loads(json.dumps(base)), **changes}


def test_bundled_catalog_has_florida_and_texas():
    catalog = parse_catalog(BUNDLED_REGISTERS.read_text())
    assert [(r.id, r.region) for r in catalog.registries] == [("fl_dbpr_lodging", "US-FL"),
                                                              ("tx_hotel_occupancy_tax", "US-TX")]
    assert catalog.for_region("US-CA") == []
    assert len(catalog.for_region("us-fl")[0].urls) == 7


@pytest.mark.parametrize("where", ["top", "format", "columns", "filter"])
def test_unknown_keys_are_rejected(where):
    raw = _with(CATALOG["registries"][0])
    target = {"top": raw, "format": raw["format"], "columns": raw["columns"], "filter": raw["filters"][0]}[where]
    target["delimeter"] = ";"  # a typo must not be ignored silently
    with pytest.raises(ValidationError, match="delimeter"):
        RegistryConfig.model_validate(raw)


def test_config_checks_columns_against_the_format():
    raw = _with(CATALOG["registries"][0])
    raw["columns"]["city"] = "Location City"  # a header name in a headerless file
    with pytest.raises(ValidationError, match="positions"):
        RegistryConfig.model_validate(raw)
    raw = _with(CATALOG["registries"][1])
    raw["filters"] = [{"column": "Responsibility End Date", "empty": True, "any_of": ["x"]}]
    with pytest.raises(ValidationError, match="exactly one"):
        RegistryConfig.model_validate(raw)
    raw = _with(CATALOG["registries"][1])
    raw["columns"].pop("business_name"), raw["columns"].pop("licensee")
    with pytest.raises(ValidationError, match="business_name or licensee"):
        RegistryConfig.model_validate(raw)
    with pytest.raises(ValidationError, match="repeat"):
        parse_catalog(json.dumps({"registries": [CATALOG["registries"][0]] * 2}))


def test_base_url_replaces_scheme_and_host_only():
    registers = LicenceRegisterResource(base_url="http://127.0.0.1:9/licences/")
    assert registers.resolved_url(FL.urls[0]) == "http://127.0.0.1:9/licences/sto/file_download/extracts/hrlodge1.csv"
    assert LicenceRegisterResource().resolved_url(FL.urls[0]) == FL.urls[0]


def test_person_names():
    assert person_name("CROWLEY, HAROLD", "last_comma_first") == "Harold Crowley"
    assert person_name("MARY O'NEIL-MCDONALD") == "Mary O'Neil-McDonald"
    assert person_name("Anita Petrakis") == "Anita Petrakis"
    assert person_name("BISCAYNE BAY HOSPITALITY LLC") is None  # a company is not a person
    assert person_name("  ") is None


def test_florida_headerless_extract():
    world = World.demo()
    files = florida_files(world)
    parsed = [parse_register(FL, body, f"file{d}") for d, body in files.items()]
    records = {r.licence_number: r for p in parsed for r in p.records}
    assert sum(p.filtered for p in parsed) >= 3  # vacation rentals and hotel restaurants are other licence types
    assert not any(r.licence_type in ("VACH", "SEAT") for r in records.values())
    licensed = [p for p in world.hotels if owner_truth(p).licence]
    assert len(licensed) >= 20
    for place in licensed:
        lic = owner_truth(place).licence
        record = records[lic.number]
        assert record.owner_name == lic.owner_name  # "LAST, FIRST" in the file, the person's name here
        assert record.licensee_name == lic.licensee.upper() and record.rooms == lic.rooms
        assert record.business_name.replace(" AND ", " & ") in (place.name.upper(), place.name.upper()[4:])
        assert record.address.isupper() and record.zip == re.search(r"(\d{5})$", place.address).group(1)
        assert record.mailing_address.startswith("PO BOX ") and record.region == "US-FL"
    assert len(records) > len(licensed)  # lodging that is no hotel of the world


def _texas_world() -> World:
    """The demo's Florida hotels moved to Texas (same streets, TX zips): the register's other format."""
    places = []
    for p in World.demo().hotels[:20]:
        address = re.sub(r"FL (\d{5})$", lambda m: f"TX 7{m.group(1)[1:]}", p.address)
        places.append(dataclasses.replace(p, id=f"tx-{p.id}", state="TX", address=address))
    return World(places)


def test_texas_file_with_header_drops_former_taxpayers():
    world = _texas_world()
    parsed = parse_register(TX, texas_file(world), "tx.csv")
    assert parsed.filtered >= 1  # a location's former taxpayer (responsibility ended)
    by_number = {r.licence_number: r for r in parsed.records}
    for place in world.hotels:
        lic = owner_truth(place).licence
        if lic:
            assert by_number[lic.number].owner_name == lic.owner_name
            assert by_number[lic.number].business_name is not None
    bad = TX.model_copy(update={"columns": TX.columns.model_copy(update={"city": "City Of Location"})})
    with pytest.raises(ValueError, match="City Of Location"):
        parse_register(bad, texas_file(world), "tx.csv")


def _hotels(world: World) -> list[dict]:
    return [{"id": k, "name": p.name, "address": p.address, "city": p.city, "state": p.state,
             "zip": re.search(r"(\d{5})$", p.address).group(1), "phone": p.phone, "lat": p.lat, "lng": p.lon}
            for k, p in enumerate(world.hotels)]


@pytest.mark.parametrize("state", ["FL", "TX"])
def test_matching_is_precise_and_leaves_noise_alone(state):
    world = World.demo() if state == "FL" else _texas_world()
    if state == "FL":
        records = [r for body in florida_files(world).values() for r in parse_register(FL, body, "f").records]
    else:
        records = parse_register(TX, texas_file(world), "t").records
    hotels = _hotels(world)
    matches = match_hotels(hotels, records)
    truth = [owner_truth(p).licence for p in world.hotels]
    licensed = sum(1 for t in truth if t)
    assert len({r for r, _ in matches.values()}) == len(matches)  # a record to one hotel
    for hotel, (record, certainty) in matches.items():
        assert truth[hotel] is not None, world.hotels[hotel].name
        assert records[record].licence_number == truth[hotel].number and certainty >= 0.8
        assert records[record].owner_name == truth[hotel].owner_name
    assert len(matches) >= 0.9 * licensed
    noise = {r.licence_number for r in records} - {t.number for t in truth if t}
    assert noise and not noise & {records[r].licence_number for r, _ in matches.values()}


def test_a_record_goes_to_one_hotel():
    world = World.demo()
    records = [r for body in florida_files(world).values() for r in parse_register(FL, body, "f").records]
    hotels = _hotels(world)
    twin = {**hotels[0], "id": 999, "phone": None}  # the same hotel twice (an unresolved duplicate)
    matches = match_hotels([*hotels, twin], records)
    numbers = [records[r].licence_number for r, _ in matches.values()]
    assert len(numbers) == len(set(numbers))

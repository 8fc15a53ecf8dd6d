"""Geocoding's pure part: the cache key of an address, the query text, the providers' answers."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.errors import ErrorClass, classify
from sadie_pipeline.core.geocode import (
    Address,
    Precision,
    ProviderStatusError,
    address_key,
    query_text,
    read_google,
    read_nominatim,
)

WATER = Address("12 Water St", None, "Charlottetown", "PE", "C1A 4K3", "CA")


def test_one_key_however_the_dmo_spells_the_address():
    spellings = [WATER, Address("12 WATER STREET", "", "charlottetown", "Prince Edward Island", "c1a4k3", "ca"),
                 Address(" 12 Water St. ", None, "Charlottetown ", "PE", "C1A-4K3", "CA")]
    assert {address_key(a) for a in spellings} == {"12 water street||charlottetown|PE|C1A4K3|CA"}


def test_another_number_street_or_town_is_another_key():
    others = [Address("14 Water St", None, "Charlottetown", "PE", "C1A 4K3", "CA"),
              Address("12 Queen St", None, "Charlottetown", "PE", "C1A 4K3", "CA"),
              Address("12 Water St", None, "Summerside", "PE", None, "CA")]
    assert len({address_key(a) for a in [WATER, *others]}) == 4


@pytest.mark.parametrize("address", [
    Address(None, None, "Charlottetown", "PE", None, "CA"),          # no street line
    Address("   ", None, "Charlottetown", "PE", None, "CA"),
    Address("12", None, "Charlottetown", "PE", None, "CA"),          # a number is no street
    Address("12 Water St", None, None, "PE", None, "CA"),             # neither town nor postal code
])
def test_nothing_to_ask_with_has_no_key(address):
    assert address_key(address) is None


def test_query_text_is_the_address_as_written():
    assert query_text(WATER) == "12 Water St, Charlottetown, PE C1A 4K3, CA"
    assert query_text(Address("1 Main St", "Suite 4", "Souris", None, None, None)) == "1 Main St, Suite 4, Souris"


def google(status, results=(), message=None):
    body = {"results": list(results), "status": status}
    if message:
        body["error_message"] = message
    return body


def result(location_type="ROOFTOP", types=("street_address",), lat=46.2325, lng=-63.1404):
    return {"formatted_address": "12 Water St, Charlottetown, PE C1A 4K3, Canada", "place_id": "ChIJabc",
            "geometry": {"location": {"lat": lat, "lng": lng}, "location_type": location_type}, "types": list(types)}


def test_google_ok_reads_the_first_result():
    answer = read_google(google("OK", [result(), result(lat=1, lng=2)]))
    assert (answer.found, answer.lat, answer.lng, answer.precision) == (True, 46.2325, -63.1404, Precision.ROOFTOP)
    assert answer.usable and answer.place_id == "ChIJabc"


def test_google_town_or_postal_code_centre_is_approximate():
    town = read_google(google("OK", [result("APPROXIMATE", ("locality", "political"))]))
    centre = read_google(google("OK", [result("GEOMETRIC_CENTER", ("postal_code",))]))
    street = read_google(google("OK", [result("GEOMETRIC_CENTER", ("route",))]))
    assert town.precision is centre.precision is Precision.APPROXIMATE and not town.usable
    assert street.precision is Precision.STREET and street.usable


def test_google_zero_results_is_an_answer():
    assert not read_google(google("ZERO_RESULTS")).found


@pytest.mark.parametrize(("status", "error_class"), [
    ("OVER_QUERY_LIMIT", ErrorClass.RATE_LIMITED), ("UNKNOWN_ERROR", ErrorClass.TRANSIENT),
    ("REQUEST_DENIED", ErrorClass.AUTH), ("OVER_DAILY_LIMIT", ErrorClass.AUTH),
    ("INVALID_REQUEST", ErrorClass.PERMANENT), ("SOMETHING_NEW", ErrorClass.PERMANENT),
])
def test_google_failures_carry_the_class_the_guard_acts_on(status, error_class):
    with pytest.raises(ProviderStatusError) as caught:
        read_google(google(status, message="why"))
    assert classify(caught.value) is error_class and "why" in str(caught.value)


def test_an_answer_that_is_not_googles_is_refused():
    with pytest.raises(ValueError):
        read_google({"results": []})
    with pytest.raises(ValueError):
        read_google(google("OK", [result(lat=123.0)]))


def place(rank, lat="46.2325060", lon="-63.1404492"):
    return {"place_id": 1, "osm_type": "way", "osm_id": 99, "lat": lat, "lon": lon, "place_rank": rank,
            "display_name": "12, Water Street, Charlottetown"}


def test_nominatim_reads_the_first_place_and_its_rank():
    building = read_nominatim([place(30), place(16)])
    assert (building.lat, building.lng, building.precision) == (46.232506, -63.1404492, Precision.ROOFTOP)
    assert building.place_id == "way/99"
    assert read_nominatim([place(26)]).precision is Precision.STREET
    assert read_nominatim([place(16)]).precision is Precision.APPROXIMATE
    assert not read_nominatim([]).found


def test_nominatim_errors_and_other_shapes():
    with pytest.raises(ProviderStatusError):
        read_nominatim({"error": {"code": 400, "message": "Parameter 'format' must be one of"}})
    with pytest.raises(ValueError):
        read_nominatim("<html>")

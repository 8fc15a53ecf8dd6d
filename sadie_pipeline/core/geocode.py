"""Geocoding without I/O: the normalised address a geocode is cached under, the text sent to the
provider, and the answers of the Google Geocoding API and of Nominatim read into one shape.

    key = address_key(Address("12 Water Street", None, "Charlottetown", "PE", "C1A 4K3", "CA"))
    # "12 water street|charlottetown|PE|C1A4K3|CA": one cache entry however the DMO spells it
    answer = read_google(payload)      # or read_nominatim(payload)
    answer.found, answer.lat, answer.lng, answer.precision

Google answers HTTP 200 for every status; the ones that are failures raise `ProviderStatusError`
with the class the guard retries on (OVER_QUERY_LIMIT: rate limited, UNKNOWN_ERROR: transient) or
gives up on (REQUEST_DENIED / OVER_DAILY_LIMIT: auth, INVALID_REQUEST: permanent).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.core.places.normal import city_key, fold, state_key
from sadie_pipeline.core.places.tables import STREET_ABBREVIATIONS


class Provider(StrEnum):
    GOOGLE = "google"
    NOMINATIM = "nominatim"
    OFF = "off"


class GeocodeStatus(StrEnum):
    """A location's outcome (pipeline.location_geocodes.status; migration 0027 checks the values)."""
    GEOCODED = "geocoded"          # coordinates written to public.locations
    ZERO_RESULTS = "zero_results"  # the provider knows no such address: asked again when the address changes
    APPROXIMATE = "approximate"    # only a town-level (or coarser) match: not written, as zero_results
    NO_ADDRESS = "no_address"      # no street line (or no town or postal code) to ask with
    FAILED = "failed"              # the call failed after its retries or the breaker was open: retried next run


# Outcomes that stand until the address changes; FAILED is retried by the next run.
SETTLED = frozenset({GeocodeStatus.GEOCODED, GeocodeStatus.ZERO_RESULTS, GeocodeStatus.APPROXIMATE,
                     GeocodeStatus.NO_ADDRESS})


class Precision(StrEnum):
    ROOFTOP = "rooftop"            # the building
    INTERPOLATED = "interpolated"  # between two numbered points of the street
    STREET = "street"              # the street, or the centre of a small area
    APPROXIMATE = "approximate"    # a town, postal code or region: not a place's position


@dataclass(frozen=True)
class Address:
    address1: str | None
    address2: str | None
    city: str | None
    state: str | None
    zip: str | None
    country: str | None


def _street(line: str | None) -> str:
    return " ".join(STREET_ABBREVIATIONS.get(t, t) for t in fold(line).split())


def address_key(address: Address) -> str | None:
    """The address as the cache knows it: accents, case, punctuation and street-type spellings
    folded ("St" = "Street"), the town through the alias table, the state as its code, the postal
    code without spaces. None when there is no street line, or neither town nor postal code."""
    street = _street(address.address1)
    town, postal = city_key(address.city), (address.zip or "").replace(" ", "").replace("-", "").upper()
    if not street or not any(ch.isalpha() for ch in street) or not (town or postal):
        return None
    parts = (street, _street(address.address2), town, state_key(address.state) if address.state else "", postal,
             (address.country or "").strip().upper())
    return "|".join(parts)


def query_text(address: Address) -> str:
    """The one-line address sent to the provider, as the DMO wrote it: "12 Water St, Charlottetown,
    PE C1A 4K3, CA"."""
    region = " ".join(p.strip() for p in (address.state, address.zip) if p and p.strip())
    parts = (address.address1, address.address2, address.city, region, address.country)
    return ", ".join(p.strip() for p in parts if p and p.strip())


@dataclass(frozen=True)
class Answer:
    """What a provider said about one address."""
    found: bool
    lat: float | None = None
    lng: float | None = None
    precision: Precision | None = None
    formatted_address: str | None = None
    place_id: str | None = None

    @property
    def usable(self) -> bool:
        """Coordinates of the place itself (not of its town)."""
        return self.found and self.precision is not Precision.APPROXIMATE


NOT_FOUND = Answer(found=False)


class ProviderStatusError(Exception):
    """A provider's answer that is a failure, with the class the guard acts on (`classify` reads
    `error_class`)."""

    def __init__(self, status: str, message: str, error_class: ErrorClass) -> None:
        super().__init__(f"{status}: {message}" if message else status)
        self.status, self.error_class = status, error_class


_GOOGLE_FAILURES = {
    "OVER_QUERY_LIMIT": ErrorClass.RATE_LIMITED,
    "UNKNOWN_ERROR": ErrorClass.TRANSIENT,
    "REQUEST_DENIED": ErrorClass.AUTH,
    "OVER_DAILY_LIMIT": ErrorClass.AUTH,  # no billing, a bad key or the key's own cap: no retry helps
    "INVALID_REQUEST": ErrorClass.PERMANENT,
}
# Result types that are areas, not places: a match on one of them only says which town.
_AREA_TYPES = frozenset({"locality", "sublocality", "postal_code", "administrative_area_level_1",
                         "administrative_area_level_2", "administrative_area_level_3", "country", "political",
                         "neighborhood", "colloquial_area", "postal_town"})
_GOOGLE_PRECISION = {"ROOFTOP": Precision.ROOFTOP, "RANGE_INTERPOLATED": Precision.INTERPOLATED,
                     "GEOMETRIC_CENTER": Precision.STREET, "APPROXIMATE": Precision.APPROXIMATE}


def read_google(payload: Any) -> Answer:
    """The first result of a Geocoding API answer ({"results": [...], "status": ...})."""
    if not isinstance(payload, Mapping) or not isinstance(payload.get("status"), str):
        raise ValueError("not a Geocoding API answer: no status")
    status = payload["status"]
    if status == "ZERO_RESULTS":
        return NOT_FOUND
    if status != "OK":
        error_class = _GOOGLE_FAILURES.get(status, ErrorClass.PERMANENT)
        raise ProviderStatusError(status, str(payload.get("error_message") or ""), error_class)
    results = payload.get("results") or []
    if not results:
        return NOT_FOUND
    first = results[0]
    geometry = first.get("geometry") or {}
    location = geometry.get("location") or {}
    precision = _GOOGLE_PRECISION.get(str(geometry.get("location_type")), Precision.APPROXIMATE)
    if precision is not Precision.ROOFTOP and set(first.get("types") or ()) <= _AREA_TYPES:
        precision = Precision.APPROXIMATE  # the centre of a town or a postal code
    return Answer(True, _coordinate(location.get("lat"), 90), _coordinate(location.get("lng"), 180), precision,
                  first.get("formatted_address"), first.get("place_id"))


def read_nominatim(payload: Any) -> Answer:
    """The first place of a Nominatim /search answer (format=jsonv2: a list of places)."""
    if isinstance(payload, Mapping) and "error" in payload:
        error = payload["error"]
        message = error.get("message") if isinstance(error, Mapping) else str(error)
        raise ProviderStatusError("error", str(message), ErrorClass.PERMANENT)
    if not isinstance(payload, Sequence) or isinstance(payload, str | bytes):
        raise ValueError("not a Nominatim answer: not a list of places")
    if not payload:
        return NOT_FOUND
    first = payload[0]
    rank = int(first.get("place_rank") or 0)
    # place_rank 30 is a building, 26-29 a street or a small area, below 26 a town or larger
    precision = Precision.ROOFTOP if rank >= 30 else Precision.STREET if rank >= 26 else Precision.APPROXIMATE
    osm = f"{first.get('osm_type')}/{first.get('osm_id')}" if first.get("osm_id") else None
    return Answer(True, _coordinate(first.get("lat"), 90), _coordinate(first.get("lon"), 180), precision,
                  first.get("display_name"), osm)


def _coordinate(value: Any, bound: float) -> float:
    number = float(value)  # Nominatim sends strings, Google numbers; neither sends anything else
    if not -bound <= number <= bound:
        raise ValueError(f"coordinate {number} out of range")
    return number

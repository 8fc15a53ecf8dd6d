"""Addresses read from crawled pages and the region they put a business in (issue 32). No I/O.

`parse_address` reads a one-line address as North American and Australian pages write it
("1200 Brickell Bay Dr, Miami, FL 33131", "12 Beach Rd, Bondi NSW 2026", "1 Rue X, Montréal, QC
H2X 1Y4"); `region_of` turns its state (a code or a full name) into a partition key, the country
from the address, else the postal code's shape, else the host's country-code TLD, else the
scanning region's country.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from sadie_pipeline.regions import AU_STATES, CA_PROVINCES, REGION_NAMES, REGIONS, US_STATES

__all__ = ["Address", "parse_address", "region_of"]

_COUNTRIES = {"us": "US", "usa": "US", "united states": "US", "united states of america": "US", "au": "AU",
              "aus": "AU", "australia": "AU", "ca": "CA", "can": "CA", "canada": "CA"}
# codes and full names ("Miami Beach, Florida 33139"), longest first
_STATE_CODES = "|".join(sorted({*US_STATES, *CA_PROVINCES, *AU_STATES, *(re.escape(n) for n in REGION_NAMES.values())},
                               key=len, reverse=True))
# street, city, STATE ZIP  (the comma before the state optional: Australian style)
_LINE = re.compile(
    rf"(?P<street>\d[^,\n]{{2,80}}?),\s*(?P<city>[^\d,\n]{{2,50}}?),?\s+(?P<state>{_STATE_CODES})\.?\s*,?\s*"
    r"(?P<zip>\d{5}(?:-\d{4})?|\d{4}|[A-Z]\d[A-Z] ?\d[A-Z]\d)\b(?:,?\s*(?P<country>[A-Za-z. ]{2,30}))?")
_CITY_STATE = re.compile(rf"(?P<city>[A-Z][^\d,\n]{{1,40}}?),\s*(?P<state>{_STATE_CODES})\b(?:\s+(?P<zip>\d{{4,5}}))?")
_BY_NAME = {name.lower(): code for code, name in REGION_NAMES.items()}


@dataclass(frozen=True)
class Address:
    street: str | None = None
    city: str | None = None
    state: str | None = None
    zip: str | None = None
    country: str | None = None

    def one_line(self) -> str | None:
        tail = " ".join(p for p in (self.state, self.zip) if p)
        parts = [p for p in (self.street, self.city, tail) if p]
        return ", ".join(parts) or None


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower().strip()


def parse_address(text: str | None) -> Address:
    """The first street address in `text` (else a "City, ST" pair), or an empty Address."""
    if not text:
        return Address()
    text = re.sub(r"\s+", " ", text)
    m = _LINE.search(text)
    if m:
        country = (m.group("country") or "").strip(" .")
        return Address(m.group("street").strip(), m.group("city").strip(), m.group("state"), m.group("zip"),
                       country if _fold(country) in _COUNTRIES else None)
    m = _CITY_STATE.search(text)
    if m:
        return Address(None, m.group("city").strip(), m.group("state"), m.group("zip"))
    return Address()


def _country(address: Address, tld_country: str | None, default_country: str | None) -> str | None:
    if address.country and (code := _COUNTRIES.get(_fold(address.country))):
        return code
    zip_code = (address.zip or "").strip()
    if re.fullmatch(r"\d{5}(?:-\d{4})?", zip_code):
        return "US"
    if re.fullmatch(r"[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d", zip_code):
        return "CA"
    if re.fullmatch(r"\d{4}", zip_code):
        return "AU"
    return tld_country or default_country


def region_of(address: Address, tld_country: str | None = None, default_country: str | None = None) -> str | None:
    """The partition key (US-FL, AU-NSW, CA-QC) of the address's state, or None."""
    state = (address.state or "").strip()
    if not state:
        return None
    country = _country(address, tld_country, default_country)
    named = _BY_NAME.get(_fold(state))
    if named and (country is None or named.startswith(f"{country}-")):
        return named
    code = state.upper().strip(".")
    if country and f"{country}-{code}" in REGIONS:
        return f"{country}-{code}"
    for prefix in ("US", "CA", "AU"):  # no country known: the only region with this code
        if f"{prefix}-{code}" in REGIONS and sum(f"{p}-{code}" in REGIONS for p in ("US", "CA", "AU")) == 1:
            return f"{prefix}-{code}"
    return None


def tld_country(host: str | None) -> str | None:
    """AU for `x.com.au`, CA for `x.ca`; None for generic TLDs."""
    tld = (host or "").lower().rstrip(".").rsplit(".", 1)[-1]
    return {"au": "AU", "ca": "CA", "us": "US"}.get(tld)

"""ABN Lookup (seed 001: ``abn_lookup`` 0.85; ``asic_director`` 0.90): the Australian Business
Register's answers read without I/O.

* `parse_jsonp`: the web services' ``callback({...})`` wrapper removed.
* `abn_valid`: the ABR's modulus-89 check (subtract 1 from the first digit, weights 10, 1, 3,
  5, ..., 19; the sum divides by 89).
* `best_match`: the register's name that is this hotel (fuzzy name score, same state, current,
  a valid ABN), or None: a wrong ABN would name the wrong owner.
* `read_details`: AbnDetails' entity, business names, state and status; a sole trader's entity
  name ("SURNAME, Given Names") is a person, the hotel's owner.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

__all__ = ["AbnDetails", "GUID_UNKNOWN", "abn_valid", "best_match", "parse_jsonp", "read_details",
           "sole_trader_name"]

GUID_UNKNOWN = "The GUID entered is not recognised as a Registered Party"
_WEIGHTS = (10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19)
_JSONP = re.compile(r"^\s*[A-Za-z_$][\w$.]*\s*\((.*)\)\s*;?\s*$", re.DOTALL)
MIN_NAME_SCORE = 90  # rapidfuzz token_set_ratio of normalised names
# Words a hotel name and its registered business name differ by without being another business.
_NOISE = re.compile(r"\b(pty|ltd|limited|the|trading as|t/a|atf|trust|trustee for)\b")
_INDIVIDUAL_CODES = frozenset({"IND"})


@dataclass(frozen=True)
class AbnDetails:
    abn: str
    entity_name: str
    entity_type: str          # EntityTypeCode: PRV (private company), IND (sole trader), TRT ...
    trading_names: tuple[str, ...]
    state: str | None
    postcode: str | None
    status: str               # Active | Cancelled


def parse_jsonp(text: str) -> dict[str, Any]:
    """The object inside ``callback({...})`` (plain JSON is accepted too). Raises ValueError."""
    match = _JSONP.match(text)
    body = match.group(1) if match else text
    data = json.loads(body)
    if not isinstance(data, dict):
        raise ValueError("ABN Lookup answered something other than an object")
    return data


def abn_valid(abn: str | None) -> bool:
    """True for an 11-digit ABN passing the ABR's modulus-89 check (spaces allowed)."""
    digits = "".join((abn or "").split())
    if len(digits) != 11 or not digits.isdigit() or digits[0] == "0":
        return False
    values = [int(c) for c in digits]
    values[0] -= 1
    return sum(v * w for v, w in zip(values, _WEIGHTS)) % 89 == 0


def _norm(name: str) -> str:
    text = _NOISE.sub(" ", name.lower().replace("&", " and "))
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def best_match(names: Sequence[dict[str, Any]], hotel_name: str, state: str | None,
               min_score: int = MIN_NAME_SCORE) -> dict[str, Any] | None:
    """The MatchingNames row that is the hotel: the highest name score (ours, not the
    register's) at or above `min_score`, in the hotel's state when the row gives one, current,
    with a valid ABN. Ties between different ABNs are ambiguous: None."""
    want = _norm(hotel_name)
    if not want:
        return None
    scored = []
    for row in names:
        abn = "".join(str(row.get("Abn") or "").split())
        if not abn_valid(abn) or row.get("IsCurrent") is False:
            continue
        if state and row.get("State") and str(row["State"]).upper() != state.upper():
            continue
        score = fuzz.token_set_ratio(want, _norm(str(row.get("Name") or "")))
        if score >= min_score:
            scored.append((score, abn, row))
    if not scored:
        return None
    scored.sort(key=lambda s: -s[0])
    top = scored[0]
    if any(s[0] == top[0] and s[1] != top[1] for s in scored[1:]):
        return None
    return {**top[2], "Abn": top[1], "match_score": round(top[0], 1)}


def read_details(data: dict[str, Any]) -> AbnDetails | None:
    """AbnDetails' answer, or None when it carries a Message (no record, not valid) or no ABN."""
    if data.get("Message") or not data.get("Abn"):
        return None
    names = data.get("BusinessName") or []
    trading = tuple(dict.fromkeys(str(n).strip() for n in names if str(n or "").strip()))
    return AbnDetails(abn=str(data["Abn"]).replace(" ", ""), entity_name=str(data.get("EntityName") or "").strip(),
                      entity_type=str(data.get("EntityTypeCode") or "").strip().upper(), trading_names=trading,
                      state=(data.get("AddressState") or None), postcode=(data.get("AddressPostcode") or None),
                      status=str(data.get("AbnStatus") or "").strip() or "Unknown")


def sole_trader_name(details: AbnDetails) -> str | None:
    """A sole trader's name as written ("Jane Mary Citizen" from "CITIZEN, JANE MARY"), else None."""
    if details.entity_type not in _INDIVIDUAL_CODES or not details.entity_name:
        return None
    surname, _, given = details.entity_name.partition(",")
    parts = [p for p in (given.strip(), surname.strip()) if p]
    if len(parts) < 2:
        return None
    return " ".join(w.capitalize() if w.isupper() or w.islower() else w for w in " ".join(parts).split())

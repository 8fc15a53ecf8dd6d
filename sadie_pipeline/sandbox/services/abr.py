"""ABN Lookup, the Australian Business Register's JSON web services (JSONP):

* ``GET /json/AbnDetails.aspx?abn=&guid=&callback=`` -> ``c({"Abn", "AbnStatus",
  "AbnStatusEffectiveFrom", "Acn", "AddressDate", "AddressPostcode", "AddressState",
  "BusinessName": [...], "EntityName", "EntityTypeCode", "EntityTypeName", "Gst", "Message"})``
* ``GET /json/MatchingNames.aspx?name=&maxResults=&guid=&callback=`` -> ``c({"Message",
  "Names": [{"Abn", "AbnStatus", "IsCurrent", "Name", "NameType", "Postcode", "Score", "State"}]})``

As the real service, every answer is HTTP 200 and problems are in ``Message`` ("The GUID entered
is not recognised as a Registered Party", "Search text is not a valid ABN or ACN", "No record
found"); without ``callback`` the wrapper is ``callback(...)``. A GUID is any non-empty value, or
exactly the one configured for ``abr`` in the sandbox's api_keys.

The register holds the AU hotels' `owner_truth(place).abn`: the entity (a private company, whose
ACN is the ABN's last nine digits) and the hotel's name as its business name. ASIC's
officeholders (`AbnRecord.directors`) are not served: ABN Lookup does not publish them and ASIC
has no free public API for them (its company extracts are paid), so the sandbox invents no shape.
"""

from __future__ import annotations

import hashlib
import json
from functools import cached_property
from typing import Any

from aiohttp import web
from rapidfuzz import fuzz

from ..owners import AbnRecord, owner_truth
from .base import Service

GUID_UNKNOWN = "The GUID entered is not recognised as a Registered Party"
NOT_VALID = "Search text is not a valid ABN or ACN"
NO_RECORD = "No record found"
MIN_SCORE = 60  # names scoring lower are not listed (the real service's cut-off is similar)
_EMPTY_DETAILS = {"Abn": "", "AbnStatus": "", "AbnStatusEffectiveFrom": "", "Acn": "", "AddressDate": None,
                  "AddressPostcode": "", "AddressState": "", "BusinessName": [], "EntityName": "",
                  "EntityTypeCode": "", "EntityTypeName": None, "Gst": None, "Message": ""}
_STATUS_CODE = {"Active": "0000000001", "Cancelled": "0000000002"}


def _postcode(record: AbnRecord) -> str:
    first = {"NSW": "2", "ACT": "2", "VIC": "3", "QLD": "4", "SA": "5", "WA": "6", "TAS": "7", "NT": "0"}
    return first.get(record.state, "2") + f"{int(hashlib.sha256(record.abn.encode()).hexdigest()[:6], 16) % 1000:03d}"


class AbrService(Service):
    name = "abr"
    prefix = "/abr"
    real_base_url = "https://abr.business.gov.au"
    description = "ABN Lookup JSON: /json/AbnDetails.aspx, /json/MatchingNames.aspx (JSONP)"

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/json/AbnDetails.aspx", self.details), web.get("/json/MatchingNames.aspx", self.matching)]

    @cached_property
    def _records(self) -> dict[str, AbnRecord]:
        out = {}
        for p in self.ctx.world.hotels:
            if p.country == "AU" and (record := owner_truth(p).abn) is not None:
                out[record.abn] = record
        return out

    def _jsonp(self, request: web.Request, data: dict[str, Any]) -> web.Response:
        callback = request.query.get("callback") or "callback"
        return web.Response(text=f"{callback}({json.dumps(data, ensure_ascii=False)})",
                            content_type="application/javascript")

    def _guid_ok(self, request: web.Request) -> bool:
        guid = (request.query.get("guid") or "").strip()
        expected = self.ctx.api_keys.get(self.name)
        return bool(guid) and (expected is None or guid == expected)

    async def details(self, request: web.Request) -> web.Response:
        if not self._guid_ok(request):
            return self._jsonp(request, {**_EMPTY_DETAILS, "Message": GUID_UNKNOWN})
        abn = "".join((request.query.get("abn") or "").split())
        if len(abn) != 11 or not abn.isdigit():
            return self._jsonp(request, {**_EMPTY_DETAILS, "Message": NOT_VALID})
        record = self._records.get(abn)
        if record is None:
            return self._jsonp(request, {**_EMPTY_DETAILS, "Message": NO_RECORD})
        return self._jsonp(request, {
            "Abn": record.abn, "AbnStatus": record.status, "AbnStatusEffectiveFrom": "2012-07-01", "Acn": record.abn[2:],
            "AddressDate": "2019-03-14", "AddressPostcode": _postcode(record), "AddressState": record.state,
            "BusinessName": list(record.trading_names), "EntityName": record.entity_name, "EntityTypeCode": "PRV",
            "EntityTypeName": "Australian Private Company", "Gst": "2012-07-01", "Message": ""})

    async def matching(self, request: web.Request) -> web.Response:
        if not self._guid_ok(request):
            return self._jsonp(request, {"Message": GUID_UNKNOWN, "Names": []})
        name = (request.query.get("name") or "").strip()
        if not name:
            return self._jsonp(request, {"Message": "Search text is required", "Names": []})
        try:
            limit = max(1, min(200, int(request.query.get("maxResults") or 10)))
        except ValueError:
            limit = 10
        found = []
        for record in self._records.values():
            for value, kind in [(record.entity_name, "Entity Name"), *((t, "Business Name") for t in record.trading_names)]:
                score = round(fuzz.token_set_ratio(name.upper(), value.upper()))
                if score >= MIN_SCORE:
                    found.append({"Abn": record.abn, "AbnStatus": _STATUS_CODE.get(record.status, "0000000001"),
                                  "IsCurrent": True, "Name": value, "NameType": kind, "Postcode": _postcode(record),
                                  "Score": score, "State": record.state})
        found.sort(key=lambda n: (-n["Score"], n["Name"], n["Abn"]))
        return self._jsonp(request, {"Message": "", "Names": found[:limit]})

"""RDAP (RFC 9083) domain lookups: GET /domain/{name} -> application/rdap+json.

Use it as an RDAP base URL (in production e.g. https://rdap.org or a registry's RDAP server):
`httpx.get(f"{sb.base_url('rdap')}/domain/example.test")`. Answers carry rdapConformance,
status, events (registration/expiration/last changed), nameservers and entities with jCard
vcardArray (registrar with IANA id, registrant org/name/email/phone/address, abuse contact);
privacy-protected domains get "REDACTED FOR PRIVACY" values and a `redacted` array as
registries do. Unknown domains: 404 with an RDAP error object, and so are domains whose TLD has
no useful RDAP (`owner_truth(place).rdap_useful` False; `whois.registration`): only port-43 WHOIS
knows those.
"""

from __future__ import annotations

import zlib
from datetime import date, timedelta
from typing import Any

from aiohttp import web

from ..world import Domain, registrable
from .base import Service, json_response

RDAP_TYPE = "application/rdap+json"
REGISTRAR_IDS = {"GoDaddy.com, LLC": "146", "NameCheap, Inc.": "1068", "Network Solutions, LLC": "2",
                 "Tucows Domains Inc.": "69", "MarkMonitor Inc.": "292", "Squarespace Domains II LLC": "895"}
REGISTRAR_ABUSE = {"GoDaddy.com, LLC": ("abuse@godaddy.test", "+1.4806242505"),
                   "NameCheap, Inc.": ("abuse@namecheap.test", "+1.6613102107"),
                   "MarkMonitor Inc.": ("abusecomplaints@markmonitor.test", "+1.2083895740")}


def _vcard(fn: str, **fields: Any) -> list[Any]:
    props: list[Any] = [["version", {}, "text", "4.0"], ["fn", {}, "text", fn]]
    if fields.get("org"):
        props.append(["org", {}, "text", fields["org"]])
    if fields.get("email"):
        props.append(["email", {}, "text", fields["email"]])
    if fields.get("tel"):
        props.append(["tel", {"type": "voice"}, "uri", f"tel:{fields['tel']}"])
    if fields.get("adr"):
        props.append(["adr", {}, "text", fields["adr"]])
    return ["vcard", props]


class RdapService(Service):
    name = "rdap"
    prefix = "/rdap"
    real_base_url = "https://rdap.org"
    description = "RDAP: GET /domain/{name}"

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/domain/{name}", self.domain), web.get("/help", self.help)]

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        titles = {400: "Bad Request", 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error",
                  503: "Service Unavailable"}
        return {"rdapConformance": ["rdap_level_0"], "errorCode": status, "title": titles.get(status, "Error"),
                "description": [message]}

    def error(self, status: int, message: str, *, code: str | None = None,
              headers: dict[str, str] | None = None) -> web.Response:
        return json_response(self.error_body(status, message, code), status, headers=headers, content_type=RDAP_TYPE)

    async def help(self, request: web.Request) -> web.Response:
        return json_response({"rdapConformance": ["rdap_level_0"], "notices": [
            {"title": "Sandbox RDAP", "description": ["Domain lookups for the sandbox world."]}]}, content_type=RDAP_TYPE)

    async def domain(self, request: web.Request) -> web.Response:
        name = request.match_info["name"].lower().rstrip(".")
        if "." not in name:
            return self.error(400, "Invalid domain name")
        dom = self.ctx.world.domains.get(registrable(name))
        if dom is None or not dom.resolves or dom.rdap is None:
            return self.error(404, f"The domain {name} was not found")
        from .whois import registration  # late: whois imports this module's registrar tables

        reg = registration(self.ctx.world, dom.name)
        if reg is not None and not reg.rdap_useful:
            return self.error(404, f"The domain {name} was not found")
        return json_response(self.record(dom), content_type=RDAP_TYPE)

    def record(self, dom: Domain) -> dict[str, Any]:
        r = dom.rdap or {}
        registrar = r.get("registrar", "GoDaddy.com, LLC")
        created = date.fromisoformat(r.get("created", "2010-01-01"))
        years = max(1, (date(2026, 1, 1) - created).days // 365 + 1)
        expires = created.replace(year=created.year + years) if not (created.month == 2 and created.day == 29) \
            else created + timedelta(days=365 * years)
        changed = expires - timedelta(days=365 + 30)
        handle = f"{zlib.crc32(dom.name.encode()) % 10**10}_DOMAIN_TEST-VRSN"
        privacy = bool(r.get("privacy"))
        registrant: dict[str, Any] = {"objectClassName": "entity", "roles": ["registrant"]}
        if privacy:
            registrant["vcardArray"] = _vcard("REDACTED FOR PRIVACY", org="Domains By Proxy, LLC"
                                              if registrar.startswith("GoDaddy") else "Privacy service provided by Withheld for Privacy ehf",
                                              email=None, adr=["", "", "", "", "FL", "", "US"])
            registrant["remarks"] = [{"title": "REDACTED FOR PRIVACY",
                                      "description": ["Some of the data in this object has been removed."],
                                      "type": "object redacted due to authorization"}]
        else:
            registrant["vcardArray"] = _vcard(r.get("name") or r.get("org") or "", org=r.get("org"),
                                              email=r.get("email"), tel=r.get("tel"),
                                              adr=["", "", r.get("street", ""), r.get("city", ""), "FL",
                                                   r.get("postal", ""), "US"])
        abuse_email, abuse_tel = REGISTRAR_ABUSE.get(registrar, (f"abuse@{registrar.split()[0].lower().strip(',.')}.test",
                                                                 "+1.5555550100"))
        out: dict[str, Any] = {
            "objectClassName": "domain",
            "handle": handle,
            "ldhName": dom.name.upper(),
            "rdapConformance": ["rdap_level_0", "icann_rdap_technical_implementation_guide_1",
                                "icann_rdap_response_profile_1", "redacted"],
            "status": ["client delete prohibited", "client renew prohibited", "client transfer prohibited",
                       "client update prohibited"],
            "events": [
                {"eventAction": "registration", "eventDate": f"{created.isoformat()}T14:21:05Z"},
                {"eventAction": "expiration", "eventDate": f"{expires.isoformat()}T14:21:05Z"},
                {"eventAction": "last changed", "eventDate": f"{changed.isoformat()}T09:12:44Z"},
                {"eventAction": "last update of RDAP database", "eventDate": "2026-01-01T00:00:00Z"},
            ],
            "entities": [
                {"objectClassName": "entity", "handle": REGISTRAR_IDS.get(registrar, "9999"), "roles": ["registrar"],
                 "publicIds": [{"type": "IANA Registrar ID", "identifier": REGISTRAR_IDS.get(registrar, "9999")}],
                 "vcardArray": _vcard(registrar),
                 "entities": [{"objectClassName": "entity", "roles": ["abuse"],
                               "vcardArray": _vcard("", email=abuse_email, tel=abuse_tel)}]},
                registrant,
            ],
            "nameservers": [{"objectClassName": "nameserver", "ldhName": f"NS{i}.{dom.name.upper()}"} for i in (1, 2)],
            "secureDNS": {"delegationSigned": False},
            "links": [{"value": self.url(f"/domain/{dom.name}"), "rel": "self", "href": self.url(f"/domain/{dom.name}"),
                       "type": RDAP_TYPE}],
            "notices": [{"title": "Terms of Use", "description": ["Sandbox RDAP data is fictional."]}],
        }
        if privacy:
            out["redacted"] = [{"name": {"type": "Registrant Name"}, "method": "removal", "reason": {"description": "Server policy"}},
                               {"name": {"type": "Registrant Email"}, "method": "removal", "reason": {"description": "Server policy"}}]
        return out

"""Unit tests for sadie_pipeline.core.enrichment.rdap on RFC 9083 responses shaped like real
registrar answers: an open record, a redacted one (RFC 9537), a privacy-service one, errors."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from sadie_pipeline.core.enrichment.rdap import RdapError, is_privacy_value, parse_rdap


def vcard(*props):
    return ["vcard", [["version", {}, "text", "4.0"], *props]]


REGISTRAR = {
    "objectClassName": "entity", "handle": "146", "roles": ["registrar"],
    "publicIds": [{"type": "IANA Registrar ID", "identifier": "146"}],
    "vcardArray": vcard(["fn", {}, "text", "GoDaddy.com, LLC"]),
    "entities": [{
        "objectClassName": "entity", "roles": ["abuse"],
        "vcardArray": vcard(["fn", {}, "text", ""], ["tel", {"type": "voice"}, "uri", "tel:+1.4806242505"],
                            ["email", {}, "text", "abuse@godaddy.com"]),
    }],
}
EVENTS = [
    {"eventAction": "registration", "eventDate": "2004-06-14T18:22:10Z"},
    {"eventAction": "expiration", "eventDate": "2026-06-14T18:22:10Z"},
    {"eventAction": "last changed", "eventDate": "2024-05-30T09:01:02.123+0000"},
    {"eventAction": "last update of RDAP database", "eventDate": "2025-01-10T00:00:00Z"},
]
OPEN = {
    "objectClassName": "domain", "ldhName": "SEASIDEINN.COM", "handle": "123_DOMAIN_COM-VRSN",
    "status": ["client transfer prohibited", "client delete prohibited"],
    "events": EVENTS,
    "nameservers": [{"objectClassName": "nameserver", "ldhName": "NS1.SEASIDEINN.COM."},
                    {"objectClassName": "nameserver", "ldhName": "ns2.seasideinn.com"}],
    "entities": [
        REGISTRAR,
        {"objectClassName": "entity", "roles": ["registrant"], "vcardArray": vcard(
            ["fn", {}, "text", "Maria Lopez"], ["org", {}, "text", "Seaside Hospitality LLC"], ["kind", {}, "text", "individual"],
            ["adr", {"cc": "us"}, "text", ["", "", "123 Ocean Dr", "Miami Beach", "FL", "33139", ""]],
            ["email", {}, "text", "Maria.Lopez@SeasideInn.com"],
            ["tel", {"type": ["voice"]}, "uri", "tel:+1.3055550142"])},
        {"objectClassName": "entity", "roles": ["administrative", "technical"], "vcardArray": vcard(
            ["fn", {}, "text", "Web Team"], ["email", {}, "text", "webmaster@seasideinn.com"],
            ["tel", {}, "text", "305-555-0199"])},
    ],
}
REDACTED = {
    "objectClassName": "domain", "ldhName": "harborhotel.ca", "events": EVENTS[:2],
    "entities": [
        REGISTRAR,
        {"objectClassName": "entity", "roles": ["registrant"], "vcardArray": vcard(
            ["fn", {}, "text", "REDACTED FOR PRIVACY"], ["org", {}, "text", "Harbour Hotel Group Inc."],
            ["adr", {}, "text", ["", "", "REDACTED FOR PRIVACY", "REDACTED FOR PRIVACY", "PE", "REDACTED FOR PRIVACY", "CA"]],
            ["email", {}, "text", "Please query the RDDS service of the Registrar of Record identified in this output."]),
         "remarks": [{"title": "REDACTED FOR PRIVACY", "type": "object redacted due to authorization",
                      "description": ["Some of the data in this object has been removed."]}]},
    ],
    "redacted": [{"name": {"type": "Registrant Name"}, "method": "removal",
                  "prePath": "$.entities[?(@.roles[0]=='registrant')].vcardArray[1][?(@[0]=='fn')][3]"},
                 {"name": {"type": "Registrant Email"}, "method": "replacementValue"}],
}
PRIVACY_SERVICE = {
    "objectClassName": "domain", "ldhName": "beachmotel.com",
    "entities": [
        REGISTRAR,
        {"objectClassName": "entity", "roles": ["registrant"], "vcardArray": vcard(
            ["fn", {}, "text", "Registration Private"], ["org", {}, "text", "Domains By Proxy, LLC"],
            ["email", {}, "text", "beachmotel.com@domainsbyproxy.com"],
            ["tel", {}, "uri", "tel:+1.4806242599"])},
        {"objectClassName": "entity", "roles": ["technical"], "vcardArray": vcard(
            ["fn", {}, "text", "Sam Patel"], ["email", {}, "text", "sam@beachmotel.com"])},
    ],
}


def test_open_record_gives_registrant_registrar_contacts_and_dates():
    r = parse_rdap(OPEN)
    assert r.domain == "seasideinn.com"
    assert (r.registrar, r.registrar_iana_id) == ("GoDaddy.com, LLC", "146")
    assert (r.registrant_name, r.registrant_org, r.registrant_country) == ("Maria Lopez", "Seaside Hospitality LLC", "US")
    # registrant first, then admin/tech; the registrar's abuse contact is not the hotel's
    assert r.emails == ("maria.lopez@seasideinn.com", "webmaster@seasideinn.com")
    assert r.phones == ("+13055550142", "+13055550199")
    assert r.created == datetime(2004, 6, 14, 18, 22, 10, tzinfo=UTC)
    assert r.expires.year == 2026
    assert r.updated == datetime(2024, 5, 30, 9, 1, 2, 123000, tzinfo=UTC)
    assert r.nameservers == ("ns1.seasideinn.com", "ns2.seasideinn.com")
    assert "client transfer prohibited" in r.statuses
    assert r.privacy_protected is False
    registrant = next(c for c in r.contacts if "registrant" in c.roles)
    assert registrant.address == "123 Ocean Dr, Miami Beach, FL, 33139"
    dms = r.decision_makers()
    assert dms == [{"full_name": "Maria Lopez", "title": "Domain Registrant", "organization": "Seaside Hospitality LLC",
                    "email": "maria.lopez@seasideinn.com", "phone": "+13055550142", "sources": ["rdap"],
                    "confidence": 0.75}]
    assert r.as_row()["privacy_protected"] is False


def test_redacted_record_is_privacy_protected_but_keeps_the_organisation():
    r = parse_rdap(json.dumps(REDACTED))
    assert r.privacy_protected is True
    assert r.registrant_name is None
    assert r.registrant_org == "Harbour Hotel Group Inc."
    assert r.registrant_country == "CA"
    assert r.emails == () and r.phones == ()
    assert r.decision_makers() == []
    registrant = next(c for c in r.contacts if "registrant" in c.roles)
    assert registrant.redacted and registrant.address == "PE, CA"


def test_privacy_service_addresses_are_not_the_hotels():
    r = parse_rdap(PRIVACY_SERVICE)
    assert r.privacy_protected is True
    assert r.registrant_org is None and r.registrant_name is None
    assert r.emails == ("sam@beachmotel.com",)  # the technical contact is real
    assert "+14806242599" in r.phones  # numbers are kept; the flag tells they may be the proxy's
    assert r.decision_makers() == []


def test_org_only_registrant_is_not_a_person():
    obj = {"objectClassName": "domain", "ldhName": "x.com", "entities": [
        {"roles": ["registrant"], "vcardArray": vcard(["fn", {}, "text", "Sunset Resorts LLC"],
                                                      ["email", {}, "text", "it@sunsetresorts.com"])}]}
    dms = parse_rdap(obj).decision_makers()
    assert dms[0]["full_name"] is None and dms[0]["email"] == "it@sunsetresorts.com"


@pytest.mark.parametrize("value, privacy", [
    ("REDACTED FOR PRIVACY", True),
    ("Privacy service provided by Withheld for Privacy ehf", True),
    ("Domains By Proxy, LLC", True),
    ("Data Protected", True),
    ("Statutory Masking Enabled", True),
    ("Contact Privacy Inc. Customer 0123456", True),
    ("Hidden Valley Resort LLC", False),
    ("Maria Lopez", False),
])
def test_privacy_values(value, privacy):
    assert is_privacy_value(value) is privacy


@pytest.mark.parametrize("bad", [
    {"errorCode": 404, "title": "Not Found"},
    {"objectClassName": "entity", "handle": "X"},
    "not json",
    ["domain"],
])
def test_errors_and_non_domain_objects_raise(bad):
    with pytest.raises(RdapError):
        parse_rdap(bad)


def test_minimal_registry_record_without_contacts():
    r = parse_rdap({"objectClassName": "domain", "ldhName": "example-inn.com", "entities": [REGISTRAR],
                    "events": [{"eventAction": "registration", "eventDate": "not a date"}]})
    assert r.registrar == "GoDaddy.com, LLC" and r.created is None
    assert r.privacy_protected is False and r.emails == () and r.contacts == ()

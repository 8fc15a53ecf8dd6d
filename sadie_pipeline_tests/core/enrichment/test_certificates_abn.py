"""The pure logic of the certificate transparency and ABN layers: PEM reading (OV / EV / DV,
SANs, sibling domains), the WHOIS cross-reference, crt.sh rows, the ABN checksum, JSONP and the
register name that is a hotel."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from sadie_pipeline.core.enrichment.abn import (
    abn_valid,
    best_match,
    parse_jsonp,
    read_details,
    sole_trader_name,
)
from sadie_pipeline.core.enrichment.certificates import (
    certificates_to_fetch,
    crtsh_entries,
    normalise_org,
    org_matches,
    parse_pem,
    sibling_domains,
    summarise,
)

KEY = ec.generate_private_key(ec.SECP256R1())


def pem(cn: str, sans: list[str], org: str | None = None, policy: str | None = None, days_ago: int = 10) -> str:
    subject = [x509.NameAttribute(NameOID.COMMON_NAME, cn)]
    if org:
        subject.insert(0, x509.NameAttribute(NameOID.ORGANIZATION_NAME, org))
    start = datetime(2026, 1, 1, tzinfo=UTC) - timedelta(days=days_ago)
    builder = (x509.CertificateBuilder().subject_name(x509.Name(subject))
               .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test CA")]))
               .public_key(KEY.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(start).not_valid_after(start + timedelta(days=90))
               .add_extension(x509.SubjectAlternativeName([x509.DNSName(n) for n in sans]), critical=False))
    if policy:
        builder = builder.add_extension(x509.CertificatePolicies(
            [x509.PolicyInformation(x509.ObjectIdentifier(policy), None)]), critical=False)
    return builder.sign(KEY, hashes.SHA256()).public_bytes(serialization.Encoding.PEM).decode()


def test_ov_certificate_names_its_organisation_and_sans() -> None:
    info = parse_pem(pem("seaview.test", ["seaview.test", "www.seaview.test", "palmcove.test"],
                         org="Sea View Hospitality LLC", policy="2.23.140.1.2.2"))
    assert (info.validation, info.organisation, info.common_name) == ("OV", "Sea View Hospitality LLC", "seaview.test")
    assert info.sans == ("seaview.test", "www.seaview.test", "palmcove.test")
    assert parse_pem(pem("x.test", ["x.test"], org="X Pty Ltd", policy="2.23.140.1.1")).validation == "EV"
    # no policy OID: an O= in the subject means the CA validated an organisation
    assert parse_pem(pem("x.test", ["x.test"], org="X Inc")).validation == "OV"


def test_dv_certificate_has_no_organisation() -> None:
    info = parse_pem(pem("seaview.test", ["seaview.test", "www.seaview.test"], policy="2.23.140.1.2.1"))
    assert (info.validation, info.organisation) == ("DV", None)
    assert parse_pem(pem("x.test", ["x.test"])).validation == "DV"


def test_siblings_are_other_registrable_domains() -> None:
    names = ["seaview.test", "www.seaview.test", "*.book.seaview.test", "www.palmcove.test", "*.harbor.co.uk"]
    assert sibling_domains(names, "seaview.test") == ["harbor.co.uk", "palmcove.test"]


@pytest.mark.parametrize(("a", "b", "same"), [
    ("Sea View Hospitality, L.L.C.", "SEA VIEW HOSPITALITY LLC", True),
    ("Coastal Hospitality Group, Inc.", "Coastal Hospitality Group", True),
    ("Sea View Hospitality Pty. Ltd.", "sea view hospitality", True),
    ("Sea View Hospitality LLC", "Palm Cove Hospitality LLC", False),
    ("Domains By Proxy, LLC", "Sea View Hospitality LLC", False),
])
def test_org_names_compare_without_legal_forms(a: str, b: str, same: bool) -> None:
    assert org_matches(a, b) is same
    assert normalise_org("LLC") == "" and not org_matches("LLC", "Inc")


def test_summary_cross_references_whois() -> None:
    ov = parse_pem(pem("seaview.test", ["seaview.test", "palmcove.test"], org="Sea View Hospitality LLC",
                       policy="2.23.140.1.2.2"))
    dv = parse_pem(pem("seaview.test", ["seaview.test", "unrelated-customer.test"], policy="2.23.140.1.2.1"))
    found = summarise([ov, dv], "seaview.test", ["Sea View Hospitality, L.L.C."])
    assert found["cert_orgs"] == ["Sea View Hospitality LLC"]
    assert found["cert_sibling_domains"] == ["palmcove.test"]  # a DV certificate's SANs prove nothing
    assert found["cert_org_matches_whois"] is True
    assert summarise([ov], "seaview.test", ["Someone Else Inc"])["cert_org_matches_whois"] is False
    assert summarise([ov], "seaview.test", [None])["cert_org_matches_whois"] is None
    assert summarise([dv], "seaview.test", ["Sea View Hospitality LLC"])["cert_orgs"] == []


def test_crtsh_rows_and_which_certificates_to_fetch() -> None:
    rows = [
        {"id": 1, "issuer_name": "C=US, O=Let's Encrypt, CN=R11", "name_value": "a.test\nwww.a.test",
         "not_before": "2026-01-01T00:00:00", "serial_number": "aa"},
        {"id": 2, "issuer_name": "C=GB, O=Sectigo Limited, CN=Sectigo RSA Organization Validation Secure Server CA",
         "name_value": "a.test", "not_before": "2025-06-01T00:00:00", "serial_number": "bb"},
        {"id": 3, "issuer_name": "C=GB, O=Sectigo Limited, CN=Sectigo RSA Organization Validation Secure Server CA",
         "name_value": "a.test", "not_before": "2025-06-01T00:00:00", "serial_number": "bb"},  # its precertificate
        {"id": 4, "issuer_name": "C=US, O=DigiCert Inc, CN=DigiCert EV RSA CA G2", "name_value": "A.test\n",
         "not_before": "2024-06-01T00:00:00", "serial_number": "cc"},
        {"name_value": "no id"},
    ]
    entries = crtsh_entries(rows)
    assert [e.id for e in entries] == [1, 2, 3, 4] and entries[0].names == ("a.test", "www.a.test")
    assert certificates_to_fetch(entries) == [3, 4]
    assert certificates_to_fetch(entries, limit=1) == [3]
    with pytest.raises(ValueError):
        crtsh_entries({"error": "overloaded"})


def test_abn_checksum() -> None:
    assert abn_valid("51 824 753 556") and abn_valid("53004085616")
    assert not abn_valid("51824753557") and not abn_valid("5182475355") and not abn_valid("abcdefghijk")
    assert not abn_valid(None)


def test_jsonp_and_details() -> None:
    data = parse_jsonp('cb({"Abn":"51824753556","AbnStatus":"Active","BusinessName":["Sea View Hotel Sydney"],'
                       '"EntityName":"SEA VIEW HOSPITALITY PTY LTD","EntityTypeCode":"PRV","AddressState":"NSW",'
                       '"AddressPostcode":"2000","Message":""});')
    details = read_details(data)
    assert details is not None and details.trading_names == ("Sea View Hotel Sydney",)
    assert (details.abn, details.state, details.status) == ("51824753556", "NSW", "Active")
    assert sole_trader_name(details) is None
    assert read_details(parse_jsonp('callback({"Abn":"","Message":"No record found"})')) is None
    person = read_details({**data, "EntityTypeCode": "IND", "EntityName": "CITIZEN, JANE MARY"})
    assert person is not None and sole_trader_name(person) == "Jane Mary Citizen"
    with pytest.raises(ValueError):
        parse_jsonp("callback([1, 2])")


def test_best_match_by_name_and_state() -> None:
    names = [
        {"Abn": "51824753556", "Name": "SEA VIEW HOTEL SYDNEY", "State": "NSW", "IsCurrent": True, "Score": 100},
        {"Abn": "53004085616", "Name": "SEA VIEW HOTEL SYDNEY", "State": "VIC", "IsCurrent": True, "Score": 100},
        {"Abn": "51824753557", "Name": "Sea View Hotel Sydney", "State": "NSW", "IsCurrent": True},  # bad checksum
        {"Abn": "33051775556", "Name": "PALM COVE INN", "State": "NSW", "IsCurrent": True, "Score": 70},
    ]
    match = best_match(names, "Sea View Hotel Sydney", "NSW")
    assert match is not None and match["Abn"] == "51824753556" and match["match_score"] == 100
    assert best_match(names, "Sea View Hotel Sydney", "QLD") is None
    assert best_match(names, "Coral Bay Resort Sydney", "NSW") is None
    # two ABNs for the same name and state: no guess
    tie = [names[0], {**names[0], "Abn": "53004085616"}]
    assert best_match(tie, "Sea View Hotel Sydney", "NSW") is None

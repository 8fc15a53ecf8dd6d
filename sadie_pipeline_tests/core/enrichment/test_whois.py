"""WHOIS text, CDX rows and archived lookup pages read by core.enrichment.whois (pure)."""

from __future__ import annotations

from datetime import date

import pytest

from sadie_pipeline.core.enrichment.whois import (
    Capture,
    WhoisRecord,
    is_not_found,
    is_rate_limited,
    merge_records,
    newest_unmasked,
    parse_cdx,
    parse_whois,
    registrant_belongs,
    whois_text_from_html,
)

REGISTRY = """   Domain Name: EXAMPLEHOTEL.COM
   Registry Domain ID: 2336799_DOMAIN_COM-VRSN
   Registrar WHOIS Server: whois.godaddy.com
   Registrar URL: http://www.godaddy.com
   Updated Date: 2024-08-14T07:01:34Z
   Creation Date: 2009-03-14T04:00:00Z
   Registry Expiry Date: 2026-03-14T04:00:00Z
   Registrar: GoDaddy.com, LLC
   Registrar IANA ID: 146
   Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited
   Name Server: NS1.EXAMPLEHOTEL.COM
   Name Server: NS2.EXAMPLEHOTEL.COM
>>> Last update of whois database: 2026-01-01T00:00:00Z <<<
"""
THICK = """Domain Name: examplehotel.com
Registrar WHOIS Server: whois.godaddy.com
Registrar: GoDaddy.com, LLC
Creation Date: 2009-03-14T04:00:00Z
Registrant Name: Maria Lopez
Registrant Organization: Biscayne Bay Hospitality LLC
Registrant State/Province: FL
Registrant Email: Maria.Lopez@examplehotel.com
"""
MASKED = {
    "godaddy": ("Registration Private", "Domains By Proxy, LLC",
                "Select Contact Domain Holder link at https://www.godaddy.com/whois/results.aspx?domain=x.com"),
    "namecheap": ("Redacted for Privacy", "Privacy service provided by Withheld for Privacy ehf",
                  "0c1d2e@withheldforprivacy.com"),
    "icann": ("REDACTED FOR PRIVACY", "REDACTED FOR PRIVACY",
              "Please query the RDDS service of the Registrar of Record identified in this output."),
}


def test_registry_record_refers_to_the_registrar_and_names_nobody() -> None:
    record = parse_whois(REGISTRY)
    assert record.referral == "whois.godaddy.com" and record.registrar == "GoDaddy.com, LLC"
    assert (record.created, record.updated, record.expires) == (date(2009, 3, 14), date(2024, 8, 14), date(2026, 3, 14))
    assert record.name_servers == ("ns1.examplehotel.com", "ns2.examplehotel.com")
    assert record.domain == "examplehotel.com"
    assert not record.privacy and record.registrant_name is None and not record.has_registrant


def test_registrar_record_names_the_registrant() -> None:
    record = parse_whois(THICK)
    assert (record.registrant_name, record.registrant_org, record.registrant_email) == (
        "Maria Lopez", "Biscayne Bay Hospitality LLC", "maria.lopez@examplehotel.com")
    assert not record.privacy
    merged = merge_records([parse_whois(REGISTRY), record])
    assert merged.registrant_name == "Maria Lopez" and merged.expires == date(2026, 3, 14)  # from the registry


@pytest.mark.parametrize("style", sorted(MASKED))
def test_privacy_masked_registrants(style: str) -> None:
    name, org, email = MASKED[style]
    record = parse_whois(f"Domain Name: x.com\nRegistrant Name: {name}\nRegistrant Organization: {org}\n"
                         f"Registrant Email: {email}\n")
    assert record.privacy
    assert (record.registrant_name, record.registrant_org, record.registrant_email) == (None, None, None)
    # the registrar's placeholder never counts as the registrant, even merged after an unmasked record
    assert merge_records([parse_whois(THICK), record]).registrant_name is None


def test_iana_and_arin_style_referrals() -> None:
    assert parse_whois("domain:       COM\nrefer:        whois.verisign-grs.com\n").referral == "whois.verisign-grs.com"
    assert parse_whois("ReferralServer: whois://whois.example.net:43\n").referral == "whois.example.net:43"


def test_not_found_and_rate_limited_answers() -> None:
    assert is_not_found('No match for "NOSUCHHOTEL.COM".\r\n>>> Last update of whois database: x <<<\r\n')
    assert is_not_found("Domain not found.\n") and is_not_found("%% NOT FOUND\n")
    assert not is_not_found(REGISTRY) and not is_not_found(THICK)
    assert is_rate_limited("WHOIS LIMIT EXCEEDED - SEE WWW.PIR.ORG/WHOIS FOR DETAILS\n")
    assert is_rate_limited("Your connection limit exceeded. Please slow down and try again later.\n")
    assert not is_rate_limited(REGISTRY)


def test_cdx_rows_after_the_field_names() -> None:
    body = ('[["timestamp","original","statuscode"],'
            '["20170609045450","https://www.whois.com/whois/x.test","200"],'
            '["2019030219","https://www.whois.com/whois/x.test","200"],'
            '["","https://www.whois.com/whois/x.test","200"]]')
    captures = parse_cdx(body)
    assert captures == [Capture("20170609045450", "https://www.whois.com/whois/x.test", "200"),
                        Capture("2019030219", "https://www.whois.com/whois/x.test", "200")]
    assert captures[0].day == date(2017, 6, 9)
    assert parse_cdx("[]") == [] and parse_cdx(b"[]") == []


def test_whois_text_of_an_archived_lookup_page() -> None:
    page = ("<html><body><pre class='nav'>menu</pre><div><pre class=\"df-raw\" id=\"registrarData\">"
            "Domain Name: x.test\nRegistrant Name: Ana &amp; Luis Ortega\nRegistrant Email: ana@x.test\n"
            "&gt;&gt;&gt; Last update &lt;&lt;&lt;</pre></div></body></html>")
    text = whois_text_from_html(page)
    assert "Registrant Name: Ana & Luis Ortega" in text and "menu" not in text
    assert parse_whois(text).registrant_email == "ana@x.test"


def test_newest_unmasked_snapshot_wins() -> None:
    owner = WhoisRecord(registrant_name="Oscar Castillo", registrant_email="oscar@x.test")
    older = WhoisRecord(registrant_name="Previous Owner")
    masked = WhoisRecord(privacy=True)
    org_only = WhoisRecord(registrant_org="X Hospitality LLC")
    snapshots = [(date(2012, 1, 1), older), (date(2017, 6, 9), owner), (date(2019, 3, 2), masked),
                 (date(2020, 1, 1), org_only)]
    assert newest_unmasked(snapshots) == (date(2017, 6, 9), owner)
    assert newest_unmasked([(date(2019, 3, 2), masked)]) is None


def test_a_web_agency_registrant_is_not_the_hotels() -> None:
    org = "Sea Palm Hospitality LLC"
    assert not registrant_belongs("kevin@pixel.test", org, "seapalminn.test", "Sea Palm Inn")
    assert registrant_belongs("helen.whitaker@seapalminn.test", org, "seapalminn.test", "Sea Palm Inn")
    assert registrant_belongs("helen@mail.seapalminn.test", org, "seapalminn.test")
    assert registrant_belongs("domains@keyslodging.test", "Keys Lodging Partners LLC", "southernmost.test")
    assert registrant_belongs("seapalm.owner@gmail.com", org, "seapalminn.test")
    assert registrant_belongs(None, org, "seapalminn.test")

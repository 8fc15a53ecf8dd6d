"""Unit tests for sadie_pipeline.core.enrichment.dns_email: MX -> provider, gateways, SPF, DMARC."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.enrichment.dns_email import (
    analyze_email_dns,
    gateway_from_mx,
    mx_hosts,
    parse_dmarc,
    parse_spf,
    provider_from_mx,
    spf_providers,
)


@pytest.mark.parametrize("hosts, provider", [
    (["aspmx.l.google.com.", "alt1.aspmx.l.google.com.", "aspmx2.googlemail.com."], "google_workspace"),
    (["smtp.google.com."], "google_workspace"),
    (["seasideinn-com.mail.protection.outlook.com."], "microsoft_365"),
    (["seasideinn-com.r-v1.mx.microsoft."], "microsoft_365"),
    (["mx.zoho.com", "mx2.zoho.com", "mx3.zoho.com"], "zoho"),
    (["smtp.secureserver.net", "mailstore1.secureserver.net"], "godaddy"),
    (["mta5.am0.yahoodns.net"], "yahoo"),
    (["in1-smtp.messagingengine.com", "in2-smtp.messagingengine.com"], "fastmail"),
    (["mx01.mail.icloud.com"], "icloud"),
    (["mail.protonmail.ch"], "proton"),
    (["mx1.emailsrvr.com"], "rackspace"),
    (["mx00.ionos.com"], "ionos"),
    (["mx1.privateemail.com"], "namecheap"),
    (["mx1.hostinger.com"], "hostinger"),
    (["mx1.titan.email"], "titan"),
    (["mail.seasideinn.com"], "self_hosted"),
    (["mx.unknown-isp.net"], None),
    ([], None),
])
def test_provider_from_mx(hosts, provider):
    assert provider_from_mx(hosts, "seasideinn.com") == provider


@pytest.mark.parametrize("hosts, gateway", [
    (["mx0a-001b2d01.pphosted.com"], "proofpoint"),
    (["us-smtp-inbound-1.mimecast.com", "us-smtp-inbound-2.mimecast.com"], "mimecast"),
    (["d123456a.ess.barracudanetworks.com"], "barracuda"),
    (["mx1.hc1234-56.iphmx.com"], "cisco_secure_email"),
    (["inbound.hydra.sophos.com"], "sophos"),
    (["aspmx.l.google.com"], None),
])
def test_gateways(hosts, gateway):
    assert gateway_from_mx(hosts) == gateway
    if gateway:
        assert provider_from_mx(hosts) is None  # a gateway is not the mailbox


def test_mx_hosts_accepts_resolver_shapes_orders_by_preference_and_drops_null_mx():
    assert mx_hosts(["20 ALT1.ASPMX.L.GOOGLE.COM.", "10 aspmx.l.google.com.", (30, "alt2.aspmx.l.google.com.")]) == [
        "aspmx.l.google.com", "alt1.aspmx.l.google.com", "alt2.aspmx.l.google.com"]
    assert mx_hosts(["0 ."]) == []  # RFC 7505 null MX: accepts no mail
    assert mx_hosts(["10 mx.a.com.", "10 mx.a.com"]) == ["mx.a.com"]


def test_parse_spf_with_chunked_and_quoted_records():
    txt = ['"google-site-verification=abc123"',
           '"v=spf1 include:_spf.google.com include:servers.mcsv.net " "ip4:203.0.113.5 -all"',
           "MS=ms12345678"]
    spf = parse_spf(txt)
    assert spf.includes == ("_spf.google.com", "servers.mcsv.net")
    assert spf.ip4 == ("203.0.113.5",)
    assert spf.all == "-all"
    assert spf_providers(spf) == ["google_workspace", "mailchimp"]
    assert parse_spf(["v=spf10 nothing", "some text"]) is None
    redirect = parse_spf([b"v=spf1 redirect=spf.protection.outlook.com"])
    assert redirect.redirect == "spf.protection.outlook.com" and redirect.all is None
    assert spf_providers(redirect) == ["microsoft_365"]
    assert parse_spf([["v=spf1 ", "include:sendgrid.net ~all"]]).all == "~all"


def test_parse_dmarc():
    d = parse_dmarc(['"v=DMARC1; p=quarantine; sp=none; pct=50; rua=mailto:dmarc@seasideinn.com,mailto:x@rua.example"'])
    assert (d.policy, d.subdomain_policy, d.pct) == ("quarantine", "none", 50)
    assert d.rua == ("dmarc@seasideinn.com", "x@rua.example")
    assert parse_dmarc(["v=spf1 -all"]) is None
    assert parse_dmarc([]) is None


def test_analyze_google_workspace_domain():
    dns = analyze_email_dns(
        "www.seasideinn.com",
        mx_records=["1 aspmx.l.google.com.", "5 alt1.aspmx.l.google.com."],
        txt_records=["v=spf1 include:_spf.google.com ~all"],
        dmarc_records=["v=DMARC1; p=none; rua=mailto:dmarc@seasideinn.com"],
    )
    assert dns.domain == "seasideinn.com"
    assert (dns.provider, dns.mx_provider, dns.gateway) == ("google_workspace", "google_workspace", None)
    assert dns.has_mx and dns.has_spf and dns.has_dmarc and dns.dmarc_policy == "none"
    row = dns.as_row()
    assert row["email_provider"] == "google_workspace" and row["spf_all"] == "~all"
    assert row["mx_hosts"] == ["aspmx.l.google.com", "alt1.aspmx.l.google.com"]


def test_behind_a_gateway_the_provider_comes_from_spf():
    dns = analyze_email_dns(
        "grandhotel.com",
        mx_records=["10 mx0a-001.pphosted.com.", "10 mx0b-001.pphosted.com."],
        txt_records=["v=spf1 include:spf.protection.outlook.com include:pphosted.com -all"],
    )
    assert dns.gateway == "proofpoint"
    assert dns.mx_provider is None
    assert dns.provider == "microsoft_365"
    assert not dns.has_dmarc


def test_unknown_mx_falls_back_to_spf_then_txt_verification_token():
    via_spf = analyze_email_dns("inn.ca", ["10 mail.isp-hosting.ca."], ["v=spf1 include:zoho.com ~all"])
    assert via_spf.provider == "zoho"
    via_token = analyze_email_dns("inn.ca", ["10 mail.isp-hosting.ca."], ["MS=ms99887766"])
    assert via_token.provider == "microsoft_365" and via_token.txt_hints == ("microsoft_365",)
    self_hosted = analyze_email_dns("inn.ca", ["10 mail.inn.ca."], [])
    assert self_hosted.provider == "self_hosted"
    nothing = analyze_email_dns("parked.com", [], ["v=spf1 -all"])
    assert not nothing.has_mx and nothing.provider is None

"""dnspython against the sandbox nameserver; RDAP through httpx."""

from __future__ import annotations

import dns.message
import dns.query
import dns.rcode
import dns.resolver
import httpx
import pytest

from sadie_pipeline.sandbox import Sandbox


def test_mx_txt_and_a(sb: Sandbox) -> None:
    r = sb.resolver()
    mx = sorted((rr.preference, rr.exchange.to_text()) for rr in r.resolve("biscaynebayinn.test", "MX"))
    assert mx[0] == (1, "aspmx.l.google.com.")
    outlook = [rr.exchange.to_text() for rr in r.resolve("littlehavanasuites.test", "MX")]
    assert outlook == ["littlehavanasuites-test.mail.protection.outlook.com."]
    txt = [b"".join(rr.strings).decode() for rr in r.resolve("littlehavanasuites.test", "TXT")]
    assert "v=spf1 include:spf.protection.outlook.com -all" in txt
    assert any(t.startswith("MS=ms") for t in txt)
    assert [a.address for a in r.resolve("www.biscaynebayinn.test", "A")] == ["127.0.0.1"]
    assert sb.stats("dns")["requests"] == 4
    assert sb.stats("dns")["statuses"]["NOERROR"] == 4


def test_no_mx_nxdomain_and_tcp(sb: Sandbox) -> None:
    r = sb.resolver()
    with pytest.raises(dns.resolver.NoAnswer):
        r.resolve("coralwaymotorlodge.test", "MX")  # no mail provider
    with pytest.raises(dns.resolver.NXDOMAIN):
        r.resolve("kissimmeegatewayinn.test", "A")  # the nxdomain site
    with pytest.raises(dns.resolver.NXDOMAIN):
        r.resolve("no-such-hotel.test", "MX")
    ip, port = sb.nameserver
    resp = dns.query.tcp(dns.message.make_query("mallorysquareresort.test", "MX"), ip, port=port, timeout=2)
    assert resp.rcode() == dns.rcode.NOERROR and resp.answer


def test_dns_knobs(sb: Sandbox) -> None:
    sb.configure("dns", error_rate=1.0)
    ip, port = sb.nameserver
    resp = dns.query.udp(dns.message.make_query("biscaynebayinn.test", "MX"), ip, port=port, timeout=2)
    assert resp.rcode() == dns.rcode.SERVFAIL
    sb.configure("dns", error_rate=0.0, timeout_rate=1.0)
    with pytest.raises(dns.exception.Timeout):
        dns.query.udp(dns.message.make_query("biscaynebayinn.test", "MX"), ip, port=port, timeout=0.3)
    assert sb.stats("dns")["timeouts"] == 1 and sb.stats("dns")["injected_errors"] == 1


def test_rdap_domain(sb: Sandbox) -> None:
    with httpx.Client(base_url=sb.base_url("rdap"), timeout=5) as c:
        r = c.get("/domain/biscaynebayinn.test")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/rdap+json")
        d = r.json()
        assert d["objectClassName"] == "domain" and d["ldhName"] == "BISCAYNEBAYINN.TEST"
        assert "rdap_level_0" in d["rdapConformance"]
        assert {e["eventAction"] for e in d["events"]} >= {"registration", "expiration"}
        registrant = next(e for e in d["entities"] if "registrant" in e["roles"])
        vcard = {p[0]: p[3] for p in registrant["vcardArray"][1]}
        assert vcard["org"] == "Biscayne Bay Hospitality LLC" and vcard["email"] == "admin@biscaynebayinn.test"
        registrar = next(e for e in d["entities"] if "registrar" in e["roles"])
        assert registrar["publicIds"][0]["identifier"] == "146"

        private = c.get("/domain/www.miamiriverhostel.test").json()  # subdomain -> registrable domain
        # littlehavanasuites.test is under a TLD without useful RDAP in the owner truth: WHOIS only
        assert c.get("/domain/littlehavanasuites.test").status_code == 404
        reg = next(e for e in private["entities"] if "registrant" in e["roles"])
        assert dict((p[0], p[3]) for p in reg["vcardArray"][1])["fn"] == "REDACTED FOR PRIVACY"
        assert private["redacted"]

        brand = c.get("/domain/hilton.test").json()
        reg = next(e for e in brand["entities"] if "registrant" in e["roles"])
        assert dict((p[0], p[3]) for p in reg["vcardArray"][1])["org"] == "Hilton Worldwide Holdings Inc."

        missing = c.get("/domain/kissimmeegatewayinn.test")
        assert missing.status_code == 404 and missing.json()["errorCode"] == 404
        assert c.get("/nope").status_code == 404

"""RdapResource (httpx) and DnsResource (dnspython's async resolver) against the sandbox."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.rdap_dns import DnsResource, RdapResource
from sadie_pipeline.resources.reliability import ServiceCallFailed
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline_tests.resources.helpers import run

FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, "backoff_jitter_s": 0.0, "requests_per_second": 1000}


def vcard(entity: dict[str, Any], prop: str) -> Any:
    return next((p[3] for p in entity["vcardArray"][1] if p[0] == prop), None)


def test_rdap_domain_and_not_found(sb: Sandbox) -> None:
    rdap = RdapResource(base_url=sb.base_url("rdap"), **FAST)

    async def lookups() -> Any:
        return await asyncio.gather(rdap.domain("biscaynebayinn.test"), rdap.domain("http://www.biscaynebayinn.test/"),
                                    rdap.domain("no-such-hotel.test"))

    found, by_url, missing = run(rdap, lookups)
    assert found["objectClassName"] == "domain" and found["ldhName"] == "BISCAYNEBAYINN.TEST"
    roles = {role: entity for entity in found["entities"] for role in entity["roles"]}
    assert vcard(roles["registrar"], "fn")
    assert "registrant" in roles
    assert by_url == found
    assert missing is None  # 404
    assert sb.stats("rdap")["statuses"] == {"200": 2, "404": 1}


def test_rdap_5xx_is_retried_then_dead_lettered(sb: Sandbox) -> None:
    sb.configure("rdap", error_rate=1.0, error_status=503)
    rdap = RdapResource(base_url=sb.base_url("rdap"), max_attempts=3, **FAST)
    with pytest.raises(ServiceCallFailed) as info:
        run(rdap, lambda: rdap.domain("biscaynebayinn.test"))
    assert info.value.error_class is ErrorClass.TRANSIENT and info.value.attempts == 3
    assert info.value.item_key == "biscaynebayinn.test"
    assert sb.stats("rdap")["requests"] == 3


def test_rdap_base_url_from_the_environment_through_the_definitions(sb: Sandbox,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SADIE_RDAP_BASE_URL", sb.base_url("rdap"))
    assert RdapResource().resolved_base_url() == "https://rdap.org"  # the resource itself reads no variable
    rdap = resolved(configured("rdap", **FAST))
    assert rdap.resolved_base_url() == sb.base_url("rdap")
    assert run(rdap, lambda: rdap.domain("miamiriverhostel.test"))["ldhName"] == "MIAMIRIVERHOSTEL.TEST"
    monkeypatch.delenv("SADIE_RDAP_BASE_URL")
    assert resolved(configured("rdap")).resolved_base_url() == "https://rdap.org"


def test_dns_mx_and_txt(sb: Sandbox) -> None:
    ip, port = sb.nameserver
    dns = DnsResource(nameserver=ip, port=port, **FAST)

    async def lookups() -> Any:
        return await asyncio.gather(
            dns.mx("biscaynebayinn.test"), dns.mx("littlehavanasuites.test"), dns.txt("littlehavanasuites.test"),
            dns.txt("_dmarc.littlehavanasuites.test"), dns.a("www.biscaynebayinn.test"),
        )

    google, outlook, txt, dmarc, a = run(dns, lookups)
    assert google[0] == (1, "aspmx.l.google.com") and [p for p, _ in google] == sorted(p for p, _ in google)
    assert outlook == [(0, "littlehavanasuites-test.mail.protection.outlook.com")]
    assert "v=spf1 include:spf.protection.outlook.com -all" in txt
    assert any(t.startswith("MS=ms") for t in txt)
    assert dmarc and dmarc[0].startswith("v=DMARC1")
    assert a == ["127.0.0.1"]


def test_dns_nxdomain_and_no_answer_are_empty(sb: Sandbox) -> None:
    ip, port = sb.nameserver
    dns = DnsResource(nameserver=f"{ip}:{port}", **FAST)  # "ip:port" works too

    async def lookups() -> Any:
        return await asyncio.gather(dns.mx("coralwaymotorlodge.test"), dns.mx("no-such-hotel.test"),
                                    dns.txt("kissimmeegatewayinn.test"), dns.a("kissimmeegatewayinn.test"))

    assert run(dns, lookups) == [[], [], [], []]  # no MX (NoAnswer), then NXDOMAIN x 3
    assert dns.resolved_nameserver() == (ip, port)


def test_dns_timeouts_are_retried_then_fail(sb: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    sb.configure("dns", timeout_rate=1.0)  # every query is dropped
    ip, port = sb.nameserver
    monkeypatch.setenv("SADIE_DNS_NAMESERVER", f"{ip}:{port}")
    dns = resolved(configured("dns", timeout_s=0.3, max_attempts=2, **FAST))
    with pytest.raises(ServiceCallFailed) as info:
        run(dns, lambda: dns.mx("biscaynebayinn.test"))
    assert info.value.error_class is ErrorClass.TRANSIENT and info.value.attempts == 2
    assert sb.stats("dns")["timeouts"] >= 2

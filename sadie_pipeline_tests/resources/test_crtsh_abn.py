"""CrtShResource and AbnLookupResource over real sockets against the sandbox's crt.sh and ABN
Lookup: crt.sh's JSON rows and PEM downloads (organisation and sibling domains as the world's
owner truth has them), ABN Lookup's JSONP name search and details, its GUID error, retries."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from sadie_pipeline.core.enrichment.abn import abn_valid, best_match, parse_jsonp, read_details
from sadie_pipeline.core.enrichment.certificates import crtsh_entries, parse_pem
from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resources.abn import AbnLookupResource
from sadie_pipeline.resources.crtsh import CrtShResource
from sadie_pipeline.resources.reliability import ServiceCallFailed, SkipItem
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline.sandbox.world import AU_CITIES, World, generate_hotels
from sadie_pipeline_tests.resources.helpers import run

FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, "backoff_jitter_s": 0.0, "requests_per_second": 1000}
GUID = "0f5e8a2c-6b1d-4c3e-9a7f-2d8b4e6c1a90"


def au_world() -> World:
    return World(generate_hotels(40, seed=31, country="AU", state="NSW", cities=AU_CITIES, id_prefix="au"))


@pytest.fixture(scope="module")
def au_sb() -> Iterator[Sandbox]:
    with Sandbox(world=au_world(), api_keys={"abr": GUID}, dns_port=None, https_port=None) as sb:
        yield sb


def _domains_by_company(sb: Sandbox) -> dict[str, list[str]]:
    """company -> its hotels' own domains (a chain's domain shared by several hotels is not one)."""
    shared = Counter(p.domain for p in sb.world.hotels)
    out: dict[str, list[str]] = {}
    for p in sb.world.hotels:
        if p.domain and sb.world.domains[p.domain].resolves and shared[p.domain] == 1:
            out.setdefault(owner_truth(p).company, []).append(p.domain)
    return out


def test_crtsh_lists_and_serves_a_domains_certificates(sb: Sandbox) -> None:
    crtsh = CrtShResource(base_url=sb.base_url("crtsh"), **FAST)
    truth = owner_truth(sb.world.hotel("mallorysquareresort.test"))
    assert truth.cert_type == "OV"

    async def lookups() -> Any:
        rows = await crtsh.search("mallorysquareresort.test")
        pems = [await crtsh.certificate(row["id"]) for row in rows]
        return rows, pems, await crtsh.search("no-such-hotel.test"), await crtsh.certificate(12345)

    rows, pems, missing, no_cert = run(crtsh, lookups)
    assert set(rows[0]) == {"issuer_ca_id", "issuer_name", "common_name", "name_value", "id", "entry_timestamp",
                            "not_before", "not_after", "serial_number", "result_count"}
    entries = crtsh_entries(rows)
    assert len(entries) == 2 and all("mallorysquareresort.test" in e.names for e in entries)
    certs = sorted((parse_pem(p) for p in pems), key=lambda c: c.not_before)
    assert [c.validation for c in certs] == ["DV", "OV"]  # an expired Let's Encrypt one, then the OV one
    assert certs[1].organisation == truth.cert_org == "Keys Lodging Partners"
    assert set(truth.cert_sans) <= set(certs[1].sans)
    assert missing == [] and no_cert is None
    assert sb.stats("crtsh")["statuses"] == {"200": 4, "404": 1}


def test_crtsh_dv_certificate_has_cn_only_and_sibling_domains(sb: Sandbox) -> None:
    crtsh = CrtShResource(base_url=sb.base_url("crtsh"), **FAST)
    siblings = _domains_by_company(sb)["Orange Blossom Hospitality"]
    assert "idriveresort.test" in siblings and len(siblings) >= 2

    async def newest() -> Any:
        rows = await crtsh.search("www.idriveresort.test")
        newest = max(rows, key=lambda r: r["not_before"])
        return await crtsh.certificate(newest["id"])

    cert = parse_pem(run(crtsh, newest))
    assert cert.validation == "DV" and cert.organisation is None and cert.common_name == "idriveresort.test"
    assert set(siblings) <= set(cert.sans)


def test_crtsh_overload_is_retried_then_dead_lettered(sb: Sandbox) -> None:
    sb.configure("crtsh", error_rate=1.0, error_status=503)
    crtsh = CrtShResource(base_url=sb.base_url("crtsh"), max_attempts=3, **FAST)
    with pytest.raises(ServiceCallFailed) as info:
        run(crtsh, lambda: crtsh.search("mallorysquareresort.test"))
    assert info.value.error_class is ErrorClass.TRANSIENT and info.value.attempts == 3


def test_crtsh_ov_certificate_lists_the_companys_other_hotels(au_sb: Sandbox) -> None:
    by_company = _domains_by_company(au_sb)
    hotel = next(p for p in au_sb.world.hotels if p.domain and owner_truth(p).cert_type != "DV"
                 and len(by_company.get(owner_truth(p).company, [])) > 1)
    truth = owner_truth(hotel)
    crtsh = CrtShResource(base_url=au_sb.base_url("crtsh"), **FAST)

    async def certificates() -> Any:
        return [await crtsh.certificate(row["id"]) for row in await crtsh.search(hotel.domain)]

    validated = [c for c in map(parse_pem, run(crtsh, certificates)) if c.validation != "DV"]
    assert len(validated) == 1 and validated[0].organisation == truth.company
    assert set(by_company[truth.company]) - {hotel.domain} <= set(validated[0].sans)


def test_abn_lookup_by_name_then_abn(au_sb: Sandbox) -> None:
    abr = AbnLookupResource(base_url=au_sb.base_url("abr"), guid=GUID, **FAST)
    hotel = next(p for p in au_sb.world.hotels if p.domain)
    record = owner_truth(hotel).abn
    assert record is not None and abn_valid(record.abn)

    async def lookups() -> Any:
        names = await abr.matching_names(hotel.name)
        match = best_match(names, hotel.name, hotel.state)
        return names, match, await abr.details(match["Abn"]), await abr.details("53004085616")

    names, match, details, unknown = run(abr, lookups)
    assert {"Abn", "AbnStatus", "IsCurrent", "Name", "NameType", "Postcode", "Score", "State"} <= set(names[0])
    assert match["Abn"] == record.abn and match["NameType"] == "Business Name"
    found = read_details(details)
    assert found is not None
    assert (found.abn, found.entity_name, found.trading_names, found.state, found.status) == (
        record.abn, record.entity_name, record.trading_names, "NSW", "Active")
    assert "directors" not in str(details).lower()  # ASIC officeholders are not served
    assert unknown is None  # a valid ABN the register does not hold


def test_abn_lookup_unknown_guid_is_an_auth_failure(au_sb: Sandbox) -> None:
    raw = httpx.get(f"{au_sb.base_url('abr')}/json/AbnDetails.aspx",
                    params={"abn": "53004085616", "guid": "not-registered", "callback": "c"})
    assert raw.status_code == 200 and raw.text.startswith("c(")
    assert parse_jsonp(raw.text)["Message"] == "The GUID entered is not recognised as a Registered Party"
    abr = AbnLookupResource(base_url=au_sb.base_url("abr"), guid="not-registered", **FAST)
    with pytest.raises(ServiceCallFailed) as info:
        run(abr, lambda: abr.matching_names("Sea View Hotel"))
    assert info.value.error_class is ErrorClass.AUTH and info.value.attempts == 1
    assert "not-registered" not in str(info.value)


def test_abn_lookup_without_guid_skips() -> None:
    abr = AbnLookupResource(base_url="http://127.0.0.1:9", **FAST)
    assert not abr.configured()
    with pytest.raises(SkipItem):
        asyncio.run(abr.matching_names("Sea View Hotel"))

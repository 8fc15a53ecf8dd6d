"""WhoisResource over real TCP sockets (the sandbox's registry and registrar servers, and small
servers of the test's own for refusals), WaybackResource against the sandbox's CDX API and
snapshots, and the sandbox's RDAP leaving WHOIS-only TLDs to WHOIS."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from sadie_pipeline.core.enrichment.whois import parse_whois, whois_text_from_html
from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.reliability import ServiceCallFailed
from sadie_pipeline.resources.wayback import WaybackResource
from sadie_pipeline.resources.whois import WhoisResource, parse_referrals
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.sandbox.env import client_env
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline_tests.resources.helpers import run

FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, "backoff_jitter_s": 0.0, "requests_per_second": 1000}
UNMASKED_WHOIS_ONLY = "bahamavillagebungalows.test"  # its TLD has no useful RDAP; record not masked
MASKED = "conchrepubliccottages.test"                 # privacy on; an older record was archived


def whois_for(sb: Sandbox, **settings: Any) -> WhoisResource:
    where = sb.listener("whois")
    referrals = ",".join(f"{host}={addr}" for host, addr in where["referrals"].items())
    return WhoisResource(server=f"{where['host']}:{where['port']}", referrals=referrals, **{**FAST, **settings})


def test_the_registry_refers_to_the_registrars_server(sb: Sandbox) -> None:
    whois = whois_for(sb)
    place = sb.world.hotel(UNMASKED_WHOIS_ONLY)
    truth = owner_truth(place)

    async def lookups() -> Any:
        return await asyncio.gather(whois.lookup(UNMASKED_WHOIS_ONLY), whois.lookup(MASKED),
                                    whois.lookup("no-such-hotel.test"))

    found, masked, unknown = run(whois, lookups)
    registry = sb.listener("whois")
    # asked the registry, then the host its answer named (reached where the referral map says)
    assert [s for s, _ in found.answers] == [f"{registry['host']}:{registry['port']}", "whois.tucows.test"]
    assert found.server == "whois.tucows.test" == parse_whois(found.answers[0][1]).referral
    assert "Registrant" not in found.answers[0][1]  # thin registry record
    record = found.record
    assert record.registrar == place.rdap["registrar"] and not record.privacy
    assert (record.registrant_name, record.registrant_org, record.registrant_email) == (
        truth.whois.name, truth.whois.org, truth.whois.email)
    assert masked.record.privacy and masked.record.registrant_name is None and masked.record.registrant_email is None
    assert unknown is None


def test_rdap_knows_nothing_of_whois_only_tlds_and_whois_agrees_with_the_truth(sb: Sandbox) -> None:
    whois = whois_for(sb)
    places = [p for p in sb.world.hotels if p.rdap and p.site != "nxdomain"]
    with httpx.Client(base_url=sb.base_url("rdap")) as client:
        rdap = {p.domain: client.get(f"/domain/{p.domain}").status_code for p in places}

    async def lookups() -> Any:
        return await asyncio.gather(*(whois.lookup(p.domain) for p in places))

    answers = run(whois, lookups)
    assert any(not owner_truth(p).rdap_useful for p in places)
    for place, answer in zip(places, answers):
        truth = owner_truth(place)
        assert rdap[place.domain] == (200 if truth.rdap_useful else 404), place.domain
        assert answer is not None and answer.record.privacy == truth.whois.masked, place.domain
        if not truth.whois.masked:
            assert answer.record.registrant_email == truth.whois.email, place.domain


@contextlib.contextmanager
def tcp_server(answers: list[bytes]) -> Iterator[tuple[int, list[str]]]:
    """A WHOIS server on a free local port answering queries in turn (b"": close without a word)."""
    queries: list[str] = []
    loop = asyncio.new_event_loop()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queries.append((await reader.readline()).decode())
        writer.write(answers[min(len(queries), len(answers)) - 1])
        await writer.drain()
        writer.close()

    server = loop.run_until_complete(asyncio.start_server(serve, "127.0.0.1", 0))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield server.sockets[0].getsockname()[1], queries
    finally:
        loop.call_soon_threadsafe(server.close)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def test_a_refusal_for_asking_too_fast_is_retried_after_a_pause() -> None:
    record = b"Domain Name: X.TEST\r\nRegistrar: Sandbox Registrar\r\nRegistrant Name: Ana Ortega\r\n"
    with tcp_server([b"WHOIS LIMIT EXCEEDED - please slow down and try again later\r\n", record]) as (port, queries):
        whois = WhoisResource(server=f"127.0.0.1:{port}", rate_limited_pause_s=0.05, **FAST)
        answer = run(whois, lambda: whois.lookup("X.test"))
    assert queries == ["x.test\r\n", "x.test\r\n"]  # one query line, CRLF, per connection
    assert answer.record.registrant_name == "Ana Ortega"


def test_a_server_that_never_answers_fails_transient_and_opens_its_breaker() -> None:
    with tcp_server([b""]) as (port, queries):
        whois = WhoisResource(server=f"127.0.0.1:{port}", max_attempts=2, failure_threshold=2, **FAST)

        async def twice() -> Any:
            outcomes = []
            for _ in range(2):
                try:
                    await whois.lookup("x.test")
                except ServiceCallFailed as exc:
                    outcomes.append(exc)
            return outcomes, whois.guards()

        (first, second), guards = run(whois, twice)
    assert first.error_class is ErrorClass.TRANSIENT and first.attempts == 2
    assert second.error_class is ErrorClass.CIRCUIT_OPEN  # the breaker is that server's alone
    assert list(guards) == [f"127.0.0.1:{port}"] and len(queries) == 2


def test_wayback_cdx_and_snapshots(sb: Sandbox) -> None:
    wayback = WaybackResource(base_url=sb.base_url("wayback"), **FAST)
    url = f"https://www.whois.com/whois/{MASKED}"
    truth = owner_truth(sb.world.hotel(MASKED))

    async def read() -> Any:
        captures = await wayback.captures(url)
        pages = [await wayback.snapshot(c) for c in captures]
        return captures, pages, await wayback.captures("https://www.whois.com/whois/no-such-hotel.test")

    captures, pages, none = run(wayback, read)
    assert [c.day.isoformat() for c in captures] == [s.date for s in truth.whois_history]
    assert {c.statuscode for c in captures} == {"200"}
    records = [parse_whois(whois_text_from_html(p)) for p in pages]
    assert [r.privacy for r in records] == [s.masked for s in truth.whois_history]
    archived = next(s for s in truth.whois_history if not s.masked)
    assert (records[0].registrant_name, records[0].registrant_email) == (archived.name, archived.email)
    assert none == []
    # the real API's shape: field names first; without the filter the failed capture shows; a
    # timestamp without a capture redirects to the nearest one
    with httpx.Client(base_url=sb.base_url("wayback"), follow_redirects=True) as client:
        rows = client.get("/cdx/search/cdx", params={"url": url, "output": "json"}).json()
        assert rows[0][:3] == ["urlkey", "timestamp", "original"] and "503" in {r[4] for r in rows[1:]}
        nearest = client.get(f"/web/{captures[0].timestamp[:6]}/{url}")
        assert nearest.status_code == 200 and f"/web/{captures[0].timestamp}/" in str(nearest.url)
        assert "wm-ipp" in nearest.text and "wm-ipp" not in pages[0]  # id_: the page as captured


def test_settings_from_the_sandbox_environment(sb: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    env = client_env(sb.describe(), {})
    where = sb.listener("whois")
    assert env["SADIE_WHOIS_SERVER"] == f"{where['host']}:{where['port']}"
    assert parse_referrals(env["SADIE_WHOIS_REFERRALS"]) == where["referrals"]
    assert env["SADIE_WAYBACK_BASE_URL"] == sb.base_url("wayback")
    for name in ("SADIE_WHOIS_SERVER", "SADIE_WHOIS_REFERRALS", "SADIE_WAYBACK_BASE_URL"):
        monkeypatch.setenv(name, env[name])
    whois = resolved(configured("whois", **FAST))
    assert run(whois, lambda: whois.lookup(UNMASKED_WHOIS_ONLY)).server == "whois.tucows.test"
    assert resolved(configured("wayback")).resolved_base_url() == sb.base_url("wayback")
    for name in ("SADIE_WHOIS_SERVER", "SADIE_WHOIS_REFERRALS", "SADIE_WAYBACK_BASE_URL"):
        monkeypatch.delenv(name)
    assert resolved(configured("whois")).resolved_server() == "whois.iana.org"
    assert resolved(configured("wayback")).resolved_base_url() == "https://web.archive.org"

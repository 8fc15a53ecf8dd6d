"""SerperResource against the sandbox's Serper: paging, dedupe, auth, 429/5xx, pacing, secrets."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import date
from typing import Any

import pytest

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.reliability import ServiceCallFailed, SkipItem, outcome_counts, run_items
from sadie_pipeline.resources.serper import SerperResource, place_key, raw_response_key
from sadie_pipeline.sandbox import Sandbox

KEY = "sk-serper-test-5d1e9f0a7c"  # fake; must never show up in errors or stored responses






def serper(sb: Sandbox, **kw: Any) -> SerperResource:
    settings: dict[str, Any] = {"api_key": KEY, "base_url": sb.base_url("serper"), "requests_per_minute": 60_000,
                                "max_concurrency": 4, "backoff_base_s": 0.01, "backoff_max_s": 0.05,
                                "backoff_jitter_s": 0.0} | kw
    return SerperResource(**settings)


def test_pages_until_no_new_place_and_keeps_raw_responses(sb: Sandbox) -> None:
    resource = serper(sb)

    async def main() -> Any:
        try:
            return await resource.search_all_pages("hotels in Miami, Florida", num=4)
        finally:
            await resource.aclose()

    result = asyncio.run(main())
    # 9 places over 3 pages of 4; page 4 is empty and ends the query
    assert result.pages_fetched == 4 and result.stop_reason == "no_new_places"
    assert len(result.places) == 9 and len({place_key(p) for p in result.places}) == 9
    assert "Biscayne Bay Inn" in {p["title"] for p in result.places}
    assert [r["page"] for r in result.responses] == [1, 2, 3, 4]
    assert result.responses[0]["request"] == {"q": "hotels in Miami, Florida", "gl": "us", "hl": "en",
                                              "page": 1, "num": 4}
    assert result.responses[0]["response"]["places"][0]["position"] == 1
    assert result.credits == 4
    assert KEY not in json.dumps(result.responses)  # safe to store as is
    assert sb.stats("serper")["requests"] == 4
    assert all(entry["headers"].get("X-API-KEY") == "<redacted>" for entry in sb.requests("serper"))
    assert raw_response_key(date(2026, 11, 25), result.query, 2) == \
        "api-responses/serper/2026-11-25/hotels-in-miami-florida-p02.json"


def test_max_pages_and_dedupe_by_cid_or_place_id(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = {1: [{"cid": "1", "title": "A"}, {"cid": "2", "title": "B"}],
             2: [{"cid": "2", "title": "B again"}, {"placeId": "ChIJx", "title": "C"}],
             3: [{"cid": "1", "title": "A"}, {"placeId": "ChIJx", "title": "C"}],  # nothing new: stop
             4: [{"cid": "9", "title": "never asked for"}]}
    asked: list[int] = []

    async def fake_page(self: SerperResource, query: str, *, page: int = 1, **kw: Any) -> dict[str, Any]:
        asked.append(page)
        return {"places": pages[page], "credits": 1}

    monkeypatch.setattr(SerperResource, "search_places", fake_page)
    resource = SerperResource(api_key=KEY, base_url="http://127.0.0.1:9")
    result = asyncio.run(resource.search_all_pages("hotels in X"))
    assert asked == [1, 2, 3] and result.stop_reason == "no_new_places"
    assert [p["title"] for p in result.places] == ["A", "B", "C"]
    capped = asyncio.run(resource.search_all_pages("hotels in X", max_pages=2))
    assert asked[3:] == [1, 2] and capped.stop_reason == "max_pages" and len(capped.places) == 3


@pytest.mark.parametrize("status", [401, 403])
def test_auth_errors_are_not_retried(sb: Sandbox, status: int) -> None:
    if status == 403:
        sb.expect_api_key("serper", "the-only-good-key")  # Serper answers a wrong key with 403
    else:
        sb.configure("serper", error_rate=1.0, error_status=401)
    resource = serper(sb)

    async def main() -> None:
        try:
            await resource.search_places("hotels in Orlando")
        finally:
            await resource.aclose()

    with pytest.raises(ServiceCallFailed) as info:
        asyncio.run(main())
    assert info.value.error_class is ErrorClass.AUTH and info.value.attempts == 1
    assert info.value.status_code == status
    assert KEY not in str(info.value)
    assert sb.stats("serper")["requests"] == 1


def test_key_comes_from_serper_api_key_through_the_definitions(sb: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SERPER_API_KEY", raising=False)
    resource = resolved(configured("serper", base_url=sb.base_url("serper")))
    assert not resource.configured()
    assert "SERPER_API_KEY" in resource.not_configured_message()
    with pytest.raises(SkipItem):
        asyncio.run(resource.search_places("hotels in Orlando"))
    assert sb.stats("serper")["requests"] == 0
    monkeypatch.setenv("SERPER_API_KEY", KEY)
    assert not resource.configured()  # read when the definitions are built, not by the resource
    resource = resolved(configured("serper", base_url=sb.base_url("serper")))
    assert resource.configured()

    async def main() -> dict[str, Any]:
        try:
            return await resource.search_places("hotels in Orlando")
        finally:
            await resource.aclose()

    assert asyncio.run(main())["places"]


def test_429s_and_5xx_lose_nothing(sb: Sandbox) -> None:
    """Every query ends ok or dead-lettered after 3 attempts; the sandbox's limit (4 per 0.5 s
    window, Retry-After 1 s) and 25 % injected 503s are what the guard retries."""
    sb.configure("serper", rate_limit=(4, 0.5), error_rate=0.25, error_status=503)
    resource = serper(sb, max_attempts=3)
    queries = [f"hotels in {city}" for city in ("Miami", "Miami Beach", "Orlando", "Key West")] * 3

    async def main() -> Any:
        try:
            return await run_items(queries, lambda q: resource.search_places(q, gl="us"), key=str,
                                   guard=resource.guard()), resource.guard().metadata()
        finally:
            await resource.aclose()

    started = time.monotonic()
    outcomes, guard = asyncio.run(main())
    assert time.monotonic() - started < 20
    assert len(outcomes) == len(queries)
    counts = outcome_counts(outcomes)
    assert counts["ok"] + counts["dead_lettered"] == len(queries) and counts["skipped"] == 0
    assert counts["ok"] > 0
    for outcome in outcomes:
        if outcome.status == "ok":
            assert outcome.value["places"]
        else:
            assert outcome.attempts == 3
            assert outcome.error_class in (ErrorClass.TRANSIENT, ErrorClass.RATE_LIMITED)
            assert KEY not in (outcome.last_error or "")
    stats = sb.stats("serper")
    assert stats["rate_limited"] > 0 and stats["injected_errors"] > 0
    assert guard["retries"] > 0 and guard["responses_429"] == stats["rate_limited"]
    assert guard["attempts"] == stats["requests"]


def test_our_limiter_keeps_under_the_sandbox_limit(sb: Sandbox) -> None:
    sb.configure("serper", rate_limit=(20, 1.0))  # the account's limit
    resource = serper(sb, requests_per_minute=15 * 60, max_concurrency=4)  # ours: 15/s (x 0.95 headroom)

    async def main() -> None:
        try:
            await asyncio.gather(*(resource.search_places(f"hotels in Orlando #{i}") for i in range(18)))
        finally:
            await resource.aclose()

    started = time.monotonic()
    asyncio.run(main())
    elapsed = time.monotonic() - started
    stats = sb.stats("serper")
    assert stats["requests"] == 18 and stats["rate_limited"] == 0
    assert elapsed >= 17 / (15 * 0.95) * 0.9  # evenly spaced, not in a burst

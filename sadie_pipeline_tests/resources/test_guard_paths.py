"""The guard's other paths, against the scripted HTTP server of test_reliability: `call_sync` for
blocking clients (OneDrive's), a call's time budget, and a policy without a breaker (websites)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resources.reliability import ServiceCallFailed, ServiceGuard
from sadie_pipeline_tests.resources.test_reliability import Reply, ScriptedServer, policy

SECRET = "upload-url-token-7d1e"  # fake; must never show up in errors


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    srv = ScriptedServer()
    yield srv
    srv.close()


def test_call_sync_retries_transient_errors_and_honours_retry_after(server: ScriptedServer) -> None:
    url = server.script(Reply(503), Reply(429, headers={"Retry-After": "1"}), Reply(200, body="stored"))
    guard = ServiceGuard(policy())
    started = time.monotonic()
    with httpx.Client() as client:
        response = guard.call_sync(lambda: client.get(url), item_key="upload of a.xlsx")
    assert response.text == "stored" and [h.status for h in server.hits(url)] == [503, 429, 200]
    assert time.monotonic() - started >= 1.0  # the 429's Retry-After
    stats = guard.stats
    assert (stats.calls, stats.attempts, stats.retries, stats.responses_429) == (1, 3, 2, 1)


def test_call_sync_accepts_listed_statuses_and_gives_up_with_the_callers_redacted_text(
        server: ScriptedServer) -> None:
    guard = ServiceGuard(policy())
    with httpx.Client() as client:
        taken = server.script(Reply(416, body="range already received"))
        assert guard.call_sync(lambda: client.get(taken), accept=(416,)).status_code == 416
        refused = server.script(Reply(401, body="bad token"))
        with pytest.raises(ServiceCallFailed) as failed:
            guard.call_sync(lambda: client.get(refused + "?u=" + SECRET),
                            describe=lambda exc: f"PUT answered {exc.response.status_code}".replace(SECRET, "<x>"))
    exc = failed.value
    assert exc.error_class is ErrorClass.AUTH and exc.attempts == 1 and exc.status_code == 401
    assert exc.last_error == "PUT answered 401" and SECRET not in str(exc)


def test_call_sync_breaker_opens_and_then_refuses_without_a_request(server: ScriptedServer) -> None:
    url = server.script(Reply(503))
    guard = ServiceGuard(policy(failure_threshold=2, max_attempts=1))
    with httpx.Client() as client:
        for _ in range(2):
            with pytest.raises(ServiceCallFailed):
                guard.call_sync(lambda: client.get(url))
        with pytest.raises(ServiceCallFailed) as refused:
            guard.call_sync(lambda: client.get(url))
    assert refused.value.error_class is ErrorClass.CIRCUIT_OPEN and len(server.hits(url)) == 2


def test_call_sync_refuses_a_rate_limited_policy() -> None:
    with pytest.raises(ValueError, match="rate-limited"):
        ServiceGuard(policy(requests_per_second=5)).call_sync(lambda: None)


def test_a_policy_without_breaker_never_opens(server: ScriptedServer) -> None:
    url = server.script(Reply(503))
    guard = ServiceGuard(policy(failure_threshold=None, max_attempts=1))

    async def main() -> list[ErrorClass]:
        async with httpx.AsyncClient() as client:
            classes = []
            for _ in range(12):
                try:
                    await guard.call(lambda: client.get(url))
                except ServiceCallFailed as exc:
                    classes.append(exc.error_class)
            return classes

    assert asyncio.run(main()) == [ErrorClass.TRANSIENT] * 12
    assert guard.breaker_state == "closed" and guard.stats.breaker_openings == 0 and len(server.hits(url)) == 12


def test_no_retry_starts_past_the_calls_budget(server: ScriptedServer) -> None:
    url = server.script(Reply(503))
    guard = ServiceGuard(policy(max_attempts=5, backoff_base_s=0.4, backoff_max_s=0.4))

    async def attempts(budget_s: float) -> int:
        async with httpx.AsyncClient() as client:
            with pytest.raises(ServiceCallFailed) as failed:
                await guard.call(lambda: client.get(url), budget_s=budget_s)
        return failed.value.attempts

    assert asyncio.run(attempts(0.3)) == 1   # the first wait (0.4 s) would end past the budget
    assert asyncio.run(attempts(1.0)) == 3   # 0 s, then 0.4 s, then 0.8 s: a fourth would start at 1.2 s

"""Adaptive concurrency (seed 001, Phase 2): a guard lowers a service's concurrency when its error
rate rises and raises it again while calls succeed, within the policy's bounds, on a real HTTP
service (the sandbox's RDAP with injected 5xx)."""

from __future__ import annotations

import asyncio

import httpx

from sadie_pipeline.resources.adaptive import concurrency_now
from sadie_pipeline.resources.reliability import ServiceCallFailed, ServiceGuard, ServicePolicy


def _calls(guard: ServiceGuard, url: str, n: int, seen: list[int]) -> None:
    async def main() -> None:
        in_flight = [0]
        async with httpx.AsyncClient(trust_env=False) as client:
            async def one() -> None:
                async def get() -> httpx.Response:
                    in_flight[0] += 1
                    seen.append(in_flight[0])
                    try:
                        return await client.get(url)
                    finally:
                        in_flight[0] -= 1
                try:
                    await guard.call(get)
                except ServiceCallFailed:
                    pass
            await asyncio.gather(*(one() for _ in range(n)))
    asyncio.run(main())


def test_concurrency_halves_under_errors_and_recovers_when_calls_succeed(sb):
    policy = ServicePolicy(name="adaptive-rdap", max_concurrency=16, min_concurrency=2, max_attempts=1,
                           failure_threshold=None, timeout_s=5)
    guard = ServiceGuard(policy)
    url = f"{sb.base_url('rdap')}/domain/biscaynebayinn.test"

    sb.configure("rdap", error_rate=0.8)
    _calls(guard, url, 120, [])
    failing = guard.metadata()
    assert failing["concurrency_lowest"] <= 4, failing  # 16 -> 8 -> 4 -> 2 as windows fail
    assert failing["concurrency_now"] >= policy.min_concurrency  # never below the floor

    sb.configure("rdap", error_rate=0.0)
    seen: list[int] = []
    _calls(guard, url, 200, seen)
    healthy = guard.metadata()
    assert healthy["concurrency_now"] > failing["concurrency_now"]  # +2 per clean window
    assert healthy["concurrency_now"] <= policy.max_concurrency
    assert max(seen) <= policy.max_concurrency
    assert concurrency_now("adaptive-rdap") == healthy["concurrency_now"]  # what the layers' metadata reads

"""Per-service knobs (latency, rate limit, injected 5xx and hangs) and counters, and the
`SandboxContext` every service and the DNS server share: the world, the accepted API keys, the
root URL, and `gate`, which applies a service's knobs to one request."""

from __future__ import annotations

import asyncio
import collections
import random
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from .world import World


@dataclass(frozen=True)
class Knobs:
    """Per-service behaviour. Rates are fractions of requests (0..1), drawn from a seeded RNG."""

    latency_ms: float = 0.0          # added to every request
    jitter_ms: float = 0.0           # plus uniform(0, jitter_ms)
    rate_limit: tuple[int, float] | None = None  # (requests, window_seconds): past it, 429 + Retry-After
    error_rate: float = 0.0          # share of requests answered with a 5xx
    error_status: int | None = None  # the 5xx status (None = the service's usual one: 500/503/529)
    timeout_rate: float = 0.0        # share of requests that hang for hang_s before any answer
    hang_s: float = 30.0             # how long a hanging request (or a dead_timeout site) hangs
    fail_next: int = 0               # the next N requests get the injected 5xx, whatever error_rate says

    @classmethod
    def of(cls, value: Knobs | Mapping[str, Any] | None) -> Knobs:
        if value is None:
            return cls()
        if isinstance(value, Knobs):
            return value
        return cls(**_normalise(dict(value)))


def _normalise(changes: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(Knobs)}
    unknown = set(changes) - names
    if unknown:
        raise TypeError(f"unknown knob(s): {sorted(unknown)}; known: {sorted(names)}")
    if changes.get("rate_limit") is not None:
        n, window = changes["rate_limit"]
        changes["rate_limit"] = (int(n), float(window))
    return changes


@dataclass
class Stats:
    requests: int = 0
    rate_limited: int = 0      # answered 429 (or REFUSED for DNS)
    server_errors: int = 0     # answered 5xx (injected or by design, e.g. dead sites)
    injected_errors: int = 0   # 5xx caused by error_rate
    timeouts: int = 0          # requests made to hang by timeout_rate
    aborted: int = 0           # connections dropped without an answer
    in_flight: int = 0
    max_in_flight: int = 0
    statuses: dict[str, int] = field(default_factory=dict)

    def snapshot(self) -> dict[str, Any]:
        d = asdict(self)
        d["statuses"] = dict(self.statuses)
        return d


class ServiceState:
    def __init__(self, name: str, knobs: Knobs, seed: int) -> None:
        self.name, self.seed = name, seed
        self.knobs = knobs
        self.stats = Stats()
        self.window: collections.deque[float] = collections.deque()
        self.log: collections.deque[dict[str, Any]] = collections.deque(maxlen=200)
        self.fail_remaining = knobs.fail_next
        self._reseed()

    def _reseed(self) -> None:
        self.rng = random.Random(f"{self.seed}:{self.name}")
        self.jitter_rng = random.Random(f"{self.seed}:{self.name}:jitter")

    def configure(self, changes: dict[str, Any]) -> None:
        self.knobs = replace(self.knobs, **_normalise(changes))
        self.window.clear()
        self.fail_remaining = self.knobs.fail_next
        self._reseed()

    def admit(self, now: float) -> tuple[bool, float]:
        limit, window_s = self.knobs.rate_limit  # type: ignore[misc]
        while self.window and self.window[0] <= now - window_s:
            self.window.popleft()
        if len(self.window) >= limit:
            return False, self.window[0] + window_s - now
        self.window.append(now)
        return True, 0.0


class SandboxContext:
    """What services share: the world, the keys, the root URL and the knobs/counters."""

    def __init__(self, world: World, api_keys: Mapping[str, str], states: dict[str, ServiceState]) -> None:
        self.world = world
        self.api_keys = dict(api_keys)
        self.states = states
        self.root_url = ""

    def knobs(self, name: str) -> Knobs:
        return self.states[name].knobs

    async def gate(self, name: str) -> tuple[str, float]:
        """Apply latency, rate limit and the error/timeout draw. Returns (action, retry_after_s)."""
        s = self.states[name]
        k = s.knobs
        delay = k.latency_ms + (s.jitter_rng.uniform(0, k.jitter_ms) if k.jitter_ms else 0.0)
        if delay > 0:
            await asyncio.sleep(delay / 1000)
        if k.rate_limit is not None:
            ok, retry = s.admit(time.monotonic())
            if not ok:
                s.stats.rate_limited += 1
                return "rate_limited", retry
        if s.fail_remaining > 0:
            s.fail_remaining -= 1
            s.stats.injected_errors += 1
            return "error", 0.0
        if k.timeout_rate or k.error_rate:
            r = s.rng.random()
            if r < k.timeout_rate:
                s.stats.timeouts += 1
                return "hang", 0.0
            if r < k.timeout_rate + k.error_rate:
                s.stats.injected_errors += 1
                return "error", 0.0
        return "ok", 0.0

    def record(self, name: str, status: int | str) -> None:
        st = self.states[name].stats
        key = str(status)
        st.statuses[key] = st.statuses.get(key, 0) + 1
        if isinstance(status, int) and status >= 500:
            st.server_errors += 1

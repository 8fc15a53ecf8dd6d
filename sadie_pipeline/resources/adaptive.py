"""Adaptive concurrency for one external service (seed 001, "Adaptive Concurrency"): the number
of calls a `ServiceGuard` lets run at once falls when the service's error rate rises and climbs
back while calls succeed, within the policy's bounds.

Over each window of `window` attempts: an error rate above `backoff_above` halves the limit (not
below `minimum`); below `grow_below` it adds `step` (not above `maximum`). Only failures that say
the service is struggling count (timeouts, 5xx, 429s: the caller decides); a 404 is an answer.
`concurrency_now(name)` is the latest limit of a service, for the assets' metadata.
"""

from __future__ import annotations

import asyncio
import logging
from contextvars import ContextVar
from types import TracebackType

logger = logging.getLogger(__name__)

_CURRENT: dict[str, int] = {}  # service -> its latest limit (the run's guards come and go per loop)


_USED: ContextVar[set[str] | None] = ContextVar("sadie_guards_used", default=None)


def track_guards() -> set[str]:
    """From now on in this context (and the tasks it starts), the names of the guards that take a
    call are added to the returned set (a layer reports their concurrency in its metadata)."""
    used: set[str] = set()
    _USED.set(used)
    return used


def concurrency_now(name: str) -> int | None:
    """The concurrency limit the service's guard last used in this process (None: no guard yet)."""
    return _CURRENT.get(name)


class AdaptiveLimit:
    """An asyncio semaphore whose size moves with the error rate (`async with limit:`)."""

    def __init__(self, name: str, maximum: int, minimum: int = 1, *, window: int = 20, backoff_above: float = 0.3,
                 grow_below: float = 0.05, step: int = 2) -> None:
        self.name, self.maximum, self.minimum = name, maximum, max(1, min(minimum, maximum))
        self.window, self.backoff_above, self.grow_below, self.step = window, backoff_above, grow_below, step
        self.current = maximum
        self.lowest = maximum
        self.changes = 0
        self._in_flight = 0
        self._ok = self._failed = 0
        self._cond: asyncio.Condition | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        _CURRENT[name] = maximum

    def _condition(self) -> asyncio.Condition:
        loop = asyncio.get_running_loop()
        if self._cond is None or self._loop is not loop:  # a condition belongs to one event loop
            self._cond, self._loop, self._in_flight = asyncio.Condition(), loop, 0
        return self._cond

    async def __aenter__(self) -> AdaptiveLimit:
        used = _USED.get()
        if used is not None:
            used.add(self.name)
        cond = self._condition()
        async with cond:
            await cond.wait_for(lambda: self._in_flight < self.current)
            self._in_flight += 1
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        cond = self._condition()
        async with cond:
            self._in_flight -= 1
            cond.notify(1)  # one slot freed: one waiter (waking all is quadratic with hundreds waiting)

    def record(self, success: bool) -> None:
        """One attempt's outcome; at the end of a window the limit moves."""
        if success:
            self._ok += 1
        else:
            self._failed += 1
        total = self._ok + self._failed
        if total < self.window:
            return
        rate = self._failed / total
        before = self.current
        if rate > self.backoff_above:
            self.current = max(self.minimum, self.current // 2)
        elif rate < self.grow_below:
            self.current = min(self.maximum, self.current + self.step)
        self._ok = self._failed = 0
        if self.current != before:
            self.changes += 1
            self.lowest = min(self.lowest, self.current)
            _CURRENT[self.name] = self.current
            logger.info("%s: concurrency %d -> %d (error rate %.0f%% over %d calls)", self.name, before,
                        self.current, rate * 100, total)
            if self._cond is not None and self.current > before:
                asyncio.ensure_future(self._wake())

    async def _wake(self) -> None:
        cond = self._condition()
        async with cond:
            cond.notify(max(0, self.current - self._in_flight))

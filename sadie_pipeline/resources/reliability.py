"""Per-service reliability for external calls: the project's one retry path.

One `ServiceGuard` per service per run (per event loop; per resource for a blocking client)
combines, for every attempt:

* a concurrency limit (`max_concurrency`),
* a rate limit (`aiolimiter.AsyncLimiter`, a leaky bucket: `requests_per_second` or
  `requests_per_minute`, bursts of at most `burst`, 1 by default = evenly spaced calls),
* a Retry-After pause shared by all calls to the service: after a 429 (or 503) with
  Retry-After, no call to that service starts before the server said,
* a circuit breaker (`circuitbreaker.CircuitBreaker`): `failure_threshold` consecutive
  transient or auth failures open it; after `reset_timeout_s` one probe call is let through
  (half-open); its success closes the breaker, its failure opens it again (`failure_threshold`
  None: no breaker),
* retries with exponential backoff and jitter (`tenacity`) for transient and rate-limited
  errors only, waiting at least the server's Retry-After (an exception's ``retry_after_s``,
  else its response's header), at most `max_attempts` attempts, and with a call's
  ``budget_s`` only while the next attempt would start within that budget,

and raises `ServiceCallFailed(error_class, attempts, last_error)` (redacted) when it gives up.
`call` awaits a coroutine function; `call_sync` runs a blocking one (OneDrive's msal and httpx
client) with the same retries, breaker, Retry-After pause and concurrency limit, and no rate
limit (a policy with one is refused there).

`run_items`, `outcome_counts`, `record_dead_letters`, `SkipItem`, `ItemOutcome` and
`ServiceCallFailed` live in `resources/outcomes.py` and are re-exported here.

SDK clients (anthropic, groq) retry on their own: build them with ``max_retries=0`` when their
calls go through a guard, so attempts are counted and paced here.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Container, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import httpx
from aiolimiter import AsyncLimiter
from circuitbreaker import STATE_CLOSED, STATE_HALF_OPEN, STATE_OPEN, CircuitBreaker
from dagster import Config
from pydantic import Field, model_validator
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    Retrying,
    stop_after_attempt,
    stop_before_delay,
    wait_exponential_jitter,
)

from sadie_pipeline.core.errors import ErrorClass, classify, redact, retry_after_seconds
from sadie_pipeline.resources.adaptive import AdaptiveLimit
from sadie_pipeline.resources.outcomes import (
    LAST_ERROR_MAX_CHARS,
    ItemOutcome,
    ServiceCallFailed,
    SkipItem,
    outcome_counts,
    record_dead_letters,
    run_items,
)
from sadie_pipeline.resources.usage import USAGE, UsageLedger

__all__ = [
    "BREAKER_FAILURE_CLASSES", "LAST_ERROR_MAX_CHARS", "SEED_POLICIES", "CircuitOpen", "GuardStats", "ItemOutcome",
    "PerLoop", "ServiceCallFailed", "ServiceGuard", "ServicePolicy", "SkipItem", "USAGE", "UsageLedger",
    "outcome_counts", "record_dead_letters", "run_items",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

# Failures that say the service (or our access to it) is unhealthy. Not-found, permanent and
# rate-limited answers come from a working service and reset the breaker's count.
BREAKER_FAILURE_CLASSES = frozenset({ErrorClass.TRANSIENT, ErrorClass.AUTH})
# Failures that lower a service's concurrency: it is slow, failing or asking us to slow down.
_STRUGGLING = frozenset({ErrorClass.TRANSIENT, ErrorClass.RATE_LIMITED})
Describe = Callable[[BaseException], str]


class ServicePolicy(Config):
    """Limits and retry settings of one external service (configurable in run config)."""

    name: str
    requests_per_second: float | None = Field(default=None, gt=0)
    requests_per_minute: float | None = Field(default=None, gt=0)
    burst: int = Field(default=1, ge=1, description="calls allowed back to back before pacing starts")
    max_concurrency: int = Field(default=4, ge=1)
    min_concurrency: int = Field(default=1, ge=1, description="adaptive concurrency never goes below this")
    max_attempts: int = Field(default=3, ge=1)
    backoff_base_s: float = Field(default=0.5, ge=0, description="first retry waits about this long, then doubling")
    backoff_max_s: float = Field(default=30.0, ge=0)
    backoff_jitter_s: float = Field(default=0.25, ge=0)
    timeout_s: float | None = Field(default=30.0, gt=0, description="per attempt; None leaves it to the client")
    failure_threshold: int | None = Field(
        default=5, ge=1, description="consecutive failures that open the breaker; None: no breaker (independent "
        "targets, such as hotel websites, where one failing says nothing of the others)")
    reset_timeout_s: float = Field(default=60.0, gt=0, description="open breaker lets a probe through after this")
    max_retry_after_s: float = Field(default=120.0, ge=0, description="a longer Retry-After fails the call instead")

    @model_validator(mode="after")
    def _one_rate(self) -> ServicePolicy:
        if self.requests_per_second is not None and self.requests_per_minute is not None:
            raise ValueError("give requests_per_second or requests_per_minute, not both")
        return self

    @property
    def rate_per_second(self) -> float | None:
        if self.requests_per_second is not None:
            return self.requests_per_second
        if self.requests_per_minute is not None:
            return self.requests_per_minute / 60.0
        return None


# The seed's per-source limits ("Per-Source Rate Limiters"); resources may start from these.
SEED_POLICIES: dict[str, ServicePolicy] = {
    p.name: p
    for p in (
        ServicePolicy(name="rdap", requests_per_second=2, max_concurrency=3),
        ServicePolicy(name="dns", requests_per_second=50, max_concurrency=20),
        ServicePolicy(name="whois_wayback", requests_per_second=3, max_concurrency=5),
        ServicePolicy(name="website", requests_per_second=10, max_concurrency=10),
        ServicePolicy(name="serper", requests_per_second=0.5, max_concurrency=2),
        ServicePolicy(name="crt_sh", requests_per_second=1, max_concurrency=2),
    )
}


class CircuitOpen(Exception):
    """The breaker refused the call (raised inside the guard, surfaced as ServiceCallFailed)."""

    error_class = ErrorClass.CIRCUIT_OPEN


@dataclass
class GuardStats:
    """Counters of one guard, for asset metadata (`as_metadata`)."""

    calls: int = 0  # guard.call invocations
    attempts: int = 0  # requests actually sent
    successes: int = 0
    retries: int = 0
    responses_429: int = 0
    breaker_openings: int = 0
    breaker_rejections: int = 0  # attempts refused because the breaker was open
    errors_by_class: Counter[str] = field(default_factory=Counter)  # per attempt
    failures_by_class: Counter[str] = field(default_factory=Counter)  # per call that gave up

    def as_metadata(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "attempts": self.attempts,
            "successes": self.successes,
            "retries": self.retries,
            "responses_429": self.responses_429,
            "breaker_openings": self.breaker_openings,
            "breaker_rejections": self.breaker_rejections,
            "errors_by_class": dict(sorted(self.errors_by_class.items())),
            "failures_by_class": dict(sorted(self.failures_by_class.items())),
        }


def _headers_of(exc: BaseException) -> Any:
    return getattr(getattr(exc, "response", None), "headers", None)


def _status_of(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    if not isinstance(status, int):
        status = getattr(getattr(exc, "response", None), "status_code", None)
    return status if isinstance(status, int) else None


def _headers_of(exc: BaseException) -> Any:
    return getattr(getattr(exc, "response", None), "headers", None)


def _status_of(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    if not isinstance(status, int):
        status = getattr(getattr(exc, "response", None), "status_code", None)
    return status if isinstance(status, int) else None


def _error_response(result: Any, raise_for_status: bool, accept: Container[int]) -> bool:
    return (raise_for_status and isinstance(result, httpx.Response) and result.status_code >= 400
            and result.status_code not in accept)


class ServiceGuard:
    """Rate limit, concurrency limit, retries, Retry-After and circuit breaker for one service.

    ``secrets`` (the service's API keys, from the resource's settings) are redacted from every
    error text the guard produces or logs.
    """

    def __init__(self, policy: ServicePolicy, *, secrets: Iterable[str | None] = ()) -> None:
        self.policy = policy
        self.secrets = tuple(s for s in secrets if s)
        self.stats = GuardStats()
        # the async limit adapts to the error rate (seed 001: "Adaptive Concurrency")
        self._semaphore = AdaptiveLimit(policy.name, policy.max_concurrency, policy.min_concurrency)
        self._slots = threading.BoundedSemaphore(policy.max_concurrency)  # call_sync's concurrency limit
        rate = policy.rate_per_second
        self._limiter = AsyncLimiter(policy.burst, policy.burst / rate) if rate else None
        self._breaker = None if policy.failure_threshold is None else CircuitBreaker(
            failure_threshold=policy.failure_threshold,
            recovery_timeout=policy.reset_timeout_s,
            expected_exception=self._is_breaker_failure,
            name=f"sadie:{policy.name}",
        )
        self._backoff = wait_exponential_jitter(
            multiplier=policy.backoff_base_s, max=policy.backoff_max_s, jitter=policy.backoff_jitter_s
        )
        self._breaker_state_seen = STATE_CLOSED
        self._probe_in_flight = False
        self._not_before = 0.0  # time.monotonic() before which no call starts (Retry-After)

    @property
    def name(self) -> str:
        return self.policy.name

    @property
    def breaker_state(self) -> str:
        """'closed', 'open' or 'half_open' ('closed' for a policy without a breaker)."""
        return self._breaker.state if self._breaker is not None else STATE_CLOSED

    def metadata(self) -> dict[str, Any]:
        return {"service": self.name, "breaker_state": self.breaker_state, **self.stats.as_metadata(),
                "concurrency_now": self._semaphore.current, "concurrency_lowest": self._semaphore.lowest}

    def redact(self, text: Any) -> str:
        return redact(text, self.secrets)

    async def call(self, fn: Callable[[], Awaitable[T]], *, item_key: str | None = None,
                   raise_for_status: bool = True, accept: Container[int] = (), describe: Describe | None = None,
                   budget_s: float | None = None) -> T:
        """Await ``fn()`` under the service's limits, retrying transient failures.

        ``fn`` is called once per attempt and must make a fresh request each time. An
        `httpx.Response` with status >= 400 counts as an error unless ``raise_for_status`` is
        False or the status is in ``accept``. ``describe`` phrases a failure for logs and
        ``last_error`` (redacted by the caller; the guard's secrets are redacted too);
        ``budget_s``: no retry starts later than this after the call began. Raises
        `ServiceCallFailed` when it gives up.
        """
        self.stats.calls += 1
        USAGE.add(self.name, calls=1)
        attempts = [0]

        async def attempt() -> T:
            self._fail_fast()
            async with self._semaphore:
                while (delay := self._not_before - time.monotonic()) > 0:
                    await asyncio.sleep(delay)
                if self._limiter is not None:
                    await self._limiter.acquire()
                with self._attempt(attempts):
                    return await self._attempt_once(fn, raise_for_status, accept)

        try:
            return await AsyncRetrying(**self._retrying(item_key, describe, budget_s))(attempt)
        except Exception as exc:
            # the original may carry secrets (URLs, headers): not chained into tracebacks
            raise self._gave_up(exc, attempts[0], item_key, describe) from None

    def call_sync(self, fn: Callable[[], T], *, item_key: str | None = None, raise_for_status: bool = True,
                  accept: Container[int] = (), describe: Describe | None = None,
                  budget_s: float | None = None) -> T:
        """`call` for a blocking ``fn`` (the per-attempt timeout is the client's own)."""
        if self._limiter is not None:
            raise ValueError(f"{self.name}: a rate-limited policy paces async calls only (use call)")
        self.stats.calls += 1
        USAGE.add(self.name, calls=1)
        attempts = [0]

        def attempt() -> T:
            self._fail_fast()
            with self._slots:
                while (delay := self._not_before - time.monotonic()) > 0:
                    time.sleep(delay)
                with self._attempt(attempts):
                    result = fn()
                    if _error_response(result, raise_for_status, accept):
                        result.read()  # the body tells why; redacted later
                        result.raise_for_status()
                    return result

        try:
            return Retrying(**self._retrying(item_key, describe, budget_s))(attempt)
        except Exception as exc:
            raise self._gave_up(exc, attempts[0], item_key, describe) from None

    def describe(self, exc: BaseException) -> str:
        """A redacted one-line-ish description of an error, with the start of a response body."""
        text = f"{type(exc).__name__}: {exc}".strip()
        response = getattr(exc, "response", None)
        if isinstance(response, httpx.Response):
            try:
                body = response.text.strip()
            except (httpx.ResponseNotRead, httpx.StreamError, UnicodeDecodeError):
                body = ""
            if body:
                text += f" | body: {body[:300]}"
        return self.redact(text)[:LAST_ERROR_MAX_CHARS]

    def _describe(self, exc: BaseException, describe: Describe | None) -> str:
        return self.redact(describe(exc))[:LAST_ERROR_MAX_CHARS] if describe else self.describe(exc)

    def _gave_up(self, exc: Exception, attempts: int, item_key: str | None,
                 describe: Describe | None) -> ServiceCallFailed:
        error_class = classify(exc)
        self.stats.failures_by_class[error_class.value] += 1
        USAGE.add(self.name, failures=1)
        return ServiceCallFailed(error_class, attempts, self._describe(exc, describe), service=self.name,
                                 item_key=item_key, status_code=_status_of(exc))

    # -- one attempt -------------------------------------------------------------------------

    @contextmanager
    def _attempt(self, attempts: list[int]) -> Iterator[None]:
        """One attempt, admitted by the breaker, counted, its outcome told to the breaker."""
        probe = self._admit()
        attempts[0] += 1
        self.stats.attempts += 1
        try:
            yield
        except Exception as exc:
            if self._breaker is not None:
                self._breaker.__exit__(type(exc), exc, exc.__traceback__)  # counts it, or resets
            self._note_error(exc)
            self._semaphore.record(classify(exc) not in _STRUGGLING)
            raise
        else:
            if self._breaker is not None:
                self._breaker.__exit__(None, None, None)  # success closes the breaker
            self.stats.successes += 1
            self._semaphore.record(True)
        finally:
            if probe:
                self._probe_in_flight = False
            self._observe_breaker()

    async def _attempt_once(self, fn: Callable[[], Awaitable[T]], raise_for_status: bool,
                            accept: Container[int]) -> T:
        timeout = self.policy.timeout_s
        try:
            async with asyncio.timeout(timeout):
                result = await fn()
        except TimeoutError as exc:
            if str(exc):
                raise
            raise TimeoutError(f"{self.name}: no answer within {timeout:g} s") from exc
        if _error_response(result, raise_for_status, accept):
            if not result.is_stream_consumed:
                await result.aread()  # the body tells why (quota, bad query); redacted later
            result.raise_for_status()
        return result

    def _retry_after(self, exc: BaseException) -> float | None:
        """The wait the failure asks for: its own ``retry_after_s``, else a Retry-After header."""
        own = getattr(exc, "retry_after_s", None)
        if isinstance(own, int | float):
            return float(own)
        headers = _headers_of(exc)
        return retry_after_seconds(headers) if headers is not None else None

    def _note_error(self, exc: BaseException) -> None:
        error_class = classify(exc)
        self.stats.errors_by_class[error_class.value] += 1
        if _status_of(exc) == 429:
            self.stats.responses_429 += 1
        retry_after = self._retry_after(exc)
        if retry_after is not None and error_class.retryable and retry_after <= self.policy.max_retry_after_s:
            # the server asks every client of this service to hold off, not just this item
            self._not_before = max(self._not_before, time.monotonic() + retry_after)

    # -- circuit breaker -----------------------------------------------------------------------

    def _is_breaker_failure(self, exc_type: type[BaseException], exc: BaseException) -> bool:
        return classify(exc) in BREAKER_FAILURE_CLASSES

    def _reject(self) -> None:
        self.stats.breaker_rejections += 1
        raise CircuitOpen(f"circuit breaker of {self.name} is open")

    def _fail_fast(self) -> None:
        """An open breaker refuses the attempt before it waits for a slot."""
        if self._breaker is not None and self._breaker.state == STATE_OPEN:
            self._reject()

    def _admit(self) -> bool:
        """Whether the breaker lets this attempt through; True when it is the half-open probe."""
        state = self._observe_breaker()
        if state == STATE_OPEN or (state == STATE_HALF_OPEN and self._probe_in_flight):
            self._reject()
        if state == STATE_HALF_OPEN:
            self._probe_in_flight = True
            return True
        return False

    def _observe_breaker(self) -> str:
        if self._breaker is None:
            return STATE_CLOSED
        state = self._breaker.state
        if state == STATE_OPEN and self._breaker_state_seen != STATE_OPEN:
            self.stats.breaker_openings += 1
            logger.warning(
                "circuit breaker of %s opened after %d consecutive failures; retrying in %g s",
                self.name, self._breaker.failure_count, self.policy.reset_timeout_s,
            )
        elif state == STATE_CLOSED and self._breaker_state_seen != STATE_CLOSED:
            logger.info("circuit breaker of %s closed", self.name)
        self._breaker_state_seen = state
        return state

    # -- tenacity hooks ------------------------------------------------------------------------

    def _retrying(self, item_key: str | None, describe: Describe | None, budget_s: float | None) -> dict[str, Any]:
        stop = stop_after_attempt(self.policy.max_attempts)
        if budget_s is not None:
            stop = stop | stop_before_delay(budget_s)
        return {"stop": stop, "wait": self._wait, "retry": self._should_retry, "reraise": True,
                "before_sleep": lambda state: self._before_sleep(state, item_key, describe)}

    def _should_retry(self, state: RetryCallState) -> bool:
        exc = state.outcome.exception() if state.outcome else None
        if exc is None or not classify(exc).retryable:
            return False
        retry_after = self._retry_after(exc)
        return retry_after is None or retry_after <= self.policy.max_retry_after_s

    def _wait(self, state: RetryCallState) -> float:
        backoff = self._backoff(state)
        exc = state.outcome.exception() if state.outcome else None
        retry_after = self._retry_after(exc) if exc is not None else None
        return max(backoff, retry_after or 0.0)

    def _before_sleep(self, state: RetryCallState, item_key: str | None, describe: Describe | None) -> None:
        self.stats.retries += 1
        exc = state.outcome.exception() if state.outcome else None
        logger.info(
            "%s: attempt %d%s failed (%s: %s); retrying in %.2f s",
            self.name, state.attempt_number, f" for {item_key}" if item_key else "",
            classify(exc) if exc else "?", self._describe(exc, describe) if exc else "",
            state.next_action.sleep if state.next_action else 0.0,
        )


class PerLoop(Generic[T]):
    """What a resource keeps for one event loop (its clients, its guard). Each `asyncio.run` of
    an asset is a new loop and clients cannot cross loops, so the value is built on first use in
    a loop and built again when the loop, or the settings it was built from, change."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._settings: Hashable = None
        self.value: T | None = None

    def get(self, settings: Hashable, build: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        if self.value is None or self._loop is not loop or self._settings != settings:
            self._loop, self._settings, self.value = loop, settings, build()
        return self.value

    def pop(self) -> T | None:
        """The current value, forgotten (the caller closes it)."""
        value, self.value = self.value, None
        return value

"""Per-service reliability for external calls made from assets with asyncio + httpx / the SDKs.

One `ServiceGuard` per service per run (per event loop) combines, for every attempt:

* a concurrency limit (`asyncio.Semaphore`, `max_concurrency`),
* a rate limit (`aiolimiter.AsyncLimiter`, a leaky bucket: `requests_per_second` or
  `requests_per_minute`, bursts of at most `burst`, 1 by default = evenly spaced calls),
* a Retry-After pause shared by all calls to the service: after a 429 (or 503) with
  Retry-After, no call to that service starts before the server said,
* a circuit breaker (`circuitbreaker.CircuitBreaker`): `failure_threshold` consecutive
  transient or auth failures open it; after `reset_timeout_s` one probe call is let through
  (half-open); its success closes the breaker, its failure opens it again,
* retries with exponential backoff and jitter (`tenacity`) for transient and rate-limited
  errors only, waiting at least the server's Retry-After, at most `max_attempts` attempts,

and raises `ServiceCallFailed(error_class, attempts, last_error)` (redacted) when it gives up.
`run_items` runs a worker over many items with bounded concurrency and returns one
`ItemOutcome` per item (ok / dead_letter / skipped), so a failing item never stops the others;
`record_dead_letters` upserts the dead letters into ``pipeline.dead_letters``.

SDK clients (anthropic, groq) retry on their own: build them with ``max_retries=0`` when their
calls go through a guard, so attempts are counted and paced here.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

import httpx
from aiolimiter import AsyncLimiter
from circuitbreaker import STATE_CLOSED, STATE_HALF_OPEN, STATE_OPEN, CircuitBreaker
from dagster import Config
from pydantic import Field, model_validator
from tenacity import AsyncRetrying, RetryCallState, stop_after_attempt, wait_exponential_jitter

from sadie_pipeline.core.errors import ErrorClass, classify, redact, retry_after_seconds

logger = logging.getLogger(__name__)

T = TypeVar("T")
ItemT = TypeVar("ItemT")

LAST_ERROR_MAX_CHARS = 2000
# Failures that say the service (or our access to it) is unhealthy. Not-found, permanent and
# rate-limited answers come from a working service and reset the breaker's count.
BREAKER_FAILURE_CLASSES = frozenset({ErrorClass.TRANSIENT, ErrorClass.AUTH})


class ServicePolicy(Config):
    """Limits and retry settings of one external service (configurable in run config)."""

    name: str
    requests_per_second: float | None = Field(default=None, gt=0)
    requests_per_minute: float | None = Field(default=None, gt=0)
    burst: int = Field(default=1, ge=1, description="calls allowed back to back before pacing starts")
    max_concurrency: int = Field(default=4, ge=1)
    max_attempts: int = Field(default=3, ge=1)
    backoff_base_s: float = Field(default=0.5, ge=0, description="first retry waits about this long, then doubling")
    backoff_max_s: float = Field(default=30.0, ge=0)
    backoff_jitter_s: float = Field(default=0.25, ge=0)
    timeout_s: float | None = Field(default=30.0, gt=0, description="per attempt; None leaves it to the client")
    failure_threshold: int = Field(default=5, ge=1, description="consecutive failures that open the breaker")
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


class ServiceCallFailed(Exception):
    """A guarded call gave up: permanent error, retries exhausted, or breaker open.

    ``last_error`` is redacted and safe for logs, metadata and the dead-letter table.
    """

    def __init__(
        self,
        error_class: ErrorClass,
        attempts: int,
        last_error: str,
        *,
        service: str = "",
        item_key: str | None = None,
        status_code: int | None = None,
    ) -> None:
        self.error_class = ErrorClass(error_class)
        self.attempts = attempts
        self.last_error = last_error
        self.service = service
        self.item_key = item_key
        self.status_code = status_code
        about = f" for {item_key}" if item_key else ""
        super().__init__(f"{service or 'service'} call{about} failed ({self.error_class}, {attempts} attempt(s)): {last_error}")

    def __reduce__(self) -> tuple[Any, ...]:  # picklable with its keyword arguments
        return (_rebuild_failure, (self.error_class, self.attempts, self.last_error, self.service, self.item_key, self.status_code))


def _rebuild_failure(error_class: ErrorClass, attempts: int, last_error: str, service: str,
                     item_key: str | None, status_code: int | None) -> ServiceCallFailed:
    return ServiceCallFailed(error_class, attempts, last_error, service=service, item_key=item_key, status_code=status_code)


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


class ServiceGuard:
    """Rate limit, concurrency limit, retries, Retry-After and circuit breaker for one service.

    ``secrets`` (the service's API keys, read from the environment by the resource) are
    redacted from every error text the guard produces or logs.
    """

    def __init__(self, policy: ServicePolicy, *, secrets: Iterable[str | None] = ()) -> None:
        self.policy = policy
        self.secrets = tuple(s for s in secrets if s)
        self.stats = GuardStats()
        self._semaphore = asyncio.Semaphore(policy.max_concurrency)
        rate = policy.rate_per_second
        self._limiter = AsyncLimiter(policy.burst, policy.burst / rate) if rate else None
        self._breaker = CircuitBreaker(
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
        """'closed', 'open' or 'half_open'."""
        return self._breaker.state

    def metadata(self) -> dict[str, Any]:
        return {"service": self.name, "breaker_state": self.breaker_state, **self.stats.as_metadata()}

    def redact(self, text: Any) -> str:
        return redact(text, self.secrets)

    async def call(
        self,
        fn: Callable[[], Awaitable[T]],
        *,
        item_key: str | None = None,
        raise_for_status: bool = True,
    ) -> T:
        """Await ``fn()`` under the service's limits, retrying transient failures.

        ``fn`` is called once per attempt and must make a fresh request each time. An
        `httpx.Response` with status >= 400 counts as an error unless ``raise_for_status`` is
        False. Raises `ServiceCallFailed` when it gives up.
        """
        self.stats.calls += 1
        attempts = 0

        async def attempt() -> T:
            nonlocal attempts
            if self._breaker.state == STATE_OPEN:  # fail fast, before waiting for a slot
                self._reject()
            async with self._semaphore:
                await self._wait_for_retry_after()
                if self._limiter is not None:
                    await self._limiter.acquire()
                probe = self._admit()
                attempts += 1
                self.stats.attempts += 1
                try:
                    result = await self._attempt_once(fn, raise_for_status)
                except Exception as exc:
                    self._breaker.__exit__(type(exc), exc, exc.__traceback__)  # counts it, or resets
                    self._note_error(exc)
                    raise
                else:
                    self._breaker.__exit__(None, None, None)  # success closes the breaker
                    self.stats.successes += 1
                    return result
                finally:
                    if probe:
                        self._probe_in_flight = False
                    self._observe_breaker()

        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.policy.max_attempts),
            wait=self._wait,
            retry=self._should_retry,
            before_sleep=lambda state: self._before_sleep(state, item_key),
            reraise=True,
        )
        try:
            return await retrying(attempt)
        except Exception as exc:
            error_class = classify(exc)
            self.stats.failures_by_class[error_class.value] += 1
            raise ServiceCallFailed(
                error_class,
                attempts,
                self.describe(exc),
                service=self.name,
                item_key=item_key,
                status_code=_status_of(exc),
            ) from None  # the original may carry secrets (URLs, headers): not chained into tracebacks

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

    # -- one attempt -------------------------------------------------------------------------

    async def _attempt_once(self, fn: Callable[[], Awaitable[T]], raise_for_status: bool) -> T:
        timeout = self.policy.timeout_s
        try:
            async with asyncio.timeout(timeout):
                result = await fn()
        except TimeoutError as exc:
            if str(exc):
                raise
            raise TimeoutError(f"{self.name}: no answer within {timeout:g} s") from exc
        if raise_for_status and isinstance(result, httpx.Response) and result.status_code >= 400:
            if not result.is_stream_consumed:
                await result.aread()  # the body tells why (quota, bad query); redacted later
            result.raise_for_status()
        return result

    async def _wait_for_retry_after(self) -> None:
        while (delay := self._not_before - time.monotonic()) > 0:
            await asyncio.sleep(delay)

    def _retry_after(self, exc: BaseException) -> float | None:
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

    def _before_sleep(self, state: RetryCallState, item_key: str | None) -> None:
        self.stats.retries += 1
        exc = state.outcome.exception() if state.outcome else None
        logger.info(
            "%s: attempt %d%s failed (%s: %s); retrying in %.2f s",
            self.name, state.attempt_number, f" for {item_key}" if item_key else "",
            classify(exc) if exc else "?", self.describe(exc) if exc else "",
            state.next_action.sleep if state.next_action else 0.0,
        )


# -- many items ----------------------------------------------------------------------------------


class SkipItem(Exception):
    """Raised by a worker to skip an item with a reason (e.g. no API key configured)."""


@dataclass(frozen=True)
class ItemOutcome(Generic[T]):
    item_key: str
    status: Literal["ok", "dead_letter", "skipped"]
    value: T | None = None
    error_class: ErrorClass | None = None
    attempts: int = 0
    last_error: str | None = None
    reason: str | None = None


async def run_items(
    items: Iterable[ItemT],
    worker: Callable[[ItemT], Awaitable[T]],
    *,
    key: Callable[[ItemT], str] = str,
    guard: ServiceGuard | None = None,
    concurrency: int | None = None,
    secrets: Iterable[str | None] = (),
) -> list[ItemOutcome[T]]:
    """Run ``worker`` on every item, at most ``concurrency`` at once (default: the guard's
    ``max_concurrency``, else 8), and return one outcome per item in input order.

    * ok: the worker's return value in ``value``
    * skipped: `SkipItem`, or the service's breaker was open (``reason``; retry in a later run)
    * dead_letter: `ServiceCallFailed` (its class and attempts) or any other exception
      (classified, 1 attempt); ``last_error`` redacted with ``secrets`` and the guard's secrets
    """
    items = list(items)
    limit = concurrency or (guard.policy.max_concurrency if guard else 8)
    all_secrets = (*secrets, *(guard.secrets if guard else ()))
    outcomes: list[ItemOutcome[T] | None] = [None] * len(items)
    next_index = 0

    async def one(item: ItemT) -> ItemOutcome[T]:
        item_key = key(item)
        try:
            return ItemOutcome(item_key, "ok", value=await worker(item))
        except SkipItem as exc:
            return ItemOutcome(item_key, "skipped", reason=redact(str(exc), all_secrets))
        except ServiceCallFailed as exc:
            if exc.error_class is ErrorClass.CIRCUIT_OPEN:
                return ItemOutcome(
                    item_key, "skipped", error_class=exc.error_class, attempts=exc.attempts,
                    last_error=redact(exc.last_error, all_secrets), reason=f"circuit breaker of {exc.service} open",
                )
            return ItemOutcome(
                item_key, "dead_letter", error_class=exc.error_class, attempts=exc.attempts,
                last_error=redact(exc.last_error, all_secrets)[:LAST_ERROR_MAX_CHARS],
            )
        except Exception as exc:
            logger.warning("item %s failed: %s", item_key, redact(f"{type(exc).__name__}: {exc}", all_secrets))
            return ItemOutcome(
                item_key, "dead_letter", error_class=classify(exc), attempts=1,
                last_error=redact(f"{type(exc).__name__}: {exc}", all_secrets)[:LAST_ERROR_MAX_CHARS],
            )

    async def lane() -> None:
        nonlocal next_index
        while next_index < len(items):
            index = next_index
            next_index += 1
            outcomes[index] = await one(items[index])

    async with asyncio.TaskGroup() as group:
        for _ in range(min(limit, len(items))):
            group.create_task(lane())
    return [o for o in outcomes if o is not None]


def outcome_counts(outcomes: Sequence[ItemOutcome[Any]]) -> dict[str, Any]:
    """Counts for asset metadata: ok / dead-lettered (by class) / skipped (by reason)."""
    dead = Counter(str(o.error_class) for o in outcomes if o.status == "dead_letter")
    skipped = Counter(o.reason or "" for o in outcomes if o.status == "skipped")
    return {
        "items": len(outcomes),
        "ok": sum(o.status == "ok" for o in outcomes),
        "dead_lettered": sum(dead.values()),
        "skipped": sum(skipped.values()),
        "dead_lettered_by_class": dict(sorted(dead.items())),
        "skipped_by_reason": dict(sorted(skipped.items())),
    }


# -- dead letters ----------------------------------------------------------------------------------

_UPSERT_DEAD_LETTER = """
INSERT INTO pipeline.dead_letters AS d (item_key, layer, error_class, attempts, last_error,
                                        first_failed_at, last_failed_at, resolved_at)
VALUES (%s, %s, %s, %s, %s, clock_timestamp(), clock_timestamp(), NULL)
ON CONFLICT (item_key, layer) DO UPDATE
   SET error_class = EXCLUDED.error_class,
       attempts = d.attempts + EXCLUDED.attempts,
       last_error = EXCLUDED.last_error,
       last_failed_at = EXCLUDED.last_failed_at,
       resolved_at = NULL
"""

_RESOLVE_DEAD_LETTERS = """
UPDATE pipeline.dead_letters SET resolved_at = clock_timestamp()
 WHERE layer = %s AND item_key = ANY(%s) AND resolved_at IS NULL
"""


def record_dead_letters(
    conn: Any, layer: str, outcomes: Iterable[ItemOutcome[Any]], *, secrets: Iterable[str | None] = ()
) -> dict[str, int]:
    """Upsert the dead-lettered outcomes of a layer into ``pipeline.dead_letters`` (by
    (item_key, layer): attempts add up, class and redacted last error are replaced, a resolved
    row is reopened), and mark the layer's rows of items that now succeeded as resolved.

    ``conn`` is a psycopg connection; the caller's transaction commits. Returns counts.
    """
    secrets = tuple(secrets)
    rows: dict[str, tuple[str, str, str, int, str]] = {}
    succeeded: set[str] = set()
    for outcome in outcomes:
        if outcome.status == "dead_letter":
            error = redact(outcome.last_error or "", secrets)[:LAST_ERROR_MAX_CHARS]
            error_class = str(outcome.error_class or ErrorClass.PERMANENT)
            rows[outcome.item_key] = (outcome.item_key, layer, error_class, outcome.attempts, error)
        elif outcome.status == "ok":
            succeeded.add(outcome.item_key)
    with conn.cursor() as cur:
        if rows:
            cur.executemany(_UPSERT_DEAD_LETTER, list(rows.values()))
        resolved = 0
        if succeeded:
            cur.execute(_RESOLVE_DEAD_LETTERS, (layer, sorted(succeeded)))
            resolved = cur.rowcount
    return {"recorded": len(rows), "resolved": resolved}


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

"""What a guarded call or a run over many items ends with: `ServiceCallFailed` when a guard gives
up, `SkipItem` for an item to skip, one `ItemOutcome` per item from `run_items`, their counts for
asset metadata, and their dead letters in ``pipeline.dead_letters`` (`record_dead_letters`).
`resources/reliability.py` (the guard) re-exports them."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from sadie_pipeline.core.errors import ErrorClass, classify, redact

if TYPE_CHECKING:
    from sadie_pipeline.resources.reliability import ServiceGuard

logger = logging.getLogger(__name__)

T = TypeVar("T")
ItemT = TypeVar("ItemT")

LAST_ERROR_MAX_CHARS = 2000


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
    duration_ms: int | None = None


async def run_items(
    items: Iterable[ItemT],
    worker: Callable[[ItemT], Awaitable[T]],
    *,
    key: Callable[[ItemT], str] = str,
    guard: ServiceGuard | None = None,
    concurrency: int | None = None,
    secrets: Iterable[str | None] = (),
    on_outcome: Callable[[ItemT, ItemOutcome[T]], Awaitable[None]] | None = None,
) -> list[ItemOutcome[T]]:
    """Run ``worker`` on every item, at most ``concurrency`` at once (default: the guard's
    ``max_concurrency``, else 8), and return one outcome per item in input order.

    * ok: the worker's return value in ``value``
    * skipped: `SkipItem`, or the service's breaker was open (``reason``; retry in a later run)
    * dead_letter: `ServiceCallFailed` (its class and attempts) or any other exception
      (classified, 1 attempt); ``last_error`` redacted with ``secrets`` and the guard's secrets

    ``on_outcome`` is awaited with each item and its outcome as soon as the item ends (a layer
    saves its results in batches as it goes, so a killed run keeps what it finished).
    """
    items = list(items)
    limit = concurrency or (guard.policy.max_concurrency if guard else 8)
    all_secrets = (*secrets, *(guard.secrets if guard else ()))
    outcomes: list[ItemOutcome[T] | None] = [None] * len(items)
    next_index = 0

    async def one(item: ItemT) -> ItemOutcome[T]:
        started = time.perf_counter()
        try:
            outcome = ItemOutcome(key(item), "ok", value=await worker(item))
        except Exception as exc:
            outcome = _failed(key(item), exc, all_secrets)
        return dataclasses.replace(outcome, duration_ms=round((time.perf_counter() - started) * 1000))

    async def lane() -> None:
        nonlocal next_index
        while next_index < len(items):
            index = next_index
            next_index += 1
            outcomes[index] = await one(items[index])
            if on_outcome is not None:
                await on_outcome(items[index], outcomes[index])

    async with asyncio.TaskGroup() as group:
        for _ in range(min(limit, len(items))):
            group.create_task(lane())
    return [o for o in outcomes if o is not None]


def _failed(item_key: str, exc: Exception, secrets: Sequence[str | None]) -> ItemOutcome[Any]:
    """The outcome of an item whose worker raised: skipped (`SkipItem`, an open breaker) or dead-lettered."""
    if isinstance(exc, SkipItem):
        return ItemOutcome(item_key, "skipped", reason=redact(str(exc), secrets))
    if isinstance(exc, ServiceCallFailed):
        if exc.error_class is ErrorClass.CIRCUIT_OPEN:
            return ItemOutcome(
                item_key, "skipped", error_class=exc.error_class, attempts=exc.attempts,
                last_error=redact(exc.last_error, secrets), reason=f"circuit breaker of {exc.service} open",
            )
        return ItemOutcome(
            item_key, "dead_letter", error_class=exc.error_class, attempts=exc.attempts,
            last_error=redact(exc.last_error, secrets)[:LAST_ERROR_MAX_CHARS],
        )
    logger.warning("item %s failed: %s", item_key, redact(f"{type(exc).__name__}: {exc}", secrets))
    return ItemOutcome(
        item_key, "dead_letter", error_class=classify(exc), attempts=1,
        last_error=redact(f"{type(exc).__name__}: {exc}", secrets)[:LAST_ERROR_MAX_CHARS],
    )


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

"""The process's ledger of external calls: every `ServiceGuard` counts each call and each call it
gave up on here, per UTC day and service group (core/spend.py `service_group`), until a step's end
drains it into pipeline.service_usage (operations/spend.py), one upsert per service."""

from __future__ import annotations

import datetime as dt
import threading

from sadie_pipeline.core.spend import service_group


class UsageLedger:
    """Calls and failed calls of every guard of this process per (UTC day, service group), kept
    until drained: a step's end writes them once per service (operations/spend.py), not per call."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[tuple[dt.date, str], list[int]] = {}

    def add(self, guard_name: str, *, calls: int = 0, failures: int = 0) -> None:
        key = (dt.datetime.now(dt.UTC).date(), service_group(guard_name))
        with self._lock:
            counts = self._counts.setdefault(key, [0, 0])
            counts[0] += calls
            counts[1] += failures

    def drain(self) -> dict[tuple[dt.date, str], tuple[int, int]]:
        """{(day, service): (calls, failures)} since the last drain, forgotten here."""
        with self._lock:
            taken, self._counts = self._counts, {}
        return {k: (v[0], v[1]) for k, v in taken.items()}

    def restore(self, totals: dict[tuple[dt.date, str], tuple[int, int]]) -> None:
        """Puts drained totals back (their write failed: the next drain tries again)."""
        with self._lock:
            for key, (calls, failures) in totals.items():
                counts = self._counts.setdefault(key, [0, 0])
                counts[0] += calls
                counts[1] += failures


USAGE = UsageLedger()

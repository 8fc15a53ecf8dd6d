"""A small in-process cache with a time to live: figures over a whole queue that every page view
would otherwise count again (each worker process keeps its own)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Any


class Cache:
    def __init__(self, ttl_s: float = 5.0):
        self.ttl_s = ttl_s
        self._values: dict[Hashable, tuple[float, Any]] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        now = time.monotonic()
        with self._lock:
            found = self._values.get(key)
        if found is not None and found[0] > now:
            return found[1]
        value = compute()
        with self._lock:
            self._values[key] = (now + self.ttl_s, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

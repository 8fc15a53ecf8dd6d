"""Running a resource's coroutine the way an asset does: on a fresh loop, closed afterwards."""

from __future__ import annotations

import asyncio
from typing import Any


def run(resource: Any, coro_fn: Any) -> Any:
    async def main() -> Any:
        try:
            return await coro_fn()
        finally:
            await resource.aclose()

    return asyncio.run(main())

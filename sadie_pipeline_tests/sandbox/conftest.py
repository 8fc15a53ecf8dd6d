"""The sandbox tests share the session sandbox (fixtures/sandbox.py); `web` reaches its sites."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline_tests.fixtures.sandbox import KEY  # noqa: F401  (imported by the tests)


@pytest.fixture
def web(sb: Sandbox) -> Iterator[httpx.Client]:
    """An httpx client that reaches hotel websites through the sandbox as its HTTP proxy."""
    with httpx.Client(proxy=sb.proxy_url, timeout=3.0) as client:
        yield client

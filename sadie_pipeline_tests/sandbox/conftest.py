"""One sandbox for the sandbox tests; knobs and counters are reset around every test."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from sadie_pipeline.sandbox import Sandbox

KEY = "test-key-not-a-secret"


@pytest.fixture(scope="session")
def sandbox_server() -> Iterator[Sandbox]:
    with Sandbox(seed=7) as sb:
        yield sb


@pytest.fixture
def sb(sandbox_server: Sandbox) -> Iterator[Sandbox]:
    sandbox_server.reset()
    yield sandbox_server
    sandbox_server.reset()


@pytest.fixture
def web(sb: Sandbox) -> Iterator[httpx.Client]:
    """An httpx client that reaches hotel websites through the sandbox as its HTTP proxy."""
    with httpx.Client(proxy=sb.proxy_url, timeout=3.0) as client:
        yield client

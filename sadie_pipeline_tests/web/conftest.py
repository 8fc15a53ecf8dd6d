"""Web fixtures: users of each role, and the app served over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sadie_pipeline.web.users import add_user
from sadie_pipeline_tests.web.server import serving

PASSWORD = "correct horse battery staple"


@pytest.fixture
def users(database) -> dict[str, str]:
    with database.connect() as conn:
        for name, role in (("vera", "viewer"), ("rita", "reviewer"), ("ada", "admin")):
            add_user(conn, name, PASSWORD, role)
    return {"viewer": "vera", "reviewer": "rita", "admin": "ada"}


@pytest.fixture
def web(database, local_object_store, users) -> Iterator[str]:
    with serving(database, local_object_store) as base:
        yield base

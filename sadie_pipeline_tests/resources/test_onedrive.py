"""OneDriveResource against the sandbox's identity platform and Graph: msal over the HTTPS
listener, simple uploads, upload sessions, retries, auth errors without secrets."""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.onedrive import (
    CLIENT_SECRET_ENV,
    DRIVE_ENV,
    FOLDER_ENV,
    TENANT_ENV,
    OneDriveResource,
)
from sadie_pipeline.resources.reliability import ServiceCallFailed, SkipItem
from sadie_pipeline.sandbox import Sandbox

SECRET = "graph-client-secret-9f3KQ~x1"  # fake; must never show up in errors or logs
UNIT = 320 * 1024
GRAPH_VARS = ("SADIE_GRAPH_TENANT_ID", "SADIE_GRAPH_CLIENT_ID", "SADIE_GRAPH_CLIENT_SECRET", "SADIE_GRAPH_DRIVE_ID",
              "SADIE_GRAPH_BASE_URL", "SADIE_GRAPH_AUTHORITY_HOST", "SADIE_GRAPH_CA_BUNDLE", "SADIE_ONEDRIVE_FOLDER")


@pytest.fixture
def graph_env(sb: Sandbox, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The sandbox's Graph settings in the environment; the sandbox accepts only SECRET."""
    sb.expect_api_key("login", SECRET)
    env = {k: v for k, v in sb.client_env().items() if k in GRAPH_VARS}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv(FOLDER_ENV, raising=False)
    return env


@pytest.fixture
def resources() -> Iterator[list[OneDriveResource]]:
    made: list[OneDriveResource] = []
    yield made
    for r in made:
        r.close()


def onedrive(resources: list[OneDriveResource], **kw: Any) -> OneDriveResource:
    """The resource as the definitions configure it from the environment (its EnvVars read now)."""
    settings: dict[str, Any] = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, "backoff_jitter_s": 0.0} | kw
    resource = resolved(configured("onedrive", **settings))
    resources.append(resource)
    return resource


def test_small_file_is_one_simple_upload(sb: Sandbox, graph_env: dict[str, str],
                                         resources: list[OneDriveResource]) -> None:
    data = b"name,city,rooms\nBiscayne Bay Inn,Miami,42\n"
    uploaded = onedrive(resources).upload("US-FL/leads 2026-01-05.csv", data)
    assert uploaded.method == "simple" and uploaded.size == len(data)
    assert uploaded.path == "Sadie Leads/US-FL/leads 2026-01-05.csv"
    assert uploaded.web_url.endswith("/Sadie%20Leads/US-FL/leads%202026-01-05.csv")
    [stored] = sb.inspect("graph")["files"]
    assert (stored["path"], stored["id"], stored["method"]) == (uploaded.path, uploaded.item_id, "simple")
    assert sb.services["graph"].content(uploaded.path) == data
    assert sb.stats("graph")["statuses"] == {"201": 1}
    # one OIDC discovery and one token, over TLS; msal's cache serves the next upload
    assert sb.stats("login")["statuses"] == {"200": 2}
    resource = resources[0]
    assert resource.upload("US-FL/second.csv", b"x").method == "simple"
    assert sb.stats("login")["requests"] == 2


def test_five_megabytes_go_through_an_upload_session(sb: Sandbox, graph_env: dict[str, str],
                                                     resources: list[OneDriveResource]) -> None:
    data = os.urandom(5 * 1024 * 1024)
    uploaded = onedrive(resources).upload("US-FL/leads.xlsx", data)
    assert uploaded.method == "session" and uploaded.size == len(data)
    [stored] = sb.inspect("graph")["files"]
    assert stored["chunks"] == 2  # 10 x 320 KiB, then the rest
    assert stored["sha256"] == hashlib.sha256(data).hexdigest()
    assert sb.services["graph"].content(uploaded.path) == data
    assert sb.stats("graph")["statuses"] == {"200": 1, "202": 1, "201": 1}

    smaller = onedrive(resources, chunk_size=4 * UNIT).upload("US-FL/leads-2.xlsx", data)
    assert smaller.method == "session"
    chunks = {f["path"]: f["chunks"] for f in sb.inspect("graph")["files"]}
    assert chunks["Sadie Leads/US-FL/leads-2.xlsx"] == 4
    assert sb.services["graph"].content(smaller.path) == data
    assert sb.inspect("graph")["upload_sessions"] == 0


def test_simple_limit_and_chunk_size_are_graphs(graph_env: dict[str, str], resources: list[OneDriveResource],
                                                sb: Sandbox) -> None:
    at_limit = onedrive(resources).upload("edge.bin", b"\1" * (4 * 1024 * 1024))
    assert at_limit.method == "simple"
    forced = onedrive(resources, simple_upload_max_bytes=0).upload("tiny.txt", b"tiny")
    assert forced.method == "session" and sb.services["graph"].content(forced.path) == b"tiny"
    with pytest.raises(ValidationError):
        OneDriveResource(chunk_size=1_000_000)  # not a multiple of 320 KiB
    with pytest.raises(ValueError):
        onedrive(resources).upload("US-FL/a:b.csv", b"x")
    with pytest.raises(ValueError):
        onedrive(resources).upload("../escape.csv", b"x")


def test_bad_secret_is_a_clear_auth_error_without_the_secret(sb: Sandbox, graph_env: dict[str, str],
                                                             resources: list[OneDriveResource],
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    wrong = "wrong-secret-Zr8~kept-out-of-errors"
    monkeypatch.setenv(CLIENT_SECRET_ENV, wrong)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ServiceCallFailed) as failed:
        onedrive(resources).upload("US-FL/a.csv", b"x")
    exc = failed.value
    assert exc.error_class is ErrorClass.AUTH and exc.attempts == 1 and exc.service == "onedrive"
    assert "invalid_client" in str(exc) and "AADSTS7000215" in str(exc) and CLIENT_SECRET_ENV in str(exc)
    for text in (str(exc), repr(exc), exc.last_error, caplog.text):
        assert wrong not in text and SECRET not in text
    assert exc.__cause__ is None and exc.__suppress_context__
    assert sb.stats("graph")["requests"] == 0 and sb.inspect("graph")["files"] == []


def test_unknown_tenant_is_a_clear_error(sb: Sandbox, graph_env: dict[str, str], resources: list[OneDriveResource],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TENANT_ENV, "contoso.onmicrosoft.com")
    with pytest.raises(ServiceCallFailed) as failed:
        onedrive(resources).upload("a.csv", b"x")
    assert failed.value.error_class is ErrorClass.AUTH and "contoso.onmicrosoft.com" in str(failed.value)
    assert SECRET not in str(failed.value)


def test_injected_5xx_is_retried_and_the_upload_succeeds(sb: Sandbox, graph_env: dict[str, str],
                                                         resources: list[OneDriveResource]) -> None:
    sb.configure("graph", fail_next=1)
    uploaded = onedrive(resources).upload("US-FL/retry.csv", b"a,b\n")
    assert uploaded.method == "simple"
    assert sb.stats("graph")["statuses"] == {"503": 1, "201": 1}
    assert sb.stats("graph")["injected_errors"] == 1
    assert sb.services["graph"].content(uploaded.path) == b"a,b\n"

    data = os.urandom(3 * 1024 * 1024 + 5 * UNIT)
    sb.configure("graph", fail_next=1)  # the session request fails once, then every fragment goes through
    big = onedrive(resources, chunk_size=4 * UNIT, simple_upload_max_bytes=UNIT).upload("US-FL/retry.bin", data)
    assert big.method == "session" and sb.services["graph"].content(big.path) == data


def test_identity_platform_5xx_is_retried(sb: Sandbox, graph_env: dict[str, str],
                                          resources: list[OneDriveResource]) -> None:
    sb.configure("login", fail_next=1)  # msal's OIDC discovery fails once, then discovery and token work
    uploaded = onedrive(resources).upload("US-FL/after-login-hiccup.csv", b"x")
    assert uploaded.method == "simple"
    assert sb.stats("login")["statuses"] == {"503": 1, "200": 2}


def test_429_with_retry_after_in_the_middle_of_a_session(sb: Sandbox, graph_env: dict[str, str],
                                                          resources: list[OneDriveResource]) -> None:
    sb.configure("graph", rate_limit=(2, 1.0))  # session + first fragment, then 429 Retry-After: 1
    data = os.urandom(9 * UNIT)
    uploaded = onedrive(resources, chunk_size=4 * UNIT, simple_upload_max_bytes=UNIT).upload("US-FL/paced.bin", data)
    assert uploaded.method == "session"
    assert sb.stats("graph")["rate_limited"] >= 1
    assert sb.services["graph"].content(uploaded.path) == data


def test_graph_that_stays_down_fails_after_max_attempts(sb: Sandbox, graph_env: dict[str, str],
                                                        resources: list[OneDriveResource]) -> None:
    sb.configure("graph", error_rate=1.0)
    with pytest.raises(ServiceCallFailed) as failed:
        onedrive(resources, max_attempts=3).upload("US-FL/down.csv", b"x")
    exc = failed.value
    assert exc.error_class is ErrorClass.TRANSIENT and exc.attempts == 3 and exc.status_code == 503
    assert "HTTP 503" in exc.last_error and "serviceNotAvailable" in exc.last_error
    assert sb.stats("graph")["requests"] == 3


def test_conflict_fail_is_permanent(sb: Sandbox, graph_env: dict[str, str],
                                    resources: list[OneDriveResource]) -> None:
    onedrive(resources).upload("US-FL/once.csv", b"1")
    with pytest.raises(ServiceCallFailed) as failed:
        onedrive(resources, conflict_behavior="fail").upload("US-FL/once.csv", b"2")
    assert failed.value.error_class is ErrorClass.PERMANENT and failed.value.attempts == 1
    assert "nameAlreadyExists" in failed.value.last_error


def test_folder_and_settings_come_from_the_environment_at_use_time(sb: Sandbox, graph_env: dict[str, str],
                                                                   resources: list[OneDriveResource],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DRIVE_ENV)
    monkeypatch.delenv(CLIENT_SECRET_ENV)
    resource = onedrive(resources)
    assert not resource.configured()
    message = resource.not_configured_message()
    assert DRIVE_ENV in message and CLIENT_SECRET_ENV in message and TENANT_ENV not in message
    with pytest.raises(SkipItem):
        resource.upload("a.csv", b"x")
    assert sb.stats("graph")["requests"] == 0 and sb.stats("login")["requests"] == 0

    monkeypatch.setenv(DRIVE_ENV, graph_env[DRIVE_ENV])
    monkeypatch.setenv(CLIENT_SECRET_ENV, SECRET)
    monkeypatch.setenv(FOLDER_ENV, "/Exports/Leads/")
    assert not resource.configured()  # the resource reads no variable: the definitions do, when built
    resource = onedrive(resources)
    assert resource.configured()
    assert resource.upload("a.csv", b"x").path == "Exports/Leads/a.csv"


def test_not_configured_without_any_graph_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in GRAPH_VARS:
        monkeypatch.delenv(name, raising=False)
    resource = OneDriveResource()
    assert not resource.configured()
    assert "SADIE_GRAPH_TENANT_ID" in resource.not_configured_message()
    explicit = OneDriveResource(tenant_id="t", client_id="c", client_secret=SECRET, drive_id="d")
    assert explicit.configured() and SECRET not in explicit.not_configured_message()

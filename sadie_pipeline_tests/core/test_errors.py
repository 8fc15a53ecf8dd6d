"""Error classification, Retry-After parsing and secret redaction (pure, no I/O)."""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime

import httpx
import pytest

from sadie_pipeline.core.errors import ErrorClass, classify, classify_status, redact, retry_after_seconds

REQUEST = httpx.Request("GET", "https://api.example.test/v1/search")


def status_error(status: int, headers: dict[str, str] | None = None) -> httpx.HTTPStatusError:
    response = httpx.Response(status, headers=headers, request=REQUEST)
    return httpx.HTTPStatusError(f"{status}", request=REQUEST, response=response)


# -- classification ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (408, "transient"), (500, "transient"), (502, "transient"), (503, "transient"), (504, "transient"),
        (529, "transient"),  # Anthropic "overloaded"
        (429, "rate_limited"),
        (400, "permanent"), (405, "permanent"), (409, "permanent"), (422, "permanent"),
        (501, "permanent"), (505, "permanent"), (301, "permanent"),
        (404, "not_found"), (410, "not_found"),
        (401, "auth"), (403, "auth"),
    ],
)
def test_status_codes(status: int, expected: str) -> None:
    assert classify(status) == classify_status(status) == expected
    assert classify(status_error(status)) == expected
    assert classify(httpx.Response(status, request=REQUEST)) == expected


def test_only_transient_and_rate_limited_are_retryable() -> None:
    assert {c for c in ErrorClass if c.retryable} == {ErrorClass.TRANSIENT, ErrorClass.RATE_LIMITED}


@pytest.mark.parametrize(
    "exc",
    [
        httpx.ConnectTimeout("connect", request=REQUEST),
        httpx.ReadTimeout("read", request=REQUEST),
        httpx.PoolTimeout("pool", request=REQUEST),
        httpx.ConnectError("refused", request=REQUEST),
        httpx.ReadError("reset", request=REQUEST),
        httpx.RemoteProtocolError("peer closed connection", request=REQUEST),
        TimeoutError(),
        ConnectionResetError(104, "Connection reset by peer"),
        ConnectionRefusedError(111, "refused"),
        OSError(113, "No route to host"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_network_failures_are_transient(exc: BaseException) -> None:
    assert classify(exc) is ErrorClass.TRANSIENT


@pytest.mark.parametrize(
    "exc",
    [ValueError("bad"), KeyError("name"), json.JSONDecodeError("x", "doc", 0), UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad"),
     TypeError("a bug"), httpx.UnsupportedProtocol("ftp://x"), FileNotFoundError("missing")],
    ids=lambda e: type(e).__name__,
)
def test_invalid_data_and_bugs_are_permanent(exc: BaseException) -> None:
    assert classify(exc) is ErrorClass.PERMANENT


def test_a_host_that_does_not_exist_is_not_found_but_a_resolver_hiccup_is_transient() -> None:
    def connect_error(cause: BaseException) -> httpx.ConnectError:
        try:
            try:
                raise cause
            except OSError as exc:
                raise httpx.ConnectError(str(exc), request=REQUEST) from exc
        except httpx.ConnectError as wrapped:
            return wrapped

    assert classify(connect_error(socket.gaierror(socket.EAI_NONAME, "Name or service not known"))) is ErrorClass.NOT_FOUND
    assert classify(connect_error(socket.gaierror(socket.EAI_AGAIN, "Temporary failure"))) is ErrorClass.TRANSIENT


def test_dnspython_errors() -> None:
    resolver = pytest.importorskip("dns.resolver")
    import dns.exception

    assert classify(resolver.NXDOMAIN()) is ErrorClass.NOT_FOUND
    assert classify(resolver.NoAnswer()) is ErrorClass.NOT_FOUND
    assert classify(dns.exception.Timeout()) is ErrorClass.TRANSIENT
    assert classify(resolver.LifetimeTimeout(timeout=1.0, errors=[])) is ErrorClass.TRANSIENT
    assert classify(resolver.NoNameservers()) is ErrorClass.TRANSIENT


def test_sdk_errors() -> None:
    groq = pytest.importorskip("groq")

    def response(status: int) -> httpx.Response:
        return httpx.Response(status, request=REQUEST, headers={"retry-after": "2"})

    assert classify(groq.RateLimitError("slow down", response=response(429), body=None)) is ErrorClass.RATE_LIMITED
    assert classify(groq.InternalServerError("oops", response=response(500), body=None)) is ErrorClass.TRANSIENT
    assert classify(groq.AuthenticationError("bad key", response=response(401), body=None)) is ErrorClass.AUTH
    assert classify(groq.NotFoundError("no model", response=response(404), body=None)) is ErrorClass.NOT_FOUND
    assert classify(groq.BadRequestError("bad", response=response(400), body=None)) is ErrorClass.PERMANENT
    assert classify(groq.APITimeoutError(request=REQUEST)) is ErrorClass.TRANSIENT
    assert classify(groq.APIConnectionError(request=REQUEST)) is ErrorClass.TRANSIENT


def test_explicit_classes_and_breaker_errors() -> None:
    class Refused(Exception):
        error_class = ErrorClass.CIRCUIT_OPEN

    class CircuitBreakerError(Exception):
        pass

    assert classify(Refused()) is ErrorClass.CIRCUIT_OPEN
    assert classify(CircuitBreakerError()) is ErrorClass.CIRCUIT_OPEN
    with pytest.raises(TypeError):
        classify("500")
    with pytest.raises(TypeError):
        classify(True)


# -- Retry-After -------------------------------------------------------------------------------

NOW = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "120"}, 120.0),
        ({"retry-after": " 0 "}, 0.0),
        ({"RETRY-AFTER": "1.5"}, 1.5),
        ({"Retry-After": "Sun, 01 Mar 2026 12:00:30 GMT"}, 30.0),  # IMF-fixdate
        ({"Retry-After": "Sunday, 01-Mar-26 12:01:00 GMT"}, 60.0),  # obsolete RFC 850 form
        ({"Retry-After": "Sun Mar  1 12:00:10 2026"}, 10.0),  # asctime form
        ({"Retry-After": "Sun, 01 Mar 2026 11:59:00 GMT"}, 0.0),  # in the past: go now
        ({"Retry-After": "-5"}, None),
        ({"Retry-After": "soon"}, None),
        ({"Retry-After": ""}, None),
        ({"retry-after-ms": "250", "retry-after": "1"}, 0.25),  # Anthropic/OpenAI's finer header wins
        ({"retry-after-ms": "junk", "retry-after": "1"}, 1.0),
        ({"Content-Type": "text/plain"}, None),
        ({}, None),
        (None, None),
        ([("Retry-After", "7")], 7.0),
    ],
)
def test_retry_after_seconds(headers: object, expected: float | None) -> None:
    assert retry_after_seconds(headers, now=NOW) == expected


def test_retry_after_from_httpx_headers() -> None:
    assert retry_after_seconds(httpx.Headers({"Retry-After": "3"})) == 3.0
    assert retry_after_seconds(status_error(429, {"Retry-After": "4"}).response.headers) == 4.0


# -- redaction ---------------------------------------------------------------------------------

KEY = "sk-live-9a8b7c6d5e4f"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"Serper said no to {KEY}.", "Serper said no to ***."),
        (f"url https://h.test/x?api_key={KEY}&q=inn", "url https://h.test/x?api_key=***&q=inn"),
        ("Authorization: Bearer eyJhbGciOi.J9.abc-_", "Authorization: Bearer ***"),
        ("headers: bearer abc123def", "headers: bearer ***"),
        ("Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic ***"),
        ("x-api-key: abc123", "x-api-key: ***"),
        ("X-API-KEY=abc123", "X-API-KEY=***"),
        ("{'x-api-key': 'abc123', 'accept': 'application/json'}", "{'x-api-key': '***', 'accept': 'application/json'}"),
        ('{"api_key": "abc123", "q": "hotel"}', '{"api_key": "***", "q": "hotel"}'),
        ('{"password":"hunter2","client_secret":"s3"}', '{"password":"***","client_secret":"***"}'),
        ("GET /maps/api/place?key=AIzaSyA-1&input=x", "GET /maps/api/place?key=***&input=x"),
        ("https://blob.test/f?sv=2024&sig=abc%2Fdef", "https://blob.test/f?sv=2024&sig=***"),
        # ordinary words stay
        ("the key to the room; a basic room; token bucket; 'key': 'hotel:1'",
         "the key to the room; a basic room; token bucket; 'key': 'hotel:1'"),
        ("Bearer ***", "Bearer ***"),
    ],
)
def test_redact(text: str, expected: str) -> None:
    assert redact(text, [KEY]) == expected


def test_redact_encoded_secrets_and_overlaps() -> None:
    secret = "p@ss w/rd+\"x"
    text = f'raw {secret} url p%40ss%20w%2Frd%2B%22x form p%40ss+w%2Frd%2B%22x json "p@ss w/rd+\\"x"'
    out = redact(text, [secret])
    assert "p@ss" not in out and "p%40ss" not in out and out.count("***") == 4
    assert redact("abcdef abc", ["abc", "abcdef"]) == "*** ***"  # the longer secret first
    assert redact("nothing here", ["", None]) == "nothing here"  # unset keys are ignored
    assert redact(ValueError(f"boom {KEY}"), [KEY]) == "boom ***"

"""Classifying failures of external calls, reading Retry-After, and redacting secrets.

Pure: no I/O, no Dagster. Used by `resources/reliability.py` to decide what to retry, what
trips a circuit breaker and what goes to the dead-letter table, and by anything that writes
errors to logs, asset metadata or stored responses (`redact`).

Classes (after the seed's "Error Classification"):

* ``transient``    timeouts, connection errors/resets, 408, 5xx (not 501/505): retry with backoff
* ``rate_limited`` 429 (and 503 carrying Retry-After is still ``transient``): retry after the
  server's Retry-After, else backoff
* ``permanent``    other 4xx, 501/505, invalid data (ValueError, KeyError, JSON errors) and
  unexpected exceptions (bugs are not retried): no retry
* ``not_found``    404, 410, DNS NXDOMAIN / no answer: no retry
* ``auth``         401, 403: no retry (a bad key fails every call)
* ``circuit_open`` the service's breaker is open: the call was not made
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from enum import StrEnum
from typing import Any

import httpx


class ErrorClass(StrEnum):
    TRANSIENT = "transient"
    RATE_LIMITED = "rate_limited"
    PERMANENT = "permanent"
    NOT_FOUND = "not_found"
    AUTH = "auth"
    CIRCUIT_OPEN = "circuit_open"

    @property
    def retryable(self) -> bool:
        return self in (ErrorClass.TRANSIENT, ErrorClass.RATE_LIMITED)


def classify_status(status: int) -> ErrorClass:
    """The class of an HTTP error status (callers decide which statuses are errors)."""
    if status == 429:
        return ErrorClass.RATE_LIMITED
    if status == 408:
        return ErrorClass.TRANSIENT
    if status in (401, 403):
        return ErrorClass.AUTH
    if status in (404, 410):
        return ErrorClass.NOT_FOUND
    if 500 <= status <= 599 and status not in (501, 505):
        return ErrorClass.TRANSIENT
    return ErrorClass.PERMANENT


# Exceptions of libraries this module does not import (SDKs, dnspython, Playwright), by class name
# anywhere in the MRO. The official Anthropic/Groq/OpenAI SDKs share these names.
_TRANSIENT_NAMES = frozenset({
    "APITimeoutError", "APIConnectionError",              # anthropic, groq, openai
    "Timeout", "LifetimeTimeout", "NoNameservers",        # dnspython
    "TimeoutError",                                       # playwright and others
    "ServiceUnavailable", "ServerDisconnectedError", "ClientConnectionError",  # aiohttp & co
})
_NOT_FOUND_NAMES = frozenset({"NXDOMAIN", "NoAnswer"})  # dnspython
_CIRCUIT_OPEN_NAMES = frozenset({"CircuitBreakerError", "CircuitOpen"})
_NAME_NOT_FOUND_ERRNOS = frozenset(
    getattr(socket, name) for name in ("EAI_NONAME", "EAI_NODATA") if hasattr(socket, name)
)


def _status_of(obj: Any) -> int | None:
    """HTTP status carried by a response or an exception (httpx, SDK errors), if any."""
    status = getattr(obj, "status_code", None)
    if isinstance(status, int):
        return status
    status = getattr(getattr(obj, "response", None), "status_code", None)
    return status if isinstance(status, int) else None


def _chain(exc: BaseException) -> Iterable[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def classify(exc_or_status: BaseException | int | Any) -> ErrorClass:
    """The class of an exception, an HTTP status code or a response-like object."""
    explicit = getattr(exc_or_status, "error_class", None)
    if isinstance(explicit, ErrorClass):
        return explicit
    if isinstance(exc_or_status, bool):
        raise TypeError("classify() takes an exception, a status code or a response")
    if isinstance(exc_or_status, int):
        return classify_status(exc_or_status)
    if not isinstance(exc_or_status, BaseException):
        status = _status_of(exc_or_status)
        if status is None:
            raise TypeError(f"cannot classify {type(exc_or_status).__name__}")
        return classify_status(status)

    exc = exc_or_status
    names = {cls.__name__ for cls in type(exc).__mro__}
    if names & _CIRCUIT_OPEN_NAMES:
        return ErrorClass.CIRCUIT_OPEN
    status = _status_of(exc)
    if status is not None:
        return classify_status(status)
    # A host name that does not exist is not worth retrying; httpx chains the resolver's error.
    for link in _chain(exc):
        if isinstance(link, socket.gaierror) and link.errno in _NAME_NOT_FOUND_ERRNOS:
            return ErrorClass.NOT_FOUND
        if {cls.__name__ for cls in type(link).__mro__} & _NOT_FOUND_NAMES:
            return ErrorClass.NOT_FOUND
    if names & _NOT_FOUND_NAMES:
        return ErrorClass.NOT_FOUND
    if isinstance(exc, httpx.TransportError | TimeoutError | ConnectionError) or names & _TRANSIENT_NAMES:
        # httpx.TransportError: timeouts, connect/read/write errors, protocol errors, proxy errors
        if isinstance(exc, httpx.UnsupportedProtocol | httpx.InvalidURL):
            return ErrorClass.PERMANENT
        return ErrorClass.TRANSIENT
    if isinstance(exc, OSError) and not isinstance(exc, FileNotFoundError | PermissionError):
        return ErrorClass.TRANSIENT  # network-level OSErrors (EHOSTUNREACH, ENETDOWN, ...)
    if isinstance(exc, ValueError | KeyError | json.JSONDecodeError | UnicodeError):
        return ErrorClass.PERMANENT  # invalid data: the same input fails the same way
    return ErrorClass.PERMANENT  # unexpected exceptions are bugs: retrying only repeats them


def _header(headers: Mapping[str, str] | Iterable[tuple[str, str]] | None, name: str) -> str | None:
    if headers is None:
        return None
    items = headers.items() if isinstance(headers, Mapping) else headers
    for key, value in items:
        key = key.decode() if isinstance(key, bytes) else key
        if key.lower() == name:
            return value.decode() if isinstance(value, bytes) else value
    return None


def retry_after_seconds(
    headers: Mapping[str, str] | Iterable[tuple[str, str]] | None, *, now: datetime | None = None
) -> float | None:
    """Seconds to wait according to ``Retry-After`` (delta-seconds or HTTP-date, RFC 9110 10.2.3).

    ``retry-after-ms`` (sent by the Anthropic and OpenAI APIs) wins when present. None when
    absent or unparseable; an HTTP-date in the past gives 0.0.
    """
    millis = _header(headers, "retry-after-ms")
    if millis is not None:
        try:
            value = float(millis.strip())
        except ValueError:
            value = -1.0
        if value >= 0 and value == value and value != float("inf"):
            return value / 1000.0
    raw = _header(headers, "retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    if not raw:
        return None
    try:
        seconds = float(raw)
    except ValueError:
        pass
    else:
        return seconds if 0 <= seconds < float("inf") else None
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000" or obsolete forms: HTTP-dates are always GMT
        when = when.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    return max(0.0, (when - now).total_seconds())


REDACTED = "***"

# Names that only ever hold credentials, as headers, JSON/dict fields, form fields or query parameters.
_CREDENTIAL_NAMES = (
    r"authorization|proxy-authorization|x-api-key|api-key|apikey|api_key|x-goog-api-key|"
    r"ocp-apim-subscription-key|subscription-key|x-auth-token|auth[_-]token|access[_-]token|"
    r"refresh[_-]token|id[_-]token|client[_-]secret|secret[_-]key|password|passwd"
)
_PAIR_RE = re.compile(
    rf"""(?ix)
    (?<![A-Za-z0-9_-])(["']?)({_CREDENTIAL_NAMES})\1   # the name, maybe quoted
    (\s*[:=]\s*)(["']?)                                # separator, maybe an opening quote
    ((?:bearer|basic|token|digest)\s+)?                # an authorization scheme is kept
    (?!\*\*\*)                                          # not redacted already
    ([^"'\s&,;}}\]]+)                                    # the value
    """
)
# Short generic names only in query strings (Google's `key=`, Azure SAS `sig=`, `token=`).
_QUERY_RE = re.compile(r"(?i)([?&;](?:key|sig|token|secret)=)(?!\*\*\*)([^&#\s\"'<>]+)")
# `Bearer xxx` wherever it appears
_BEARER_RE = re.compile(r"(?i)\b(bearer\s+)(?!\*\*\*)([A-Za-z0-9\-._~+/]+=*)")


def first_line(exc: BaseException) -> str:
    """An error as one line for a person or a row: its message's first line, its type's name when
    it has no message."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def redact(text: Any, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with every given secret value (also percent- or JSON-encoded), every ``Bearer``
    token, and every credential-named header, JSON field or query parameter replaced by ``***``.
    For logs, asset metadata, dead letters and stored responses. Empty secrets are ignored."""
    out = text if isinstance(text, str) else str(text)
    values = sorted({s for s in secrets if s and s.strip()}, key=len, reverse=True)
    for value in values:
        for variant in (value, *_encoded_variants(value)):
            out = out.replace(variant, REDACTED)
    out = _PAIR_RE.sub(lambda m: f"{m[1]}{m[2]}{m[1]}{m[3]}{m[4]}{m[5] or ''}{REDACTED}", out)
    out = _QUERY_RE.sub(lambda m: f"{m[1]}{REDACTED}", out)
    out = _BEARER_RE.sub(lambda m: f"{m[1]}{REDACTED}", out)
    return out


def _encoded_variants(value: str) -> list[str]:
    """Forms a secret takes inside URLs and JSON (percent-encoded, JSON-escaped)."""
    from urllib.parse import quote, quote_plus

    variants = {quote(value, safe=""), quote_plus(value), json.dumps(value)[1:-1]}
    variants.discard(value)
    return [v for v in variants if v]

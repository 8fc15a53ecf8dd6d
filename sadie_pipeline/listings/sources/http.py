"""HTTP for pulled sources: one httpx client per pull, every request through the project's guard
(resources/reliability.py: rate limit, concurrency, retries of timeouts, 429s and 5xx with
Retry-After, circuit breaker). Credentials come from the environment variables the config names;
they are redacted from every message. A page that fails after the retries, or answers something
other than JSON, raises PageError: the connector makes it a job_errors row and goes on."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import httpx
import orjson

from sadie_pipeline.core.sources.records import ProblemKind, snippet
from sadie_pipeline.resources.reliability import ServiceCallFailed, ServiceGuard, ServicePolicy

PROXY_ENV = "SADIE_HTTP_PROXY"  # the proxy of websites (the sandbox serves scraped sites this way)


def user_agent() -> str:
    """An honest User-Agent: the platform, its version and what it does."""
    try:
        version = metadata.version("sadie_pipeline")
    except metadata.PackageNotFoundError:
        version = "0"
    return f"sadie-pipeline/{version} (listings import)"


class SourceError(Exception):
    """The source cannot be pulled at all (unreachable, no credentials): the job fails with this line."""


class PageError(Exception):
    def __init__(self, kind: ProblemKind, message: str, start: str | None = None):
        super().__init__(message)
        self.kind, self.message, self.start = kind, message, start


@dataclass(frozen=True)
class Page:
    url: str            # as requested (secrets redacted)
    body: Any           # parsed JSON, or text for HTML and file pages
    headers: httpx.Headers
    size: int


def _env(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise SourceError(f"the environment variable {name} (named by the config's import.auth) is not set")
    return value


def credentials(auth: Mapping[str, Any] | None) -> tuple[httpx.Auth | None, dict[str, str], dict[str, str], list[str]]:
    """(httpx auth, headers, query parameters, secrets) of the config's auth section."""
    if not auth:
        return None, {}, {}, []
    if auth["type"] == "basic":
        user, password = _env(auth["username_env"]), _env(auth["password_env"])
        return httpx.BasicAuth(user, password), {}, {}, [password]
    key = _env(auth["key_env"])
    if auth["type"] == "bearer":
        return None, {"Authorization": f"Bearer {key}"}, {}, [key]
    if auth["type"] == "header":
        return None, {auth["header"]: key}, {}, [key]
    return None, {}, {auth["param"]: key}, [key]


class SourceHttp:
    """The pull's client and guard; use as `async with SourceHttp(...) as http`."""

    def __init__(self, name: str, section: Mapping[str, Any], *, proxy: str | None = None,
                 accept: str = "application/json"):
        settings = section["http"]
        self.auth, headers, self.params, secrets = credentials(section.get("auth"))
        self.headers = {"User-Agent": user_agent(), "Accept": accept, **headers}
        self.timeout = httpx.Timeout(settings["timeout_s"], connect=min(10.0, settings["timeout_s"]))
        self.proxy = proxy
        self.guard = ServiceGuard(ServicePolicy(
            name=name, requests_per_second=settings.get("requests_per_second"),
            burst=max(1, int(settings.get("requests_per_second") or 1)), max_concurrency=settings["concurrency"],
            max_attempts=settings["max_attempts"], timeout_s=settings["timeout_s"], backoff_base_s=0.25,
            backoff_max_s=10.0), secrets=secrets)
        self.client: httpx.AsyncClient | None = None
        self.bytes = 0

    async def __aenter__(self) -> SourceHttp:
        limits = httpx.Limits(max_connections=self.guard.policy.max_concurrency + 2)
        self.client = httpx.AsyncClient(auth=self.auth, headers=self.headers, timeout=self.timeout, limits=limits,
                                        follow_redirects=True, proxy=self.proxy)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self.client is not None:
            await self.client.aclose()

    def redact(self, text: str) -> str:
        return self.guard.redact(text)

    def url(self, url: str, params: Mapping[str, str] | None = None) -> httpx.URL:
        # merged into the URL's own query (httpx's params= would replace it: Drupal's include=...)
        return httpx.URL(url).copy_merge_params({**(params or {}), **self.params})

    async def get(self, url: str, params: Mapping[str, str] | None = None) -> httpx.Response:
        """One GET through the guard; PageError once it gives up."""
        assert self.client is not None
        full = self.url(url, params)
        shown = self.redact(str(full))
        try:
            response = await self.guard.call(lambda: self.client.get(full), item_key=shown)
        except ServiceCallFailed as exc:
            reason = exc.last_error.splitlines()[0] if exc.last_error else str(exc.error_class)
            raise PageError(ProblemKind.PAGE_FAILED, f"{shown}: {reason} ({exc.attempts} attempt(s))") from None
        self.bytes += len(response.content)
        return response

    async def get_json(self, url: str, params: Mapping[str, str] | None = None) -> Page:
        response = await self.get(url, params)
        shown = self.redact(str(response.request.url))
        try:
            body = orjson.loads(response.content)
        except orjson.JSONDecodeError:
            kind = response.headers.get("content-type", "no content type").split(";")[0]
            raise PageError(ProblemKind.NOT_JSON, f"{shown} answered {kind}, not JSON: {snippet(response.content)}",
                            snippet(response.content, 500)) from None
        return Page(shown, body, response.headers, len(response.content))

    async def get_text(self, url: str) -> Page:
        response = await self.get(url)
        return Page(self.redact(str(response.url)), response.text, response.headers, len(response.content))

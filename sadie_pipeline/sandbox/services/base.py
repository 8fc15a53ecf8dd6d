"""What every sandbox service is: a name, a URL prefix, routes, and its own error format.

To add a service: subclass `Service` in a new module of this package, set `name`, `prefix`
and `real_base_url`, implement `routes()` (aiohttp route definitions relative to the prefix)
and, if the real API's error bodies differ from the default, `error_body()`; then add the class
to `SERVICES` in `services/__init__.py`. The sandbox core mounts it under its prefix and wraps
every request in the knobs (latency, rate limit with 429 + Retry-After, injected 5xx, hangs)
and the counters, so a service only implements the protocol.

A service that keeps what clients send (uploaded files, posted messages) returns it from
`state()` (`Sandbox.inspect(name)`, `GET /_sandbox/inspect/{name}`) and forgets it in
`reset_state()` (`Sandbox.reset()`). A service whose clients insist on an https origin (msal's
authority) sets `https_root = True`: it is also served at the root of the sandbox's HTTPS
listener (a certificate made at startup, `Sandbox.ca_file`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

from aiohttp import web

if TYPE_CHECKING:  # pragma: no cover
    from ..knobs import SandboxContext

# Set on requests that reached a service at the root of the HTTPS listener (see `mount_url`).
ROOT_MOUNT = "sandbox.root_mount"

SENSITIVE_HEADERS = frozenset({"authorization", "x-api-key", "api-key", "cookie", "proxy-authorization",
                               "x-goog-api-key"})


def json_response(data: Any, status: int = 200, *, headers: dict[str, str] | None = None,
                  content_type: str = "application/json") -> web.Response:
    return web.Response(body=json.dumps(data, ensure_ascii=False).encode(), status=status,
                        headers=headers, content_type=content_type)


class Service:
    """Base class of a protocol-faithful fake service."""

    name: ClassVar[str]
    prefix: ClassVar[str]            # mounted at http://HOST:PORT{prefix}
    real_base_url: ClassVar[str] = ""  # what a client uses in production (documentation only)
    injected_error_status: ClassVar[int] = 500
    description: ClassVar[str] = ""
    https_root: ClassVar[bool] = False  # also served at the root of the HTTPS listener (one service at most)

    def __init__(self, ctx: SandboxContext) -> None:
        self.ctx = ctx

    # ---- to implement ----------------------------------------------------------------------
    def routes(self) -> list[web.RouteDef]:
        raise NotImplementedError

    def matches_host(self, host: str) -> bool:
        """True if requests for this Host header belong to this service (virtual hosting)."""
        return False

    async def handle_host(self, request: web.Request) -> web.StreamResponse:
        """Handler for requests routed by Host header (see `matches_host`)."""
        raise web.HTTPNotFound()

    def state(self) -> Any:
        """What clients stored here, JSON-serialisable, for tests (`Sandbox.inspect`). None: nothing."""
        return None

    def reset_state(self) -> None:
        """Forget what clients stored (`Sandbox.reset`)."""

    # ---- error format ----------------------------------------------------------------------
    def error_body(self, status: int, message: str, code: str | None) -> Any:
        return {"error": {"message": message, "code": code or str(status)}}

    def error(self, status: int, message: str, *, code: str | None = None,
              headers: dict[str, str] | None = None) -> web.Response:
        return json_response(self.error_body(status, message, code), status, headers=headers)

    def rate_limit_headers(self, limit: int, remaining: int, reset_s: float) -> dict[str, str]:
        return {"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(remaining),
                "X-RateLimit-Reset": str(max(0, round(reset_s)))}

    def rate_limited(self, retry_after_s: float, limit: int, window_s: float) -> web.Response:
        retry = max(1, int(-(-retry_after_s // 1)))  # whole seconds, rounded up
        headers = {"Retry-After": str(retry), **self.rate_limit_headers(limit, 0, retry_after_s)}
        return self.error(429, f"Rate limit exceeded: {limit} requests per {window_s:g}s. Retry after {retry}s.",
                          code="rate_limit_exceeded", headers=headers)

    def injected_error(self, status: int) -> web.Response:
        return self.error(status, "The server had an error while processing your request. Sorry about that!",
                          code="server_error")

    # ---- helpers ---------------------------------------------------------------------------
    def check_key(self, request: web.Request, header: str, *, bearer: bool = False) -> str | None:
        """The API key sent in `header` if acceptable, else None. Never logged."""
        value = request.headers.get(header, "")
        if bearer:
            scheme, _, value = value.partition(" ")
            if scheme.lower() != "bearer":
                return None
        value = value.strip()
        if not value:
            return None
        expected = self.ctx.api_keys.get(self.name)
        if expected is not None and value != expected:
            return None
        return value

    async def read_json(self, request: web.Request) -> Any:
        try:
            return await request.json(loads=json.loads)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise BadRequest("Request body is not valid JSON") from None

    def mount_url(self, request: web.Request) -> str:
        """This service's base URL as the client reached it: the request's scheme, host and port,
        then the prefix (nothing when it came in at the root of the HTTPS listener)."""
        mount = "" if request.get(ROOT_MOUNT) else self.prefix
        return f"{request.scheme}://{request.host}{mount}"

    def url(self, path: str = "") -> str:
        """Absolute URL of `path` under this service on the running sandbox."""
        return self.ctx.root_url + self.prefix + path


class BadRequest(Exception):
    """Raised by handlers; rendered as the service's own 400 error."""

    def __init__(self, message: str, code: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.code, self.status = message, code, status


class AbortConnection(Exception):
    """Raised by a handler to drop the TCP connection without any response."""

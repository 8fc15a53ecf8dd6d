"""The sandbox: one local server speaking each external service's wire protocol.

    from sadie_pipeline.sandbox import Sandbox

    with Sandbox() as sb:
        httpx.post(f"{sb.base_url('serper')}/places", headers={"X-API-KEY": "k"}, json={"q": "hotels in Miami"})
        Groq(api_key="k", base_url=sb.base_url("groq"))
        Anthropic(api_key="k", base_url=sb.base_url("anthropic"))
        httpx.get(f"{sb.base_url('rdap')}/domain/biscaynebayinn.test")
        httpx.Client(proxy=sb.proxy_url).get("http://www.biscaynebayinn.test/")   # hotel websites
        sb.resolver().resolve("biscaynebayinn.test", "MX")                         # DNS
        sb.configure("serper", latency_ms=50, rate_limit=(100, 60), error_rate=0.05)
        sb.stats("serper")  # {"requests": ..., "rate_limited": ..., "server_errors": ..., ...}
        sb.https_url, sb.ca_file   # the HTTPS listener (msal's authority: login service at its root)
        sb.inspect("graph")        # what clients stored: uploaded files, posted Slack messages
        sb.client_env()            # the environment that points the pipeline's resources here

One aiohttp server on a free localhost port runs in a background thread with its own event
loop. Each service is mounted under its path prefix (`/serper`, `/groq`, `/anthropic`,
`/rdap`, `/sites`, `/login`, `/graph`, `/slack`); hotel websites are also served by virtual host
(any Host header that is a name, see `services/sites.py`). A second listener speaks TLS with a
certificate made at startup (CA in `ca_file`) and serves the one `https_root` service (the
Microsoft identity platform, for msal) at its root. A DNS server (UDP+TCP, dnspython messages)
runs in the same loop on its own free port. Every request passes through the service's knobs
and counters.
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
import random
import shutil
import socket
import ssl
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aiohttp import web

from .dnsserver import DnsServer
from .services import SERVICES
from .services import graph as graph_service
from .services import slack as slack_service
from .services.base import ROOT_MOUNT, SENSITIVE_HEADERS, AbortConnection, BadRequest, Service, json_response
from .services.sites import host_of
from .world import World

CLIENT_KEY = "sandbox-key-not-a-secret"  # what `client_env` gives as API keys unless a service expects another


@dataclass(frozen=True)
class Knobs:
    """Per-service behaviour. Rates are fractions of requests (0..1), drawn from a seeded RNG."""

    latency_ms: float = 0.0          # added to every request
    jitter_ms: float = 0.0           # plus uniform(0, jitter_ms)
    rate_limit: tuple[int, float] | None = None  # (requests, window_seconds): past it, 429 + Retry-After
    error_rate: float = 0.0          # share of requests answered with a 5xx
    error_status: int | None = None  # the 5xx status (None = the service's usual one: 500/503/529)
    timeout_rate: float = 0.0        # share of requests that hang for hang_s before any answer
    hang_s: float = 30.0             # how long a hanging request (or a dead_timeout site) hangs
    fail_next: int = 0               # the next N requests get the injected 5xx, whatever error_rate says

    @classmethod
    def of(cls, value: Knobs | Mapping[str, Any] | None) -> Knobs:
        if value is None:
            return cls()
        if isinstance(value, Knobs):
            return value
        return cls(**_normalise(dict(value)))


def _normalise(changes: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(Knobs)}
    unknown = set(changes) - names
    if unknown:
        raise TypeError(f"unknown knob(s): {sorted(unknown)}; known: {sorted(names)}")
    if changes.get("rate_limit") is not None:
        n, window = changes["rate_limit"]
        changes["rate_limit"] = (int(n), float(window))
    return changes


@dataclass
class Stats:
    requests: int = 0
    rate_limited: int = 0      # answered 429 (or REFUSED for DNS)
    server_errors: int = 0     # answered 5xx (injected or by design, e.g. dead sites)
    injected_errors: int = 0   # 5xx caused by error_rate
    timeouts: int = 0          # requests made to hang by timeout_rate
    aborted: int = 0           # connections dropped without an answer
    in_flight: int = 0
    max_in_flight: int = 0
    statuses: dict[str, int] = field(default_factory=dict)

    def snapshot(self) -> dict[str, Any]:
        d = asdict(self)
        d["statuses"] = dict(self.statuses)
        return d


class ServiceState:
    def __init__(self, name: str, knobs: Knobs, seed: int) -> None:
        self.name, self.seed = name, seed
        self.knobs = knobs
        self.stats = Stats()
        self.window: collections.deque[float] = collections.deque()
        self.log: collections.deque[dict[str, Any]] = collections.deque(maxlen=200)
        self.fail_remaining = knobs.fail_next
        self._reseed()

    def _reseed(self) -> None:
        self.rng = random.Random(f"{self.seed}:{self.name}")
        self.jitter_rng = random.Random(f"{self.seed}:{self.name}:jitter")

    def configure(self, changes: dict[str, Any]) -> None:
        self.knobs = replace(self.knobs, **_normalise(changes))
        self.window.clear()
        self.fail_remaining = self.knobs.fail_next
        self._reseed()

    def admit(self, now: float) -> tuple[bool, float]:
        limit, window_s = self.knobs.rate_limit  # type: ignore[misc]
        while self.window and self.window[0] <= now - window_s:
            self.window.popleft()
        if len(self.window) >= limit:
            return False, self.window[0] + window_s - now
        self.window.append(now)
        return True, 0.0


class SandboxContext:
    """What services share: the world, the keys, the root URL and the knobs/counters."""

    def __init__(self, world: World, api_keys: Mapping[str, str], states: dict[str, ServiceState]) -> None:
        self.world = world
        self.api_keys = dict(api_keys)
        self.states = states
        self.root_url = ""

    def knobs(self, name: str) -> Knobs:
        return self.states[name].knobs

    async def gate(self, name: str) -> tuple[str, float]:
        """Apply latency, rate limit and the error/timeout draw. Returns (action, retry_after_s)."""
        s = self.states[name]
        k = s.knobs
        delay = k.latency_ms + (s.jitter_rng.uniform(0, k.jitter_ms) if k.jitter_ms else 0.0)
        if delay > 0:
            await asyncio.sleep(delay / 1000)
        if k.rate_limit is not None:
            ok, retry = s.admit(time.monotonic())
            if not ok:
                s.stats.rate_limited += 1
                return "rate_limited", retry
        if s.fail_remaining > 0:
            s.fail_remaining -= 1
            s.stats.injected_errors += 1
            return "error", 0.0
        if k.timeout_rate or k.error_rate:
            r = s.rng.random()
            if r < k.timeout_rate:
                s.stats.timeouts += 1
                return "hang", 0.0
            if r < k.timeout_rate + k.error_rate:
                s.stats.injected_errors += 1
                return "error", 0.0
        return "ok", 0.0

    def record(self, name: str, status: int | str) -> None:
        st = self.states[name].stats
        key = str(status)
        st.statuses[key] = st.statuses.get(key, 0) + 1
        if isinstance(status, int) and status >= 500:
            st.server_errors += 1


@dataclass
class SandboxConfig:
    host: str = "127.0.0.1"
    port: int = 0                   # 0 = a free port
    dns_port: int | None = 0        # 0 = a free port, None = no DNS server
    seed: int = 0
    world: World | None = None      # None = the bundled demo region (World.demo())
    knobs: dict[str, Knobs | Mapping[str, Any]] = field(default_factory=dict)
    api_keys: dict[str, str] = field(default_factory=dict)  # service -> the one accepted key (else any non-empty)
    services: tuple[type[Service], ...] = ()                  # extra services to mount (same name: replaces ours)
    https_port: int | None = 0      # 0 = a free port, None = no HTTPS listener


class Sandbox:
    """The running sandbox. Use as a context manager or call start()/stop()."""

    def __init__(self, config: SandboxConfig | None = None, **overrides: Any) -> None:
        self.config = replace(config or SandboxConfig(), **overrides)
        self.world = self.config.world or World.demo()
        by_name = {c.name: c for c in (*SERVICES, *self.config.services)}  # an extra service may replace ours
        classes = list(by_name.values())
        names = [c.name for c in classes] + ["dns"]
        unknown = set(self.config.knobs) - set(names)
        if unknown:
            raise ValueError(f"knobs for unknown service(s) {sorted(unknown)}; services: {names}")
        self._states = {n: ServiceState(n, Knobs.of(self.config.knobs.get(n)), self.config.seed) for n in names}
        self.ctx = SandboxContext(self.world, self.config.api_keys, self._states)
        self.services: dict[str, Service] = {c.name: c(self.ctx) for c in classes}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._tls_runner: web.AppRunner | None = None
        self._tls_dir: Path | None = None
        self._dns: DnsServer | None = None
        self.port = 0
        self.dns_port: int | None = None
        self.https_port: int | None = None
        self._ca_file: Path | None = None

    # ---- lifecycle -------------------------------------------------------------------------
    def __enter__(self) -> Sandbox:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def start(self, timeout: float = 15.0) -> Sandbox:
        if self._loop is not None:
            return self
        loop = asyncio.new_event_loop()
        self._loop = loop
        self._thread = threading.Thread(target=self._run_loop, name="sadie-sandbox", daemon=True)
        self._thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._astart(), loop).result(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _run_loop(self) -> None:
        assert self._loop is not None
        asyncio.set_event_loop(self._loop)
        self._loop.run_forever()

    def stop(self, timeout: float = 10.0) -> None:
        loop, thread = self._loop, self._thread
        if loop is None:
            return
        try:
            if loop.is_running():
                asyncio.run_coroutine_threadsafe(self._astop(), loop).result(timeout)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            if thread is not None:
                thread.join(timeout)
            if not loop.is_running():
                loop.close()
            self._loop = self._thread = None

    async def _astart(self) -> None:
        app = self._build_app()
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, handler_cancellation=True,
                                     shutdown_timeout=0.25)
        await self._runner.setup()
        sock = socket.create_server((self.config.host, self.config.port), backlog=4096, reuse_port=False)
        site = web.SockSite(self._runner, sock, backlog=4096, shutdown_timeout=0.25)
        await site.start()
        self.port = sock.getsockname()[1]
        self.ctx.root_url = f"http://{self._url_host}:{self.port}"
        if self.config.https_port is not None:
            await self._start_https()
        if self.config.dns_port is not None:
            self._dns = DnsServer(self.ctx)
            self.dns_port = await self._dns.start(self.config.host, self.config.dns_port)

    async def _start_https(self) -> None:
        roots = [s for s in self.services.values() if s.https_root]
        if len(roots) > 1:
            raise ValueError(f"only one service may be served at the HTTPS root: {[s.name for s in roots]}")
        self._tls_dir = Path(tempfile.mkdtemp(prefix="sadie-sandbox-tls-"))
        context, self._ca_file = _tls_context(self._url_host.strip("[]"), self._tls_dir)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        if roots:
            svc = roots[0]

            @web.middleware
            async def at_root(request: web.Request, handler: Any) -> web.StreamResponse:
                request[ROOT_MOUNT] = True
                return await self._apply(svc, request, handler)

            app.middlewares.append(at_root)
            app.add_routes(svc.routes())
        self._tls_runner = web.AppRunner(app, handle_signals=False, access_log=None, handler_cancellation=True,
                                         shutdown_timeout=0.25)
        await self._tls_runner.setup()
        sock = socket.create_server((self.config.host, self.config.https_port or 0), backlog=1024)
        await web.SockSite(self._tls_runner, sock, ssl_context=context, shutdown_timeout=0.25).start()
        self.https_port = sock.getsockname()[1]

    async def _astop(self) -> None:
        if self._dns is not None:
            await self._dns.stop()
        if self._tls_runner is not None:
            await self._tls_runner.cleanup()
        if self._tls_dir is not None:
            shutil.rmtree(self._tls_dir, ignore_errors=True)
        if self._runner is not None:
            await self._runner.cleanup()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=2)

    @property
    def _url_host(self) -> str:
        h = self.config.host
        if h in ("0.0.0.0", ""):
            return "127.0.0.1"
        return f"[{h}]" if ":" in h else h

    # ---- the app ---------------------------------------------------------------------------
    def _build_app(self) -> web.Application:
        host_services = [s for s in self.services.values() if type(s).matches_host is not Service.matches_host]
        by_prefix = sorted(self.services.values(), key=lambda s: -len(s.prefix))

        @web.middleware
        async def front(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
            if request.method == "CONNECT":
                return web.Response(status=405, text="The sandbox proxy serves plain http:// sites only.\n")
            host = host_of(request)
            for svc in host_services:
                if svc.matches_host(host):
                    return await self._apply(svc, request, svc.handle_host)
            try:
                return await handler(request)
            except web.HTTPException as e:
                if e.status in (404, 405):
                    for svc in by_prefix:
                        if request.path.startswith(svc.prefix + "/") or request.path == svc.prefix:
                            msg = "Not found" if e.status == 404 else "Method not allowed"
                            return svc.error(e.status, f"{msg}: {request.method} {request.path}")
                raise

        app = web.Application(middlewares=[front], client_max_size=64 * 1024 * 1024)
        for svc in self.services.values():
            sub = web.Application(middlewares=[self._middleware(svc)], client_max_size=64 * 1024 * 1024)
            sub.add_routes(svc.routes())
            app.add_subapp(svc.prefix, sub)
        app.router.add_get("/", self._index)
        app.router.add_get("/_sandbox/stats", self._http_stats)
        app.router.add_post("/_sandbox/configure", self._http_configure)
        app.router.add_post("/_sandbox/reset", self._http_reset)
        app.router.add_get("/_sandbox/inspect/{service}", self._http_inspect)
        return app

    def _middleware(self, svc: Service) -> Any:
        @web.middleware
        async def knobs(request: web.Request, handler: Any) -> web.StreamResponse:
            return await self._apply(svc, request, handler)
        return knobs

    async def _apply(self, svc: Service, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        state = self._states[svc.name]
        st = state.stats
        st.requests += 1
        st.in_flight += 1
        st.max_in_flight = max(st.max_in_flight, st.in_flight)
        state.log.append(self._log_entry(request))
        try:
            action, retry = await self.ctx.gate(svc.name)
            k = state.knobs
            if action == "rate_limited":
                resp: web.StreamResponse = svc.rate_limited(retry, *k.rate_limit)  # type: ignore[misc]
            elif action == "error":
                resp = svc.injected_error(k.error_status or svc.injected_error_status)
            else:
                if action == "hang":
                    await asyncio.sleep(k.hang_s)
                try:
                    resp = await handler(request)
                except BadRequest as e:
                    resp = svc.error(e.status, e.message, code=e.code)
                except AbortConnection:
                    st.aborted += 1
                    self.ctx.record(svc.name, "aborted")
                    if request.transport is not None:
                        request.transport.abort()
                    raise asyncio.CancelledError() from None
                except web.HTTPException as e:
                    if e.status >= 400:
                        resp = svc.error(e.status, e.reason)
                    else:
                        self.ctx.record(svc.name, e.status)
                        raise
            self.ctx.record(svc.name, resp.status)
            return resp
        finally:
            st.in_flight -= 1

    @staticmethod
    def _log_entry(request: web.Request) -> dict[str, Any]:
        headers = {k: ("<redacted>" if k.lower() in SENSITIVE_HEADERS else v) for k, v in request.headers.items()}
        return {"t": time.time(), "method": request.method, "host": host_of(request), "path": request.path,
                "query": request.query_string, "headers": headers}

    async def _index(self, request: web.Request) -> web.Response:
        return json_response(self.describe())

    async def _http_stats(self, request: web.Request) -> web.Response:
        return json_response(self.stats())

    async def _http_configure(self, request: web.Request) -> web.Response:
        body = await request.json()
        try:
            self.configure(body.pop("service"), **body)
        except (KeyError, TypeError, ValueError) as e:
            return json_response({"error": str(e)}, 400)
        return json_response({"ok": True})

    async def _http_reset(self, request: web.Request) -> web.Response:
        for state in self._states.values():
            initial = Knobs.of(self.config.knobs.get(state.name))
            state.configure({f.name: getattr(initial, f.name) for f in fields(Knobs)})
        for svc in self.services.values():
            svc.reset_state()
        self.reset_stats()
        return json_response({"ok": True})

    async def _http_inspect(self, request: web.Request) -> web.Response:
        svc = self.services.get(request.match_info["service"])
        if svc is None:
            return json_response({"error": f"unknown service {request.match_info['service']!r}"}, 404)
        return json_response(svc.state())

    # ---- public API ------------------------------------------------------------------------
    @property
    def url(self) -> str:
        """Root URL of the sandbox, e.g. http://127.0.0.1:40123."""
        self._require_started()
        return self.ctx.root_url

    def base_url(self, service: str) -> str:
        """Base URL to give the service's client (SDK base_url, or the prefix for raw HTTP)."""
        self._require_started()
        if service == "dns":
            raise ValueError("DNS is not HTTP: use sb.dns_port / sb.nameserver / sb.resolver()")
        return self.ctx.root_url + self.services[service].prefix

    @property
    def proxy_url(self) -> str:
        """HTTP proxy URL that makes hotel websites reachable at their own URLs."""
        return self.url

    @property
    def https_url(self) -> str:
        """Root of the HTTPS listener, e.g. https://127.0.0.1:40124: the `https_root` service (the
        Microsoft identity platform) at its root, so msal's authority is f"{https_url}/{tenant}"."""
        self._require_started()
        if self.https_port is None:
            raise RuntimeError("the sandbox was started without HTTPS (https_port=None)")
        return f"https://{self._url_host}:{self.https_port}"

    @property
    def ca_file(self) -> str:
        """PEM file of the CA that signed the HTTPS listener's certificate (msal `verify=`, httpx)."""
        self._require_started()
        if self._ca_file is None:
            raise RuntimeError("the sandbox was started without HTTPS (https_port=None)")
        return str(self._ca_file)

    @property
    def nameserver(self) -> tuple[str, int]:
        """(ip, port) of the DNS server."""
        self._require_started()
        if self.dns_port is None:
            raise RuntimeError("the sandbox was started without DNS (dns_port=None)")
        return (self._url_host.strip("[]"), self.dns_port)

    def resolver(self, timeout: float = 2.0) -> Any:
        """A dnspython Resolver that asks only the sandbox's DNS server."""
        import dns.nameserver
        import dns.resolver

        ip, port = self.nameserver
        r = dns.resolver.Resolver(configure=False)
        r.nameservers = [dns.nameserver.Do53Nameserver(ip, port)]
        r.timeout = r.lifetime = timeout
        r.cache = None
        return r

    def site_url(self, hotel: str, *, by_path: bool = False) -> str:
        """The listed website of a hotel (by id, name or domain); by_path=True for /sites/{host}/..."""
        p = self.world.hotel(hotel)
        if not p.website:
            raise ValueError(f"{p.name} has no website")
        if not by_path:
            return p.website
        from urllib.parse import urlsplit
        parts = urlsplit(p.website)
        return f"{self.base_url('sites')}/{parts.hostname}{parts.path or '/'}"

    def chromium_args(self, *, via: str = "proxy") -> list[str]:
        """Chromium flags that route hotel websites to the sandbox.

        via="proxy": --proxy-server (the same path httpx takes); via="resolver": map every
        name to the sandbox's port with --host-resolver-rules (no proxy in between).
        """
        self._require_started()
        host = self._url_host
        if via == "resolver":
            return [f"--host-resolver-rules=MAP * {host}:{self.port}, EXCLUDE localhost"]
        return [f"--proxy-server=http://{host}:{self.port}", "--proxy-bypass-list=<-loopback>"]

    def configure(self, service: str, **knobs: Any) -> Knobs:
        """Change knobs at runtime, e.g. configure("serper", latency_ms=100, rate_limit=(100, 60)).

        Resets the service's rate-limit window and its error RNG (so what follows is
        reproducible). Returns the new knobs.
        """
        if service not in self._states:
            raise KeyError(f"unknown service {service!r}; services: {sorted(self._states)}")
        state = self._states[service]
        if self._loop is not None and self._loop.is_running() and threading.current_thread() is not self._thread:
            fut = asyncio.run_coroutine_threadsafe(_call(state.configure, knobs), self._loop)
            fut.result(5)
        else:
            state.configure(knobs)
        return state.knobs

    def knobs(self, service: str) -> Knobs:
        return self._states[service].knobs

    def expect_api_key(self, service: str, key: str | None) -> None:
        """Accept only `key` for `service` from now on (None: any non-empty key, the default)."""
        if key is None:
            self.ctx.api_keys.pop(service, None)
        else:
            self.ctx.api_keys[service] = key

    def reset(self, service: str | None = None) -> None:
        """Knobs and accepted API keys back to those the sandbox started with, counters to zero."""
        for n in self._states:
            if service is None or n == service:
                initial = Knobs.of(self.config.knobs.get(n))
                self.configure(n, **{f.name: getattr(initial, f.name) for f in fields(Knobs)})
                self.expect_api_key(n, self.config.api_keys.get(n))
                if n in self.services:
                    self._on_loop(self.services[n].reset_state)
        self.reset_stats(service)

    def inspect(self, service: str) -> Any:
        """What clients stored in a service (uploaded files, posted messages), as its `state()`."""
        return self._on_loop(self.services[service].state)

    def client_env(self, key: str = CLIENT_KEY) -> dict[str, str]:
        """Environment variables that point the pipeline's resources at this sandbox, with keys it
        accepts (those set by `expect_api_key`, else ``key``; Slack gets an ``xoxb-`` token)."""
        return client_env(self.describe(), {**self.ctx.api_keys}, key)

    def _on_loop(self, fn: Callable[[], Any]) -> Any:
        if self._loop is not None and self._loop.is_running() and threading.current_thread() is not self._thread:
            return asyncio.run_coroutine_threadsafe(_call(lambda _: fn(), None), self._loop).result(5)
        return fn()

    def stats(self, service: str | None = None) -> dict[str, Any]:
        """Counters of one service, or of all services keyed by name."""
        if service is not None:
            return self._states[service].stats.snapshot()
        return {n: s.stats.snapshot() for n, s in self._states.items()}

    def reset_stats(self, service: str | None = None) -> None:
        for n, s in self._states.items():
            if service is None or n == service:
                in_flight = s.stats.in_flight
                s.stats = Stats(in_flight=in_flight)
                s.log.clear()

    def requests(self, service: str) -> list[dict[str, Any]]:
        """The last requests a service received (secrets redacted, bodies not kept)."""
        return list(self._states[service].log)

    @property
    def hotels(self) -> list[Any]:
        return self.world.hotels

    def describe(self) -> dict[str, Any]:
        """Base URLs of every service, proxy and DNS, as printed by `python -m sadie_pipeline.sandbox`."""
        out: dict[str, Any] = {"url": self.url, "proxy": self.proxy_url,
                               "services": {n: {"base_url": self.base_url(n), "real_base_url": s.real_base_url,
                                                "description": s.description}
                                            for n, s in self.services.items()}}
        if self.dns_port is not None:
            out["dns"] = {"host": self.nameserver[0], "port": self.dns_port}
        if self.https_port is not None:
            out["https"] = {"url": self.https_url, "ca_file": self.ca_file}
        out["hotels"] = len(self.world.hotels)
        return out

    def _require_started(self) -> None:
        if not self.ctx.root_url:
            raise RuntimeError("the sandbox is not started: use `with Sandbox() as sb:` or sb.start()")

    def iter_sites(self) -> Iterator[str]:
        """Listed website URLs of all hotels that have one."""
        for p in self.world.hotels:
            if p.website:
                yield p.website

    def __repr__(self) -> str:
        return f"Sandbox({self.ctx.root_url or 'not started'}, dns_port={self.dns_port})"


async def _call(fn: Callable[..., Any], arg: Any) -> Any:
    return fn(arg)


def client_env(described: Mapping[str, Any], api_keys: Mapping[str, str], key: str = CLIENT_KEY) -> dict[str, str]:
    """The environment of a pipeline run against a sandbox, from its `describe()` output.

    The same variables production sets, so the resources read them as usual: Serper, Groq,
    Anthropic and RDAP base URLs and keys, the DNS server, the proxy for hotel websites, Microsoft
    Graph (tenant, app, secret, drive, Graph base URL, the HTTPS authority host and its CA bundle)
    and Slack (bot token, channel, base URL).
    """
    services = described["services"]

    def base(name: str) -> str:
        return services[name]["base_url"]

    env = {"SADIE_SERPER_BASE_URL": base("serper"), "SERPER_API_KEY": api_keys.get("serper", key),
           "GROQ_BASE_URL": base("groq"), "GROQ_API_KEY": api_keys.get("groq", key),
           "ANTHROPIC_BASE_URL": base("anthropic"), "ANTHROPIC_API_KEY": api_keys.get("anthropic", key),
           "SADIE_RDAP_BASE_URL": base("rdap"), "SADIE_HTTP_PROXY": described["proxy"]}
    if "dns" in described:
        env["SADIE_DNS_NAMESERVER"] = f"{described['dns']['host']}:{described['dns']['port']}"
    if "graph" in services and "https" in described:
        env.update({"SADIE_GRAPH_TENANT_ID": graph_service.TENANT_ID, "SADIE_GRAPH_CLIENT_ID": graph_service.CLIENT_ID,
                    "SADIE_GRAPH_CLIENT_SECRET": api_keys.get("login", key),
                    "SADIE_GRAPH_DRIVE_ID": graph_service.DRIVE_ID,
                    "SADIE_GRAPH_BASE_URL": f"{base('graph')}/v1.0",
                    "SADIE_GRAPH_AUTHORITY_HOST": described["https"]["url"],
                    "SADIE_GRAPH_CA_BUNDLE": described["https"]["ca_file"]})
    if "slack" in services:
        env.update({"SADIE_SLACK_BOT_TOKEN": api_keys.get("slack", f"xoxb-{key}"),
                    "SADIE_SLACK_CHANNEL": f"#{slack_service.CHANNELS['C0SADIELEADS']}",
                    "SADIE_SLACK_BASE_URL": f"{base('slack')}/api/"})
    if "google_geocoding" in services:  # listings' geocodes (Nominatim: SADIE_GEOCODER=nominatim and its base URL)
        env.update({"SADIE_GEOCODER": "google", "SADIE_GEOCODER_BASE_URL": base("google_geocoding"),
                    "GOOGLE_MAPS_API_KEY": api_keys.get("google_geocoding", key)})
    return env


def _tls_context(host: str, directory: Path) -> tuple[ssl.SSLContext, Path]:
    """A server SSL context for `host` signed by a CA made now; returns it and the CA's PEM file.

    A real CA (basicConstraints CA, keyCertSign) and a leaf (serverAuth, SAN: the host,
    127.0.0.1, ::1, localhost), so strict verifiers (OpenSSL's X509_STRICT) accept the chain.
    """
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.now(UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "sadie_pipeline sandbox"),
                         x509.NameAttribute(NameOID.COMMON_NAME, "sadie sandbox CA")])
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca_cert = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
               .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - timedelta(hours=1)).not_valid_after(now + timedelta(days=30))
               .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                            data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                            crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
               .add_extension(ca_ski, critical=False)
               .sign(ca_key, hashes.SHA256()))
    names: list[x509.GeneralName] = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                     x509.IPAddress(ipaddress.ip_address("::1"))]
    try:
        ip = ipaddress.ip_address(host)
        if x509.IPAddress(ip) not in names:
            names.append(x509.IPAddress(ip))
    except ValueError:
        if host and host != "localhost":
            names.append(x509.DNSName(host))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host or "localhost")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(hours=1)).not_valid_after(now + timedelta(days=30))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False)
            .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    ca_file, cert_file, key_file = directory / "ca.pem", directory / "server.pem", directory / "server.key"
    ca_file.write_bytes(ca_cert.public_bytes(pem))
    cert_file.write_bytes(cert.public_bytes(pem) + ca_cert.public_bytes(pem))
    key_file.write_bytes(key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    return context, ca_file


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=2, default=str)

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

One aiohttp server on a free localhost port runs in a background thread with its own event
loop. Each service is mounted under its path prefix (`/serper`, `/groq`, `/anthropic`,
`/rdap`, `/sites`); hotel websites are also served by virtual host (any Host header that is a
name, see `services/sites.py`). A DNS server (UDP+TCP, dnspython messages) runs in the same
loop on its own free port. Every request passes through the service's knobs and counters.
"""

from __future__ import annotations

import asyncio
import collections
import json
import random
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from aiohttp import web

from .dnsserver import DnsServer
from .services import SERVICES
from .services.base import SENSITIVE_HEADERS, AbortConnection, BadRequest, Service, json_response
from .services.sites import host_of
from .world import World


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
        self._reseed()

    def _reseed(self) -> None:
        self.rng = random.Random(f"{self.seed}:{self.name}")
        self.jitter_rng = random.Random(f"{self.seed}:{self.name}:jitter")

    def configure(self, changes: dict[str, Any]) -> None:
        self.knobs = replace(self.knobs, **_normalise(changes))
        self.window.clear()
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
    services: tuple[type[Service], ...] = ()                  # extra services to mount


class Sandbox:
    """The running sandbox. Use as a context manager or call start()/stop()."""

    def __init__(self, config: SandboxConfig | None = None, **overrides: Any) -> None:
        self.config = replace(config or SandboxConfig(), **overrides)
        self.world = self.config.world or World.demo()
        classes = list(SERVICES) + list(self.config.services)
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
        self._dns: DnsServer | None = None
        self.port = 0
        self.dns_port: int | None = None

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
        if self.config.dns_port is not None:
            self._dns = DnsServer(self.ctx)
            self.dns_port = await self._dns.start(self.config.host, self.config.dns_port)

    async def _astop(self) -> None:
        if self._dns is not None:
            await self._dns.stop()
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
        self.reset_stats()
        return json_response({"ok": True})

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
        self.reset_stats(service)

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


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=2, default=str)

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

This module has the `Sandbox`'s lifecycle and public API; its request path and the
`/_sandbox/...` control endpoints are in `app.py`, the knobs and counters in `knobs.py`, the
HTTPS listener's certificate in `tls.py` and `client_env` in `env.py`.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from aiohttp import web

from .app import SandboxApp
from .dnsserver import DnsServer
from .env import CLIENT_KEY, client_env
from .knobs import Knobs, SandboxContext, ServiceState, Stats
from .listeners import Listener, listener_classes
from .services import SERVICES
from .services.base import ROOT_MOUNT, Service
from .tls import tls_context
from .world import World


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


class Sandbox(SandboxApp):
    """The running sandbox. Use as a context manager or call start()/stop()."""

    def __init__(self, config: SandboxConfig | None = None, **overrides: Any) -> None:
        self.config = replace(config or SandboxConfig(), **overrides)
        self.world = self.config.world or World.demo()
        by_name = {c.name: c for c in (*SERVICES, *self.config.services)}  # an extra service may replace ours
        classes = list(by_name.values())
        names = [c.name for c in classes] + ["dns"] + [c.name for c in listener_classes()]
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
        self._listeners: list[Listener] = []
        self.listeners: dict[str, dict[str, Any]] = {}  # name -> what its start() returned (host, port, ...)
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
        for cls in listener_classes():
            listener = cls(self.ctx)
            self._listeners.append(listener)
            self.listeners[cls.name] = await listener.start(self._url_host.strip("[]"))

    async def _start_https(self) -> None:
        roots = [s for s in self.services.values() if s.https_root]
        if len(roots) > 1:
            raise ValueError(f"only one service may be served at the HTTPS root: {[s.name for s in roots]}")
        self._tls_dir = Path(tempfile.mkdtemp(prefix="sadie-sandbox-tls-"))
        context, self._ca_file = tls_context(self._url_host.strip("[]"), self._tls_dir)
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
        for listener in self._listeners:
            await listener.stop()
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

    def listener(self, name: str) -> dict[str, Any]:
        """What a non-HTTP listener (WHOIS, SMTP) told clients when it started: host, port, ..."""
        if name not in self.listeners:
            raise KeyError(f"no sandbox listener {name!r}; running: {sorted(self.listeners)}")
        return self.listeners[name]

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
        if self.listeners:
            out["listeners"] = dict(self.listeners)
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

"""The sandbox in a child process, with the same API as the in-process `Sandbox`.

In-process, the sandbox shares the GIL with the code under test; a benchmark that wants the
fake services off its own CPU budget runs them in a child process instead:

    with SandboxProcess(synthetic=2000, seed=1) as sb:
        sb.configure("sites", hang_s=3)
        ... sb.proxy_url, sb.base_url("serper"), sb.resolver(), sb.stats("sites") ...
        ... sb.https_url, sb.ca_file, sb.inspect("slack"), sb.client_env() ...

Knobs and counters go through the server's control endpoints (`/_sandbox/configure`,
`/_sandbox/stats`, `/_sandbox/reset`, `/_sandbox/inspect/{service}`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import httpx

from .env import CLIENT_KEY, client_env
from .world import World


class SandboxProcess:
    def __init__(self, *, synthetic: int = 0, seed: int = 0, js_share: float = 0.2, dead_share: float = 0.1,
                 demo: bool = True, dns: bool = True, host: str = "127.0.0.1") -> None:
        self.args = ["--host", host, "--port", "0", "--seed", str(seed), "--synthetic", str(synthetic),
                     "--js-share", str(js_share), "--dead-share", str(dead_share)]
        self.args += ["--dns-port", "0"] if dns else ["--no-dns"]
        if not demo:
            self.args.append("--no-demo")
        world = World.demo() if demo else None
        if synthetic:
            syn = World.synthetic(synthetic, seed=seed, js_share=js_share, dead_share=dead_share)
            world = world.plus(syn) if world is not None else syn
        self.world = world or World([])
        self.info: dict[str, Any] = {}
        self._proc: subprocess.Popen[str] | None = None
        self._http: httpx.Client | None = None

    def __enter__(self) -> SandboxProcess:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def start(self, timeout: float = 60.0) -> SandboxProcess:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self._proc = subprocess.Popen([sys.executable, "-m", "sadie_pipeline.sandbox", *self.args],
                                      stdout=subprocess.PIPE, text=True, env=env)
        buf, deadline = "", time.monotonic() + timeout
        assert self._proc.stdout is not None
        while time.monotonic() < deadline:
            line = self._proc.stdout.readline()
            if not line:
                break
            buf += line
            try:
                self.info = json.loads(buf)
                break
            except json.JSONDecodeError:
                continue
        if not self.info:
            self.stop()
            raise RuntimeError(f"the sandbox process did not start: {buf[-500:]!r}")
        self._http = httpx.Client(base_url=self.info["url"], timeout=10)
        return self

    def stop(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc = None

    @property
    def pid(self) -> int | None:
        """The child's process id (a benchmark reads its CPU time)."""
        return self._proc.pid if self._proc is not None else None

    # ---- the Sandbox API -------------------------------------------------------------------
    @property
    def url(self) -> str:
        return self.info["url"]

    @property
    def proxy_url(self) -> str:
        return self.info["proxy"]

    def base_url(self, service: str) -> str:
        return self.info["services"][service]["base_url"]

    @property
    def https_url(self) -> str:
        return self.info["https"]["url"]

    @property
    def ca_file(self) -> str:
        return self.info["https"]["ca_file"]

    def client_env(self, key: str = CLIENT_KEY) -> dict[str, str]:
        """The environment that points the pipeline's resources at the child's services."""
        return client_env(self.info, {}, key)

    def inspect(self, service: str) -> Any:
        assert self._http is not None
        r = self._http.get(f"/_sandbox/inspect/{service}")
        r.raise_for_status()
        return r.json()

    @property
    def dns_port(self) -> int | None:
        return self.info.get("dns", {}).get("port")

    @property
    def nameserver(self) -> tuple[str, int]:
        return (self.info["dns"]["host"], self.info["dns"]["port"])

    def resolver(self, timeout: float = 2.0) -> Any:
        import dns.nameserver
        import dns.resolver

        r = dns.resolver.Resolver(configure=False)
        r.nameservers = [dns.nameserver.Do53Nameserver(*self.nameserver)]
        r.timeout = r.lifetime = timeout
        r.cache = None
        return r

    def configure(self, service: str, **knobs: Any) -> None:
        assert self._http is not None
        r = self._http.post("/_sandbox/configure", json={"service": service, **knobs})
        r.raise_for_status()

    def stats(self, service: str | None = None) -> dict[str, Any]:
        assert self._http is not None
        data = self._http.get("/_sandbox/stats").json()
        return data[service] if service else data

    def reset(self) -> None:
        assert self._http is not None
        self._http.post("/_sandbox/reset").raise_for_status()

    @property
    def hotels(self) -> list[Any]:
        return self.world.hotels

"""`python -m sadie_pipeline.sandbox`: serve the sandbox until interrupted and print its URLs."""

from __future__ import annotations

import argparse
import json
import signal
import threading
from collections.abc import Sequence

from .server import Sandbox, SandboxConfig
from .world import World


def serve(host: str = "127.0.0.1", port: int = 8765, *, dns_port: int | None = 8753, seed: int = 0,
          synthetic: int = 0, js_share: float = 0.2, dead_share: float = 0.1, demo: bool = True,
          stop: threading.Event | None = None) -> None:
    """Run the sandbox in the foreground until Ctrl-C/SIGTERM (or `stop` is set).

    Prints one JSON object with the base URL of each service, the proxy URL for hotel
    websites and the DNS server's address, then blocks.
    """
    world = World.demo() if demo else None
    if synthetic:
        syn = World.synthetic(synthetic, seed=seed, js_share=js_share, dead_share=dead_share)
        world = world.plus(syn) if world is not None else syn
    config = SandboxConfig(host=host, port=port, dns_port=dns_port, seed=seed, world=world)
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
    with Sandbox(config) as sb:
        print(json.dumps(sb.describe(), indent=2), flush=True)
        stop.wait()


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m sadie_pipeline.sandbox", description=__doc__)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765, help="HTTP port (0 = any free port)")
    ap.add_argument("--dns-port", type=int, default=8753, help="DNS port, UDP and TCP (0 = any free port)")
    ap.add_argument("--no-dns", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--synthetic", type=int, default=0, help="add N synthetic hotel sites")
    ap.add_argument("--js-share", type=float, default=0.2)
    ap.add_argument("--dead-share", type=float, default=0.1)
    ap.add_argument("--no-demo", action="store_true", help="serve only the synthetic hotels")
    a = ap.parse_args(argv)
    serve(a.host, a.port, dns_port=None if a.no_dns else a.dns_port, seed=a.seed, synthetic=a.synthetic,
          js_share=a.js_share, dead_share=a.dead_share, demo=not a.no_demo)


if __name__ == "__main__":
    main()

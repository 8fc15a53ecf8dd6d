"""Sandbox services that are not HTTP: a listener owns its own socket(s) in the sandbox's event
loop (WHOIS on a TCP port, SMTP servers). Add one by subclassing `Listener` and listing the class
in `LISTENERS`; the sandbox starts each after its HTTP server, stops it first, and reports what
`start` returned under ``describe()["listeners"][name]`` (`Sandbox.listener(name)`), which is
how `client_env` points the pipeline at it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # pragma: no cover
    from .knobs import SandboxContext


class Listener:
    name: ClassVar[str]

    def __init__(self, ctx: SandboxContext) -> None:
        self.ctx = ctx

    async def start(self, host: str) -> dict[str, Any]:
        """Bind free port(s) on `host`, serve, and return what clients need (e.g. host and port)."""
        raise NotImplementedError

    async def stop(self) -> None:
        raise NotImplementedError

    async def gate(self) -> str:
        """The listener's knobs for one request (latency, rate limit, injected errors), as HTTP
        services get them: "ok", "rate_limited", "error" or "hang" for the protocol to act on."""
        state = self.ctx.states.get(self.name)
        if state is None:  # started outside a Sandbox's knob set
            return "ok"
        state.stats.requests += 1
        action, _ = await self.ctx.gate(self.name)
        self.ctx.record(self.name, action if action != "ok" else 200)
        return action


def listener_classes() -> tuple[type[Listener], ...]:
    """Every listener the sandbox starts (imported late: their modules import this one)."""
    from .services.whois import WhoisListener
    from .smtp_server import SmtpListener

    return (*LISTENERS, SmtpListener, WhoisListener)


LISTENERS: tuple[type[Listener], ...] = ()

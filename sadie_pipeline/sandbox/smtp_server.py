"""The sandbox's mail exchangers: one aiosmtpd server on 127.0.0.1 answering ``RCPT TO`` from
the owner truth (`owners.owner_truth`), for every domain of the world.

Every MX host of the world resolves to 127.0.0.1 in the sandbox DNS, and a verifier connects
to it on this listener's port (``SADIE_SMTP_PORT`` in `client_env`), so the server learns the
domain it answers for from the recipient's domain, as a shared mail host does. By the domain's
``mail_kind``:

* ``normal``: ``250 2.1.5 OK`` for a mailbox that exists, ``550 5.1.1`` for anyone else;
* ``catch_all``: 250 for every local part;
* ``greylist``: ``451 4.7.1`` to the first attempt of each (sender, recipient), then as normal;
* ``silent``: the ``RCPT TO`` is never answered (the client times out, as with a dead port 25).

A domain the world does not know gets ``554 5.7.1`` (relay denied). Each connection is logged
(`SmtpListener.sessions`: EHLO name, MAIL FROM, recipients, whether QUIT came) so tests can
count sessions per domain and see that clients say goodbye.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiosmtpd.smtp import SMTP, Envelope, Session

from .listeners import Listener
from .owners import owner_truth

if TYPE_CHECKING:  # pragma: no cover
    from .knobs import SandboxContext
    from .world import Place

SILENT_S = 3600.0  # how long a silent MX sits on a RCPT: far beyond any client's timeout
BANNER_HOST = "mx.sandbox.test"


@dataclass
class SessionLog:
    peer: Any
    helo: str | None = None
    mail_from: str | None = None
    rcpts: list[tuple[str, int]] = field(default_factory=list)  # (recipient, reply code)
    quit: bool = False

    def domains(self) -> set[str]:
        return {r.rsplit("@", 1)[-1].lower() for r, _ in self.rcpts}


class _Mailboxes:
    """domain -> (mailboxes, mail_kind) from the owner truth, built once per listener."""

    def __init__(self, ctx: SandboxContext) -> None:
        self.ctx = ctx
        self._by_domain: dict[str, list[Place]] | None = None

    def lookup(self, domain: str) -> tuple[frozenset[str], str] | None:
        if self._by_domain is None:
            by_domain: dict[str, list[Place]] = {}
            for place in self.ctx.world.hotels:
                if place.domain:
                    by_domain.setdefault(place.domain.lower(), []).append(place)
            self._by_domain = by_domain
        places = self._by_domain.get(domain.lower())
        if not places:
            return None
        truths = [owner_truth(p) for p in places]
        return frozenset().union(*(t.mailboxes for t in truths)), truths[0].mail_kind


class _Handler:
    def __init__(self, listener: SmtpListener) -> None:
        self.listener = listener

    async def handle_MAIL(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          mail_options: list[str]) -> str:
        # the knobs once per session: a slow MX (0.5-3 s in the benchmark) or one refusing for now
        if await self.listener.gate() != "ok":
            return "421 4.3.2 Service not available, try again later"
        envelope.mail_from = address
        log = self.listener.log_of(server)
        log.helo, log.mail_from = session.host_name, address
        return "250 2.1.0 OK"

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        code, reply = await self.listener.answer(envelope.mail_from or "", address)
        self.listener.log_of(server).rcpts.append((address, code))
        if code == 250:
            envelope.rcpt_tos.append(address)
        return reply

    async def handle_QUIT(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.listener.log_of(server).quit = True
        return "221 2.0.0 Bye"


class SmtpListener(Listener):
    name = "smtp"

    def __init__(self, ctx: SandboxContext) -> None:
        super().__init__(ctx)
        self.mailboxes = _Mailboxes(ctx)
        self.greylisted: set[tuple[str, str]] = set()  # (sender, recipient) already told to come back
        self.sessions: list[SessionLog] = []
        self._logs: dict[int, SessionLog] = {}
        self._live: set[SMTP] = set()
        self._server: asyncio.base_events.Server | None = None
        self.port = 0

    def log_of(self, protocol: SMTP) -> SessionLog:
        return self._logs[id(protocol)]

    async def answer(self, sender: str, recipient: str) -> tuple[int, str]:
        """(code, reply line) to ``RCPT TO:<recipient>`` from the truth of its domain."""
        address = recipient.strip().strip("<>").lower()
        domain = address.rsplit("@", 1)[-1]
        known = self.mailboxes.lookup(domain)
        if known is None:
            return 554, "554 5.7.1 Relay access denied"
        boxes, kind = known
        if kind == "silent":
            await asyncio.sleep(SILENT_S)  # never answers; the client's timeout ends it
        if kind == "greylist" and (sender.lower(), address) not in self.greylisted:
            self.greylisted.add((sender.lower(), address))
            return 451, "451 4.7.1 Greylisted, please try again later"
        if kind == "catch_all" or address in boxes:
            return 250, "250 2.1.5 OK"
        return 550, f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"

    def _protocol(self) -> SMTP:
        listener = self

        class _Smtp(SMTP):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                log = SessionLog(peer=transport.get_extra_info("peername"))
                listener._logs[id(self)] = log
                listener.sessions.append(log)
                listener._live.add(self)
                super().connection_made(transport)

            def connection_lost(self, error: Exception | None) -> None:
                listener._live.discard(self)
                super().connection_lost(error)

        return _Smtp(_Handler(self), hostname=BANNER_HOST, ident="Sadie sandbox ESMTP", timeout=60)

    async def start(self, host: str) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._protocol, host, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return {"host": host, "port": self.port}

    async def stop(self) -> None:
        for protocol in list(self._live):  # a silent RCPT holds its connection open: cut it
            if protocol.transport is not None:
                protocol.transport.close()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

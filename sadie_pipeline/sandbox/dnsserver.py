"""A small authoritative-style DNS server for the sandbox world (UDP and TCP on one port).

Answers A (127.0.0.1 for every website host and every MX host: the SMTP listener), MX and TXT
(SPF, site verification, DMARC at `_dmarc.`), NS and SOA for the world's domains, NXDOMAIN for
everything else. Point dnspython at it with `sb.resolver()` or:

    r = dns.resolver.Resolver(configure=False)
    r.nameservers = [dns.nameserver.Do53Nameserver("127.0.0.1", sb.dns_port)]

Knobs of the "dns" service apply: latency, error_rate (SERVFAIL), timeout_rate (the query is
dropped, so the client times out), rate_limit (REFUSED past the limit).
"""

from __future__ import annotations

import asyncio
import hashlib
import struct
from typing import TYPE_CHECKING, Any

import dns.exception
import dns.flags
import dns.message
import dns.name
import dns.rcode
import dns.rdata
import dns.rdataclass
import dns.rdatatype
import dns.rrset

if TYPE_CHECKING:  # pragma: no cover
    from .knobs import SandboxContext

TTL = 300

MAIL_PROVIDERS: dict[str, dict[str, Any]] = {
    "google": {"mx": [(1, "aspmx.l.google.com."), (5, "alt1.aspmx.l.google.com."), (5, "alt2.aspmx.l.google.com."),
                      (10, "alt3.aspmx.l.google.com."), (10, "alt4.aspmx.l.google.com.")],
               "spf": "v=spf1 include:_spf.google.com ~all"},
    "microsoft": {"mx": [(0, "{dashed}.mail.protection.outlook.com.")],
                  "spf": "v=spf1 include:spf.protection.outlook.com -all"},
    "godaddy": {"mx": [(0, "smtp.secureserver.net."), (10, "mailstore1.secureserver.net.")],
                "spf": "v=spf1 include:secureserver.net -all"},
    "zoho": {"mx": [(10, "mx.zoho.com."), (20, "mx2.zoho.com."), (50, "mx3.zoho.com.")],
             "spf": "v=spf1 include:zoho.com ~all"},
    "self": {"mx": [(10, "mail.{domain}.")], "spf": "v=spf1 mx a ~all"},
}


def build_zone(world: Any) -> dict[str, dict[int, list[str]]]:
    """name (lowercase, trailing dot) -> rdtype -> rdata texts."""
    zone: dict[str, dict[int, list[str]]] = {}

    def add(name: str, rdtype: int, text: str) -> None:
        zone.setdefault(name.lower().rstrip(".") + ".", {}).setdefault(rdtype, []).append(text)

    A, MX, TXT, NS, SOA = (dns.rdatatype.A, dns.rdatatype.MX, dns.rdatatype.TXT, dns.rdatatype.NS,
                           dns.rdatatype.SOA)
    for dom in world.domains.values():
        if not dom.resolves:
            continue
        d = dom.name
        add(d, A, "127.0.0.1")
        add(f"www.{d}", A, "127.0.0.1")
        add(d, NS, f"ns1.{d}.")
        add(d, NS, f"ns2.{d}.")
        add(d, SOA, f"ns1.{d}. hostmaster.{d}. 2026010101 7200 3600 1209600 300")
        add(f"ns1.{d}", A, "127.0.0.1")
        add(f"ns2.{d}", A, "127.0.0.1")
        token = hashlib.sha256(d.encode()).hexdigest()
        add(d, TXT, f'"google-site-verification={token[:43]}"')
        prov = MAIL_PROVIDERS.get(dom.mail or "")
        if prov:
            for pref, host in prov["mx"]:
                add(d, MX, f"{pref} {host.format(domain=d, dashed=d.replace('.', '-'))}")
            add(d, TXT, f'"{prov["spf"]}"')
            if dom.mail == "microsoft":
                add(d, TXT, f'"MS=ms{int(token[:8], 16) % 10**8:08d}"')
            for _, host in prov["mx"]:  # every MX host reaches the sandbox's SMTP listener (smtp_server.py)
                mx_host = host.format(domain=d, dashed=d.replace(".", "-"))
                if A not in zone.get(mx_host.lower(), {}) and dom.mail != "self":
                    add(mx_host, A, "127.0.0.1")
            if dom.mail == "self":
                add(f"mail.{d}", A, "127.0.0.1")
            if int(token[8:10], 16) % 2 == 0:
                add(f"_dmarc.{d}", TXT, f'"v=DMARC1; p=quarantine; rua=mailto:dmarc@{d}"')
    for host in list(world.sites) + [h for h, (kind, _) in world.hosts.items() if kind != "nxdomain"]:
        name = host.lower().rstrip(".") + "."
        if A not in zone.get(name, {}):
            add(host, A, "127.0.0.1")
    return zone


class DnsServer:
    def __init__(self, ctx: SandboxContext) -> None:
        self.ctx = ctx
        self.rrsets: dict[str, dict[int, dns.rrset.RRset]] = {}
        self.soas: dict[str, dns.rrset.RRset] = {}
        for name, types in build_zone(ctx.world).items():
            n = dns.name.from_text(name)
            for rdtype, texts in types.items():
                rr = dns.rrset.RRset(n, dns.rdataclass.IN, rdtype)
                for t in texts:
                    rr.add(dns.rdata.from_text(dns.rdataclass.IN, rdtype, t), TTL)
                self.rrsets.setdefault(name, {})[rdtype] = rr
                if rdtype == dns.rdatatype.SOA:
                    self.soas[name] = rr
        self.transports: list[Any] = []
        self.port = 0

    # ---- answering -------------------------------------------------------------------------
    def _soa_for(self, qname: str) -> dns.rrset.RRset | None:
        labels = qname.split(".")
        for i in range(len(labels) - 1):
            soa = self.soas.get(".".join(labels[i:]))
            if soa is not None:
                return soa
        return None

    def answer(self, request: dns.message.Message, action: str) -> dns.message.Message:
        resp = dns.message.make_response(request)
        resp.flags |= dns.flags.AA | dns.flags.RA
        if action == "error":
            resp.set_rcode(dns.rcode.SERVFAIL)
            return resp
        if action == "rate_limited":
            resp.set_rcode(dns.rcode.REFUSED)
            return resp
        if not request.question:
            resp.set_rcode(dns.rcode.FORMERR)
            return resp
        q = request.question[0]
        qname = q.name.to_text().lower()
        node = self.rrsets.get(qname)
        if node is None:
            resp.set_rcode(dns.rcode.NXDOMAIN)
            soa = self._soa_for(qname)
            if soa is not None:
                resp.authority.append(soa)
            return resp
        if q.rdtype == dns.rdatatype.ANY:
            resp.answer.extend(node.values())
        elif q.rdtype in node:
            resp.answer.append(node[q.rdtype])
        else:
            soa = self._soa_for(qname)
            if soa is not None:
                resp.authority.append(soa)
        return resp

    async def handle(self, wire: bytes, max_size: int | None) -> bytes | None:
        try:
            request = dns.message.from_wire(wire)
        except dns.exception.DNSException:
            return None
        self.ctx.states["dns"].stats.requests += 1
        action, _ = await self.ctx.gate("dns")
        if action == "hang":  # a dropped query: the client times out
            return None
        resp = self.answer(request, action)
        self.ctx.record("dns", dns.rcode.to_text(resp.rcode()))
        size = max_size if max_size is not None else 65535
        if max_size is not None and request.edns >= 0:
            size = max(512, min(request.payload, 4096))
        try:
            return resp.to_wire(max_size=size)
        except dns.exception.TooBig:
            resp.answer.clear()
            resp.flags |= dns.flags.TC
            return resp.to_wire()

    # ---- transports ------------------------------------------------------------------------
    async def start(self, host: str, port: int) -> int:
        loop = asyncio.get_running_loop()
        server = self

        class Udp(asyncio.DatagramProtocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                self.transport = transport  # type: ignore[assignment]

            def datagram_received(self, data: bytes, addr: Any) -> None:
                async def reply() -> None:
                    out = await server.handle(data, 512)
                    if out is not None and not self.transport.is_closing():  # type: ignore[attr-defined]
                        self.transport.sendto(out, addr)  # type: ignore[attr-defined]
                loop.create_task(reply())

        async def tcp(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                while True:
                    head = await reader.readexactly(2)
                    (length,) = struct.unpack("!H", head)
                    data = await reader.readexactly(length)
                    out = await server.handle(data, None)
                    if out is None:
                        continue
                    writer.write(struct.pack("!H", len(out)) + out)
                    await writer.drain()
            except (asyncio.IncompleteReadError, ConnectionError):
                pass
            finally:
                writer.close()

        last_error: Exception | None = None
        for _ in range(20):
            try:
                udp, _proto = await loop.create_datagram_endpoint(Udp, local_addr=(host, port))
                bound = udp.get_extra_info("sockname")[1]
                try:
                    tcp_server = await asyncio.start_server(tcp, host, bound)
                except OSError as e:  # TCP port taken: try another pair
                    udp.close()
                    last_error = e
                    if port:
                        raise
                    continue
                self.transports = [udp, tcp_server]
                self.port = bound
                return bound
            except OSError as e:
                last_error = e
                if port:
                    raise
        raise RuntimeError(f"could not bind DNS UDP+TCP on one port: {last_error}")

    async def stop(self) -> None:
        for t in self.transports:
            t.close()
        for t in self.transports:
            if isinstance(t, asyncio.base_events.Server):
                await t.wait_closed()
        self.transports = []

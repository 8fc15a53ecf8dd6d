"""WHOIS (RFC 3912) for the sandbox world: two servers on TCP ports of the sandbox's host.

* the **registry** server (thin, like Verisign's for .com): Domain Name, Registrar, its IANA id
  and abuse contact, ``Registrar WHOIS Server: whois.<registrar>.test``, dates, statuses, name
  servers; no registrant. Unknown domain: ``No match for "NAME".``
* the **registrar** server (thick, one port for every registrar): the same plus Registrant Name /
  Organization / Email, or the registrar's privacy placeholder (GoDaddy's Domains By Proxy,
  Namecheap's Withheld for Privacy, "REDACTED FOR PRIVACY" elsewhere) when the record is masked.

Both servers are on 127.0.0.1, so the referral host names cannot be resolved: `start` returns
``referrals`` (``{"whois.godaddy.test": "127.0.0.1:PORT", ...}``) and `client_env` gives it to the
pipeline as SADIE_WHOIS_REFERRALS (``host=ip:port,...``) beside SADIE_WHOIS_SERVER (the
registry). The client still reads the referral from the registry's answer, as it does in production.

Records agree with the other sources: `registration(world, domain)` is the one place that says
what a domain's registration is (the owner truth's current record and archived snapshots for a
hotel's own domain; the RDAP record for a brand's domain). RDAP and the Wayback service use it.
Knobs of a service named "whois", when the sandbox has one, apply to each query.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import weakref
import zlib
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from ..listeners import Listener
from ..owners import WhoisSnapshot, owner_truth
from ..world import Place, World, registrable
from .rdap import REGISTRAR_ABUSE, REGISTRAR_IDS

NAME = "whois"
TODAY = date(2026, 1, 1)  # the world's "now" (the RDAP service's too)
NOW = f"{TODAY.isoformat()}T00:00:00Z"
_HOSTS = {"GoDaddy.com, LLC": "godaddy", "NameCheap, Inc.": "namecheap", "Network Solutions, LLC": "networksolutions",
          "Tucows Domains Inc.": "tucows", "MarkMonitor Inc.": "markmonitor", "Squarespace Domains II LLC": "squarespace"}
_INDEX: weakref.WeakKeyDictionary[World, dict[str, Place]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Registration:
    """What the registry and the registrar hold for a domain, and what was archived of it."""

    domain: str
    registrar: str
    created: date
    current: WhoisSnapshot
    history: tuple[WhoisSnapshot, ...]   # archived lookups, oldest first
    rdap_useful: bool                    # False: the TLD's RDAP says nothing (port 43 only)


def registrar_host(registrar: str) -> str:
    slug = _HOSTS.get(registrar) or re.sub(r"[^a-z0-9]+", "", registrar.split()[0].lower().split(".")[0])
    return f"whois.{slug}.test"


def _hotels_by_domain(world: World) -> dict[str, Place]:
    """Each domain's hotel whose own registration it is (first one; brands' shared domains excluded)."""
    if world not in _INDEX:
        index: dict[str, Place] = {}
        for place in world.hotels:
            if place.rdap is not None and place.domain:
                index.setdefault(place.domain, place)
        _INDEX[world] = index
    return _INDEX[world]


def registration(world: World, name: str) -> Registration | None:
    """The registration of `name`'s registrable domain; None when it is not registered."""
    dom = world.domains.get(registrable(name))
    if dom is None or not dom.resolves or dom.rdap is None:
        return None
    rdap = dom.rdap
    created = date.fromisoformat(rdap.get("created", "2010-01-01"))
    place = _hotels_by_domain(world).get(dom.name)
    if place is not None and place.rdap == rdap:
        truth = owner_truth(place)
        return Registration(dom.name, rdap.get("registrar", "GoDaddy.com, LLC"), created, truth.whois,
                            truth.whois_history, truth.rdap_useful)
    # a brand's (or a moved site's) domain: its RDAP record is the registration
    current = WhoisSnapshot("2026-01-15", rdap.get("name"), rdap.get("org"), rdap.get("email"),
                            bool(rdap.get("privacy")))
    return Registration(dom.name, rdap.get("registrar", "GoDaddy.com, LLC"), created, current, (current,), True)


def _dates(reg: Registration, on: date) -> tuple[date, date]:
    """(last updated, expiry) as the record read on `on` (renewed yearly, updated at renewal)."""
    years = max(1, (on - reg.created).days // 365 + 1)
    expires = reg.created + timedelta(days=round(365.25 * years))
    return max(reg.created, min(on, expires - timedelta(days=395))), expires


def _common(reg: Registration, on: date) -> list[str]:
    updated, expires = _dates(reg, on)
    iana = REGISTRAR_IDS.get(reg.registrar, "9999")
    abuse_email, abuse_tel = REGISTRAR_ABUSE.get(reg.registrar, (f"abuse@{registrar_host(reg.registrar)[6:]}",
                                                                  "+1.5555550100"))
    return [
        f"Domain Name: {reg.domain.upper()}",
        f"Registry Domain ID: {zlib.crc32(reg.domain.encode()) % 10**10}_DOMAIN_TEST-VRSN",
        f"Registrar WHOIS Server: {registrar_host(reg.registrar)}",
        f"Registrar URL: http://www.{registrar_host(reg.registrar)[6:]}",
        f"Updated Date: {updated.isoformat()}T09:12:44Z",
        f"Creation Date: {reg.created.isoformat()}T14:21:05Z",
        f"Registry Expiry Date: {expires.isoformat()}T14:21:05Z",
        f"Registrar: {reg.registrar}", f"Registrar IANA ID: {iana}",
        f"Registrar Abuse Contact Email: {abuse_email}", f"Registrar Abuse Contact Phone: {abuse_tel}",
        "Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited",
    ]


def _tail(reg: Registration, on: date) -> list[str]:
    return [f"Name Server: NS{i}.{reg.domain.upper()}" for i in (1, 2)] + [
        "DNSSEC: unsigned", "URL of the ICANN Whois Inaccuracy Complaint Form: https://www.icann.org/wicf/",
        f">>> Last update of whois database: {on.isoformat()}T00:00:00Z <<<", "",
        "TERMS OF USE: The data in this sandbox WHOIS database is fictional and provided for testing only.", ""]


def registry_text(reg: Registration) -> str:
    """The registry's thin record (Verisign's layout)."""
    return "\r\n".join("   " + line if line and not line.startswith((">>>", "TERMS")) else line
                       for line in _common(reg, TODAY) + _tail(reg, TODAY))


def _registrant(reg: Registration, snap: WhoisSnapshot) -> list[str]:
    if snap.masked:
        if reg.registrar.startswith("GoDaddy"):
            name, org, email = ("Registration Private", "Domains By Proxy, LLC",
                                f"Select Contact Domain Holder link at https://www.godaddy.test/whois?domain={reg.domain}")
        elif reg.registrar.startswith("NameCheap"):
            name, org, email = ("Redacted for Privacy", "Privacy service provided by Withheld for Privacy ehf",
                                f"{zlib.crc32(reg.domain.encode()):x}@withheldforprivacy.test")
        else:
            name = org = "REDACTED FOR PRIVACY"
            email = "Please query the RDDS service of the Registrar of Record identified in this output."
        return [f"Registrant Name: {name}", f"Registrant Organization: {org}", "Registrant Country: US",
                f"Registrant Email: {email}"]
    return [f"Registrant Name: {snap.name or snap.org or ''}", f"Registrant Organization: {snap.org or ''}",
            "Registrant State/Province: FL", "Registrant Country: US", f"Registrant Email: {snap.email or ''}"]


def registrar_text(reg: Registration, snap: WhoisSnapshot | None = None) -> str:
    """The registrar's thick record, as it reads now (`snap` None) or as archived in `snap`."""
    on = min(TODAY, date.fromisoformat(snap.date)) if snap else TODAY
    snap = snap or reg.current
    lines = _common(reg, on) + ["Registry Registrant ID: Not Available From Registry"]
    lines += _registrant(reg, snap) + ["Admin Email: Select Contact Domain Holder link" if snap.masked
                                       else f"Admin Email: {snap.email or ''}"]
    return "\r\n".join(lines + _tail(reg, on))


def not_found_text(name: str) -> str:
    return f'No match for "{name.upper()}".\r\n>>> Last update of whois database: {NOW} <<<\r\n'


_RATE_LIMITED_TEXT = "WHOIS LIMIT EXCEEDED - your connection limit exceeded. Please slow down and try again later.\r\n"


class WhoisListener(Listener):
    """The registry and registrar WHOIS servers (RFC 3912: one query line, one answer, close)."""

    name = NAME

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self._servers: list[asyncio.Server] = []
        self.queries: list[tuple[str, str]] = []  # (server, query) as received, for tests

    async def start(self, host: str) -> dict[str, Any]:
        registry = await asyncio.start_server(lambda r, w: self._serve(r, w, thick=False), host, 0)
        registrar = await asyncio.start_server(lambda r, w: self._serve(r, w, thick=True), host, 0)
        self._servers = [registry, registrar]
        reg_port, thick_port = (s.sockets[0].getsockname()[1] for s in self._servers)
        registrars = {d.rdap.get("registrar", "GoDaddy.com, LLC") for d in self.ctx.world.domains.values() if d.rdap}
        referrals = {registrar_host(r): f"{host}:{thick_port}" for r in sorted(registrars | set(_HOSTS))}
        return {"host": host, "port": reg_port, "registrar_port": thick_port, "referrals": referrals}

    async def stop(self) -> None:
        for server in self._servers:
            server.close()
        for server in self._servers:
            with contextlib.suppress(Exception):
                await server.wait_closed()
        self._servers = []

    def answer(self, query: str, thick: bool) -> str:
        name = re.sub(r"^(?:domain\s+|=\s*)", "", query.strip(), flags=re.IGNORECASE).lower().rstrip(".")
        reg = registration(self.ctx.world, name) if "." in name else None
        if reg is None or name != reg.domain:  # registries answer for registered names only, not hosts
            return not_found_text(name)
        return registrar_text(reg) if thick else registry_text(reg)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, thick: bool) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), timeout=10)
            query = line.decode("utf-8", "replace").strip()
            self.queries.append(("registrar" if thick else "registry", query))
            action = await self._gate()
            if action == "hang":
                await asyncio.sleep(self.ctx.knobs(NAME).hang_s)
            elif action == "rate_limited":
                writer.write(_RATE_LIMITED_TEXT.encode())
            elif action == "ok":
                writer.write(self.answer(query, thick).encode("utf-8"))
            # "error": the connection is closed without an answer
            await writer.drain()
        except (TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _gate(self) -> str:
        if NAME not in self.ctx.states:  # the sandbox keeps no knobs for listeners
            return "ok"
        self.ctx.states[NAME].stats.requests += 1
        action, _ = await self.ctx.gate(NAME)
        self.ctx.record(NAME, action if action != "ok" else 200)
        return action

"""E-mail provider of a hotel's domain from its DNS (seed 001, "DNS Intel" layer, ``LAYER_DNS``:
"Email Provider (needed for email verification)").

Input is what the resolver returned (the asset does the lookups): MX records, the domain's TXT
records and the TXT records of ``_dmarc.<domain>``. Output is ``EmailDNS``:

* ``mx_provider``: who receives mail, from the MX hosts (``aspmx.l.google.com`` -> Google
  Workspace, ``*.mail.protection.outlook.com`` -> Microsoft 365, ``*.secureserver.net`` -> GoDaddy,
  Zoho, Yahoo, Fastmail, iCloud, Proton, Rackspace, IONOS, Namecheap, OVH, Hostinger, Titan, ...)
  or ``self_hosted`` when the MX is under the domain itself;
* ``gateway``: a filtering service in front of the mailbox (Proofpoint, Mimecast, Barracuda,
  Cisco, Trend Micro, Sophos, Forcepoint, SpamTitan, ...), when the MX is one;
* ``provider``: the mailbox provider, the MX's when it is one, else (behind a gateway or unknown
  MX) the first mailbox provider the SPF record authorises;
* SPF: ``parse_spf`` (includes, redirect, ip4/ip6, the ``all`` qualifier) and the providers the
  includes name (mailbox and sending services such as Mailchimp, SendGrid, Amazon SES);
* DMARC: presence, policy (``none``/``quarantine``/``reject``), report addresses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "GATEWAYS",
    "MAILBOX_PROVIDERS",
    "Dmarc",
    "EmailDNS",
    "Spf",
    "analyze_email_dns",
    "gateway_from_mx",
    "mx_hosts",
    "parse_dmarc",
    "parse_spf",
    "provider_from_mx",
    "spf_providers",
]

# (provider, host suffixes). A host matches a suffix when it equals it or ends with "." + it.
_MX_PROVIDERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("google_workspace", ("aspmx.l.google.com", "googlemail.com", "google.com", "smtp.google.com")),
    ("microsoft_365", ("mail.protection.outlook.com", "mail.protection.partner.outlook.cn", "outlook.com",
                       "hotmail.com", "olc.protection.outlook.com", "mx.microsoft")),
    ("zoho", ("zoho.com", "zoho.eu", "zoho.in", "zoho.com.au", "zohomail.com")),
    ("godaddy", ("secureserver.net",)),
    ("yahoo", ("yahoodns.net", "yahoo.com")),
    ("fastmail", ("messagingengine.com", "fastmail.com")),
    ("icloud", ("mail.icloud.com", "icloud.com")),
    ("proton", ("protonmail.ch", "proton.me")),
    ("rackspace", ("emailsrvr.com",)),
    ("ionos", ("ionos.com", "1and1.com", "ionos.de", "kundenserver.de")),
    ("namecheap", ("privateemail.com", "registrar-servers.com", "jellyfish.systems")),
    ("ovh", ("mail.ovh.net", "ovh.net")),
    ("hostinger", ("hostinger.com", "hostinger.in")),
    ("titan", ("titan.email",)),
    ("yandex", ("yandex.net", "yandex.ru")),
    ("amazon_workmail", ("awsapps.com",)),
    ("amazon_ses", ("amazonaws.com",)),
    ("mailgun", ("mailgun.org",)),
    ("hostgator", ("websitewelcome.com", "hostgator.com")),
    ("bluehost", ("bluehost.com",)),
    ("siteground", ("mailspamprotection.com", "siteground.net", "siteground.us")),
    ("dreamhost", ("dreamhost.com",)),
    ("register_com", ("register.com",)),
    ("network_solutions", ("netsolmail.net", "netsol.net")),
    ("squarespace_google", ("squarespace.com",)),
    ("wix", ("wixdns.net",)),
    ("mail_com", ("mail.com", "gmx.net", "gmx.com")),
    ("comcast", ("comcast.net",)),
)
_GATEWAYS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("proofpoint", ("pphosted.com", "ppe-hosted.com", "proofpoint.com")),
    ("mimecast", ("mimecast.com", "mimecast.co.za", "mimecast-offshore.com")),
    ("barracuda", ("barracudanetworks.com", "cudamail.com")),
    ("cisco_secure_email", ("iphmx.com",)),
    ("trend_micro", ("trendmicro.com", "trendmicro.eu", "tmes.trendmicro.com")),
    ("sophos", ("hydra.sophos.com", "sophos.com")),
    ("forcepoint", ("mailcontrol.com",)),
    ("spamtitan", ("spamtitan.com",)),
    ("mailroute", ("mailroute.net",)),
    ("appriver", ("arsmtp.com", "appriver.com")),
    ("spamexperts", ("spamexperts.com", "spamexperts.eu", "antispamcloud.com")),
    ("symantec", ("messagelabs.com",)),
    ("fortinet", ("fortimail.com",)),
)
MAILBOX_PROVIDERS = frozenset(name for name, _ in _MX_PROVIDERS) - {"amazon_ses", "mailgun"}
GATEWAYS = frozenset(name for name, _ in _GATEWAYS)

# SPF include/redirect domains -> provider (mailbox providers and sending services).
_SPF_PROVIDERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("google_workspace", ("_spf.google.com", "googlemail.com", "_netblocks.google.com")),
    ("microsoft_365", ("spf.protection.outlook.com", "spf.protection.outlook.cn", "outlook.com", "hotmail.com")),
    ("zoho", ("zoho.com", "zoho.eu", "zohomail.com", "zcsend.net", "one.zoho.com", "one.zoho.eu")),
    ("godaddy", ("secureserver.net",)),
    ("yahoo", ("_spf.mail.yahoo.com", "yahoo.com")),
    ("fastmail", ("spf.messagingengine.com", "messagingengine.com")),
    ("icloud", ("icloud.com",)),
    ("proton", ("_spf.protonmail.ch", "protonmail.ch")),
    ("rackspace", ("emailsrvr.com",)),
    ("ionos", ("_spf.perfora.net", "perfora.net", "kundenserver.de", "ionos.com")),
    ("namecheap", ("spf.privateemail.com", "privateemail.com")),
    ("ovh", ("mx.ovh.com", "ovh.net")),
    ("hostinger", ("_spf.mail.hostinger.com", "hostinger.com")),
    ("titan", ("spf.titan.email", "titan.email")),
    ("amazon_ses", ("amazonses.com",)),
    ("mailchimp", ("servers.mcsv.net", "mcsv.net")),
    ("mailchimp_transactional", ("spf.mandrillapp.com", "mandrillapp.com")),
    ("sendgrid", ("sendgrid.net",)),
    ("mailgun", ("mailgun.org",)),
    ("postmark", ("spf.mtasv.net", "mtasv.net")),
    ("sparkpost", ("sparkpostmail.com",)),
    ("brevo", ("spf.sendinblue.com", "sendinblue.com", "spf.brevo.com", "brevo.com")),
    ("constant_contact", ("spf.constantcontact.com", "constantcontact.com")),
    ("hubspot", ("hubspotemail.net", "_spf.hubspot.com", "hubspot.com")),
    ("salesforce", ("_spf.salesforce.com", "salesforce.com", "exacttarget.com", "cust-spf.exacttarget.com")),
    ("zendesk", ("mail.zendesk.com", "zendesk.com")),
    ("freshdesk", ("email.freshdesk.com", "freshdesk.com")),
    ("intuit", ("intuit.com",)),
    ("shopify", ("shops.shopify.com", "shopify.com")),
    ("wix", ("wix.com", "_spf.wixdns.net")),
    ("squarespace", ("squarespace.com",)),
    ("proofpoint", ("pphosted.com", "ppe-hosted.com")),
    ("mimecast", ("_netblocks.mimecast.com", "mimecast.com", "mimecast.org")),
    ("barracuda", ("spf.ess.barracudanetworks.com", "barracudanetworks.com")),
    ("cisco_secure_email", ("iphmx.com",)),
    ("sophos", ("sophos.com",)),
    ("revinate", ("revinate.com", "_spf.revinate.com")),
    ("cendyn", ("cendyn.com",)),
    ("cloudbeds", ("cloudbeds.com",)),
    ("bluehost", ("bluehost.com",)),
    ("hostgator", ("websitewelcome.com", "hostgator.com")),
)

# TXT verification tokens that reveal a mailbox provider.
_TXT_HINTS = (
    (re.compile(r"^ms=ms\d+", re.IGNORECASE), "microsoft_365"),
    (re.compile(r"^zoho-verification=", re.IGNORECASE), "zoho"),
    (re.compile(r"^google-site-verification=", re.IGNORECASE), "google"),  # Search Console; weak
)


def _host(value: str) -> str:
    return value.strip().strip('"').rstrip(".").lower()


def _suffix_match(host: str, table: Iterable[tuple[str, tuple[str, ...]]]) -> str | None:
    for name, suffixes in table:
        for suffix in suffixes:
            if host == suffix or host.endswith("." + suffix):
                return name
    return None


def mx_hosts(records: Iterable[str | tuple[int, str] | Sequence]) -> list[str]:
    """MX host names, lower case without the trailing dot, by preference then name, once each.

    Accepts ``"aspmx.l.google.com."``, ``"10 aspmx.l.google.com."`` (zone-file form) or
    ``(10, "aspmx.l.google.com.")``. A null MX (RFC 7505: ``0 .``, "this domain accepts no mail")
    yields no host."""
    parsed: list[tuple[int, str]] = []
    for rec in records or ():
        if isinstance(rec, str):
            parts = rec.split()
            if len(parts) >= 2 and parts[0].isdigit():
                pref, host = int(parts[0]), parts[1]
            elif parts:
                pref, host = 0, parts[0]
            else:
                continue
        else:
            pref, host = int(rec[0]), str(rec[1])
        host = _host(host)
        if host:
            parsed.append((pref, host))
    out: dict[str, None] = {}
    for _, host in sorted(parsed):
        out.setdefault(host, None)
    return list(out)


def provider_from_mx(hosts: Iterable[str], domain: str | None = None) -> str | None:
    """The mailbox provider the MX hosts point to (best preference first), ``self_hosted`` when
    the MX is the domain itself or under it, None when unknown (or a gateway)."""
    hosts = list(hosts)
    for host in hosts:
        name = _suffix_match(_host(host), _MX_PROVIDERS)
        if name:
            return name
    if domain:
        d = _host(domain).removeprefix("www.")
        if any(_host(h) == d or _host(h).endswith("." + d) for h in hosts):
            return "self_hosted"
    return None


def gateway_from_mx(hosts: Iterable[str]) -> str | None:
    """The filtering gateway the MX hosts belong to (Proofpoint, Mimecast, ...), or None."""
    for host in hosts:
        name = _suffix_match(_host(host), _GATEWAYS)
        if name:
            return name
    return None


@dataclass(frozen=True)
class Spf:
    record: str
    includes: tuple[str, ...]
    redirect: str | None
    ip4: tuple[str, ...]
    ip6: tuple[str, ...]
    mechanisms: tuple[str, ...]
    all: str | None  # "-all" fail, "~all" softfail, "?all" neutral, "+all" pass; None when absent


def _txt(value: str | bytes | Sequence) -> str:
    """One TXT record as a string: bytes decoded, several character-strings joined (``"v=spf1 "
    "include:x ~all"`` or a list of chunks), surrounding quotes removed."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", errors="replace")
    if not isinstance(value, str):
        return "".join(_txt(v) for v in value)
    stripped = value.strip()
    chunks = re.findall(r'"((?:[^"\\]|\\.)*)"', stripped)
    if chunks and stripped.startswith('"'):
        return "".join(chunks)
    return value


def parse_spf(txt_records: Iterable[str | bytes | Sequence]) -> Spf | None:
    """The domain's SPF record from its TXT records, or None when there is none. When several
    ``v=spf1`` records exist (a permerror for receivers) the first is used."""
    for raw in txt_records or ():
        text = _txt(raw).strip()
        if not re.match(r"^v=spf1(?:\s|$)", text, re.IGNORECASE):
            continue
        includes, ip4, ip6, mechs = [], [], [], []
        redirect = None
        all_q = None
        for term in text.split()[1:]:
            low = term.lower()
            mechs.append(low)
            qual = low[0] if low[0] in "+-~?" else "+"
            body = low[1:] if low[0] in "+-~?" else low
            if body.startswith("include:"):
                includes.append(body[8:].rstrip("."))
            elif body.startswith("redirect="):
                redirect = body[9:].rstrip(".")
            elif body.startswith("ip4:"):
                ip4.append(body[4:])
            elif body.startswith("ip6:"):
                ip6.append(body[4:])
            elif body == "all":
                all_q = qual + "all"
        return Spf(text, tuple(includes), redirect, tuple(ip4), tuple(ip6), tuple(mechs), all_q)
    return None


def spf_providers(spf: Spf | None) -> list[str]:
    """Providers named by the SPF record's includes and redirect, in record order, once each;
    unknown includes are left out (they stay in ``Spf.includes``)."""
    if spf is None:
        return []
    out: dict[str, None] = {}
    for domain in (*spf.includes, *((spf.redirect,) if spf.redirect else ())):
        name = _suffix_match(domain, _SPF_PROVIDERS)
        if name:
            out.setdefault(name, None)
    return list(out)


@dataclass(frozen=True)
class Dmarc:
    record: str
    policy: str | None  # none / quarantine / reject
    subdomain_policy: str | None
    pct: int | None
    rua: tuple[str, ...]


def parse_dmarc(txt_records: Iterable[str | bytes | Sequence]) -> Dmarc | None:
    """The DMARC record among the TXT records of ``_dmarc.<domain>``, or None."""
    for raw in txt_records or ():
        text = _txt(raw).strip()
        if not re.match(r"^v\s*=\s*dmarc1\b", text, re.IGNORECASE):
            continue
        tags: dict[str, str] = {}
        for part in text.split(";"):
            if "=" in part:
                k, v = part.split("=", 1)
                tags[k.strip().lower()] = v.strip()
        policy = tags.get("p", "").lower() or None
        pct = int(tags["pct"]) if tags.get("pct", "").isdigit() else None
        rua = tuple(a.strip().removeprefix("mailto:").lower() for a in tags.get("rua", "").split(",") if a.strip())
        return Dmarc(text, policy if policy in ("none", "quarantine", "reject") else policy,
                     (tags.get("sp") or "").lower() or None, pct, rua)
    return None


@dataclass(frozen=True)
class EmailDNS:
    domain: str
    mx_hosts: tuple[str, ...]
    has_mx: bool
    provider: str | None
    mx_provider: str | None
    gateway: str | None
    spf: Spf | None
    spf_providers: tuple[str, ...]
    dmarc: Dmarc | None
    txt_hints: tuple[str, ...] = field(default=())

    @property
    def has_spf(self) -> bool:
        return self.spf is not None

    @property
    def has_dmarc(self) -> bool:
        return self.dmarc is not None

    @property
    def dmarc_policy(self) -> str | None:
        return self.dmarc.policy if self.dmarc else None

    def as_row(self) -> dict:
        """Columns of the DNS enrichment row."""
        return {
            "email_provider": self.provider,
            "mx_provider": self.mx_provider,
            "mx_gateway": self.gateway,
            "mx_hosts": list(self.mx_hosts),
            "has_mx": self.has_mx,
            "has_spf": self.has_spf,
            "spf_providers": list(self.spf_providers),
            "spf_all": self.spf.all if self.spf else None,
            "has_dmarc": self.has_dmarc,
            "dmarc_policy": self.dmarc_policy,
        }


def analyze_email_dns(domain: str, mx_records: Iterable = (), txt_records: Iterable = (),
                      dmarc_records: Iterable = ()) -> EmailDNS:
    """Everything the DNS layer stores about a domain's e-mail. The provider is the MX's mailbox
    provider; behind a gateway or with an unknown MX it is the first mailbox provider of the SPF
    record, then a TXT verification token (``MS=ms...``: Microsoft 365), else None."""
    hosts = mx_hosts(mx_records)
    mx_prov = provider_from_mx(hosts, domain)
    gateway = gateway_from_mx(hosts)
    spf = parse_spf(txt_records)
    spf_prov = spf_providers(spf)
    hints: dict[str, None] = {}
    for raw in txt_records or ():
        text = _txt(raw).strip()
        for pattern, name in _TXT_HINTS:
            if pattern.match(text):
                hints.setdefault(name, None)
    provider = mx_prov if mx_prov and mx_prov != "self_hosted" else None
    if provider is None:
        provider = next((p for p in spf_prov if p in MAILBOX_PROVIDERS), None)
    if provider is None and hosts:
        provider = next((h for h in hints if h in MAILBOX_PROVIDERS), None)
    if provider is None and mx_prov == "self_hosted":
        provider = "self_hosted"
    return EmailDNS(
        domain=_host(domain).removeprefix("www."), mx_hosts=tuple(hosts), has_mx=bool(hosts), provider=provider,
        mx_provider=mx_prov, gateway=gateway, spf=spf, spf_providers=tuple(spf_prov), dmarc=parse_dmarc(dmarc_records),
        txt_hints=tuple(hints),
    )

"""crt.sh, the certificate transparency log search: ``GET /?q={domain}&output=json`` lists the
logged certificates whose names include the domain or one of its subdomains in crt.sh's JSON
shape (issuer_ca_id, issuer_name, common_name, name_value with the SANs newline-separated, id,
entry_timestamp, not_before, not_after, serial_number, result_count); ``GET /?d={id}`` downloads
one as PEM.

Each domain of the world has the certificate its owner truth gives (`owner_truth(place)`: DV
names only the CN; OV/EV add O= the owning company and the CA/B policy OID) and an expired Let's
Encrypt certificate before it, as most sites have. Its SANs are the truth's names plus, when the
company owns several hotels, the other hotels' own domains (at most `MAX_SIBLINGS`; a chain's
shared domain is nobody's sibling). Certificates
are made on first download with `cryptography` and kept; one key signs (and is) all of them.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any

from aiohttp import web
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from ..owners import owner_truth
from ..world import Place, registrable
from .base import Service, json_response

MAX_SIBLINGS = 40  # CAs cap SAN counts; a big management company's certificate lists some hotels
# issuer_ca_id, issuer DN, policy OID per validation type (crt.sh's ids of these CAs)
ISSUERS = {
    "LE": (295815, "C=US, O=Let's Encrypt, CN=R11", "2.23.140.1.2.1"),
    "DV": (295814, "C=US, O=Let's Encrypt, CN=R10", "2.23.140.1.2.1"),
    "OV": (1455, "C=GB, ST=Greater Manchester, L=Salford, O=Sectigo Limited, "
                 "CN=Sectigo RSA Organization Validation Secure Server CA", "2.23.140.1.2.2"),
    "EV": (147138, "C=US, O=DigiCert Inc, OU=www.digicert.com, CN=DigiCert EV RSA CA G2", "2.23.140.1.1"),
}
_ISSUER_DN = {
    "LE": [(NameOID.COUNTRY_NAME, "US"), (NameOID.ORGANIZATION_NAME, "Let's Encrypt"), (NameOID.COMMON_NAME, "R11")],
    "DV": [(NameOID.COUNTRY_NAME, "US"), (NameOID.ORGANIZATION_NAME, "Let's Encrypt"), (NameOID.COMMON_NAME, "R10")],
    "OV": [(NameOID.COUNTRY_NAME, "GB"), (NameOID.STATE_OR_PROVINCE_NAME, "Greater Manchester"),
           (NameOID.LOCALITY_NAME, "Salford"), (NameOID.ORGANIZATION_NAME, "Sectigo Limited"),
           (NameOID.COMMON_NAME, "Sectigo RSA Organization Validation Secure Server CA")],
    "EV": [(NameOID.COUNTRY_NAME, "US"), (NameOID.ORGANIZATION_NAME, "DigiCert Inc"),
           (NameOID.ORGANIZATIONAL_UNIT_NAME, "www.digicert.com"),
           (NameOID.COMMON_NAME, "DigiCert EV RSA CA G2")],
}


def _cert_id(domain: str, which: str) -> int:
    return 10_000_000_000 + int(hashlib.sha256(f"crtsh\x1f{domain}\x1f{which}".encode()).hexdigest()[:12], 16) % 10**9


class CrtShService(Service):
    name = "crtsh"
    prefix = "/crtsh"
    real_base_url = "https://crt.sh"
    description = "crt.sh: GET /?q={domain}&output=json, GET /?d={id} (PEM)"

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self._pem: dict[int, bytes] = {}
        self._key = ec.generate_private_key(ec.SECP256R1())

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/", self.search)]

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        return f"<html><body><h1>crt.sh</h1><p>{message}</p></body></html>"

    def error(self, status: int, message: str, *, code: str | None = None,
              headers: dict[str, str] | None = None) -> web.Response:
        return web.Response(text=self.error_body(status, message, code), status=status, headers=headers,
                            content_type="text/html")

    # ---- the world's certificates ---------------------------------------------------------------
    @cached_property
    def _by_domain(self) -> dict[str, Place]:
        out: dict[str, Place] = {}
        for p in self.ctx.world.hotels:
            dom = self.ctx.world.domains.get(p.domain or "")
            if dom is not None and dom.resolves:
                out.setdefault(dom.name, p)
        return out

    @cached_property
    def _by_company(self) -> dict[str, list[str]]:
        """company -> its hotels' own domains (a chain's shared domain is the chain's, no sibling)."""
        shared = Counter(p.domain for p in self.ctx.world.hotels if p.domain)
        out: dict[str, list[str]] = {}
        for domain, place in sorted(self._by_domain.items()):
            if shared[domain] == 1:
                out.setdefault(owner_truth(place).company, []).append(domain)
        return out

    @cached_property
    def _by_id(self) -> dict[int, tuple[str, str]]:
        return {_cert_id(d, which): (d, which) for d in self._by_domain for which in ("old", "current")}

    def _names(self, domain: str, which: str) -> list[str]:
        if which == "old":
            return [domain, f"www.{domain}"]
        truth = owner_truth(self._by_domain[domain])
        siblings = [d for d in self._by_company.get(truth.company, []) if d != domain][:MAX_SIBLINGS]
        return list(dict.fromkeys([domain, *truth.cert_sans, *siblings]))

    def _spec(self, domain: str, which: str) -> dict[str, Any]:
        truth = owner_truth(self._by_domain[domain])
        kind = "LE" if which == "old" else truth.cert_type
        digest = hashlib.sha256(f"{domain}\x1f{which}".encode()).digest()
        start = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(hours=digest[0] * 24 + digest[1])
        if which == "old":
            start -= timedelta(days=400)
        days = 90 if kind in ("LE", "DV") else 397
        return {"kind": kind, "not_before": start, "not_after": start + timedelta(days=days),
                "serial": int.from_bytes(digest[2:18], "big") >> 1,
                "org": truth.cert_org if kind in ("OV", "EV") else None, "names": self._names(domain, which)}

    def _row(self, domain: str, which: str, count: int) -> dict[str, Any]:
        spec = self._spec(domain, which)
        ca_id, issuer, _ = ISSUERS[spec["kind"]]
        fmt = "%Y-%m-%dT%H:%M:%S"
        return {"issuer_ca_id": ca_id, "issuer_name": issuer, "common_name": domain,
                "name_value": "\n".join(spec["names"]), "id": _cert_id(domain, which),
                "entry_timestamp": (spec["not_before"] + timedelta(minutes=1)).strftime(fmt) + ".123",
                "not_before": spec["not_before"].strftime(fmt), "not_after": spec["not_after"].strftime(fmt),
                "serial_number": f"{spec['serial']:x}", "result_count": count}

    def _build(self, domain: str, which: str) -> bytes:
        spec = self._spec(domain, which)
        subject = [x509.NameAttribute(NameOID.COMMON_NAME, domain)]
        if spec["org"]:
            subject = [x509.NameAttribute(NameOID.COUNTRY_NAME, "AU" if ".au" in domain else "US"),
                       x509.NameAttribute(NameOID.ORGANIZATION_NAME, spec["org"]), *subject]
        policy = x509.PolicyInformation(x509.ObjectIdentifier(ISSUERS[spec["kind"]][2]), None)
        cert = (x509.CertificateBuilder()
                .subject_name(x509.Name(subject))
                .issuer_name(x509.Name([x509.NameAttribute(oid, v) for oid, v in _ISSUER_DN[spec["kind"]]]))
                .public_key(self._key.public_key()).serial_number(spec["serial"])
                .not_valid_before(spec["not_before"]).not_valid_after(spec["not_after"])
                .add_extension(x509.SubjectAlternativeName([x509.DNSName(n) for n in spec["names"]]), critical=False)
                .add_extension(x509.CertificatePolicies([policy]), critical=False)
                .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                .sign(self._key, hashes.SHA256()))
        return cert.public_bytes(serialization.Encoding.PEM)

    # ---- handlers ----------------------------------------------------------------------------
    async def search(self, request: web.Request) -> web.Response:
        if "d" in request.query:
            return self.download(request.query["d"])
        query = (request.query.get("q") or request.query.get("identity") or "").strip().lower().lstrip("%.")
        if not query:
            return self.error(400, "Query is empty")
        if request.query.get("output") != "json":
            return self.error(400, "Only output=json is served by the sandbox")
        domain = registrable(query)
        if domain not in self._by_domain:
            return json_response([])
        rows = [self._row(domain, which, 2) for which in ("current", "old")]
        return json_response([r for r in rows if any(n == query or n.endswith(f".{query}")
                                                     for n in r["name_value"].split("\n"))])

    def download(self, value: str) -> web.Response:
        if not value.strip().isdigit() or int(value) not in self._by_id:
            return self.error(404, "Certificate not found")
        cert_id = int(value)
        if cert_id not in self._pem:
            self._pem[cert_id] = self._build(*self._by_id[cert_id])
        return web.Response(body=self._pem[cert_id], content_type="application/pkix-cert",
                            headers={"Content-Disposition": f'attachment; filename="{cert_id}.crt"'})

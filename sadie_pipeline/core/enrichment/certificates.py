"""Certificate transparency (seed 001, "CT Certs -> Org Name (cross-ref with WHOIS)"): which
certificates crt.sh logged for a domain, the organisation an OV/EV certificate names (its subject
O=), the other registrable domains on it (sibling hotels of the same owner), and whether that
organisation is the one WHOIS / RDAP registered the domain to.

Pure logic: crt.sh's JSON rows in, PEM text in; no I/O. Only organisation-validated (OV) and
extended-validation (EV) certificates count: a CA checked who the subject is, so its O= is the
owning entity. DV certificates name no organisation, and their SANs prove no shared ownership
(a host's shared certificate lists unrelated customers), so they add nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cryptography import x509
from cryptography.x509.oid import ExtensionOID, NameOID

from sadie_pipeline.core.normalize import registrable_domain

__all__ = ["CertInfo", "CrtShEntry", "certificates_to_fetch", "crtsh_entries", "normalise_org", "org_matches",
           "parse_pem", "sibling_domains", "summarise", "validation_type"]

# CA/Browser Forum certificate policy OIDs (Baseline Requirements 7.1.6.1, EV Guidelines 9.3.2).
POLICY_DV, POLICY_OV, POLICY_IV, POLICY_EV = "2.23.140.1.2.1", "2.23.140.1.2.2", "2.23.140.1.2.3", "2.23.140.1.1"
# CAs' own EV policy OIDs still found on certificates issued before the CA/B OID was required.
LEGACY_EV_POLICIES = frozenset({"2.16.840.1.114412.2.1", "1.3.6.1.4.1.6449.1.2.1.5.1", "2.16.840.1.114413.1.7.23.3",
                                "1.3.6.1.4.1.4146.1.1", "2.16.840.1.113733.1.7.23.6"})
# Issuers that only ever issue domain-validated certificates: their certificates are not fetched.
_DV_ONLY_ISSUER = re.compile(r"let's encrypt|zerossl|domain validation|domain validated|\bdv\b|cpanel|"
                             r"google trust services|amazon", re.IGNORECASE)
# Legal-form words and noise that differ between registers for the same entity.
_LEGAL_FORMS = frozenset({"inc", "incorporated", "llc", "lc", "llp", "lp", "ltd", "limited", "pty", "plc", "co",
                          "corp", "corporation", "company", "the", "gmbh", "sa", "srl", "bv", "pte"})


@dataclass(frozen=True)
class CrtShEntry:
    """One row of crt.sh's JSON output (a logged certificate or precertificate)."""

    id: int
    issuer_name: str
    common_name: str
    names: tuple[str, ...]
    not_before: str
    not_after: str
    serial_number: str


@dataclass(frozen=True)
class CertInfo:
    """What a certificate says about its subject."""

    common_name: str | None
    organisation: str | None
    sans: tuple[str, ...]
    validation: str  # DV | OV | EV
    issuer: str
    not_before: datetime
    not_after: datetime


def crtsh_entries(rows: Any) -> list[CrtShEntry]:
    """crt.sh's ``output=json`` rows; rows without an id are dropped. Raises ValueError when the
    answer is not a JSON list (crt.sh's overload pages are HTML)."""
    if not isinstance(rows, list):
        raise ValueError("crt.sh answered something other than a JSON list")
    out = []
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("id"), int):
            continue
        names = tuple(dict.fromkeys(n.strip().lower() for n in str(row.get("name_value") or "").split("\n") if n.strip()))
        out.append(CrtShEntry(row["id"], str(row.get("issuer_name") or ""), str(row.get("common_name") or ""),
                              names, str(row.get("not_before") or ""), str(row.get("not_after") or ""),
                              str(row.get("serial_number") or "")))
    return out


def certificates_to_fetch(entries: Sequence[CrtShEntry], limit: int = 3) -> list[int]:
    """Ids of the newest certificates worth downloading: one per serial (crt.sh logs the
    precertificate and the certificate), issuers that only sign DV certificates left out."""
    seen: set[str] = set()
    ids = []
    for entry in sorted(entries, key=lambda e: (e.not_before, e.id), reverse=True):
        key = entry.serial_number or str(entry.id)
        if key in seen or _DV_ONLY_ISSUER.search(entry.issuer_name):
            continue
        seen.add(key)
        ids.append(entry.id)
        if len(ids) == limit:
            break
    return ids


def _policies(cert: x509.Certificate) -> set[str]:
    try:
        ext = cert.extensions.get_extension_for_oid(ExtensionOID.CERTIFICATE_POLICIES).value
    except x509.ExtensionNotFound:
        return set()
    return {p.policy_identifier.dotted_string for p in ext}


def validation_type(cert: x509.Certificate) -> str:
    """DV, OV or EV: from the policy OIDs, else OV when the subject carries an organisation."""
    policies = _policies(cert)
    if POLICY_EV in policies or policies & LEGACY_EV_POLICIES:
        return "EV"
    if POLICY_OV in policies or POLICY_IV in policies:
        return "OV"
    if POLICY_DV in policies:
        return "DV"
    return "OV" if cert.subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME) else "DV"


def _first(name: x509.Name, oid: x509.ObjectIdentifier) -> str | None:
    values = name.get_attributes_for_oid(oid)
    return str(values[0].value).strip() or None if values else None


def parse_pem(pem: str | bytes) -> CertInfo:
    """A PEM certificate's subject CN and O=, DNS SANs, validation type, issuer and validity."""
    cert = x509.load_pem_x509_certificate(pem.encode() if isinstance(pem, str) else pem)
    try:
        san = cert.extensions.get_extension_for_oid(ExtensionOID.SUBJECT_ALTERNATIVE_NAME).value
        sans = tuple(dict.fromkeys(n.lower() for n in san.get_values_for_type(x509.DNSName)))
    except x509.ExtensionNotFound:
        sans = ()
    kind = validation_type(cert)
    return CertInfo(common_name=_first(cert.subject, NameOID.COMMON_NAME),
                    organisation=_first(cert.subject, NameOID.ORGANIZATION_NAME) if kind != "DV" else None,
                    sans=sans, validation=kind, issuer=cert.issuer.rfc4514_string(),
                    not_before=cert.not_valid_before_utc, not_after=cert.not_valid_after_utc)


def sibling_domains(names: Iterable[str], domain: str) -> list[str]:
    """The registrable domains among a certificate's names other than `domain` (wildcards too)."""
    own = registrable_domain(domain)
    out = {registrable_domain(n.lower().lstrip("*.").rstrip(".")) for n in names if n and "." in n}
    return sorted(d for d in out if d and d != own)


def normalise_org(name: str | None) -> str:
    """An organisation name for comparison: lower case, punctuation and legal forms dropped
    ("Sea View Hospitality, L.L.C." and "SEA VIEW HOSPITALITY LLC" compare equal)."""
    if not name:
        return ""
    text = re.sub(r"\b([a-z])\.(?=[a-z]\.)", r"\1", name.lower().replace("&", " and "))
    text = re.sub(r"\b(l)\.?\s?(l)\.?\s?(c)\b\.?", "llc", text)
    words = re.sub(r"[^a-z0-9]+", " ", text).split()
    return " ".join(w for w in words if w not in _LEGAL_FORMS)


def org_matches(cert_org: str | None, whois_org: str | None) -> bool:
    a, b = normalise_org(cert_org), normalise_org(whois_org)
    return bool(a) and a == b


def summarise(certs: Iterable[CertInfo], domain: str, whois_orgs: Iterable[str | None]) -> dict[str, Any]:
    """The layer's findings over a domain's certificates: the OV/EV organisations (newest first),
    the sibling domains on those certificates, and whether an organisation is the WHOIS one
    (None when either side has no organisation to compare)."""
    validated = sorted((c for c in certs if c.validation in ("OV", "EV") and c.organisation),
                       key=lambda c: c.not_before, reverse=True)
    orgs = list(dict.fromkeys(c.organisation for c in validated if c.organisation))
    siblings = sorted({d for c in validated for d in sibling_domains(c.sans, domain)})
    registered = [o for o in whois_orgs if normalise_org(o)]
    matches = None
    if orgs and registered:
        matches = any(org_matches(c, w) for c in orgs for w in registered)
    return {"cert_orgs": orgs, "cert_sibling_domains": siblings, "cert_org_matches_whois": matches,
            "validation": sorted({c.validation for c in certs})}

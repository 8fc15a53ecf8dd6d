"""RDAP domain responses (RFC 9083; redaction RFC 9537) for the owner layer ``LAYER_RDAP``.

``parse_rdap(obj)`` reads the JSON a registry or registrar RDAP server returns for
``/domain/<name>`` into ``RdapDomain``: registrar (name, IANA id), registrant name / organisation /
country, the e-mails and phones of the registrant, administrative and technical contacts, the
registration / last-changed / expiration dates, name servers, statuses, and whether the record is
privacy-protected (an RFC 9537 ``redacted`` member, "REDACTED FOR PRIVACY" style values, a privacy
service such as Domains By Proxy or Withheld for Privacy as the contact, a ``proxy`` role, or
redaction remarks). Privacy-service and registrar abuse addresses are never reported as the
hotel's. ``RdapDomain.decision_makers()`` gives the registrant as a decision-maker candidate (seed
001: RDAP base confidence 0.75) when it names a real person or address.

vCard (jCard, RFC 7095) values: ``fn``, ``org``, ``kind``, ``email``, ``tel`` (``tel:+1.5555550100``
URIs or text), ``adr`` (7 components or a ``label`` parameter; ``cc`` parameter for the country).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sadie_pipeline.core.normalize import PhoneError, normalize_email, phone_to_e164

from .confidence import contact_confidence

__all__ = ["RdapContact", "RdapDomain", "RdapError", "is_privacy_value", "parse_rdap"]

_PRIVACY = re.compile(
    r"redacted|privacy|proxy|withheld|not\s+disclosed|non-public|gdpr|\bmasked\b|whoisguard|anonymi[sz]|"
    r"statutory\s+masking|please\s+query|data\s+protected|identity\s+protect|domain\s+protection|"
    r"registration\s+private|private\s+by\s+design|private\s+registration|whois\s*agent|c/o\s+whois|"
    r"on\s+behalf\s+of|contact\s+domain\s+holder|^n/?a$|^none$|^-$",
    re.IGNORECASE,
)
_PRIVACY_EMAIL_DOMAIN = re.compile(
    r"privacy|proxy|whoisguard|withheld|protect|anonymi|redacted|contactprivacy|domainsbyproxy|"
    r"identity-protect|whoisproxy|perfectprivacy|mydomainprivacy|myprivacy",
    re.IGNORECASE,
)
_ORG_WORDS = re.compile(r"\b(?:llc|l\.l\.c|inc|incorporated|ltd|limited|corp|corporation|co|company|lp|llp|plc|"
                        r"gmbh|hotels?|resorts?|inns?|hospitality|group|holdings?|properties|partners|management|"
                        r"trust|enterprises?|associates|ventures)\b\.?", re.IGNORECASE)


class RdapError(ValueError):
    """Not an RDAP domain object (an error response, a different object class, invalid JSON)."""


def is_privacy_value(value: str | None) -> bool:
    """True for redacted / privacy-service placeholders ("REDACTED FOR PRIVACY", "Domains By
    Proxy, LLC", "Data Protected", "Statutory Masking Enabled", ...)."""
    return bool(value) and bool(_PRIVACY.search(value))  # type: ignore[arg-type]


@dataclass(frozen=True)
class RdapContact:
    roles: tuple[str, ...]
    name: str | None
    org: str | None
    kind: str | None
    emails: tuple[str, ...]
    phones: tuple[str, ...]
    address: str | None
    country: str | None
    redacted: bool


@dataclass(frozen=True)
class RdapDomain:
    domain: str | None
    registrar: str | None
    registrar_iana_id: str | None
    registrant_name: str | None
    registrant_org: str | None
    registrant_country: str | None
    emails: tuple[str, ...]
    phones: tuple[str, ...]
    created: datetime | None
    updated: datetime | None
    expires: datetime | None
    nameservers: tuple[str, ...]
    statuses: tuple[str, ...]
    privacy_protected: bool
    contacts: tuple[RdapContact, ...]

    def as_row(self) -> dict[str, Any]:
        """Columns of the RDAP enrichment row."""
        return {
            "domain": self.domain,
            "registrar": self.registrar,
            "registrar_iana_id": self.registrar_iana_id,
            "registrant_name": self.registrant_name,
            "registrant_org": self.registrant_org,
            "registrant_country": self.registrant_country,
            "rdap_emails": list(self.emails),
            "rdap_phones": list(self.phones),
            "domain_created_at": self.created,
            "domain_updated_at": self.updated,
            "domain_expires_at": self.expires,
            "nameservers": list(self.nameservers),
            "privacy_protected": self.privacy_protected,
        }

    def decision_makers(self) -> list[dict[str, Any]]:
        """The registrant as a decision-maker row when it names a person (``full_name``) or at
        least carries a usable e-mail; empty for privacy-protected or organisation-only records."""
        registrant = next((c for c in self.contacts if "registrant" in c.roles), None)
        if registrant is None:
            return []
        person = registrant.name if registrant.name and registrant.kind != "org" and not _ORG_WORDS.search(
            registrant.name) else None
        if not person and not registrant.emails:
            return []
        return [{
            "full_name": person,
            "title": "Domain Registrant",
            "organization": registrant.org,
            "email": registrant.emails[0] if registrant.emails else None,
            "phone": registrant.phones[0] if registrant.phones else None,
            "sources": ["rdap"],
            "confidence": contact_confidence("rdap"),
        }]


def _date(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip().replace("z", "Z")
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    text = re.sub(r"([+-]\d{2})(\d{2})$", r"\1:\2", text)
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _vcard_props(entity: Mapping[str, Any]) -> list[tuple[str, dict, Any]]:
    arr = entity.get("vcardArray")
    if not isinstance(arr, list) or len(arr) < 2 or not isinstance(arr[1], list):
        return []
    props = []
    for prop in arr[1]:
        if isinstance(prop, list) and len(prop) >= 4 and isinstance(prop[0], str):
            params = prop[1] if isinstance(prop[1], dict) else {}
            value = prop[3] if len(prop) == 4 else prop[3:]
            props.append((prop[0].lower(), params, value))
    return props


def _flat(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(_flat(v) for v in value if v not in (None, ""))
    return " ".join(str(value).split()) if value is not None else ""


def _phone(value: Any, region: str) -> str | None:
    text = _flat(value)
    text = re.sub(r"^tel:", "", text, flags=re.IGNORECASE).split(";", 1)[0]
    if not re.search(r"\d{6}", re.sub(r"\D", "", text)):
        return None
    try:
        return phone_to_e164(text.replace(".", " "), region)
    except PhoneError:
        return None


def _email(value: Any) -> str | None:
    text = _flat(value).removeprefix("mailto:")
    try:
        email = normalize_email(text)
    except ValueError:
        return None
    if not email or _PRIVACY_EMAIL_DOMAIN.search(email.rsplit("@", 1)[1]) or is_privacy_value(email.split("@")[0]):
        return None
    return email


def _contact(entity: Mapping[str, Any], region: str) -> RdapContact:
    roles = tuple(str(r).lower() for r in entity.get("roles") or () if isinstance(r, str))
    name = org = kind = address = country = None
    emails: list[str] = []
    phones: list[str] = []
    redacted = "proxy" in roles
    for prop, params, value in _vcard_props(entity):
        text = _flat(value)
        if prop == "fn":
            if is_privacy_value(text):
                redacted = redacted or bool(text)
            elif text:
                name = text
        elif prop == "org":
            if is_privacy_value(text):
                redacted = True
            elif text:
                org = text
        elif prop == "kind":
            kind = text.lower() or None
        elif prop == "email":
            e = _email(value)
            if e:
                emails.append(e)
            elif text:
                redacted = True
        elif prop == "tel":
            p = _phone(value, region)
            if p:
                phones.append(p)
        elif prop == "adr":
            cc = params.get("cc")
            label = params.get("label")
            parts = value if isinstance(value, list) else [value]
            flat_parts = [_flat(p) for p in parts]
            if isinstance(cc, str) and cc.strip():
                country = cc.strip().upper()
            elif len(flat_parts) >= 7 and flat_parts[6] and not is_privacy_value(flat_parts[6]):
                country = flat_parts[6].upper() if len(flat_parts[6]) == 2 else flat_parts[6]
            shown = [p for p in flat_parts if p and not is_privacy_value(p)]
            if any(is_privacy_value(p) for p in flat_parts if p):
                redacted = True
            address = _flat(label) if isinstance(label, str) and not is_privacy_value(label) else (", ".join(shown) or None)
    for remark in entity.get("remarks") or ():
        if isinstance(remark, Mapping) and is_privacy_value(_flat(remark.get("title")) + " " + _flat(remark.get("type"))):
            redacted = True
    if name and org and name == org and _ORG_WORDS.search(name):
        kind = kind or "org"
    if org and is_privacy_value(org):
        org = None
    return RdapContact(roles, name, org, kind, tuple(dict.fromkeys(emails)), tuple(dict.fromkeys(phones)),
                       address, country, redacted)


def _entities(obj: Mapping[str, Any]) -> Iterable[tuple[Mapping[str, Any], tuple[str, ...]]]:
    """Every entity, nested ones too, with the roles of its parents."""
    stack = [(e, ()) for e in reversed(obj.get("entities") or []) if isinstance(e, Mapping)]
    while stack:
        entity, parents = stack.pop()
        yield entity, parents
        roles = tuple(str(r).lower() for r in entity.get("roles") or () if isinstance(r, str))
        for child in reversed(entity.get("entities") or []):
            if isinstance(child, Mapping):
                stack.append((child, parents + roles))


_OWNER_ROLES = ("registrant", "administrative", "technical")


def parse_rdap(obj: Mapping[str, Any] | str | bytes, region: str = "US") -> RdapDomain:
    """An ``RdapDomain`` from an RDAP domain response (dict or JSON text). `region` is used for
    phone numbers without a country code. Raises RdapError for error responses and non-domain
    objects."""
    if isinstance(obj, (str, bytes, bytearray)):
        try:
            obj = json.loads(obj)
        except json.JSONDecodeError as exc:
            raise RdapError(f"invalid RDAP JSON: {exc}") from exc
    if not isinstance(obj, Mapping):
        raise RdapError("RDAP response must be an object")
    if "errorCode" in obj:
        raise RdapError(f"RDAP error {obj.get('errorCode')}: {_flat(obj.get('title'))}")
    klass = obj.get("objectClassName")
    if klass is not None and str(klass).lower() != "domain":
        raise RdapError(f"not a domain object: {klass!r}")

    contacts: list[RdapContact] = []
    registrar = registrar_id = None
    for entity, parents in _entities(obj):
        roles = tuple(str(r).lower() for r in entity.get("roles") or () if isinstance(r, str))
        if "registrar" in roles and not parents:
            c = _contact(entity, region)
            registrar = c.name or c.org or registrar
            for pid in entity.get("publicIds") or ():
                if isinstance(pid, Mapping) and "iana" in _flat(pid.get("type")).lower():
                    registrar_id = _flat(pid.get("identifier")) or None
            if registrar_id is None and entity.get("handle") and str(entity.get("handle")).isdigit():
                registrar_id = str(entity["handle"])
            continue
        if "registrar" in parents or "abuse" in roles or "reseller" in roles:
            continue  # the registrar's own contacts, not the hotel's
        contacts.append(_contact(entity, region))

    redacted_members = [r for r in obj.get("redacted") or () if isinstance(r, Mapping)]
    redacted_names = " ".join(_flat((r.get("name") or {}).get("type") if isinstance(r.get("name"), Mapping)
                                    else r.get("name")) for r in redacted_members).lower()
    owner_contacts = [c for c in contacts if any(role in _OWNER_ROLES for role in c.roles)]
    registrant = next((c for c in contacts if "registrant" in c.roles), None)
    privacy = (
        "registrant" in redacted_names
        or (registrant is not None and (registrant.redacted or "proxy" in registrant.roles))
        or any("proxy" in c.roles for c in contacts)
        or (registrant is not None and any(is_privacy_value(v) for v in (registrant.name, registrant.org) if v))
        or any(is_privacy_value(_flat(r.get("title"))) for r in obj.get("remarks") or () if isinstance(r, Mapping))
    )

    emails: dict[str, None] = {}
    phones: dict[str, None] = {}
    for role in _OWNER_ROLES:
        for c in owner_contacts:
            if role in c.roles:
                for e in c.emails:
                    emails.setdefault(e, None)
                for p in c.phones:
                    phones.setdefault(p, None)

    events: dict[str, datetime | None] = {}
    for ev in obj.get("events") or ():
        if isinstance(ev, Mapping):
            action = _flat(ev.get("eventAction")).lower()
            if action and action not in events:
                events[action] = _date(ev.get("eventDate"))
    nameservers = tuple(dict.fromkeys(
        _flat(ns.get("ldhName")).lower().rstrip(".") for ns in obj.get("nameservers") or ()
        if isinstance(ns, Mapping) and ns.get("ldhName")))
    statuses = tuple(_flat(s).lower() for s in obj.get("status") or () if s)
    domain = _flat(obj.get("ldhName") or obj.get("unicodeName")).lower().rstrip(".") or None

    reg_country = registrant.country if registrant else None
    return RdapDomain(
        domain=domain,
        registrar=registrar,
        registrar_iana_id=registrar_id,
        registrant_name=registrant.name if registrant else None,
        registrant_org=registrant.org if registrant else None,
        registrant_country=reg_country,
        emails=tuple(emails),
        phones=tuple(phones),
        created=events.get("registration"),
        updated=events.get("last changed") or events.get("last update"),
        expires=events.get("expiration"),
        nameservers=nameservers,
        statuses=statuses,
        privacy_protected=bool(privacy),
        contacts=tuple(contacts),
    )

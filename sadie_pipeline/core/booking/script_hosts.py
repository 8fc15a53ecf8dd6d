"""Hosts whose scripts and widgets are never a hotel's booking engine
(`sadie_pipeline/data/non_engine_script_hosts.json`: analytics, tag managers, chat, maps, reviews,
CDNs, fonts, payments, consent, OTA affiliate widgets, restaurant and activity booking), and the
"family" hosts of catalogued engines (a sibling of a booking subdomain such as `client.innroad.com`).

Data, not code, so that the list grows without a release of the detector.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from sadie_pipeline.core.booking.catalogue import index
from sadie_pipeline.core.booking.domains import is_non_engine_host, registrable_domain

SCRIPT_HOSTS_RESOURCE = "data/non_engine_script_hosts.json"


SHARED_HOSTING = "shared_hosting"  # tenants of a cloud or CDN: maybe an engine, never a family


@cache
def _groups() -> dict[str, frozenset[str]]:
    text = resources.files("sadie_pipeline").joinpath(SCRIPT_HOSTS_RESOURCE).read_text(encoding="utf-8")
    groups = json.loads(text)["non_engine_script_hosts"]
    return {name: frozenset(h.strip().lower() for h in hosts) for name, hosts in groups.items()}


@cache
def non_engine_script_hosts() -> frozenset[str]:
    """Every listed host (registrable domains, or deeper hosts) but the shared-hosting ones."""
    return frozenset(h for name, hosts in _groups().items() if name != SHARED_HOSTING for h in hosts)


def _listed(host: str, listed: frozenset[str]) -> bool:
    h = host.lower().rstrip(".")
    while "." in h:
        if h in listed:
            return True
        h = h.split(".", 1)[1]
    return False


def is_non_engine_script_host(host: str | None) -> bool:
    """`host` or one of its parents is listed, or the catalogue's non_engine_hosts has it."""
    if not host:
        return False
    return _listed(host, non_engine_script_hosts()) or is_non_engine_host(host)


def is_shared_hosting(host: str | None) -> bool:
    """A tenant of a cloud or CDN (`x.cloudfront.net`): its domain is nobody's brand."""
    return bool(host) and _listed(host, _groups().get(SHARED_HOSTING, frozenset()))


@cache
def engine_families() -> dict[str, int]:
    """registrable domain -> engine, for booking domains deeper than their registrable domain
    (`client.innroad.com` -> `innroad.com`), unless that domain is shared (a CDN, a cloud) or
    claimed by two engines; a catalogued registrable domain already covers its subdomains."""
    idx = index()
    families: dict[str, int] = {}
    clashes: set[str] = set()
    for i, e in enumerate(idx.engines):
        for d in e.domains:
            d = d.lstrip("*.").strip(".")
            reg = registrable_domain(d)
            if not reg or reg == d or is_non_engine_script_host(reg) or is_shared_hosting(reg):
                continue
            if families.setdefault(reg, i) != i:
                clashes.add(reg)
    return {k: v for k, v in families.items() if k not in clashes}


def engine_of_host(host: str | None) -> int | None:
    """The catalogued engine whose booking host (or a sibling of a booking subdomain) serves
    `host`; vendor marketing hosts alone do not count."""
    if not host:
        return None
    idx = index().host_engine(host)
    if idx is not None:
        return idx
    families = engine_families()
    return families.get(registrable_domain(host) or "") if families else None


@cache
def _vendor_domains() -> frozenset[str]:
    return frozenset(registrable_domain(h) or h for e in index().engines for h in e.vendor_hosts)


def is_catalogued_vendor(host: str | None) -> bool:
    """Under a catalogued vendor's domain (`cdn.agilysys.com`): a known company, so never an
    engine "nobody catalogued", though not its booking host either."""
    return bool(host) and registrable_domain(host) in _vendor_domains()

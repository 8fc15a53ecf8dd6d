"""Registrable domains (tldextract with its bundled public suffix list: no network) and the
catalogue's hosts that are never a hotel's own booking engine (OTAs, social sites)."""

from __future__ import annotations

from functools import cache, lru_cache

import tldextract

from sadie_pipeline.core.booking.catalogue import non_engine_hosts


@cache
def _extractor() -> tldextract.TLDExtract:
    # suffix_list_urls=() and no cache dir: the snapshot bundled with tldextract, never a download
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


@lru_cache(maxsize=65_536)
def registrable_domain(host: str | None) -> str | None:
    """`hotel.qc.ca` for `www.hotel.qc.ca`; an IP or a name under no public suffix (`x.test`,
    `localhost`) gives its last two labels, so that sites still compare."""
    if not host:
        return None
    host = host.strip().lower().rstrip(".")
    parts = _extractor()(host)
    if parts.suffix and parts.domain:
        return f"{parts.domain}.{parts.suffix}"
    if host.replace(".", "").isdigit():
        return host
    return ".".join(host.split(".")[-2:])


def brand_label(host: str | None) -> str | None:
    """`expedia` for `www.expedia.co.uk` (the label left of the public suffix)."""
    if not host:
        return None
    parts = _extractor()(host.strip().lower().rstrip("."))
    return parts.domain or None


def is_non_engine_host(host: str | None) -> bool:
    """An OTA, social, map, restaurant-booking or payment host (the catalogue's non_engine_hosts)."""
    domain = registrable_domain(host)
    if domain is None:
        return False
    exact, brands = non_engine_hosts()
    return domain in exact or brand_label(host) in brands

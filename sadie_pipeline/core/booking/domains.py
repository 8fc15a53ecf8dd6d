"""Registrable domains (tldextract with its bundled public suffix list: no network) and the
catalogue's hosts that are never a hotel's own booking engine (OTAs, social sites)."""

from __future__ import annotations

from sadie_pipeline.core.booking.catalogue import non_engine_hosts
from sadie_pipeline.core.normalize import registrable_domain, suffix_extractor

__all__ = ["brand_label", "is_non_engine_host", "registrable_domain"]


def brand_label(host: str | None) -> str | None:
    """`expedia` for `www.expedia.co.uk` (the label left of the public suffix)."""
    if not host:
        return None
    parts = suffix_extractor()(host.strip().lower().rstrip("."))
    return parts.domain or None


def is_non_engine_host(host: str | None) -> bool:
    """An OTA, social, map, restaurant-booking or payment host (the catalogue's non_engine_hosts)."""
    domain = registrable_domain(host)
    if domain is None:
        return False
    exact, brands = non_engine_hosts()
    return domain in exact or brand_label(host) in brands

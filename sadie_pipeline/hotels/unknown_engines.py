"""The uncatalogued booking hosts detection has seen (tier `unknown`, hotels sent to review), with
how many hotels use each and sample pages: what `data/booking_engines.json` should learn next
(`sadie hotel engines`)."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels import queries


@dataclass(frozen=True)
class UnknownHost:
    host: str
    hotels: int
    waiting: int  # of those, still waiting for review (status 98)
    pages: tuple[str, ...]  # pages it was seen on (a followed booking page, else the website)
    example: str | None  # one booking or script URL on the host
    total: int  # hosts before the limit


def unknown_hosts(conn: psycopg.Connection, regions: list[str] | None = None, limit: int | None = None,
                  samples: int = 3) -> list[UnknownHost]:
    """Unknown booking hosts, most hotels first (ties by host), `limit` of them (None: all)."""
    rows = queries.run(conn, "unknown_engines", "unknown_hosts", {
        "regions": [r.upper() for r in regions] if regions else None, "limit": limit,
        "samples": max(1, samples), "review": int(HotelStatus.ENGINE_REVIEW),
    }).fetchall()
    return [UnknownHost(host, hotels, waiting, tuple(pages or ()), example, total)
            for host, hotels, waiting, pages, example, total in rows]


def describe(hosts: list[UnknownHost]) -> list[str]:
    """Readable lines: hotels, waiting, host, then its sample pages and example URL indented."""
    lines = []
    for h in hosts:
        lines.append(f"{h.hotels:>6} hotels  {h.waiting:>6} waiting  {h.host}")
        lines.extend(f"          page     {p}" for p in h.pages)
        if h.example:
            lines.append(f"          example  {h.example}")
    total = hosts[0].total if hosts else 0
    shown = f" (showing {len(hosts)})" if len(hosts) < total else ""
    lines.append(f"{total} unknown booking hosts{shown}")
    return lines

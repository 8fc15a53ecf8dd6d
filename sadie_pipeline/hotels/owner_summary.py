"""What the owner layers found in a region, in a person's words (the demo prints it; so can
`sadie hotels`): each layer's completed count, the owners and managers named and where from, and
how far their addresses were verified."""

from __future__ import annotations

from collections import Counter
from typing import Any

import psycopg

from sadie_pipeline.core.enrichment.layers import ALL_LAYERS, OWNER_LAYERS
from sadie_pipeline.hotels.queries import run

VERIFIED = ("verified_smtp", "verified_o365")


def owner_summary(conn: psycopg.Connection, region: str) -> dict[str, Any]:
    """{"hotels", "layers": {layer: completed}, "people", "hotels_with_people", "sources",
    "email_states", "verified": [(hotel, name, title, email, status)]} for the region's tier-1 hotels."""
    masks = [m for (m,) in run(conn, "owner_summary", "layers_completed", {"region": region})]
    layers = {name: sum(1 for m in masks if m & bit) for name, bit in ALL_LAYERS.items() if bit & OWNER_LAYERS}
    cur = run(conn, "owner_summary", "people", {"region": region})
    names = [d.name for d in cur.description]
    people = [dict(zip(names, r)) for r in cur.fetchall()]
    sources = Counter(s for p in people for s in p["sources"] or [])
    states = Counter(p["email_status"] or "unchecked" for p in people if p["email"])
    verified = [(p["hotel"], p["full_name"], p["title"], p["email"], p["email_status"])
                for p in people if p["email_verified"] and p["email_status"] in VERIFIED]
    return {"hotels": len(masks), "layers": layers, "people": len(people),
            "hotels_with_people": len({p["hotel"] for p in people}), "sources": dict(sources.most_common()),
            "email_states": dict(states.most_common()), "verified": verified}


def owner_lines(summary: dict[str, Any], examples: int = 5) -> list[str]:
    """The summary as the demo prints it."""
    layers = ", ".join(f"{name} {count}" for name, count in summary["layers"].items())
    lines = [f"  layers completed (of {summary['hotels']} tier-1 hotels): {layers}",
             f"  {summary['people']} owners and managers named at {summary['hotels_with_people']} hotels; found by "
             + (", ".join(f"{s} {n}" for s, n in summary["sources"].items()) or "no source"),
             "  addresses: " + (", ".join(f"{s} {n}" for s, n in summary["email_states"].items()) or "none")]
    for hotel, name, title, email, status in summary["verified"][:examples]:
        lines.append(f"    {hotel}: {name}{f' ({title})' if title else ''} <{email}> {status}")
    return lines

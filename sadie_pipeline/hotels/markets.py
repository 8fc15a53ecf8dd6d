"""Markets: the cities to discover hotels in, per region."""

from __future__ import annotations

from collections.abc import Sequence

import psycopg

from sadie_pipeline.regions import check_region


def add_market(conn: psycopg.Connection, region: str, cities: Sequence[str]) -> list[str]:
    """Adds (or re-activates) cities of a region; returns the region's active cities."""
    region = check_region(region)
    for city in cities:
        name = " ".join(city.split())
        if name:
            conn.execute(
                """INSERT INTO sadie_gtm.markets (region, city) VALUES (%s, %s)
                   ON CONFLICT (region, city) DO UPDATE SET active = true""",
                (region, name),
            )
    return market_cities(conn, region)


def market_cities(conn: psycopg.Connection, region: str) -> list[str]:
    return [r[0] for r in conn.execute(
        "SELECT city FROM sadie_gtm.markets WHERE region = %s AND active ORDER BY city", (region,))]


def list_markets(conn: psycopg.Connection) -> dict[str, list[str]]:
    markets: dict[str, list[str]] = {}
    for region, city in conn.execute("SELECT region, city FROM sadie_gtm.markets WHERE active ORDER BY region, city"):
        markets.setdefault(region, []).append(city)
    return markets

"""Hotels as the enrichment layers leave them, written straight into the tables, for the tests
of golden records, scores, launches and exports."""

from __future__ import annotations

import json
from typing import Any

import psycopg

from sadie_pipeline.core.enrichment.layers import ENRICHED_REQUIRED, OWNER_LAYERS
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.websites import seed_booking_engines

TIER1_ENGINE = "Cloudbeds"
TIER2_ENGINE = "Sabre SynXis"


def add_hotel(conn: psycopg.Connection, name: str, *, region: str = "US-FL", city: str = "Miami",
              status: int = HotelStatus.ENRICHED, engine: str = TIER1_ENGINE, website: str | None = None,
              sources: dict[str, dict[str, Any]] | None = None, enrichment: dict[str, Any] | None = None,
              people: list[dict[str, Any]] | None = None, rating: float | None = 4.5,
              review_count: int | None = 320) -> int:
    """A hotel with its discovery source records ({source: record}), its enrichment row and its
    decision makers; returns its id."""
    engines = seed_booking_engines(conn)
    slug = name.lower().replace(" ", "")
    website = website if website is not None else f"https://www.{slug}.com/"
    hotel_id = conn.execute(
        """INSERT INTO sadie_gtm.hotels (region, city, name, state, website, rating, review_count, status)
           VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id""",
        (region, city, name, region.split("-")[1], website, rating, review_count, status)).fetchone()[0]
    conn.execute("""INSERT INTO sadie_gtm.hotel_booking_engines (hotel_id, booking_engine_id, booking_url,
                                                                 detection_method, confidence)
                    VALUES (%s, %s, %s, 'script_src', 0.9)""",
                 (hotel_id, engines[engine], f"https://hotels.cloudbeds.com/reservation/{slug}"))
    for source, record in (sources or {"serper": {"name": name, "city": city, "website": website,
                                                   "rating": rating, "review_count": review_count}}).items():
        conn.execute("""INSERT INTO sadie_gtm.hotel_sources (region, city, source, external_id, hotel_id, record)
                        VALUES (%s, %s, %s, %s, %s, %s)""",
                     (region, city, source, f"{source}:{slug}", hotel_id, json.dumps({"city": city, **record})))
    values = {"room_count": 40, "room_count_source": "groq", "nearest_attraction": "Beach",
              "nearest_attraction_km": 0.6, "attractions_by_radius": {"1": 2, "5": 8, "10": 12},
              "property_type": "boutique hotel", "chain_or_independent": "independent", **(enrichment or {})}
    stamp = json.dumps({k: "2026-11-20T10:00:00+00:00" for k in (
        "room_counts", "attraction_proximity", "hotel_research", "rdap_owner", "website_contacts")})
    conn.execute(
        """INSERT INTO sadie_gtm.hotel_owner_enrichment
               (hotel_id, layers_completed, room_count, room_count_source, nearest_attraction, nearest_attraction_km,
                attractions_by_radius, property_type, chain_or_independent, management_company, registrant_org,
                layer_updated_at)
           VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)""",
        (hotel_id, ENRICHED_REQUIRED | OWNER_LAYERS, values["room_count"], values["room_count_source"],
         values["nearest_attraction"], values["nearest_attraction_km"], json.dumps(values["attractions_by_radius"]),
         values["property_type"], values["chain_or_independent"], values.get("management_company"),
         values.get("registrant_org"), stamp))
    for person in people or []:
        conn.execute(
            """INSERT INTO sadie_gtm.hotel_decision_makers
                   (hotel_id, full_name, title, email, email_status, email_verified, phone, sources, confidence,
                    raw_source_url)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)""",
            (hotel_id, person["full_name"], person.get("title", ""), person.get("email"), person.get("email_status"),
             person.get("email_verified", False), person.get("phone"), person.get("sources", ["website_scrape"]),
             person.get("confidence", 0.7), person.get("raw_source_url", f"{website}team")))
    return hotel_id

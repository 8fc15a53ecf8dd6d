"""Rows for web tests, written as the pipeline writes them (public and staging tables)."""

from __future__ import annotations

from typing import Any

import psycopg

from sadie_pipeline.listings.repository import upsert_dmo


def add_dmo(conn: psycopg.Connection, slug: str, name: str | None = None) -> int:
    return upsert_dmo(conn, slug, name or slug.title(), {}).id


def add_listing(conn: psycopg.Connection, dmo_id: int, name: str, city: str = "Charlottetown",
                visible: bool = True, category: str | None = "restaurant") -> tuple[int, int]:
    """A canonical listing with one DMO record; returns (listing id, listing_info id)."""
    location = conn.execute("INSERT INTO public.locations (address1, city, state, country, lat, lng) "
                            "VALUES ('1 Main St', %s, 'PE', 'CA', 46.23, -63.13) RETURNING id", (city,)).fetchone()[0]
    listing = conn.execute("INSERT INTO public.listings (name, category, location_id, listing_visible, listing_status) "
                           "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                           (name, category, location, visible, "active" if visible else "missing_from_import")).fetchone()[0]
    contact = conn.execute("INSERT INTO public.contact_info (email, local_phone, website_url) "
                           "VALUES ('hi@example.com', '+19025550100', 'https://example.com') RETURNING id").fetchone()[0]
    info = conn.execute("INSERT INTO public.listing_info (listing_id, dmo_id, description, contact_info_id, info_visible, "
                        "info_status, external_source_id) VALUES (%s, %s, 'A place.', %s, %s, %s, %s) RETURNING id",
                        (listing, dmo_id, contact, visible, "active" if visible else "missing_from_import",
                         f"src-{listing}")).fetchone()[0]
    return listing, info


def add_job(conn: psycopg.Connection, dmo_id: int, stage: str = "staged") -> int:
    return conn.execute("INSERT INTO pipeline.jobs (dmo_id, status, stage, source_key, source_name, records_read) "
                        "VALUES (%s, 'succeeded', %s, 'inbox/x/' || gen_random_uuid(), 'file.csv', 1) RETURNING id",
                        (dmo_id, stage)).fetchone()[0]


def add_pending(conn: psycopg.Connection, job_id: int, dmo_id: int, name: str, target: int | None = None,
                reason: str = "fuzzy match to listing 1 with certainty 0.6", **extra: Any) -> int:
    row = conn.execute(
        "INSERT INTO staging.listings (job_id, dmo_id, rec_num, source_id, name, city, target_listing_id, "
        "match_method, certainty_score, action, l_action, li_action, review_status, review_reason, match_explanation) "
        "VALUES (%s, %s, 1, gen_random_uuid()::text, %s, 'Charlottetown', %s, 'fuzzy', 0.6, %s, %s, %s, 'pending', "
        "%s, %s) RETURNING id",
        (job_id, dmo_id, name, target, extra.get("action", "update"), "update", "update", reason,
         psycopg.types.json.Jsonb({"name": {"level": "similar", "weight": 4.2},
                                   "phone": {"level": "different", "weight": -3.1}}))).fetchone()[0]
    conn.execute("INSERT INTO staging.listing_info (id, job_id, description) VALUES (%s, %s, 'Staged text.')",
                 (row, job_id))
    return row

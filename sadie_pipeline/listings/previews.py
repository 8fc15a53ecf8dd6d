"""Small previews of each stage's data, as markdown tables for the asset metadata."""

from __future__ import annotations

from itertools import islice

import psycopg
from dagster import MetadataValue

from sadie_pipeline.listings.raw_files import iter_jsonl_gz
from sadie_pipeline.listings.repository import Dmo
from sadie_pipeline.metadata import markdown_table
from sadie_pipeline.resources.object_store import ObjectStore

PREVIEW_ROWS = 10


def raw_preview(store: ObjectStore, key: str) -> MetadataValue:
    records = list(islice(iter_jsonl_gz(store, key), PREVIEW_ROWS))
    if not records:
        return MetadataValue.text("empty")
    columns = list(records[0])[:8]
    return markdown_table(columns, ([r.get(c) for c in columns] for r in records))


def staged_preview(conn: psycopg.Connection, job_id: int) -> MetadataValue:
    rows = conn.execute(
        """SELECT s.id, s.rec_num, coalesce(s.name, d.name), coalesce(s.city, d.city), s.action, s.match_method,
                  s.certainty_score, s.target_listing_id, s.review_reason
             FROM (SELECT * FROM staging.listings WHERE job_id = %s
                    ORDER BY (action = 'unchanged'), rec_num NULLS LAST LIMIT %s) s
             LEFT JOIN staging.listings d ON d.id = s.reused_from  -- thin rows' data
            ORDER BY (s.action = 'unchanged'), s.rec_num NULLS LAST""",
        (job_id, PREVIEW_ROWS),
    ).fetchall()
    return markdown_table(("id", "rec", "name", "city", "action", "match", "certainty", "listing", "review"), rows)


def errors_preview(conn: psycopg.Connection, job_id: int) -> MetadataValue:
    rows = conn.execute(
        "SELECT rec_num, error_type, error_message FROM pipeline.job_errors WHERE job_id = %s ORDER BY rec_num LIMIT %s",
        (job_id, PREVIEW_ROWS),
    ).fetchall()
    return markdown_table(("rec", "type", "reason"), rows, max_width=80) if rows else MetadataValue.text("no errors")


def live_preview(conn: psycopg.Connection, dmo: Dmo) -> MetadataValue:
    """The DMO's most recently updated listings: the first rows of listing_info_dmo_updated_idx,
    then their listing and location (l.id = li.listing_id: the same order as by listing id)."""
    rows = conn.execute(
        """SELECT l.id, l.name, loc.city, li.info_status, li.last_seen_at
             FROM (SELECT listing_id, info_status, last_seen_at, updated_at FROM public.listing_info
                    WHERE dmo_id = %s ORDER BY updated_at DESC, listing_id LIMIT %s) li
             JOIN public.listings l ON l.id = li.listing_id
             LEFT JOIN public.locations loc ON loc.id = l.location_id
            ORDER BY li.updated_at DESC, li.listing_id""",
        (dmo.id, PREVIEW_ROWS),
    ).fetchall()
    return markdown_table(("listing", "name", "city", "status", "last seen"), rows)

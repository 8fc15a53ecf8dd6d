"""Small previews of each stage's data, as markdown tables for the asset metadata."""

from __future__ import annotations

from itertools import islice

import psycopg
from dagster import MetadataValue

from sadie_pipeline.core.categories import group_of
from sadie_pipeline.listings.queries import sql
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
    rows = conn.execute(sql("previews", "staged"), {"job": job_id, "rows": PREVIEW_ROWS}).fetchall()
    return markdown_table(("id", "rec", "name", "city", "action", "match", "certainty", "listing", "review"), rows)


def errors_preview(conn: psycopg.Connection, job_id: int) -> MetadataValue:
    rows = conn.execute(sql("previews", "errors"), {"job": job_id, "rows": PREVIEW_ROWS}).fetchall()
    return markdown_table(("rec", "type", "reason"), rows, max_width=80) if rows else MetadataValue.text("no errors")


def live_preview(conn: psycopg.Connection, dmo: Dmo) -> MetadataValue:
    """The DMO's most recently updated listings."""
    rows = conn.execute(sql("previews", "live"), {"dmo": dmo.id, "rows": PREVIEW_ROWS}).fetchall()
    return markdown_table(("listing", "name", "city", "status", "last seen"), rows)


def category_counts(conn: psycopg.Connection, job_id: int) -> tuple[dict[str, int], dict[str, int]]:
    """(records per vocabulary group, records per unmapped source value) of the job's transformed
    records: an unmapped value is one to add to the DMO's transform.category_map."""
    groups: dict[str, int] = {}
    unmapped: dict[str, int] = {}
    for category, count in conn.execute(sql("previews", "categories"), {"job": job_id}):
        group = group_of(category)
        if group is None:
            unmapped[category] = count
        else:
            groups[group] = groups.get(group, 0) + count
    return groups, unmapped

"""Promote: approved staged rows into the public tables, all or nothing, idempotent."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psycopg

from sadie_pipeline.core.config import merge_policy_for
from sadie_pipeline.listings import promote_sql as sql
from sadie_pipeline.listings.repository import Dmo, dmo_config, trusted_inserts_allowed, without_row_triggers
from sadie_pipeline.resources.database import Database

# public table -> (alias in the UPDATE, alias of the staged source, [(public column, staged column)])
_MERGED_COLUMNS: dict[str, tuple[str, str, list[tuple[str, str]]]] = {
    "listings": ("l", "s", [("name", "name"), ("category", "category"), ("google_place_id", "google_place_id")]),
    "locations": ("loc", "s", [(c, c) for c in ("address1", "address2", "city", "state", "zip", "country", "lat", "lng")]),
    "contact_info": ("c", "i", [("name", "contact_name")] + [(c, c) for c in (
        "email", "local_phone", "international_phone", "website_url", "facebook_url", "instagram_url",
        "twitter_url", "tripadvisor_url")]),
    "listing_info": ("li", "i", [("description", "description")]),
}


def set_clause(table: str, policy: str) -> str:
    """latest_wins: the staged value; field_level_merge: the staged value unless empty;
    skip_if_exists: the public value stays."""
    alias, src, columns = _MERGED_COLUMNS[table]
    if policy == "latest_wins":
        return ", ".join(f"{col} = {src}.{staged}" for col, staged in columns)
    if policy == "field_level_merge":
        return ", ".join(f"{col} = coalesce({src}.{staged}, {alias}.{col})" for col, staged in columns)
    return ", ".join(f"{col} = {alias}.{col}" for col, _ in columns)


@dataclass
class PromoteResult:
    promoted: dict[str, int] = field(default_factory=dict)
    jobs: list[int] = field(default_factory=list)
    waiting_for_review: int = 0
    live_listings: int = 0


def promote_dmo(db: Database, dmo: Dmo) -> PromoteResult:
    """Everything staged for the DMO that may be promoted, in one transaction."""
    with db.connect() as conn:
        config = dmo_config(conn, dmo)
        params = {"dmo": dmo.id}
        conn.execute("SET LOCAL work_mem = '64MB'")
        conn.execute(sql.SELECT_BATCH, params)
        conn.execute(sql.RESOLVE_DUPLICATES_FIRST, params)
        conn.execute("ANALYZE promo")
        sets = {t: set_clause(t, merge_policy_for(config, t)) for t in _MERGED_COLUMNS}
        trusted = trusted_inserts_allowed(conn, sql.TRUSTED_TABLES)
        if trusted and not conn.execute(sql.LOCK_EXISTING_PARENTS, params).fetchone()[0]:
            raise psycopg.errors.ForeignKeyViolation("foreign key: a parent row the batch refers to is gone")
        inserts = {sql.INSERT_LISTINGS, sql.INSERT_LISTING_INFO, *(s for s in sql.REPLACE_CHILDREN if s.lstrip().startswith("INSERT"))}
        for stmt in (
            sql.ALLOCATE_IDS, sql.INSERT_LOCATIONS, sql.INSERT_LISTINGS, sql.DUPLICATE_TARGETS,
            sql.UPDATE_LOCATIONS.format(locations_set=sets["locations"]),
            sql.UPDATE_LISTINGS.format(listings_set=sets["listings"]),
            sql.INSERT_CONTACTS, sql.INSERT_LISTING_INFO,
            sql.UPDATE_CONTACTS.format(contact_info_set=sets["contact_info"]),
            *sql.CHANGED_CHILDREN, *sql.REPLACE_CHILDREN,
            sql.UPDATE_LISTING_INFO.format(listing_info_set=sets["listing_info"]),
            *sql.TOUCH_UNCHANGED, *sql.SOFT_DELETES,
        ):
            if trusted and stmt in inserts:
                with without_row_triggers(conn):
                    conn.execute(stmt, params)
            else:
                conn.execute(stmt, params)
        if trusted and (missing := conn.execute(sql.MISSING_PARENTS).fetchone()[0]):
            raise psycopg.errors.ForeignKeyViolation(f"foreign key: {missing} promoted rows refer to a missing parent row")
        if config["promote"].get("update_bridge_table", True):
            for stmt in sql.UPSERT_BRIDGE:
                conn.execute(stmt, params)
        for stmt in sql.MARK_PROMOTED:
            conn.execute(stmt, params)
        result = PromoteResult(promoted=dict(conn.execute(sql.PROMOTED_COUNTS).fetchall()))
        result.jobs = [r[0] for r in conn.execute("SELECT DISTINCT job_id FROM promo ORDER BY 1")]
        conn.execute(sql.JOB_RESULTS, params)
        conn.execute(sql.MARK_JOBS, params)
        conn.execute("DROP TABLE promo")
        result.waiting_for_review = conn.execute(
            "SELECT count(*) FROM staging.listings WHERE dmo_id = %s AND review_status = 'pending'", (dmo.id,)
        ).fetchone()[0]
        result.live_listings = live_listing_count(conn, dmo)
    return result


def live_listing_count(conn: psycopg.Connection, dmo: Dmo) -> int:
    return conn.execute(
        """SELECT count(*) FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
            WHERE li.dmo_id = %s AND li.info_visible AND l.listing_visible""",
        (dmo.id,),
    ).fetchone()[0]


def job_summary(conn: psycopg.Connection, job_id: int) -> dict[str, Any]:
    """The per-job figures the CLI and the demo print."""
    row = conn.execute(
        """SELECT j.records_read,
                  count(*) FILTER (WHERE s.action = 'insert'), count(*) FILTER (WHERE s.action = 'update'),
                  count(*) FILTER (WHERE s.action = 'unchanged'), count(*) FILTER (WHERE s.action = 'duplicate'),
                  count(*) FILTER (WHERE s.action = 'delete'), count(*) FILTER (WHERE s.review_status = 'pending'),
                  (SELECT count(*) FROM pipeline.job_errors e WHERE e.job_id = j.id),
                  count(*) FILTER (WHERE s.action = 'update' AND s.promoted_at IS NOT NULL),
                  count(*) FILTER (WHERE s.action = 'delete' AND s.promoted_at IS NOT NULL)
             FROM pipeline.jobs j LEFT JOIN staging.listings s ON s.job_id = j.id
            WHERE j.id = %s GROUP BY j.id""",
        (job_id,),
    ).fetchone()
    keys = ("records_read", "inserted", "updated", "unchanged", "duplicate", "deleted", "needing_review", "errors",
            "updates_promoted", "deletes_promoted")
    return dict(zip(keys, row)) if row else {}

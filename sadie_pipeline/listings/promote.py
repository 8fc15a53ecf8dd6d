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


@dataclass
class _Batch:
    """How many rows of the batch need each kind of work (from BATCH_SHAPE)."""
    actions: dict[str, int] = field(default_factory=dict)
    jobs: list[int] = field(default_factory=list)
    l_insert: int = 0
    l_update: int = 0
    li_insert: int = 0
    li_update: int = 0
    li_touch: int = 0
    duplicates: int = 0
    deletes: int = 0
    listing_deletes: int = 0
    bridged: int = 0

    @classmethod
    def read(cls, conn: psycopg.Connection) -> _Batch:
        batch, jobs = cls(), set()
        for job_id, action, l_action, li_action, not_by_source_id, n in conn.execute(sql.BATCH_SHAPE):
            jobs.add(job_id)
            batch.actions[action] = batch.actions.get(action, 0) + n
            batch.l_insert += n * (l_action == "insert")
            batch.l_update += n * (l_action == "update")
            batch.li_insert += n * (li_action == "insert")
            batch.li_update += n * (li_action == "update")
            batch.li_touch += n * (li_action == "unchanged")
            batch.duplicates += n * (action == "duplicate")
            batch.deletes += n * (action == "delete")
            batch.listing_deletes += n * (action == "delete" and l_action == "delete")
            batch.bridged += n * (action is not None and action != "delete" and bool(not_by_source_id))
        batch.jobs = sorted(jobs)
        return batch


def promote_dmo(db: Database, dmo: Dmo) -> PromoteResult:
    """Everything staged for the DMO that may be promoted, in one transaction."""
    with db.connect() as conn:
        config = dmo_config(conn, dmo)
        params: dict[str, Any] = {"dmo": dmo.id}
        conn.execute("SET LOCAL work_mem = '64MB'")
        conn.execute("SET LOCAL jit = off")  # plain row processing: compiling costs more than it saves
        # promo is read by most statements: kept in memory (the default, 8 MB, spills a 100k-row
        # batch to a temporary file that every statement reads back). Possible until the session's
        # first temporary table.
        conn.execute("SET LOCAL temp_buffers = '128MB'")
        conn.execute(sql.PROMO_TABLE)
        # The staged jobs, locked until commit (in id order, as staging locks older jobs): a
        # concurrent promotion of the DMO, or staging superseding older rows, waits for this one and
        # finds them promoted (TAKE_THIN does not mark their thin rows: they would be taken again,
        # or superseded).
        params["staged_jobs"] = [r[0] for r in conn.execute(
            "SELECT id FROM pipeline.jobs WHERE dmo_id = %s AND stage = 'staged' ORDER BY id FOR NO KEY UPDATE",
            (dmo.id,))]
        conn.execute(sql.TAKE_THIN, params)
        conn.execute(sql.TAKE_BATCH, params)
        batch = _Batch.read(conn)
        result = PromoteResult(promoted=dict(batch.actions), jobs=batch.jobs)
        if batch.jobs:
            conn.execute("SET LOCAL default_statistics_target = 10")  # row counts per action are all the plans need
            conn.execute("ANALYZE promo")
            _apply(conn, config, batch, params)
            params["jobs"] = batch.jobs
            conn.execute(sql.JOB_RESULTS, params)
            conn.execute(sql.MARK_JOBS, params)
        conn.execute("DROP TABLE promo")
        result.waiting_for_review = conn.execute(
            "SELECT count(*) FROM staging.listings WHERE dmo_id = %s AND review_status = 'pending'", (dmo.id,)
        ).fetchone()[0]
        result.live_listings = live_listing_count(conn, dmo)
    return result


def _apply(conn: psycopg.Connection, config: dict[str, Any], b: _Batch, params: dict[str, Any]) -> None:
    """The batch's inserts, updates and soft deletes; each statement only when some row needs it."""
    sets = {t: set_clause(t, merge_policy_for(config, t)) for t in _MERGED_COLUMNS}
    trusted = (b.l_insert or b.li_insert or b.li_update) and trusted_inserts_allowed(conn, sql.TRUSTED_TABLES)
    if trusted and not conn.execute(sql.LOCK_EXISTING_PARENTS, params).fetchone()[0]:
        raise psycopg.errors.ForeignKeyViolation("foreign key: a parent row the batch refers to is gone")

    def insert(stmt: str) -> psycopg.Cursor:
        if trusted:
            with without_row_triggers(conn):
                return conn.execute(stmt, params)
        return conn.execute(stmt, params)

    # Parents created here, as (rows needed, rows written); checked when the row triggers are skipped.
    created: list[tuple[int, int]] = []
    if b.l_insert:
        created.append((b.l_insert, conn.execute(sql.INSERT_LOCATIONS, params).rowcount))
        created.append((b.l_insert, insert(sql.INSERT_LISTINGS).rowcount))
    if b.duplicates:
        for stmt in sql.DUPLICATE_TARGETS:
            conn.execute(stmt, params)
    if b.l_update:
        conn.execute(sql.UPDATE_LOCATIONS.format(locations_set=sets["locations"]), params)
        conn.execute(sql.UPDATE_LISTINGS.format(listings_set=sets["listings"]), params)
    if b.li_insert:
        created.append((b.li_insert, conn.execute(sql.INSERT_CONTACTS, params).rowcount))
        created.append((b.li_insert, insert(sql.INSERT_LISTING_INFO).rowcount))
    if b.li_update:
        conn.execute(sql.UPDATE_CONTACTS.format(contact_info_set=sets["contact_info"]), params)
        for stmt in sql.REPLACED_CHILDREN:
            conn.execute(stmt, params)
    if b.li_insert or b.li_update:
        replaced = "replaced_children" if b.li_update else sql.NO_REPLACED_CHILDREN
        dates_needed, dates_written = insert(sql.INSERT_CHILDREN.format(replaced=replaced)).fetchone()
        created.append((dates_needed, dates_written))
    if b.li_update or b.l_update:
        conn.execute(sql.UPDATE_LISTING_INFO.format(listing_info_set=sets["listing_info"]), params)
    if b.li_touch:
        conn.execute(sql.TOUCH_UNCHANGED_INFO, params)
    if b.deletes:
        conn.execute(sql.SOFT_DELETE_INFO, params)
    if b.listing_deletes:
        conn.execute(sql.SOFT_DELETE_LISTINGS, params)
    if trusted and (missing := sum(max(needed - written, 0) for needed, written in created)):
        raise psycopg.errors.ForeignKeyViolation(f"foreign key: {missing} promoted rows refer to a missing parent row")
    if b.bridged and config["promote"].get("update_bridge_table", True):
        if conn.execute(sql.UPSERT_BRIDGE, params).fetchone()[0]:
            conn.execute(sql.UPDATE_BRIDGE, params)


def live_listing_count(conn: psycopg.Connection, dmo: Dmo) -> int:
    """Visible listing_info rows of the DMO whose listing is visible too. Every listing_info has
    its listing (foreign key), so that is: whose listing is not among the hidden ones, which
    listings_hidden_idx holds (a handful) instead of one listing fetched per row."""
    return conn.execute(
        """SELECT count(*) FROM public.listing_info li
            WHERE li.dmo_id = %s AND li.info_visible
              AND NOT EXISTS (SELECT 1 FROM public.listings l WHERE l.id = li.listing_id AND NOT l.listing_visible)""",
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

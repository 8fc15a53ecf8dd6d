"""Promote: approved staged rows into the public tables, all or nothing.

Promotions of different DMOs run at the same time; only their last step takes the promotions'
lock, one at a time (but for the last tries of one rolled back again and again, which hold it
throughout): the records that create listings are matched again against the listings
other promotions committed meanwhile, the few that another created join its listing, and the
transaction commits. Serialising only that step (not the whole transaction, nor locks per
blocking key, which DMOs sharing 30 % of their places would all take together) keeps "concurrent
promotions end as if run one after the other, in the order of their commits"; an unsure match
there, or a deadlock, rolls back and runs again. benchmarks/promotion_locks.py measures it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg

from sadie_pipeline.core.config import merge_policy_for
from sadie_pipeline.core.matching import Match, MatchRecord, better_matches, lookup_keys
from sadie_pipeline.core.places.index import MAX_BLOCK, NAME_BLOCK
from sadie_pipeline.listings import dmo_model, job_queue, trusted
from sadie_pipeline.listings.locks import Holder, LockSpace, holding_dmo
from sadie_pipeline.listings.matching import judge, rematch_new_records, rematch_records, save_rematches
from sadie_pipeline.listings.queries import run, sql, tune
from sadie_pipeline.listings.repository import Dmo, job_config
from sadie_pipeline.listings.states import Action
from sadie_pipeline.resources.database import Database

_POLICY_TABLES = ("listings", "locations", "contact_info", "listing_info")
# Tries of the last step before its re-match runs under the lock: each lets the lock go when
# another promotion committed listings meanwhile (module docstring).
_LAST_STEP_TRIES = 4
# Tries of a whole promotion, each rolled back for a record the last step found needing a person.
# The last _ALONE_TRIES hold the promotions' lock throughout, so that nothing can come meanwhile:
# with many DMOs promoting shared places, a large promotion could lose that race every time.
_TRIES = 5
_ALONE_TRIES = 3
# A last try's wait for a row lock: another promotion holding the row may be waiting for the lock
# this try holds, a deadlock PostgreSQL cannot see (the lock is on another session); it ends it.
_ALONE_LOCK_TIMEOUT = "30s"


@dataclass
class PromoteResult:
    promoted: dict[str, int] = field(default_factory=dict)
    jobs: list[int] = field(default_factory=list)  # the staged jobs promoted now
    decided_jobs: list[int] = field(default_factory=list)  # earlier jobs whose rows people decided on went now
    blocked: list[job_queue.StagedJob] = field(default_factory=list)  # failed their error-rate check
    accepted: list[int] = field(default_factory=list)  # jobs whose errors were accepted now
    waiting_for_review: int = 0
    live_listings: int = 0
    state_version: str = ""  # of the DMO's public listings after it: unchanged when it changed none


@dataclass
class _Batch:
    """How many rows of the batch need each kind of work (from batch_shape)."""
    actions: dict[str, int] = field(default_factory=dict)
    jobs: list[int] = field(default_factory=list)
    l_insert: int = 0
    l_update: int = 0
    li_insert: int = 0
    li_update: int = 0
    li_touch: int = 0
    duplicates: int = 0
    deletes: int = 0
    bridged: int = 0
    fuzzy_joins: int = 0  # rows joining a listing by a fuzzy match (batch_shape)

    @classmethod
    def read(cls, conn: psycopg.Connection) -> _Batch:
        batch, jobs = cls(), set()
        for job_id, action, l_action, li_action, not_by_source_id, fuzzy_join, n in run(conn, "promote", "batch_shape"):
            jobs.add(job_id)
            batch.actions[action] = batch.actions.get(action, 0) + n
            batch.l_insert += n * (l_action == Action.INSERT)
            batch.l_update += n * (l_action == Action.UPDATE)
            batch.li_insert += n * (li_action == Action.INSERT)
            batch.li_update += n * (li_action == Action.UPDATE)
            batch.li_touch += n * (li_action == Action.UNCHANGED)
            batch.duplicates += n * (action == Action.DUPLICATE)
            batch.deletes += n * (action == Action.DELETE)
            batch.bridged += n * (action is not None and action != Action.DELETE and bool(not_by_source_id))
            batch.fuzzy_joins += n * bool(fuzzy_join)
        batch.jobs = sorted(jobs)
        return batch


def promote_dmo(db: Database, dmo: Dmo, *, run_key: str | None = None, accept_errors_by: str | None = None,
                log: Callable[[str], None] = lambda m: None) -> PromoteResult:
    """The promotion step: under the DMO's lock, the staged jobs of the run (run_key) that it meant to
    promote, or, for a promotion of its own (no job of the run), every staged job of the DMO; and rows
    people decided on. A job whose stage failed its error-rate check is left out unless
    accept_errors_by names who accepts its errors."""
    with holding_dmo(db, dmo.id, dmo.slug, "promote", log) as holder:
        job_queue.reap_dead_jobs(db, holder, dmo.id, f"by the promotion of {dmo.slug}")
        own = job_queue.run_jobs(db, dmo.id, run_key)
        staged = job_queue.jobs_to_promote(db, dmo.id, max(own) if own else None, every=not own)
        blocked = [j.id for j in staged if not j.allowed]
        accepted = _accept_errors(db, blocked, accept_errors_by) if accept_errors_by and blocked else []
        result = promote_jobs(db, holder, dmo, [j.id for j in staged if j.allowed or j.id in accepted])
        result.blocked, result.accepted = [j for j in staged if not j.allowed and j.id not in accepted], accepted
        return result


def promote_before(db: Database, holder: Holder, dmo: Dmo, job_id: int) -> list[int]:
    """Before a stage takes job_id: the staged jobs before it that their runs meant to promote and
    that passed their check, promoted (what those runs' promotion steps would have done next)."""
    staged = [j.id for j in job_queue.jobs_to_promote(db, dmo.id, job_id - 1, every=False) if j.allowed]
    return promote_jobs(db, holder, dmo, staged).jobs if staged else []


def _accept_errors(db: Database, jobs: list[int], by: str) -> list[int]:
    """The errors of these jobs (the blocked ones this promotion takes) accepted, by whom and when."""
    with db.connect() as conn:
        return [r[0] for r in conn.execute(sql("jobs", "accept_errors"), {"jobs": jobs, "by": by})]


def promote_jobs(db: Database, holder: Holder, dmo: Dmo, staged_jobs: list[int]) -> PromoteResult:
    """Promotes the staged jobs and the rows people decided on, in one transaction. Only its last
    step holds the promotions' lock (module docstring). Should a record there need a person, or the
    transaction meet another promotion's in a deadlock, it is rolled back and done again: its first
    re-match then sees what the last step saw. The last tries hold the lock throughout, waiting for a
    row lock at most _ALONE_LOCK_TIMEOUT (a promotion waiting for the lock may hold that row); after
    _TRIES tries, it fails."""
    floor = _hold_new_listings(holder)
    try:
        for attempt in range(1, _TRIES + 1):
            alone = attempt > _TRIES - _ALONE_TRIES
            try:
                result = _promote(db, holder, dmo, staged_jobs, alone=alone)
            except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure,
                    psycopg.errors.LockNotAvailable) as exc:
                holder.log(f"promotion try {attempt} of {_TRIES} rolled back: {type(exc).__name__}")
                continue
            if result is not None:
                return result
            holder.log(f"promotion try {attempt} of {_TRIES} rolled back: its last step met a listing another "
                       f"DMO's promotion committed meanwhile that needs a person or beats a record's match; the next "
                       f"try judges it first")
    finally:
        holder.release(LockSpace.NEW_LISTINGS, floor, shared=True)
    raise RuntimeError(f"the promotion of {dmo.slug} was rolled back {_TRIES} times (its log says why): nothing of "
                       "it was applied; run it again")


def _hold_new_listings(holder: Holder) -> int:
    """Says, until the promotion ends, that it may create listings with ids above the key it
    returns (the listings' sequence now): a stage beginning meanwhile, or another promotion, takes
    them as created after it (jobs.sql, start_stage; promote.sql, listings_seen_now)."""
    floor = holder.conn.execute(sql("promote", "new_listings_floor")).fetchone()[0]
    holder.acquire(LockSpace.NEW_LISTINGS, floor, "the new listings' lock (shared, never held alone)", shared=True)
    return floor


def _promote(db: Database, holder: Holder, dmo: Dmo, staged_jobs: list[int], *, alone: bool) -> PromoteResult | None:
    """The promotion's transaction, `alone` holding the promotions' lock throughout; None when it
    was rolled back because its last steps could not end it (_last_steps)."""
    if alone:
        holder.acquire(LockSpace.PROMOTIONS, 0, "another DMO's promotion (this try holds the lock throughout)")
    try:
        return _transaction(db, holder, dmo, staged_jobs, alone)
    finally:
        if alone:
            holder.release(LockSpace.PROMOTIONS, 0)


def _transaction(db: Database, holder: Holder, dmo: Dmo, staged_jobs: list[int], alone: bool) -> PromoteResult | None:
    with db.connect() as conn:
        tune(conn)
        if alone:
            conn.execute(f"SET LOCAL lock_timeout = '{_ALONE_LOCK_TIMEOUT}'")
        params: dict[str, Any] = {"dmo": dmo.id, "staged_jobs": staged_jobs}
        # before the first re-match: whatever it does not see is above this
        params["since"] = _seen_now(conn)
        run(conn, "promote", "considered_table", params)
        seen = conn.execute(sql("promote", "new_listings_since_stage"), params).fetchone() if staged_jobs else None
        if seen is not None:
            rematch_new_records(conn, params, job_config(conn, staged_jobs[-1]), after=seen[0])
        run(conn, "promote", "promo_table")
        run(conn, "promote", "take_batch", params)
        batch = _Batch.read(conn)
        if batch.jobs:
            _apply(conn, job_config(conn, batch.jobs[-1]), batch, params)
        params["jobs"] = sorted(set(batch.jobs) | set(staged_jobs))
        run(conn, "promote", "finish_jobs", params)
        if not batch.l_insert and not batch.fuzzy_joins:  # nothing another promotion's listing could take
            conn.commit()
        elif not _last_steps(conn, holder, params, job_config(conn, batch.jobs[-1])):
            conn.rollback()
            return None
        result = PromoteResult(promoted=dict(batch.actions), jobs=sorted(staged_jobs),
                               decided_jobs=sorted(set(batch.jobs) - set(staged_jobs)))
        waiting, live, rows, changed = conn.execute(sql("promote", "dmo_figures"), params).fetchone()
        result.waiting_for_review, result.live_listings = waiting, live
        result.state_version = state_version(rows, changed)
    return result


def _seen_now(conn: psycopg.Connection) -> int:
    return conn.execute(sql("promote", "listings_seen_now")).fetchone()[0]


def _last_steps(conn: psycopg.Connection, holder: Holder, params: dict[str, Any], config: dict[str, Any]) -> bool:
    """The batch's new listings matched against those other promotions committed since the first
    re-match, without the lock; then, under the promotions' lock, the commit, unless one more came
    meanwhile: then the lock goes, the new ones are matched, and the lock is taken again (the last
    time, they are matched under it). A listing another created is dropped and its records join the
    other's. False (nothing committed) when such a match needs a person or is second best for its
    listing, when such a listing beats a fuzzy match of the batch, or when the dropped rows could
    not be deleted without their per-row checks. A try
    holding the lock throughout takes it again at once (advisory locks count per session): none can
    have come, so the first round commits."""
    keys: list[str] = []
    for attempt in range(_LAST_STEP_TRIES):
        later = _seen_now(conn)  # read before the re-match: whatever it does not see is above this
        if _fresh(conn, params) and not _rematched(conn, params, config, keys):
            return False
        params["since"] = later
        holder.acquire(LockSpace.PROMOTIONS, 0, "another DMO's promotion's last step")
        try:
            if not _fresh(conn, params) or attempt == _LAST_STEP_TRIES - 1:
                if not _rematched(conn, params, config, keys):
                    return False
                conn.commit()
                return True
        finally:
            holder.release(LockSpace.PROMOTIONS, 0)
    raise AssertionError("unreachable: the last try commits or gives up")


def _fresh(conn: psycopg.Connection, params: dict[str, Any]) -> bool:
    return conn.execute(sql("promote", "fresh_since"), params).fetchone()[0]


def _rematched(conn: psycopg.Connection, params: dict[str, Any], config: dict[str, Any], keys: list[str]) -> bool:
    """The listings above `since` taken as seen, _rematch_since run when one is fresh, and the
    listings it replaced dropped; False when that cannot be done here."""
    if not _fresh(conn, params):
        return True
    run(conn, "promote", "consider", params)
    repointed = _rematch_since(conn, params, config, keys)
    if repointed is None:
        return False
    if repointed:
        if not trusted.allowed(conn, ("public.listings", "public.locations")):
            return False
        with trusted.without_row_triggers(conn):
            run(conn, "promote", "drop_repointed", params)
    return True


def _rematch_since(conn: psycopg.Connection, params: dict[str, Any], config: dict[str, Any],
                   keys: list[str]) -> int | None:
    """The batch's records still creating a listing, matched against the listings above `since`
    that are not the batch's own: by match hash, then fuzzily, by `keys` (empty: the lookup keys of
    those records and of the ones matched fuzzily, then kept in it); the matched ones repointed
    (repoint_rematched), their number returned. None when a match is unsure or second best (what
    rematch_new_records would send to a person), or when such a listing beats a record's fuzzy
    match (the first re-match moves it): the caller rolls back."""
    stage = config["stage"]
    hashed = run(conn, "promote", "rematch_by_hash_since", params).rowcount
    records = rematch_records(conn, "rematch_records_in_batch", params) if not keys else None
    if records is not None:  # the first round: its records' keys kept for the later rounds
        keys.extend(lookup_keys([*records[0], *records[1]]))
    own = [r[0] for r in conn.execute(sql("promote", "batch_new_listings"))]
    found = conn.execute(sql("match_keys", "candidates"), {"keys": keys, "after": params["since"], "exclude": own,
                                                           "max_block": MAX_BLOCK, "name_block": NAME_BLOCK})
    candidates = [MatchRecord.stored(r) for r in found]
    matches: list[Match] = []
    if candidates:
        rows, matched, current = records or rematch_records(conn, "rematch_records_in_batch", params)
        model = dmo_model.of_jobs(conn, params["dmo"], params["jobs"])
        if better_matches(judge(matched, candidates, stage, model), current):
            return None
        matches = judge(rows, candidates, stage, model)
    targets = [m.candidate_id for m in matches]
    if len(set(targets)) < len(targets) or any(
            m.certainty < stage["auto_match_threshold"] or m.review_reason for m in matches):
        return None
    save_rematches(conn, matches, stage, [False] * len(matches))
    if hashed or matches:
        run(conn, "promote", "repoint_rematched", params)
    return hashed + len(matches)


def _apply(conn: psycopg.Connection, config: dict[str, Any], b: _Batch, params: dict[str, Any]) -> None:
    """The batch's inserts, updates and soft deletes; each statement only when some row needs it.
    With trusted inserts, the parents each insert needs are counted against the rows written."""
    params.update({f"{t}_policy": merge_policy_for(config, t) for t in _POLICY_TABLES})
    trusted_ok = (b.l_insert or b.li_insert or b.li_update) and trusted.allowed(conn, trusted.PROMOTED_TABLES)
    if trusted_ok and not conn.execute(sql("trusted", "lock_promoted_parents"), params).fetchone()[0]:
        raise psycopg.errors.ForeignKeyViolation("foreign key: a parent row the batch refers to is gone")
    created: list[tuple[int, int]] = []  # parents created here: (rows needed, rows written)

    def insert(name: str, needed: int) -> psycopg.Cursor:
        if trusted_ok:
            with trusted.without_row_triggers(conn):
                found = run(conn, "promote", name, params)
        else:
            found = run(conn, "promote", name, params)
        if needed:
            created.append((needed, found.rowcount))
        return found

    if b.l_insert:
        created.append((b.l_insert, run(conn, "promote", "insert_locations", params).rowcount))
        insert("insert_listings", b.l_insert)
    _when(conn, b.duplicates, "duplicate_targets", params)
    _when(conn, b.l_update, "update_listings", params)
    if b.li_insert:
        created.append((b.li_insert, run(conn, "promote", "insert_contacts", params).rowcount))
        insert("insert_listing_info", b.li_insert)
    _when(conn, b.li_update, "update_contacts", params)
    run(conn, "promote", "replaced_children", params)  # empty unless listing_info rows are updated
    if b.li_insert or b.li_update:
        created.append(insert("insert_children", 0).fetchone())
    _when(conn, b.li_update or b.l_update, "update_listing_info", params)
    _when(conn, b.li_touch, "touch_unchanged_info", params)
    _when(conn, b.deletes, "soft_delete", params)
    _when(conn, b.l_insert, "key_new_listings", params)  # under the key version of the job that staged them
    if trusted_ok and (missing := sum(max(needed - written, 0) for needed, written in created)):
        raise psycopg.errors.ForeignKeyViolation(f"foreign key: {missing} promoted rows refer to a missing parent row")
    if b.bridged and config["promote"].get("update_bridge_table", True):
        if conn.execute(sql("promote", "upsert_bridge"), params).fetchone()[0]:
            run(conn, "promote", "update_bridge", params)


def _when(conn: psycopg.Connection, needed: int, name: str, params: dict[str, Any]) -> None:
    if needed:
        run(conn, "promote", name, params)


def state_version(rows: int, changed: dt.datetime | None) -> str:
    """The version of the DMO's public listings: its listing_info rows and their newest change, which
    every insert, update and soft delete stamps and a promotion that changed nothing leaves as it was."""
    return f"{rows} rows, changed {changed.isoformat() if changed else 'never'}"


def live_listing_count(conn: psycopg.Connection, dmo: Dmo) -> int:
    return conn.execute(sql("promote", "dmo_figures"), {"dmo": dmo.id}).fetchone()[1]


def job_summary(conn: psycopg.Connection, job_id: int) -> dict[str, Any]:
    """The per-job figures the CLI and the demo print, and where the job is."""
    row = conn.execute(sql("summary", "job"), {"job": job_id}).fetchone()
    keys = ("records_read", "inserted", "updated", "unchanged", "duplicate", "deleted", "needing_review", "errors",
            "updates_promoted", "deletes_promoted", "stage", "status", "superseded_by", "error_summary")
    return dict(zip(keys, row)) if row else {}

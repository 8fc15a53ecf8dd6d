"""Advisory locks in PostgreSQL: which step works on a DMO, which jobs a live process works on,
and one promotion's last step at a time. Session-level locks live as long as the connection
holding them, so a process that dies loses them at once: a job whose lock is free has nobody
working on it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import IntEnum
from typing import TYPE_CHECKING

import psycopg

if TYPE_CHECKING:  # (stage workers import this module without Dagster)
    from sadie_pipeline.resources.database import Database


class LockSpace(IntEnum):
    """The first key of pg_advisory_lock(int, int); the second is the DMO's or the job's id."""
    DMO = 1         # the stage and promotion steps of a DMO, one at a time, and a raw step choosing its job
    JOB = 2         # held shared by every process working on the job (workers too)
    PROMOTIONS = 3  # a promotion's last step (re-match of its new listings, commit): one at a time
    MATCH_KEYS = 4  # keying the listings for candidate lookup (pipeline.listing_match_keys), one at a time
    # Held shared by a promotion from before it draws listing ids until it has committed, keyed below
    # them: "listings the stage has not seen" are those above the lowest key held (jobs.sql, start_stage;
    # promote.sql, listings_seen_now: both name the value 5).
    NEW_LISTINGS = 5


WAIT_LOGGED_S = 0.02   # shorter acquisitions are the round trip, not a wait
_LOCK = "SELECT pg_advisory_lock(%s::int, %s::int)"
_LOCK_SHARED = "SELECT pg_advisory_lock_shared(%s::int, %s::int)"
_TRY_LOCK = "SELECT pg_try_advisory_lock(%s::int, %s::int)"
_UNLOCK = "SELECT pg_advisory_unlock(%s::int, %s::int)"
_UNLOCK_SHARED = "SELECT pg_advisory_unlock_shared(%s::int, %s::int)"
_HOLDERS = """
SELECT a.pid, coalesce(nullif(a.application_name, ''), 'a session'), date_trunc('second', now() - a.backend_start)
  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
 WHERE l.locktype = 'advisory' AND l.granted AND l.classid::int = %s AND l.objid::int = %s AND l.objsubid = 2
"""


class Holder:
    """A connection of its own (autocommit) holding session-level advisory locks for one step."""

    def __init__(self, db: Database, name: str, log: Callable[[str], None] = lambda m: None) -> None:
        self.log = log
        self.conn = psycopg.connect(db.resolved_url(), autocommit=True,
                                    application_name=f"sadie {name} (pid {os.getpid()})"[:63])
        # Lock waits come back every second: Ctrl-C is seen, and who is waited for is said once.
        self.conn.execute("SET lock_timeout = '1s'")

    def acquire(self, space: LockSpace, key: int, what: str, *, shared: bool = False) -> None:
        said, started = False, time.monotonic()
        while True:
            try:
                self.conn.execute(_LOCK_SHARED if shared else _LOCK, (space, key))
                break
            except psycopg.errors.LockNotAvailable:
                if not said:
                    self.log(f"waiting for {what}, held by {self.holders(space, key)}")
                    said = True
        # Every wait past a round trip is said with its lock space: the run's log then tells how
        # long it waited on each lock (benchmarks/production_day.py sums these lines).
        if (waited := time.monotonic() - started) >= WAIT_LOGGED_S:
            self.log(f"waited {waited:.3f} s for {what} (lock {space.name.lower()})")

    def try_acquire(self, space: LockSpace, key: int) -> bool:
        return self.conn.execute(_TRY_LOCK, (space, key)).fetchone()[0]

    def release(self, space: LockSpace, key: int, *, shared: bool = False) -> None:
        self.conn.execute(_UNLOCK_SHARED if shared else _UNLOCK, (space, key))

    def holders(self, space: LockSpace, key: int) -> str:
        rows = self.conn.execute(_HOLDERS, (space, key)).fetchall()
        return "; ".join(f"{name} (server pid {pid}, connected {age} ago)" for pid, name, age in rows) or "nobody now"

    def close(self) -> None:
        self.conn.close()


@contextmanager
def holding_dmo(db: Database, dmo_id: int, slug: str, step: str,
                log: Callable[[str], None] = lambda m: None) -> Iterator[Holder]:
    """The DMO's lock, held until the block ends (or the process dies)."""
    holder = Holder(db, f"{step} {slug}", log)
    try:
        holder.acquire(LockSpace.DMO, dmo_id, f"DMO {slug}")
        yield holder
    finally:
        holder.close()  # closing the connection releases whatever it holds

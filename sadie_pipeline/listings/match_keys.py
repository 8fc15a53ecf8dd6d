"""The listings' blocking keys (pipeline.listing_match_keys), kept in step with the listings. A
promotion keys the listings it creates from their staged rows (promote.sql, key_new_listings), under
the key version of the job that staged them; before candidates are looked up, every other listing
whose fields changed since it was keyed, or whose key version is not the running one, is keyed
again here. The keys are derived data, so they are written here on a
connection of their own in short transactions: a long stage never holds them, and a crash loses
nothing that the next lookup does not compute again."""

from __future__ import annotations

import orjson
import psycopg

from sadie_pipeline.core.matching import MatchRecord, place_columns
from sadie_pipeline.core.places import paused_gc
from sadie_pipeline.listings import versions
from sadie_pipeline.listings.locks import LockSpace
from sadie_pipeline.listings.queries import run, sql, tune

_CHUNK = 20_000


def refresh(conn: psycopg.Connection) -> int:
    """Keys every listing that needs it, on a connection of its own; the number keyed."""
    return refresh_at(conn.info.dsn, conn.info.password)


def refresh_at(dsn: str, password: str | None) -> int:
    """refresh, given the database's address (a thread of its own may run it: it shares nothing)."""
    with psycopg.connect(dsn, password=password, autocommit=True) as own:
        with own.transaction():
            own.execute("SELECT pg_advisory_xact_lock(%s::int, 0)", (LockSpace.MATCH_KEYS,))
            tune(own)  # the check reads every listing: hash joins in memory, nothing compiled
            # the code the keys come from (its import closure): a change of it keys every listing again
            version = versions.KEY_VERSION
            stale = own.execute(sql("match_keys", "stale"), {"version": version}).fetchall()
            if stale:
                run(own, "match_keys", "key_table")
            for start in range(0, len(stale), _CHUNK):
                _key(own, stale[start:start + _CHUNK], version)
    return len(stale)


def _key(conn: psycopg.Connection, rows: list[tuple], version: str) -> None:
    """Each listing's keys and form, from its fields (stored beside them, stale compares them next
    time); a merged listing is no candidate: no keys."""
    run(conn, "match_keys", "forget", {"ids": [r[0] for r in rows]})
    with paused_gc(), conn.cursor() as cur:
        columns = [(r, *place_columns(MatchRecord(*r[:10]))) for r in rows if not r[10]]
        with cur.copy(sql("match_keys", "copy_keys")) as copy:
            for r, _, keys in columns:
                for key in keys:
                    copy.write_row((r[0], key))
        run(conn, "match_keys", "store_keys")
        with cur.copy(sql("match_keys", "copy_keyed")) as copy:
            for r, form, _ in columns:
                copy.write_row((r[0], version, *r[1:], orjson.dumps(form).decode()))
            for r in rows:
                if r[10]:
                    copy.write_row((r[0], version, *r[1:], None))

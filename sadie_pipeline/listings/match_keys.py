"""The listings' blocking keys (pipeline.listing_match_keys), kept in step with the listings:
before candidates are looked up, every listing whose fields or whose engine code changed since it
was keyed is keyed again. The keys are derived data, so they are written on a connection of their
own in short transactions: a long stage never holds them, and a crash loses nothing that the next
lookup does not compute again."""

from __future__ import annotations

from pathlib import Path

import psycopg

from sadie_pipeline.core import places
from sadie_pipeline.core.matching import MatchRecord, stored_keys
from sadie_pipeline.listings.locks import LockSpace
from sadie_pipeline.listings.queries import run, sql
from sadie_pipeline.listings.versions import source_digest

_PLACES = Path(places.__file__).parent
# The code the keys come from: a change of it keys every listing again.
KEY_VERSION = source_digest(*(_PLACES / f"{m}.py" for m in ("normal", "tables", "index")))
_CHUNK = 20_000


def refresh(conn: psycopg.Connection) -> int:
    """Keys every listing that needs it, on a connection of its own; the number keyed."""
    with psycopg.connect(conn.info.dsn, password=conn.info.password, autocommit=True) as own:
        with own.transaction():
            own.execute("SELECT pg_advisory_xact_lock(%s::int, 0)", (LockSpace.MATCH_KEYS,))
            stale = own.execute(sql("match_keys", "stale"), {"version": KEY_VERSION}).fetchall()
            for start in range(0, len(stale), _CHUNK):
                _key(own, stale[start:start + _CHUNK])
    return len(stale)


def _key(conn: psycopg.Connection, rows: list[tuple]) -> None:
    ids = [r[0] for r in rows]
    run(conn, "match_keys", "forget", {"ids": ids})
    live = [MatchRecord(*r[:10]) for r in rows if not r[11]]  # a merged listing is no candidate
    with conn.cursor().copy("COPY pipeline.listing_match_keys (listing_id, key) FROM STDIN") as copy:
        for row in stored_keys(live):
            copy.write_row(row)
    run(conn, "match_keys", "keyed", {"ids": ids, "fingerprints": [r[10] for r in rows]})

"""Promotions of several DMOs at the same time, each in a process of its own: only their last step
takes the promotions' lock. DMOs sharing places end as the same promotions one after the other end
(one listing per shared place), also when one is killed mid-promotion and run again; DMOs with
other places do not wait for each other; a stage beginning while a promotion is under way takes
that promotion's listings as created after it; a record the stage matched moves to a better listing
another promotion created meanwhile."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest

from sadie_pipeline.core.matching import MatchRecord, certainty
from sadie_pipeline.listings.importer import import_inbox_file, inbox_prefix
from sadie_pipeline.listings.promote import promote_dmo
from sadie_pipeline.listings.repository import get_dmo, upsert_dmo
from sadie_pipeline.listings.review import list_pending, reject
from sadie_pipeline.listings.stage import stage_dmo
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline_tests.listings.helpers import SIMPLE_COLUMNS, blocked_by, until, write_csv
from sadie_pipeline_tests.listings.processes import CONFIG, end_state, jobs, places, scratch_database

pytestmark = pytest.mark.slow

# One promotion, as the promotion step runs it, printing what it logs (its lock waits among them).
_PROMOTE = """
import sys
from sadie_pipeline.listings.promote import promote_dmo
from sadie_pipeline.listings.repository import get_dmo
from sadie_pipeline.resources.database import Database
db = Database(url=sys.argv[1])
with db.connect() as conn:
    dmo = get_dmo(conn, sys.argv[2])
print("promoted", promote_dmo(db, dmo, log=lambda m: print(m, flush=True)).promoted, flush=True)
"""


def _promotion(url: str, slug: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", _PROMOTE, url, slug], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def _finished(proc: subprocess.Popen) -> str:
    out, _ = proc.communicate(timeout=180)
    assert proc.returncode == 0, out
    return out


def _stage(url: str, root: Path, slug: str, rows: list[dict[str, str]], config: dict = CONFIG) -> None:
    """The DMO registered (once), its file imported and staged, not promoted."""
    root.mkdir(parents=True, exist_ok=True)
    db, store = Database(url=url), ObjectStore(local_root=str(root / "objects"))
    with db.connect() as conn:
        dmo = upsert_dmo(conn, slug, slug.title(), config)
    mapped = config["transform"]["map_fields"].values()
    columns = [*SIMPLE_COLUMNS, *(c for c in ("Latitude", "Longitude") if c in mapped)]
    path = write_csv(root / f"{slug}-{len(rows)}.csv", rows, columns)
    key = f"{inbox_prefix(slug)}{path.name}"
    store.put_file(key, path)
    import_inbox_file(Database(url=url), store, dmo, key, promote=False)
    stage_dmo(db, store, dmo)


def _in_order(root: Path, staged: list[tuple[str, list[dict[str, str]]]], order: list[str]) -> dict[str, object]:
    """The end state of the same stages, then the same promotions one after the other."""
    with scratch_database() as url:
        for slug, rows in staged:
            _stage(url, root / "in-order", slug, rows)
        db = Database(url=url)
        for slug in order:
            with db.connect() as conn:
                dmo = get_dmo(conn, slug)
            promote_dmo(db, dmo)
        return end_state(url)


def _shared_listings(url: str) -> tuple[int, int]:
    """Listings holding both DMOs' records, and listings holding one DMO's record twice or more."""
    with psycopg.connect(url) as conn:
        return conn.execute("""SELECT count(*) FILTER (WHERE dmos = 2), count(*) FILTER (WHERE infos > dmos)
                                 FROM (SELECT count(DISTINCT dmo_id) AS dmos, count(*) AS infos
                                         FROM public.listing_info GROUP BY listing_id) t""").fetchone()


@pytest.mark.parametrize("killed", [False, True], ids=["both-finish", "one-killed-mid-promotion"])
def test_two_dmos_sharing_places_promoting_at_once_end_as_one_after_the_other(tmp_path, database, killed):
    """Both promotions write their listings, then wait for their last step (the test holds the
    promotions' lock); the second to commit finds the first's listings and joins them. Killed: the
    first is SIGKILLed while it waits; the second commits; the first, run again, joins it."""
    staged = [("dmo-a", places(200)), ("dmo-b", places(200, start=100, revised=True))]
    for slug, rows in staged:
        _stage(database.url, tmp_path, slug, rows)
    with psycopg.connect(database.url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(3, 0)")
        running = [_promotion(database.url, slug) for slug, _ in staged]
        until(lambda: len(blocked_by(database.url, holder)) >= 2 or any(p.poll() is not None for p in running),
              timeout_s=120)
        assert all(p.poll() is None for p in running), [p.communicate() for p in running]
        if killed:
            running[0].send_signal(signal.SIGKILL)
            running[0].wait(30)
    if killed:
        _finished(running[1])
        _finished(_promotion(database.url, "dmo-a"))  # run again
        order = ["dmo-b", "dmo-a"]
    else:
        for p in running:
            _finished(p)
        order = ["dmo-a", "dmo-b"]  # the listings' fields are the same whichever comes first

    assert _shared_listings(database.url) == (100, 0)  # places 100-199: one listing each, nothing twice
    assert [j[1:3] for j in jobs(database.url)] == [("promoted", "succeeded")] * 2
    assert end_state(database.url) == _in_order(tmp_path, staged, order)


def test_dmos_with_other_places_promote_without_waiting_for_each_other(tmp_path, database):
    """dmo-a's promotion is held mid-transaction, its listing ids drawn (the test holds its DMO row,
    which its inserts need); dmo-b's promotion, of other places, runs to its end meanwhile and records
    no wait on the promotions' lock. A stage of dmo-c beginning then takes dmo-a's coming listings as
    created after it, so that dmo-c's promotion joins the places it shares with dmo-a."""
    staged = [("dmo-a", places(150)), ("dmo-b", places(150, start=1000))]
    for slug, rows in staged:
        _stage(database.url, tmp_path, slug, rows)
    with psycopg.connect(database.url) as blocker:
        blocker.execute("SELECT id FROM public.dmos WHERE slug = 'dmo-a' FOR UPDATE")
        held = _promotion(database.url, "dmo-a")
        until(lambda: blocked_by(database.url, blocker) or held.poll() is not None, timeout_s=120)
        out = _finished(_promotion(database.url, "dmo-b"))
        assert held.poll() is None  # dmo-a still mid-promotion
        assert "another DMO's promotion" not in out and "(lock promotions)" not in out, out
        _stage(database.url, tmp_path, "dmo-c", places(20, revised=True))  # dmo-a's first 20 places
        with psycopg.connect(database.url) as conn:
            seen, newest = conn.execute("""SELECT j.listings_seen_upto, (SELECT max(id) FROM public.listings)
                                             FROM pipeline.jobs j JOIN public.dmos d ON d.id = j.dmo_id
                                            WHERE d.slug = 'dmo-c'""").fetchone()
        assert seen < newest  # dmo-b's listings are newer than dmo-a's coming ones, seen or not
        blocker.rollback()
    _finished(held)
    _finished(_promotion(database.url, "dmo-c"))

    assert _shared_listings(database.url) == (20, 0)  # dmo-c's records joined dmo-a's listings
    assert end_state(database.url) == _in_order(tmp_path, [*staged, ("dmo-c", places(20, revised=True))],
                                                ["dmo-b", "dmo-a", "dmo-c"])


def _other_spelling(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The same places as another DMO sends them: a keystroke in the street number, and no phone (a
    shared phone or name and address identify a pair whatever the model): matched by the model."""
    return [dict(r, Address=r["Address"].replace(" ", "0 ", 1), Phone="") for r in rows]


def _never_matching_model(url: str, slug: str) -> None:
    """The DMO's estimate replaced by one under which no pair is the same place (every field as likely
    for two places as for one), as a large job's learning could have moved it after its stage."""
    from sadie_pipeline.core.places.model import prior_model
    from sadie_pipeline.listings.dmo_model import VERSION

    model = prior_model().to_json()
    model.update(m=model["u"], share=1e-9)
    with psycopg.connect(url) as conn:
        conn.execute("""INSERT INTO pipeline.dmo_match_models (dmo_id, engine_version, model, pairs)
                        SELECT id, %s, %s, 100000 FROM public.dmos WHERE slug = %s
                        ON CONFLICT (dmo_id) DO UPDATE SET model = excluded.model""",
                     (VERSION, psycopg.types.json.Jsonb(model), slug))


def test_a_promotion_matches_again_by_the_model_its_stage_judged_with(tmp_path, database):
    """dmo-b is staged before dmo-a's places are listings; its estimate then changes. When dmo-a has
    promoted, dmo-b's promotion matches its records again against dmo-a's new listings by the model
    its stage judged with (the one it would have met them with, had dmo-a come first), not the new one."""
    rows = [r for r in places(40) if "(listed twice)" not in r["Description"]]
    _stage(database.url, tmp_path, "dmo-a", rows)
    _stage(database.url, tmp_path, "dmo-b", _other_spelling(rows))
    _never_matching_model(database.url, "dmo-b")
    for slug in ("dmo-a", "dmo-b"):
        _finished(_promotion(database.url, slug))
    assert _shared_listings(database.url) == (40, 0)  # each place one listing, with both DMOs' records


def test_a_record_matched_again_onto_a_listing_its_dmo_already_takes_waits_for_a_person(tmp_path, database):
    """dmo-b's stage met dmo-a's listing of a place (committed while it ran) for one of its records;
    another record of dmo-b, new at its stage, has that listing's match hash. Matched again by the
    promotion onto the listing, it waits for a person instead of giving the DMO two records on one
    listing (a unique violation failed a promotion of the 50-DMO production day)."""
    rows = [r for r in places(4) if "(listed twice)" not in r["Description"]]
    _stage(database.url, tmp_path, "dmo-a", rows[:1])
    _stage(database.url, tmp_path, "dmo-b", rows)
    _finished(_promotion(database.url, "dmo-a"))
    with psycopg.connect(database.url) as conn:
        listing, match_hash = conn.execute("SELECT id, listing_match_hash FROM public.listings").fetchone()
        b_rows = """FROM staging.listings s JOIN public.dmos d ON d.id = s.dmo_id WHERE d.slug = 'dmo-b'"""
        [other] = conn.execute(f"SELECT min(s.id) {b_rows} AND s.listing_match_hash <> %s", (match_hash,)).fetchone()
        # what dmo-b's stage would have found for it, had dmo-a's listing been committed just before
        conn.execute("""UPDATE staging.listings SET target_listing_id = %s, l_action = 'unchanged',
                               match_method = 'fuzzy', certainty_score = 0.95 WHERE id = %s""", (listing, other))
    _finished(_promotion(database.url, "dmo-b"))
    with psycopg.connect(database.url) as conn:
        status, reason = conn.execute(f"SELECT s.review_status, s.review_reason {b_rows} AND s.listing_match_hash = %s",
                                      (match_hash,)).fetchone()
        records = conn.execute("""SELECT count(*) FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                   WHERE d.slug = 'dmo-b' AND li.listing_id = %s""", (listing,)).fetchone()[0]
    assert status == "pending" and "another record of this DMO has" in reason
    assert records == 1  # the record its stage matched there


_HARBOURS = ("Harbourfront", "Lighthouse", "Boardwalk", "Seaside", "Riverside")


def _harbour_places(downtown: bool) -> list[dict[str, str]]:
    """Five grills; `downtown`: as another DMO sends them (a qualifier added, no phone), a match
    a person decides."""
    rows = [{"Name": f"{word} Grill", "Address": f"{12 + 20 * k} Water St", "City": "Charlottetown",
             "Phone": f"902-555-01{k:02d}", "Description": f"Grill {k}."} for k, word in enumerate(_HARBOURS)]
    return [dict(r, Name=r["Name"] + " Downtown", Phone="") for r in rows] if downtown else rows


def _holds_promotions_lock(url: str) -> bool:
    with psycopg.connect(url) as conn:
        return conn.execute("""SELECT count(*) > 0 FROM pg_locks WHERE locktype = 'advisory' AND granted
                                  AND classid = 3 AND objid = 0 AND objsubid = 2
                                  AND database = (SELECT oid FROM pg_database
                                                   WHERE datname = current_database())""").fetchone()[0]


def _take_after(url: str, blocker: psycopg.Connection, row: str, waiting: set[tuple[int, Any]]) -> None:
    """The blocker's row lock let go, and taken again behind the transactions that waited for it,
    once they have ended. On a busy machine the blocker could take the row again before a woken
    waiter locked it, and the waiter would wait once more: then the row is let go again."""
    def still(where: str) -> set[tuple[int, Any]]:
        with psycopg.connect(url) as conn:
            return waiting & set(conn.execute(f"SELECT pid, xact_start FROM pg_stat_activity {where}").fetchall())

    while True:
        blocker.rollback()
        until(lambda: not still("WHERE wait_event_type = 'Lock'"), timeout_s=30)  # woken: the row is theirs
        blocker.execute(row)  # granted when they have ended
        if not still(""):
            return


def test_a_promotion_losing_its_last_step_to_other_dmos_again_and_again_ends_holding_the_lock(tmp_path, database):
    """Each try of dmo-b's promotion is held mid-transaction (the test holds its DMO row) while one
    more small DMO promotes a grill dmo-b sends too, as a match a person decides: each try's last
    step meets it and rolls back (the 50-DMO day's promotion that gave up after five). The last tries
    hold the promotions' lock from the start, see every listing in their first re-match, and end:
    as the same promotions one after the other."""
    [[base], [variant]] = (_harbour_places(False)[:1], _harbour_places(True)[:1])
    assert 0.5 <= certainty(MatchRecord(1, base["Name"], base["Address"], base["City"], None, "+19025550100"),
                            MatchRecord(2, variant["Name"], variant["Address"], variant["City"])) < 0.8
    others = [(f"dmo-a{k}", [row]) for k, row in enumerate(_harbour_places(True))]
    for slug, rows in [*others, ("dmo-b", _harbour_places(False))]:
        _stage(database.url, tmp_path, slug, rows)
    dmo_row = "SELECT id FROM public.dmos WHERE slug = 'dmo-b' FOR UPDATE"
    promoted: list[str] = []
    with psycopg.connect(database.url) as blocker:
        blocker.execute(dmo_row)
        held = _promotion(database.url, "dmo-b")
        for slug, _ in others:
            until(lambda: blocked_by(database.url, blocker) or held.poll() is not None, timeout_s=120)
            if held.poll() is not None or _holds_promotions_lock(database.url):
                break
            waiting = blocked_by(database.url, blocker)
            _finished(_promotion(database.url, slug))
            promoted.append(slug)
            _take_after(database.url, blocker, dmo_row, waiting)  # that try meets the new listing
        blocker.rollback()
    out = _finished(held)

    assert promoted == ["dmo-a0", "dmo-a1"] and out.count("rolled back: its last step met a listing") == 2, out
    assert "promoted {'insert': 3}" in out  # the third try held the lock while it waited (the loop's break)
    assert end_state(database.url) == _in_order(tmp_path, [*others, ("dmo-b", _harbour_places(False))],
                                                ["dmo-a0", "dmo-a1", "dmo-b"])
    with psycopg.connect(database.url) as conn:
        pending = conn.execute("""SELECT s.name FROM staging.listings s JOIN public.dmos d
                                   ON d.id = s.dmo_id WHERE d.slug = 'dmo-b' AND s.review_status = 'pending'
                                   ORDER BY 1""").fetchall()
    assert [p[0] for p in pending] == ["Harbourfront Grill", "Lighthouse Grill"]


# Two grills of one name and address (spelt apart: no match hash in common) far apart on the map:
# a person decides they are two places. A DMO sending the second under a third spelling, without its
# place on the map, matches both fuzzily, the second the better (its phone).
_MAPPED = {**CONFIG, "transform": {"map_fields": {**CONFIG["transform"]["map_fields"],
                                                  "locations.lat": "Latitude", "locations.lng": "Longitude"}}}
_THERE = {"Name": "Seaside Grill", "Address": "12 Water St", "City": "Charlottetown", "Phone": "902-555-0101",
          "Description": "The first.", "Latitude": "46.2330", "Longitude": "-63.1250"}
_HERE = dict(_THERE, Address="12 Water Street", Phone="902-555-0199", Description="The second.",
             Latitude="46.3300", Longitude="-63.3000")
_HERE_UNMAPPED = dict(Name="The Seaside Grill", Address=_HERE["Address"], City=_HERE["City"], Phone=_HERE["Phone"],
                      Description="The second, sent by b.")
_GRILLS = [("dmo-a", [_THERE]), ("dmo-b", [_HERE_UNMAPPED]), ("dmo-c", [_HERE])]


def _rejected(url: str, slug: str) -> None:
    """What the DMO's stage sent a person, rejected: a place of its own."""
    with psycopg.connect(url) as conn:
        pending = [r["id"] for r in list_pending(conn, slug)]
        assert reject(conn, pending) == pending


def _one_after_the_other(root: Path, order: list[str]) -> dict[str, object]:
    """The end state of each DMO staged and promoted in turn (what a stage sends a person, rejected);
    the DMOs registered as in the test (their ids are in their records' source ids)."""
    rows = dict(_GRILLS)
    with scratch_database() as url:
        db = Database(url=url)
        with db.connect() as conn:
            for slug in rows:
                upsert_dmo(conn, slug, slug.title(), _MAPPED)
        for slug in order:
            _stage(url, root / "one-after-the-other", slug, rows[slug], _MAPPED)
            _rejected(url, slug)
            with db.connect() as conn:
                dmo = get_dmo(conn, slug)
            promote_dmo(db, dmo)
        return end_state(url)


def _grills_staged(url: str, root: Path) -> None:
    """dmo-a's grill live; then dmo-b staged (it sees that listing alone), then dmo-c, whose match
    to dmo-a's grill a person rejects."""
    _stage(url, root, "dmo-a", [_THERE], _MAPPED)
    _finished(_promotion(url, "dmo-a"))
    for slug in ("dmo-b", "dmo-c"):
        _stage(url, root, slug, dict(_GRILLS)[slug], _MAPPED)
    _rejected(url, "dmo-c")


def _b_listing_holds(url: str) -> list[str]:
    """The DMOs with a record on the listing dmo-b's record is on."""
    with psycopg.connect(url) as conn:
        return [r[0] for r in conn.execute(
            """SELECT d.slug FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                WHERE li.listing_id = (SELECT b.listing_id FROM public.listing_info b JOIN public.dmos bd
                                           ON bd.id = b.dmo_id WHERE bd.slug = 'dmo-b')
                ORDER BY 1""")]


def test_a_record_the_stage_matched_moves_to_a_better_listing_created_while_it_was_staged(tmp_path, database):
    """dmo-b's stage saw only dmo-a's grill and matched its record there (name and address); dmo-c's
    grill, the one dmo-b sends (its phone), is promoted after that stage began. dmo-b's promotion
    moves its record to dmo-c's listing, as its stage would have chosen with dmo-c's listing there:
    the end state of a, c and b one after the other (the 50-DMO day's places split by the day only)."""
    b = MatchRecord(1, _HERE_UNMAPPED["Name"], _HERE_UNMAPPED["Address"], _HERE_UNMAPPED["City"], None, "+19025550199")
    assert 0.8 <= certainty(b, MatchRecord(2, _THERE["Name"], _THERE["Address"], _THERE["City"], None, "+19025550101")
                            ) < certainty(b, MatchRecord(3, _HERE["Name"], _HERE["Address"], _HERE["City"], None,
                                                         "+19025550199"))
    _grills_staged(database.url, tmp_path)
    with psycopg.connect(database.url) as conn:
        stage_match = conn.execute("""SELECT s.match_method, s.target_listing_id = l.id FROM staging.listings s
                                        JOIN public.dmos d ON d.id = s.dmo_id, public.listings l
                                       WHERE d.slug = 'dmo-b'""").fetchone()
    assert stage_match == ("fuzzy", True)  # dmo-b's stage matched it to dmo-a's grill, the one listing
    for slug in ("dmo-c", "dmo-b"):
        _finished(_promotion(database.url, slug))

    assert _b_listing_holds(database.url) == ["dmo-b", "dmo-c"]
    assert end_state(database.url) == _one_after_the_other(tmp_path, ["dmo-a", "dmo-c", "dmo-b"])


def test_a_better_listing_committed_during_a_promotion_rolls_it_back_and_its_next_try_moves_the_record(
        tmp_path, database):
    """dmo-b's promotion is held mid-transaction (the test holds its DMO row) while dmo-c's commits
    the better listing for dmo-b's record: its last step meets it, rolls back, and the next try's
    re-match moves the record there, as above."""
    _grills_staged(database.url, tmp_path)
    with psycopg.connect(database.url) as blocker:
        blocker.execute("SELECT id FROM public.dmos WHERE slug = 'dmo-b' FOR UPDATE")
        held = _promotion(database.url, "dmo-b")
        until(lambda: blocked_by(database.url, blocker) or held.poll() is not None, timeout_s=120)
        assert held.poll() is None
        _finished(_promotion(database.url, "dmo-c"))
        blocker.rollback()
    out = _finished(held)

    assert out.count("rolled back: its last step met a listing") == 1, out
    assert _b_listing_holds(database.url) == ["dmo-b", "dmo-c"]
    assert end_state(database.url) == _one_after_the_other(tmp_path, ["dmo-a", "dmo-c", "dmo-b"])

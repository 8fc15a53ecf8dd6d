"""Imports that run at the same time end where the same imports run one after the other end: two
files of one DMO, and two DMOs sending the same places (each `sadie import` a process of its own).
The test holds a lock the runs need until both are under way, so that they overlap."""

from __future__ import annotations

import psycopg
import pytest

from sadie_pipeline_tests.listings.helpers import until
from sadie_pipeline_tests.listings.processes import Sadie, end_state, jobs, listings_file, places, scratch_database

pytestmark = pytest.mark.slow


def _waiting(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("""SELECT count(*) FROM pg_stat_activity
                                WHERE datname = current_database() AND wait_event_type = 'Lock'""").fetchone()[0]


def _at_once(sadie: Sadie, lock: tuple[int, int], imports: list[tuple[str, str]], waiters: int = 2) -> list[str]:
    """Starts the imports while holding an advisory lock they need; lets go once `waiters` wait."""
    with psycopg.connect(sadie.url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s, %s)", lock)
        running = [sadie.start("import", slug, path) for slug, path in imports]
        until(lambda: _waiting(sadie.url) >= waiters or any(p.poll() is not None for p in running), timeout_s=120)
    outputs = [p.communicate(timeout=300) for p in running]
    assert [p.returncode for p in running] == [0] * len(running), "\n".join(o + e for o, e in outputs)
    return [out for out, _ in outputs]


def _in_order(tmp_path, imports: list[tuple[str, str]], slugs: list[str]) -> dict[str, object]:
    with scratch_database() as url:
        sadie = Sadie(tmp_path / "sequential", url)
        for slug in slugs:
            sadie.add_dmo(slug, tmp_path)
        for slug, path in imports:
            done = sadie.run("import", slug, path)
            assert done.returncode == 0, done.stderr
        return end_state(url)


def test_two_files_of_one_dmo_at_once_end_as_one_after_the_other(tmp_path, database):
    first = str(listings_file(tmp_path / "first.csv", places(300)))
    second = str(listings_file(tmp_path / "second.csv", places(300, start=150, revised=True)))
    sadie = Sadie(tmp_path / "concurrent", database.url)
    sadie.add_dmo("visit-pei", tmp_path)
    with psycopg.connect(database.url) as conn:
        dmo_id = conn.execute("SELECT id FROM public.dmos").fetchone()[0]

    outputs = _at_once(sadie, (1, dmo_id), [("visit-pei", first), ("visit-pei", second)])

    with psycopg.connect(database.url) as conn:  # the order they arrived in: their jobs' ids
        order = [r[0] for r in conn.execute("SELECT source_name FROM pipeline.jobs ORDER BY id")]
    paths = {p.rsplit("/", 1)[-1]: p for p in (first, second)}
    arrived = [("visit-pei", paths[name.split("-", 1)[1]]) for name in order]
    assert end_state(database.url) == _in_order(tmp_path, arrived, ["visit-pei"])
    assert [j[1:3] for j in jobs(database.url)] == [("promoted", "succeeded")] * 2
    assert not any("superseded" in out for out in outputs)  # neither import was dropped


def test_two_dmos_sending_the_same_places_at_once_make_one_listing_each(tmp_path, database):
    path = str(listings_file(tmp_path / "places.csv", places(300)))
    sadie = Sadie(tmp_path / "concurrent", database.url)
    for slug in ("dmo-a", "dmo-b"):
        sadie.add_dmo(slug, tmp_path)

    # Both stage before either promotes (the promotions' lock is held until both wait for it).
    _at_once(sadie, (3, 0), [("dmo-a", path), ("dmo-b", path)])

    with psycopg.connect(database.url) as conn:
        order = [r[0] for r in conn.execute("""SELECT d.slug FROM pipeline.jobs j JOIN public.dmos d ON d.id = j.dmo_id
                                                ORDER BY j.finished_at""")]
        shared = conn.execute("""SELECT count(*) FILTER (WHERE n = 2), count(*) FROM (
                                     SELECT count(*) AS n FROM public.listing_info GROUP BY listing_id) t""").fetchone()
    assert end_state(database.url) == _in_order(tmp_path, [(slug, path) for slug in order], ["dmo-a", "dmo-b"])
    assert shared[0] == shared[1] > 0  # every listing has both DMOs' records

"""Faults as a user meets them, with real processes: `sadie import` killed (SIGKILL) in each phase,
then run again, ends where a clean run ends; nothing it started outlives it or holds a lock; a
wait on another import can be interrupted. Each phase is reached by holding a table lock the
phase needs, so that the kill lands there and nowhere else."""

from __future__ import annotations

import signal
import time

import psutil
import psycopg
import pytest

from sadie_pipeline_tests.listings.helpers import blocked_by, until, waiting_on_a_lock
from sadie_pipeline_tests.listings.processes import Sadie, end_state, jobs, listings_file, places, scratch_database

pytestmark = pytest.mark.slow

SLUG = "visit-pei"
# The lock a phase waits on (held by the test), and what it is.
PHASES = {
    "import": "LOCK TABLE staging.raw_keys IN SHARE MODE",                    # the raw keys' COPY
    "stage": "LOCK TABLE staging.listing_info IN SHARE MODE",                 # the workers' second COPY
    "resolve": "LOCK TABLE pipeline.bridge_source_target IN ACCESS EXCLUSIVE MODE",  # matching by the bridge
    "promotion": "LOCK TABLE public.locations IN SHARE MODE",                 # the new locations
}


def _left_in_transaction(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("""SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                                 AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'""").fetchone()[0]


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory):
    """The end state of the same import, run once without a fault."""
    home = tmp_path_factory.mktemp("clean")
    path = listings_file(home / "listings.csv", places(400))
    with scratch_database() as url:
        sadie = Sadie(home, url)
        sadie.add_dmo(SLUG, home)
        done = sadie.run("import", SLUG, str(path))
        assert done.returncode == 0, done.stderr
        yield path, end_state(url)


@pytest.mark.parametrize("phase", list(PHASES))
def test_a_killed_import_run_again_ends_where_a_clean_run_ends(tmp_path, database, clean_run, phase):
    path, expected = clean_run
    sadie = Sadie(tmp_path, database.url)
    sadie.add_dmo(SLUG, tmp_path)
    with psycopg.connect(database.url) as blocker:
        blocker.execute(PHASES[phase])
        killed = sadie.start("import", SLUG, str(path))
        until(lambda: blocked_by(database.url, blocker) or killed.poll() is not None, timeout_s=120)
        assert killed.poll() is None, killed.communicate()
        family = [killed.pid] + [p.pid for p in psutil.Process(killed.pid).children(recursive=True)]
        if phase == "stage":
            assert len(family) >= 3  # the stage's worker processes were started
        killed.send_signal(signal.SIGKILL)
        killed.wait(10)
    # Nothing it started lives on, and no transaction of its is left open.
    until(lambda: not any(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
                          for pid in family), timeout_s=15)
    until(lambda: _left_in_transaction(database.url) == 0, timeout_s=15)

    again = sadie.run("import", SLUG, str(path), timeout=180)
    assert again.returncode == 0, again.stderr
    assert end_state(database.url) == expected
    first, *_, last = jobs(database.url)
    if phase == "promotion":  # staged in full, then caught up by the next run as its run meant
        assert first[1:3] == ("promoted", "succeeded")
    else:
        assert first[1:3] == ("import" if phase == "import" else "stage", "failed")
        assert "died" in first[3] and first[4] == 0  # the reason, and nothing of it left staged
    assert last[1:3] == ("promoted", "succeeded")


def test_an_import_waiting_for_another_stops_on_ctrl_c(tmp_path, database):
    path = listings_file(tmp_path / "listings.csv", places(20))
    sadie = Sadie(tmp_path, database.url)
    sadie.add_dmo(SLUG, tmp_path)
    with psycopg.connect(database.url, autocommit=True) as other:
        dmo_id = other.execute("SELECT id FROM public.dmos WHERE slug = %s", (SLUG,)).fetchone()[0]
        other.execute("SELECT pg_advisory_lock(1, %s)", (dmo_id,))  # another step of the DMO is running
        waiting = sadie.start("import", SLUG, str(path))
        until(lambda: waiting_on_a_lock(database, 1), timeout_s=60)
        time.sleep(1)
        waiting.send_signal(signal.SIGINT)
        waiting.wait(15)
    assert waiting.returncode != 0

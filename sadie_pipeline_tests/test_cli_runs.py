"""`sadie listings run`, the daemon check that decides between a backfill and a run here, and the
progress bar of the in-process path, drawn in a real terminal (a pseudo-terminal) around `sadie`
run as a process. The backfill path, with a real daemon, is in test_daemon.py."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from dagster import DagsterInstance
from dagster._daemon.types import DaemonHeartbeat

from sadie_pipeline.backfills import HEARTBEAT_FRESH_S, BackfillOutcome, daemon_running
from sadie_pipeline.cli import main
from sadie_pipeline.instance import ensure_dagster_home
from sadie_pipeline.settings import SAMPLE_DIR

BIN = Path(sys.executable).parent


def _one_line_error(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def test_listings_run_names_what_is_wrong_in_one_line(sadie_env, database):
    assert "--dmo SLUG" in _one_line_error("listings", "run")
    assert "nobody" in _one_line_error("listings", "run", "--dmo", "nobody")
    CliRunner().invoke(main, ["dmo", "add", "visit-pei", "--name", "Tourism PEI"], catch_exceptions=False)
    assert _one_line_error("listings", "run", "--dmo", "visit-pei") == (
        "Error: nothing imported yet for visit-pei: sadie import SLUG FILE")


def test_a_daemon_counts_as_running_while_its_heartbeats_are_fresh(sadie_env):
    ensure_dagster_home()   # the instance of `sadie` (queued runs: the queue's daemon is needed too)
    instance = DagsterInstance.get()
    assert not daemon_running(instance)
    now = time.time()
    instance.add_daemon_heartbeat(DaemonHeartbeat(now - 5, "BACKFILL", "d1", None))
    assert not daemon_running(instance)   # the run queue's daemon has not beaten
    instance.add_daemon_heartbeat(DaemonHeartbeat(now - 5, "QUEUED_RUN_COORDINATOR", "d1", None))
    assert daemon_running(instance, now=now)
    assert not daemon_running(instance, now=now + HEARTBEAT_FRESH_S)   # stopped beating: gone


def _in_terminal(args: list[str], env: dict[str, str], cwd: Path, timeout_s: float = 600) -> tuple[int, str]:
    """Runs `sadie ARGS` with a pseudo-terminal as stdin, stdout and stderr; its exit status and all it wrote."""
    controller, terminal = pty.openpty()
    proc = subprocess.Popen([str(BIN / "sadie"), *args], stdin=terminal, stdout=terminal, stderr=terminal,
                            env=env, cwd=cwd, close_fds=True)
    os.close(terminal)
    out, deadline = bytearray(), time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            if select.select([controller], [], [], 1.0)[0]:
                try:
                    chunk = os.read(controller, 65536)
                except OSError:   # EIO: the process closed its terminal
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
        else:
            pytest.fail(f"sadie {' '.join(args)} still running after {timeout_s} s:\n{out.decode(errors='replace')}")
        return proc.wait(timeout=60), out.decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(controller)


@pytest.mark.slow
def test_import_and_listings_run_draw_a_progress_bar_in_a_terminal(sadie_env, database):
    env = {k: v for k, v in os.environ.items() if k not in ("SADIE_S3_BUCKET", "SADIE_DAGSTER_PG_URL")}
    CliRunner().invoke(main, ["dmo", "add", "visit-pei", "--name", "Tourism PEI", "--config",
                              str(SAMPLE_DIR / "visit-pei.config.json")], catch_exceptions=False)

    code, out = _in_terminal(["import", "visit-pei", str(SAMPLE_DIR / "visit-pei.csv")], env, sadie_env)
    assert code == 0, out
    assert "importing visit-pei" in out and "100%" in out and "Warning" not in out, out   # the bar, ended full
    assert "listing_promotion 40 records read, 38 staged" in out, out  # last asset; 2 records were errors
    assert "visit-pei: job 1: 40 read; 35 inserted" in out, out       # then the summary, as without a terminal

    code, out = _in_terminal(["import", "visit-pei", str(SAMPLE_DIR / "visit-pei.revision.csv"), "--no-promote"],
                             env, sadie_env)
    assert code == 0 and "listing_stage" in out and "35 listings now live" in out, out
    code, out = _in_terminal(["listings", "run", "--dmo", "visit-pei"], env, sadie_env)   # no daemon: here
    assert code == 0, out
    assert "backfill" not in out and "100%" in out and "listing_promotion" in out, out
    assert "visit-pei: job 2: " in out and "; 2 inserted, 5 updated" in out and "37 listings now live" in out, out


def test_a_backfill_with_a_failed_run_failed_whatever_its_status_says(monkeypatch):
    monkeypatch.delenv("SADIE_DAGSTER_URL", raising=False)
    # Dagster calls a backfill COMPLETED_SUCCESS when its assets materialised, though a check after them failed the run
    assert BackfillOutcome("b1", "COMPLETED_SUCCESS", []).problem() is None
    assert BackfillOutcome("b1", "COMPLETED_SUCCESS", ["US-FL..US-GA"]).problem() == (
        "backfill b1: runs failed for US-FL..US-GA; see http://127.0.0.1:3000/runs/b/b1")
    assert BackfillOutcome("b1", "CANCELED", []).problem().startswith("backfill b1 ended CANCELED; see ")


@pytest.mark.slow
def test_market_run_here_draws_hotels_and_the_current_asset_in_a_terminal(sadie_env, database, sb):
    env = {k: v for k, v in os.environ.items() if k not in ("SADIE_S3_BUCKET", "SADIE_DAGSTER_PG_URL")}
    env.update(sb.client_env())
    sb.configure("sites", hang_s=2.0)
    CliRunner().invoke(main, ["market", "add", "US-FL", "Key West"], catch_exceptions=False)

    code, out = _in_terminal(["market", "run", "US-FL", "--in-process"], env, sadie_env)
    assert code == 0, out
    assert "US-FL  [" in out and "100%" in out and "Warning" not in out, out
    assert re.search(r"%  hotel_\w+ \d+ hotels, 0 scored", out), out   # an asset on the way, and the figures
    last_bar = re.sub(r"\x1b\[[?0-9;]*[a-zA-Z]", "", out.rsplit("100%", 1)[1].splitlines()[0])  # no cursor codes
    with database.connect() as conn:
        hotels, scored = conn.execute("""SELECT count(*) FILTER (WHERE status <> -3), count(*) FILTER (WHERE status >= 4
                                           AND status <= 6) FROM sadie_gtm.hotels""").fetchone()
    assert last_bar.strip().endswith(f" {hotels} hotels, {scored} scored"), out   # the figures at the end
    assert "US-FL Key West: " in out

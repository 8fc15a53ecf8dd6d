"""A real Dagster webserver and daemon for the web app to launch runs through (GraphQL), as `make
dev` has them: runs are queued by the webserver (a launch returns at once) and started by the daemon."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from sadie_pipeline.instance import create_instance_storage
from sadie_pipeline_tests.web.server import free_port

BIN = Path(sys.executable).parent
INSTANCE = ("run_coordinator:\n  module: dagster.core.run_coordinator\n  class: QueuedRunCoordinator\n"
            "  config:\n    dequeue_interval_seconds: 1\n"
            "telemetry:\n  enabled: false\n")


@contextmanager
def dagster_webserver(home: Path, env: dict[str, str]) -> Iterator[str]:
    """dagster-webserver and dagster-daemon on the code location, DAGSTER_HOME `home`; yields the UI's URL."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "dagster.yaml").write_text(INSTANCE)
    create_instance_storage(home)
    port = free_port()
    full_env = {**os.environ, **env, "DAGSTER_HOME": str(home)}
    logs = [open(home / f"{name}.log", "w") for name in ("webserver", "daemon")]
    procs = [subprocess.Popen([str(BIN / "dagster-webserver"), "-m", "sadie_pipeline.definitions", "-h", "127.0.0.1",
                               "-p", str(port)], env=full_env, stdout=logs[0], stderr=subprocess.STDOUT),
             subprocess.Popen([str(BIN / "dagster-daemon"), "run", "-m", "sadie_pipeline.definitions"], env=full_env,
                              stdout=logs[1], stderr=subprocess.STDOUT)]
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(url, procs, home)
        yield url
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs:
            log.close()


def _wait(url: str, procs: list[subprocess.Popen], home: Path) -> None:
    deadline = time.monotonic() + 240
    while True:
        try:
            if httpx.get(f"{url}/server_info", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            raise RuntimeError("the Dagster webserver did not start: " + (home / "webserver.log").read_text()[-2000:])
        time.sleep(1)

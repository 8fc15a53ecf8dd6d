"""`make demo`'s section "one DMO per source type": every source type imported or pulled from the
sandbox, promoted, geocoded and its images stored, one line each; a DMO that fails, or needs a
Chromium that is not there, prints one line and the others go on."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from sadie_pipeline import demo_sources
from sadie_pipeline.demo_sources import DEMO_DMOS, DemoDmo, chromium, run_source_types_demo
from sadie_pipeline.instance import ensure_dagster_home
from sadie_pipeline.listings.runs import pull_now
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.settings import PROJECT_ROOT
from sadie_pipeline_tests.web.server import free_port

pytestmark = pytest.mark.slow  # nine DMOs through Dagster, PostgreSQL, the sandbox (and Chromium)

SOURCE_TYPES = {"csv", "xlsx", "json", "wordpress", "drupal", "partner_api", "poi", "scrape"}


def _run(monkeypatch, dmos=DEMO_DMOS, port: int = 0) -> tuple[dict, list[str]]:
    monkeypatch.setattr(demo_sources, "DEMO_DMOS", tuple(dmos))
    # 0: any free port (tests run side by side, and beside a `make dev` holding the stable one)
    monkeypatch.setenv("SADIE_SANDBOX_PORT", str(port))
    ensure_dagster_home()  # as `sadie` does before any command
    lines: list[str] = []
    results = run_source_types_demo(resolved(configured("database")), resolved(configured("object_store")),
                                    lines.append)
    return results, lines


def test_every_source_type_is_promoted_geocoded_and_its_images_stored(sadie_env, monkeypatch):
    results, lines = _run(monkeypatch)

    assert lines[0].startswith("\n== one DMO per source type")
    assert [line.split(" (")[0].strip() for line in lines[1:]] == [d.slug for d in DEMO_DMOS]  # one line each
    assert {r.source.split(",")[0] for r in results.values()} == SOURCE_TYPES
    ran = [r for r in results.values() if not r.skipped]
    if chromium() is None:
        assert results["demo-scrape-js"].skipped.startswith("no Chromium")
    else:
        assert len(ran) == len(DEMO_DMOS) and results["demo-scrape-js"].source == "scrape, javascript"
    for r in ran:
        assert r.failure is None, r.line()
        assert r.live > 0 and r.live == r.summary["inserted"], r.line()  # every record promoted
        assert r.geocodes.get("geocoded", 0) + r.from_source >= r.live - 2, r.line()  # located
        assert r.images.get("ok", 0) > 0 and not r.images.get("pending"), r.line()
        assert f"{r.slug} ({r.source}): " in r.line() and f"promoted {r.live}" in r.line()
    assert results["demo-poi"].from_source == results["demo-poi"].live  # a POI's geometry is its position
    assert all(r.geocodes.get("geocoded") for r in ran if r.slug != "demo-poi")
    assert results["demo-scrape"].images["duplicate"] == results["demo-scrape"].live  # its second photo
    assert "  demo-csv (csv): 10 records, 10 new, 0 errors; promoted 10; geocoded 6 (2 failed: 1 not found, " \
           "1 without a street address), 2 with the source's coordinates; images 11 stored, " \
           "2 near-duplicates dropped, 1 failed" in lines
    assert "  demo-wordpress (wordpress): 12 records, 12 new, 0 errors; promoted 12; geocoded 12 (0 failed); " \
           "images 12 stored, 0 near-duplicates dropped, 0 failed" in lines


def test_a_failing_source_prints_one_line_and_the_demo_goes_on(sadie_env, monkeypatch, tmp_path):
    gone = {"import": {"source_type": "wordpress", "url": "http://127.0.0.1:9/wp-json/wp/v2/listing",
                       "http": {"timeout_s": 2, "max_attempts": 1}},
            "transform": {"map_fields": {"listings.name": "title"}}}
    (tmp_path / "demo-gone.config.json").write_text(json.dumps(gone))
    (tmp_path / "demo-bad.config.json").write_text('{"import": {"source_type": "telex"}}')
    (tmp_path / "demo-scrape-js.config.json").write_text((demo_sources.SOURCES_DIR / "demo-scrape-js.config.json")
                                                         .read_text())
    monkeypatch.setattr(demo_sources, "SOURCES_DIR", tmp_path)
    monkeypatch.setattr(demo_sources, "chromium", lambda: None)
    dmos = [DemoDmo("demo-missing", "Missing"), DemoDmo("demo-bad", "Bad"), DemoDmo("demo-gone", "Gone"),
            DemoDmo("demo-scrape-js", "Js", javascript=True)]

    results, lines = _run(monkeypatch, dmos)

    assert len(lines) == 1 + len(dmos) and all("\n" not in line for line in lines[1:])
    assert lines[1].startswith("  demo-missing (source type unknown): failed: ") and "demo-missing.config.json" in lines[1]
    assert lines[2].startswith("  demo-bad (telex): failed: ")
    assert lines[3].startswith("  demo-gone (wordpress): failed: cannot pull http://127.0.0.1:9/")
    assert lines[4] == ("  demo-scrape-js (scrape, javascript): skipped: no Chromium at /usr/bin/chromium to render "
                        "its pages (apt-get install chromium, or set SADIE_CHROMIUM to one)")
    assert results["demo-gone"].live == 0


def _make_dev_environment() -> dict[str, str]:
    """The variables the Makefile exports to `make dev` (the demo partner API's key among them)."""
    text = (PROJECT_ROOT / "Makefile").read_text()
    return dict(re.findall(r"^export (SADIE_\w+) \?= (\S+)$", text, re.MULTILINE))


@contextmanager
def _sandbox_of_make_dev(port: int) -> Iterator[None]:
    """`sadie sandbox serve` as `make dev` starts it, in a process of its own, until the block ends."""
    sadie = Path(sys.executable).parent / "sadie"
    proc = subprocess.Popen([str(sadie), "sandbox", "serve", "--port", str(port), "--dns-port", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/_sandbox/stats", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "the sandbox of make dev did not start"
            time.sleep(0.5)
        yield
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_pulled_demo_dmos_are_pulled_again_from_the_sandbox_make_dev_serves(sadie_env, monkeypatch):
    """After the demo its sandbox is gone; `make dev` serves one at the same address, so each pulled
    demo DMO runs again (listing_import_job, what the UI launches) and finds its listings unchanged."""
    port = free_port()
    pulled = [d for d in DEMO_DMOS if d.sample is None and not (d.javascript and chromium() is None)]
    results, lines = _run(monkeypatch, pulled, port)
    assert all(r.failure is None and r.live > 0 for r in results.values()), lines
    database = resolved(configured("database"))
    with database.connect() as conn:
        urls = [r[0] for r in conn.execute("SELECT config_params -> 'import' ->> 'url' FROM pipeline.configs")]
    assert len(urls) == len(pulled) and all(u.startswith(f"http://127.0.0.1:{port}/") for u in urls)

    for name, value in _make_dev_environment().items():
        if name != "SADIE_SANDBOX_PORT":   # the test's own free port stands for 8765
            monkeypatch.setenv(name, value)
    with _sandbox_of_make_dev(port):
        for dmo in pulled:
            again = pull_now(database, dmo.slug)
            assert again["failure"] is None, (dmo.slug, again["failure"])
            assert again["live"] == results[dmo.slug].live and not again["summary"].get("deleted"), dmo.slug


def test_a_port_in_use_skips_the_section_with_one_line(sadie_env, monkeypatch):
    with socket.socket() as held:   # say a `make dev` serving the sandbox there
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        results, lines = _run(monkeypatch, DEMO_DMOS, port)
    assert results == {} and len(lines) == 2
    assert lines[1].startswith(f"  skipped: the sandbox did not start on port {port} (")
    assert lines[1].endswith("stop it, or set SADIE_SANDBOX_PORT to a free port for both make demo and make dev")

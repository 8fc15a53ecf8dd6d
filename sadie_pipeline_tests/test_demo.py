"""The hotel half of `make demo`: the bundled sandbox region from discovery to its exports."""

from __future__ import annotations

import shutil

import pytest

from sadie_pipeline.demo import run_hotel_demo
from sadie_pipeline.instance import ensure_dagster_home

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_the_hotel_demo_ends_with_its_excel_files_and_the_announcement(sadie_env, database):
    if not shutil.which("chromium"):
        pytest.skip("no system Chromium")
    ensure_dagster_home()   # as `sadie` does before any command
    lines: list[str] = []
    run_hotel_demo(database, lines.append)
    output = "\n".join(lines)
    files = sorted((sadie_env / "sadie" / "objects" / "exports" / "Florida").glob("*.xlsx"))
    assert files and "Florida.xlsx" in [f.name for f in files]
    for f in files:
        assert f.as_uri() in output                      # every file's path is printed
    assert "uploaded to the sandbox's OneDrive" in output
    assert "== Slack #" in output and "Hotel leads exported: Florida" in output

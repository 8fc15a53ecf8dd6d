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
    # the owner layers: each layer's completed count, the people found and their verified addresses
    owners = output.split("== owners and verified addresses: US-FL ==", 1)[1].split("\n== ", 1)[0]
    for layer in ("rdap", "whois", "whois_history", "gov_data", "ct_certs", "reviews", "cc_contacts",
                  "gmaps_enrich", "email_verify"):
        assert f" {layer} " in owners.split("\n")[1], (layer, owners)
    assert "owners and managers named" in owners and "gov_registry" in owners
    assert "verified_smtp" in owners                  # at least one address checked over SMTP, printed
    # one region discovered from all five sources, a line each, each finding hotels
    after = output.split("discovery sources of US-FL:\n", 1)[1].splitlines()
    found = {x.split(":", 1)[0].strip(): x for x in after[:next(i for i, x in enumerate(after) if not x.startswith("    "))]}
    assert {"serper", "csv", "licence", "crawl", "engine_client"} <= set(found), found

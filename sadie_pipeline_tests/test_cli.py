"""The `sadie` command line, run as a person would against the test database."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from dagster import DagsterInstance

from sadie_pipeline.cli import main
from sadie_pipeline.settings import SAMPLE_DIR

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL


def _run(*args):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result


def test_db_url_and_idempotent_upgrade(sadie_env, database):
    assert _run("db", "url").output.strip() == database.url
    assert _run("db", "upgrade").output.strip() == "database is up to date"


def test_dmo_add_registers_config_and_partition(sadie_env, database):
    out = _run("dmo", "add", "visit-pei", "--name", "Tourism PEI", "--config", str(SAMPLE_DIR / "visit-pei.config.json"))
    assert out.exit_code == 0, out.output
    assert "visit-pei" in DagsterInstance.get().get_dynamic_partitions("dmo")
    listing = _run("dmo", "list").output
    assert "visit-pei" in listing and "config v1" in listing
    with database.connect() as conn:
        assert conn.execute("SELECT config_params -> 'transform' -> 'map_fields' ->> 'listings.name' "
                            "FROM pipeline.configs").fetchone()[0] == "Business Name"


def test_dmo_add_rejects_a_bad_config(sadie_env, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"transform": {"map_fields": {"listings.nmae": "Name"}}}))
    result = CliRunner().invoke(main, ["dmo", "add", "x", "--name", "X", "--config", str(bad)])
    assert result.exit_code != 0 and "listings.nmae" in result.output


def test_import_review_and_promote(sadie_env, database):
    _run("dmo", "add", "visit-pei", "--name", "Tourism PEI", "--config", str(SAMPLE_DIR / "visit-pei.config.json"))
    out = _run("import", "visit-pei", str(SAMPLE_DIR / "visit-pei.csv"))
    assert out.exit_code == 0
    assert "40 read; 35 inserted" in out.output and "3 duplicate" in out.output and "35 listings now live" in out.output

    out = _run("import", "visit-pei", str(SAMPLE_DIR / "visit-pei.revision.csv"), "--no-promote")
    assert "2 inserted, 5 updated, 27 unchanged" in out.output and "35 listings now live" in out.output

    pending = _run("review", "list", "visit-pei").output
    assert "absent from a full import" in pending and "6 waiting for review" in pending
    ids = [line.split()[0] for line in pending.splitlines() if "absent from a full import" in line]
    assert _run("review", "reject", ids[0]).output.strip() == "rejected 1"
    assert _run("review", "approve", *ids[1:]).output.strip() == "approved 2"
    out = _run("promote", "visit-pei")
    assert "visit-pei: promoted; 35 listings now live" in out.output   # +2 new, -2 approved deletions


def test_import_of_an_unreadable_file_exits_with_a_reason(sadie_env, tmp_path):
    _run("dmo", "add", "visit-pei", "--name", "Tourism PEI", "--config", str(SAMPLE_DIR / "visit-pei.config.json"))
    png = tmp_path / "listings.csv"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    result = CliRunner().invoke(main, ["import", "visit-pei", str(png)])
    assert result.exit_code == 1
    assert "PNG" in result.output and len(result.output.strip().splitlines()) == 1


def test_import_into_an_unknown_dmo(sadie_env):
    result = CliRunner().invoke(main, ["import", "nobody", str(SAMPLE_DIR / "visit-pei.csv")])
    assert result.exit_code != 0


def test_market_add_and_list(sadie_env, database):
    out = _run("market", "add", "us-fl", "Miami", "Orlando", "Key  West")
    assert out.output.strip() == "US-FL: Key West, Miami, Orlando"
    _run("market", "add", "US-FL", "Miami")          # adding again changes nothing
    assert _run("market", "list").output.strip() == "US-FL: Key West, Miami, Orlando"
    bad = CliRunner().invoke(main, ["market", "add", "US-XX", "Nowhere"])
    assert bad.exit_code != 0 and "ISO 3166-2" in bad.output


@pytest.mark.browser
@pytest.mark.slow
def test_market_run_goes_from_discovery_to_the_city_export(sadie_env, database, sb, monkeypatch):
    for name, value in sb.client_env().items():
        monkeypatch.setenv(name, value)
    sb.configure("sites", hang_s=2.0)
    _run("market", "add", "US-FL", "Key West", "Orlando")
    out = _run("market", "run", "US-FL", "--city", "Key West")
    assert out.exit_code == 0, out.output
    assert out.output.startswith("US-FL Key West: 9 hotels")
    assert "Orlando" not in out.output
    assert all(v not in out.output for k, v in sb.client_env().items() if "KEY" in k or "SECRET" in k or "TOKEN" in k)
    with database.connect() as conn:
        launched = conn.execute("SELECT count(*) FROM sadie_gtm.hotels WHERE status = 6").fetchone()[0]
    assert launched > 0 and f"{launched} exported" in out.output
    # a run narrowed to some cities writes their files, not the state's (which would miss the others)
    assert [f["path"] for f in sb.inspect("graph")["files"]] == ["Sadie Leads/Florida/Key West.xlsx"]
    assert (sadie_env / "sadie" / "objects" / "exports" / "Florida" / "Key West.xlsx").exists()

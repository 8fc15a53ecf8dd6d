"""The `sadie` command line, run as a person would against the test database."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner
from dagster import DagsterInstance

from sadie_pipeline.cli import main
from sadie_pipeline.settings import SAMPLE_DIR
from sadie_pipeline_tests.fixtures.postgres import database_url
from sadie_pipeline_tests.listings.sources_helpers import wordpress_config

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL


def _run(*args):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result


def test_db_url_and_idempotent_upgrade(sadie_env, database):
    assert _run("db", "url").output.strip() == database.url
    assert _run("db", "upgrade").output.strip() == "database is up to date"


def test_db_upgrade_creates_the_dagster_instance_storage_once(sadie_env, database):
    """`make dev` starts the webserver and the daemon at once on this instance: its storage must
    exist, stamped once, before they do (two stamps: "more than one head present")."""
    import sqlite3

    _run("db", "upgrade")
    for db in ("history/runs.db", "schedules/schedules.db"):
        with sqlite3.connect(sadie_env / "dagster" / db) as conn:
            assert len(conn.execute("SELECT version_num FROM alembic_version").fetchall()) == 1


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
    # 9 from Serper and the CSV list, 6 independents only Florida's licence register knows
    assert out.output.startswith("US-FL Key West: 15 hotels")
    assert "Orlando" not in out.output
    assert all(v not in out.output for k, v in sb.client_env().items() if "KEY" in k or "SECRET" in k or "TOKEN" in k)
    with database.connect() as conn:
        launched = conn.execute("SELECT count(*) FROM sadie_gtm.hotels WHERE status = 6").fetchone()[0]
    assert launched > 0 and f"{launched} exported" in out.output
    # a run narrowed to some cities writes their files, not the state's (which would miss the others)
    assert [f["path"] for f in sb.inspect("graph")["files"]] == ["Sadie Leads/Florida/Key West.xlsx"]
    assert (sadie_env / "sadie" / "objects" / "exports" / "Florida" / "Key West.xlsx").exists()


# --- errors a person can act on: one line, status 1, no traceback -----------------------------

def _fails(*args, code: int = 1) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == code, (result.output, result.exception)
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.mark.parametrize("slug", ["../evil", "a/b", "", "x" * 300, "Visit-PEI", "-dash", "dmo_a", "dmo a"])
def test_dmo_add_rejects_a_bad_slug(sadie_env, database, slug):
    line = _fails("dmo", "add", "--name", "Evil", "--", slug)
    assert line.startswith("Error: bad DMO slug ") and "lower-case letters, digits and hyphens" in line
    assert len(line) < 200
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM public.dmos").fetchone()[0] == 0
    assert slug not in DagsterInstance.get().get_dynamic_partitions("dmo")


def test_upsert_dmo_rejects_a_bad_slug_whoever_calls_it(sadie_env, database):
    from sadie_pipeline.listings.repository import BadSlugError, upsert_dmo
    from sadie_pipeline.migrations import upgrade

    upgrade(database.url)
    with database.connect() as conn:
        with pytest.raises(BadSlugError, match="bad DMO slug '../evil'"):
            upsert_dmo(conn, "../evil", "Evil", {})
        assert upsert_dmo(conn, "a" * 63, "Long", {}).slug == "a" * 63
    assert issubclass(BadSlugError, ValueError)


def test_dmo_add_names_where_the_json_is_malformed(sadie_env, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "transform": {\n    "map_fields": {"listings.name": "Name",}\n  }\n}\n')
    line = _fails("dmo", "add", "x", "--name", "X", "--config", str(bad))
    assert line.startswith(f"{bad}:3:") and "Expecting property name" in line


def test_dmo_add_names_every_config_problem_with_its_line(sadie_env, database, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"validate": {"max_error_rate": 5}, "stage": {"auto_match_treshold": 0.9}}, indent=2))
    result = CliRunner().invoke(main, ["dmo", "add", "x", "--name", "X", "--config", str(bad)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines() == [
        f"{bad}:3:5: validate.max_error_rate: Input should be less than or equal to 1 (got 5)",
        f"{bad}:6:5: stage.auto_match_treshold: unknown key (did you mean 'auto_match_threshold'?)",
    ]
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM public.dmos").fetchone()[0] == 0


def test_dmo_add_with_a_missing_config_file(sadie_env, tmp_path):
    line = _fails("dmo", "add", "x", "--name", "X", "--config", str(tmp_path / "nope.json"))
    assert str(tmp_path / "nope.json") in line and "No such file" in line


def test_dmo_validate(sadie_env, tmp_path):
    good = SAMPLE_DIR / "visit-pei.config.json"
    ok = CliRunner().invoke(main, ["dmo", "validate", str(good)])
    assert ok.exit_code == 0 and ok.output == f"{good}: ok\n"

    bad = tmp_path / "bad.json"
    bad.write_text('{"import": {"max_records_per_file": -5},\n "transform": {"map_fields": {"listings.name": 0}}}')
    result = CliRunner().invoke(main, ["dmo", "validate", str(bad)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines() == [
        f"{bad}:1:13: import.max_records_per_file: Input should be greater than 0 (got -5)",
        f"{bad}:2:31: transform.map_fields.listings.name: Input should be a column name or a 1-based column position (got 0)",
    ]
    assert _fails("dmo", "validate", str(tmp_path / "nope.json")).startswith(f"{tmp_path / 'nope.json'}: ")
    (tmp_path / "list.json").write_text("[]")
    assert _fails("dmo", "validate", str(tmp_path / "list.json")) == \
        f"{tmp_path / 'list.json'}:1:1: the config should be a JSON object (got list)"


NO_DMO = "Error: no DMO 'nobody'; add it with sadie dmo add nobody --name ..."


@pytest.mark.parametrize("args", [
    ["import", "nobody", str(SAMPLE_DIR / "visit-pei.csv")],
    ["import", "nobody", str(SAMPLE_DIR / "visit-pei.csv"), "--no-promote"],
    ["promote", "nobody"],
    ["review", "list", "nobody"],
    ["review", "approve", "--all", "nobody"],
], ids=lambda a: " ".join(a[:2]))
def test_an_unknown_dmo_is_one_line(sadie_env, database, args):
    _run("db", "upgrade")
    assert _fails(*args) == NO_DMO
    assert "nobody" not in DagsterInstance.get().get_dynamic_partitions("dmo")


def test_an_unknown_bad_slug_does_not_suggest_adding_it(sadie_env, database):
    _run("db", "upgrade")
    line = _fails("review", "list", "../x")
    assert line.startswith("Error: no DMO '../x'; a DMO slug is") and "dmo add" not in line


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("args", [
    ["db", "upgrade"],
    ["dmo", "list"],
    ["dmo", "add", "visit-pei", "--name", "PEI"],
    ["import", "visit-pei", str(SAMPLE_DIR / "visit-pei.csv")],
    ["review", "list"],
    ["review", "approve", "1"],
    ["promote", "visit-pei"],
], ids=lambda a: " ".join(a[:2]))
def test_an_unreachable_database_is_one_line(sadie_env, monkeypatch, args):
    port = _closed_port()
    monkeypatch.setenv("SADIE_DATABASE_URL", f"postgresql://postgres@127.0.0.1:{port}/sadie")
    assert _fails(*args) == f"Error: cannot reach the database at 127.0.0.1:{port} (connection refused)"


def test_a_database_that_refuses_us_gives_postgres_reason(sadie_env, monkeypatch, database):
    url = database_url(database.url, "no_such_database_here")
    monkeypatch.setenv("SADIE_DATABASE_URL", url)
    line = _fails("dmo", "list")
    assert line.startswith("Error: cannot reach the database at ") and 'database "no_such_database_here" does not exist' in line


def test_bugs_still_show_their_traceback(sadie_env, database, monkeypatch):
    import psycopg

    from sadie_pipeline.listings import review

    _run("db", "upgrade")
    for error in (RuntimeError("boom"), psycopg.OperationalError("server closed the connection unexpectedly")):
        def broken(*_args, error=error, **_kwargs):
            raise error
        monkeypatch.setattr(review, "list_pending", broken)
        result = CliRunner().invoke(main, ["review", "list"])
        assert result.exception is error  # not turned into a one-line message


def _staged_rows(database) -> dict[str, int]:
    """One staged row in each review state, for a DMO added through the CLI."""
    _run("dmo", "add", "dmo-a", "--name", "A")
    states = {"pending": ("pending", False), "pending2": ("pending", False), "approved": ("approved", False),
              "rejected": ("rejected", False), "superseded": ("superseded", False),
              "promoted": ("approved", True), "unreviewed": (None, False)}
    with database.connect() as conn:
        dmo_id = conn.execute("SELECT id FROM public.dmos WHERE slug = 'dmo-a'").fetchone()[0]
        job = conn.execute("INSERT INTO pipeline.jobs (dmo_id, status, stage) VALUES (%s, 'succeeded', 'stage') "
                           "RETURNING id", (dmo_id,)).fetchone()[0]
        return {name: conn.execute(
            """INSERT INTO staging.listings (job_id, dmo_id, source_id, name, action, review_status, promoted_at)
               VALUES (%s, %s, %s, %s, 'delete', %s, CASE WHEN %s THEN now() END) RETURNING id""",
            (job, dmo_id, name, name, status, promoted)).fetchone()[0] for name, (status, promoted) in states.items()}


def test_approving_rows_that_cannot_be_approved_says_why_per_id(sadie_env, database):
    rows = _staged_rows(database)
    asked = [rows["pending"], 999999, rows["approved"], rows["rejected"], rows["superseded"], rows["promoted"],
             rows["unreviewed"]]
    result = CliRunner().invoke(main, ["review", "approve", *map(str, asked)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.splitlines() == [
        "approved 1",
        "999999: no staged row with this id",
        f"{rows['approved']}: already approved",
        f"{rows['rejected']}: already rejected",
        f"{rows['superseded']}: superseded by a later import",
        f"{rows['promoted']}: already promoted",
        f"{rows['unreviewed']}: not waiting for review",
    ]
    with database.connect() as conn:   # the pending one was applied all the same
        assert conn.execute("SELECT review_status FROM staging.listings WHERE id = %s",
                            (rows["pending"],)).fetchone()[0] == "approved"
        assert conn.execute("SELECT count(*) FROM pipeline.review_decisions").fetchone()[0] == 1
    assert _fails("review", "approve", "999999") == "999999: no staged row with this id"
    assert _fails("review", "approve", str(rows["pending"])) == f"{rows['pending']}: already approved"


def test_rejecting_rows_that_cannot_be_rejected_says_why_per_id(sadie_env, database):
    rows = _staged_rows(database)
    result = CliRunner().invoke(main, ["review", "reject", str(rows["pending2"]), str(rows["promoted"]), "424242"])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "rejected 1", f"{rows['promoted']}: already promoted", "424242: no staged row with this id"]
    assert _fails("review", "reject", str(rows["pending2"])) == f"{rows['pending2']}: already rejected"
    ok = _run("review", "reject", str(rows["pending"]))
    assert ok.exit_code == 0 and ok.output == "rejected 1\n"


def test_help_and_version_options():
    help_text = _run("-h").output
    assert "--version" in help_text and "Commands:" in help_text
    assert _run("db", "-h").exit_code == 0
    version = _run("--version")
    assert version.exit_code == 0 and version.output.startswith("sadie, version ")


def test_the_env_file_of_the_working_directory_is_loaded_as_dagster_dev_loads_it(sadie_env, tmp_path, monkeypatch):
    other = "postgresql://postgres@127.0.0.1:5432/from_dotenv"
    (tmp_path / ".env").write_text(f"# as for dagster dev\nSADIE_DATABASE_URL={other}\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SADIE_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/from_environment")  # restored after
    assert _run("db", "url").output.strip() == other


def test_every_command_and_option_has_help_text():
    def missing(command, path):
        if not (command.help or command.short_help):
            yield path
        yield from (f"{path} {p.name}" for p in command.params
                    if isinstance(p, click.Option) and not p.help and p.name not in ("help", "version"))
        for name, sub in getattr(command, "commands", {}).items():
            yield from missing(sub, f"{path} {name}")

    assert list(missing(main, "sadie")) == []


def test_import_without_a_file_pulls_the_configured_source(sadie_env, tmp_path, sb):
    config = tmp_path / "wp.json"
    config.write_text(json.dumps({**wordpress_config(sb), "validate": {"required_fields": ["listings.name"]}}
                                 | {"import": {**wordpress_config(sb)["import"], "schedule": "daily"}}))
    assert _run("dmo", "add", "wp-demo", "--name", "WP Demo", "--config", str(config)).exit_code == 0
    listing = _run("dmo", "list").output
    assert "wordpress" in listing and "next run " in listing and "03:00 UTC (daily)" in listing

    out = _run("import", "wp-demo")
    assert out.exit_code == 0, out.output
    assert "24 read; 24 inserted" in out.output and "24 listings now live" in out.output

    _run("dmo", "add", "visit-pei", "--name", "Tourism PEI", "--config", str(SAMPLE_DIR / "visit-pei.config.json"))
    files_only = CliRunner().invoke(main, ["import", "visit-pei"])
    assert files_only.exit_code != 0
    assert "visit-pei's source (csv) has no url to pull from: give a FILE" in files_only.output

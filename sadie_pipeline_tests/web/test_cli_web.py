"""`sadie user add|list|remove` (password from stdin, argon2 hash) and `sadie apikey add|list|revoke`."""

from __future__ import annotations

from click.testing import CliRunner

from sadie_pipeline.cli import main
from sadie_pipeline.web.users import api_key, authenticate
from sadie_pipeline_tests.web.data import add_dmo


def test_users_are_added_listed_and_removed(sadie_env, database):
    with database.connect() as conn:
        add_dmo(conn, "visit-pei")
    runner = CliRunner()
    added = runner.invoke(main, ["user", "add", "ana", "--role", "reviewer", "--dmo", "visit-pei"],
                          input="s3cret pass\n")
    assert added.exit_code == 0, added.output
    assert "user ana: reviewer of visit-pei" in added.output
    with database.connect() as conn:
        stored = conn.execute("SELECT password_hash FROM pipeline.web_users WHERE name = 'ana'").fetchone()[0]
        assert stored.startswith("$argon2") and "s3cret" not in stored
        assert authenticate(conn, "ana", "s3cret pass").dmos == ("visit-pei",)
        assert authenticate(conn, "ana", "wrong") is None
    listed = runner.invoke(main, ["user", "list"])
    assert "ana" in listed.output and "reviewer" in listed.output and "visit-pei" in listed.output
    unknown = runner.invoke(main, ["user", "add", "bob", "--role", "viewer", "--dmo", "nowhere"], input="pw\n")
    assert unknown.exit_code == 1 and "no DMO 'nowhere'" in unknown.output
    empty = runner.invoke(main, ["user", "add", "bob", "--role", "viewer"], input="")
    assert empty.exit_code == 1 and "no password on stdin" in empty.output
    assert runner.invoke(main, ["user", "remove", "ana"]).exit_code == 0
    gone = runner.invoke(main, ["user", "remove", "ana"])
    assert gone.exit_code == 1 and "no user 'ana'" in gone.output


def test_api_keys_are_shown_once_and_revoked(sadie_env, database):
    runner = CliRunner()
    added = runner.invoke(main, ["apikey", "add", "website", "--per-minute", "120"])
    assert added.exit_code == 0, added.output
    key = added.output.strip()
    with database.connect() as conn:
        assert api_key(conn, key).requests_per_minute == 120
        assert conn.execute("SELECT count(*) FROM pipeline.api_keys WHERE key_hash = %s", (key,)).fetchone()[0] == 0
    assert "website" in runner.invoke(main, ["apikey", "list"]).output
    assert runner.invoke(main, ["apikey", "revoke", "website"]).exit_code == 0
    with database.connect() as conn:
        assert api_key(conn, key) is None

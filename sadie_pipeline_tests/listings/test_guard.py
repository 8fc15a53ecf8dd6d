"""The guard: a stage that fails its error-rate check is promoted by nothing (the promotion asset,
`sadie promote`, a later job's stage) until someone accepts its errors, which the job records."""

from __future__ import annotations

import getpass
import json

import pytest
from click.testing import CliRunner
from dagster import materialize

from sadie_pipeline.cli import main
from sadie_pipeline.listings.assets import listing_promotion
from sadie_pipeline.listings.promote import job_summary
from sadie_pipeline.listings.runs import summary_line
from sadie_pipeline_tests.listings.helpers import (
    GRILL,
    INN,
    PUB,
    import_file,
    metadata,
    promote,
    register,
    write_csv,
)
from sadie_pipeline_tests.listings.helpers import SIMPLE_CONFIG as CONFIG

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL

SLUG = "dmo-a"
GUARDED = {**CONFIG, "validate": {"max_error_rate": 0.1}}
BAD = [{"Name": "", "Address": "1 Main St", "City": "Souris"}] * 3  # 3 of 5 records rejected: error rate 0.6


def _job(database, job_id: int) -> dict:
    with database.connect() as conn:
        row = conn.execute("""SELECT stage, status, check_passed, error_rate, superseded_by, errors_accepted_by,
                                     errors_accepted_at FROM pipeline.jobs WHERE id = %s""", (job_id,)).fetchone()
    keys = ("stage", "status", "check_passed", "error_rate", "superseded_by", "accepted_by", "accepted_at")
    return dict(zip(keys, row))


def _listings(database) -> list[str]:
    with database.connect() as conn:
        return [r[0] for r in conn.execute("SELECT name FROM public.listings ORDER BY name")]


def _blocked_import(database, store, instance, tmp_path) -> int:
    """A job of SLUG staged with its check failed (its own run's promotion stopped by the check)."""
    register(database, instance, SLUG, GUARDED)
    result, summary = import_file(database, store, instance, SLUG, write_csv(tmp_path / "bad.csv", [GRILL, INN, *BAD]),
                                  raise_on_error=False)
    assert not result.success and not result.asset_materializations_for_node("listing_promotion")
    job = _job(database, summary["job_id"])
    assert (job["stage"], job["status"], job["check_passed"], float(job["error_rate"])) == \
        ("staged", "succeeded", False, 0.6)
    return summary["job_id"]


def test_a_promotion_of_its_own_does_not_take_a_job_that_failed_its_check(tmp_path, database, local_object_store,
                                                                          instance):
    job_id = _blocked_import(database, local_object_store, instance, tmp_path)

    result = promote(database, local_object_store, instance, SLUG)

    meta = metadata(result, "listing_promotion")
    assert meta["jobs_blocked"] == [job_id] and meta["jobs_promoted"] == [] and meta["jobs_errors_accepted"] == []
    assert _listings(database) == []
    job = _job(database, job_id)
    assert (job["stage"], job["check_passed"], job["accepted_by"], job["accepted_at"]) == ("staged", False, None, None)


def test_the_run_config_flag_accepts_the_errors_and_promotes(tmp_path, database, local_object_store, instance):
    job_id = _blocked_import(database, local_object_store, instance, tmp_path)

    result = materialize([listing_promotion], partition_key=SLUG, instance=instance,
                         resources={"database": database, "object_store": local_object_store},
                         run_config={"ops": {"listing_promotion": {"config": {"accept_errors": True,
                                                                               "accepted_by": "ana"}}}})

    meta = metadata(result, "listing_promotion")
    assert meta["jobs_promoted"] == [job_id] and meta["jobs_errors_accepted"] == [job_id] and meta["jobs_blocked"] == []
    assert _listings(database) == sorted([GRILL["Name"], INN["Name"]])
    job = _job(database, job_id)
    assert (job["stage"], job["accepted_by"]) == ("promoted", "ana") and job["accepted_at"] is not None


def _cli(*args: str):
    return CliRunner().invoke(main, list(args))


def _cli_blocked_import(tmp_path) -> None:
    """Through the CLI: SLUG added with the guarded config, then a file failing the check imported."""
    config = tmp_path / "guarded.json"
    config.write_text(json.dumps(GUARDED))
    assert _cli("dmo", "add", SLUG, "--name", "A", "--config", str(config)).exit_code == 0
    imported = _cli("import", SLUG, str(write_csv(tmp_path / "bad.csv", [GRILL, INN, *BAD])))
    assert imported.exit_code == 1 and "--accept-errors" in imported.output, imported.output


def test_sadie_promote_refuses_a_job_that_failed_its_check_in_one_line(sadie_env, tmp_path, database):
    _cli_blocked_import(tmp_path)

    result = _cli("promote", SLUG)

    assert result.exit_code != 0 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "job 1" in lines[0] and "0.6" in lines[0] and "--accept-errors" in lines[0]
    assert _listings(database) == []
    job = _job(database, 1)
    assert (job["stage"], job["check_passed"], job["accepted_by"]) == ("staged", False, None)


def test_sadie_promote_accept_errors_promotes_and_records_who(sadie_env, tmp_path, database):
    _cli_blocked_import(tmp_path)

    result = _cli("promote", SLUG, "--accept-errors")

    assert result.exit_code == 0, result.output
    assert f"{SLUG}: promoted; 2 listings now live" in result.output
    assert _listings(database) == sorted([GRILL["Name"], INN["Name"]])
    job = _job(database, 1)
    assert job["stage"] == "promoted" and getpass.getuser() in job["accepted_by"] and job["accepted_at"] is not None
    again = _cli("promote", SLUG)  # nothing blocked any more
    assert again.exit_code == 0, again.output


def test_a_later_import_supersedes_a_blocked_job_without_promoting_it(tmp_path, database, local_object_store,
                                                                      instance):
    blocked = _blocked_import(database, local_object_store, instance, tmp_path)

    result, later = import_file(database, local_object_store, instance, SLUG, write_csv(tmp_path / "good.csv", [PUB]))

    stage = metadata(result, "listing_stage")
    assert stage["jobs_staged"] == [later["job_id"]] and stage["jobs_promoted_first"] == []
    assert _listings(database) == [PUB["Name"]]  # none of the blocked job's records
    job = _job(database, blocked)
    assert (job["stage"], job["superseded_by"], job["accepted_at"]) == ("superseded", later["job_id"], None)
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM staging.listings WHERE job_id = %s AND promoted_at IS NOT NULL",
                            (blocked,)).fetchone()[0] == 0
        outcome = {"job_id": blocked, "summary": job_summary(conn, blocked), "live": 1}
    line = summary_line(SLUG, outcome)
    assert f"superseded by job {later['job_id']}" in line and "inserted" not in line
    # Accepting errors later promotes nothing of it: it is no longer waiting.
    accepted = materialize([listing_promotion], partition_key=SLUG, instance=instance,
                           resources={"database": database, "object_store": local_object_store},
                           run_config={"ops": {"listing_promotion": {"config": {"accept_errors": True}}}})
    assert metadata(accepted, "listing_promotion")["jobs_errors_accepted"] == []
    assert _listings(database) == [PUB["Name"]]


def test_dmo_add_refuses_an_error_rate_over_one(sadie_env, tmp_path, database):
    config = tmp_path / "rate.json"
    config.write_text(json.dumps({**CONFIG, "validate": {"max_error_rate": 5}}))

    result = _cli("dmo", "add", SLUG, "--name", "A", "--config", str(config))

    assert result.exit_code == 1 and "Traceback" not in result.output
    [line] = result.output.strip().splitlines()
    assert "validate.max_error_rate" in line and "(got 5)" in line
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM public.dmos").fetchone()[0] == 0

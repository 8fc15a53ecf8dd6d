"""Retention against real PostgreSQL and moto's S3 server: old rows are archived as gzipped JSON
lines, then deleted; what is still needed stays; a failed archive deletes nothing; a rerun is a
no-op."""

from __future__ import annotations

import gzip
import json

import pytest
from dagster import DefaultScheduleStatus, RunConfig, build_schedule_context

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.definitions import defs
from sadie_pipeline.operations.retention import RetentionConfig, archive_old_rows, retention_job
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.reliability import ItemOutcome, record_dead_letters

PREFIX = "archive/retention/"


def _job(conn, dmo, stage, days_ago, config="A", status="succeeded"):
    job = conn.execute("""INSERT INTO pipeline.jobs (dmo_id, status, stage, raw_version, transform_version, finished_at)
                          VALUES (%s, %s, %s, 'r1', 't1', now() - make_interval(days => %s)) RETURNING id""",
                       (dmo, status, stage, days_ago)).fetchone()[0]
    conn.execute("""INSERT INTO pipeline.job_configs (job_id, dmo_id, source_type, data_domain, config_params,
                                                      schedule, source_updated_at)
                    VALUES (%s, %s, 'csv', 'listings', %s, 'manual', now())""", (job, dmo, json.dumps({"c": config})))
    conn.execute("""INSERT INTO pipeline.job_errors (job_id, rec_num, error_type, error_message, created_at)
                    VALUES (%s, 7, 'missing_name', 'no name', now() - make_interval(days => %s))""", (job, days_ago))
    return job


def _row(conn, job, dmo, source_id, *, reused_from=None, review=None, promoted=True):
    row = conn.execute(
        """INSERT INTO staging.listings (job_id, dmo_id, source_id, name, row_kind, reused_from, review_status,
                                         promoted_at, action)
           VALUES (%s, %s, %s, %s, %s, %s, %s, CASE WHEN %s THEN now() END, 'insert') RETURNING id""",
        (job, dmo, source_id, f"Listing {source_id}", "thin" if reused_from else "full", reused_from, review,
         promoted)).fetchone()[0]
    if not reused_from:
        conn.execute("INSERT INTO staging.listing_info (id, job_id, description) VALUES (%s, %s, %s)",
                     (row, job, f"about {source_id}"))
    return row


@pytest.fixture
def old_and_new(database):
    """Rows on both sides of the 90-day line; returns the ids of the rows that must go."""
    with database.connect() as conn:
        dmo = conn.execute("INSERT INTO public.dmos (slug, name) VALUES ('visit-x', 'Visit X') RETURNING id").fetchone()[0]
        j1 = _job(conn, dmo, "promoted", 200)             # old, not the latest: its rows go...
        gone = _row(conn, j1, dmo, "a")
        kept_data = _row(conn, j1, dmo, "b")              # ...but a thin row of j3 holds its data here
        j2 = _job(conn, dmo, "promoted", 150)             # old, but one row is still waiting for a person
        _row(conn, j2, dmo, "c")
        _row(conn, j2, dmo, "d", review="pending", promoted=False)
        j3 = _job(conn, dmo, "promoted", 100)             # old, but the DMO's next stage compares against it
        _row(conn, j3, dmo, "b", reused_from=kept_data)
        j4 = _job(conn, dmo, "staged", 300, config="B")   # old, not promoted
        _row(conn, j4, dmo, "e", promoted=False)
        hotel_rows = conn.execute(
            "INSERT INTO sadie_gtm.audit_log (hotel_id, old_status, new_status, changed_at) VALUES "
            "(1, 0, 1, now() - interval '120 days'), (1, 1, 3, now() - interval '10 days') RETURNING id").fetchall()
        for key in ("hotel:1", "hotel:2", "hotel:3"):
            record_dead_letters(conn, "room_counts", [ItemOutcome(key, "dead_letter", error_class=ErrorClass.TRANSIENT,
                                                                 attempts=3, last_error="timeout")])
        record_dead_letters(conn, "room_counts", [ItemOutcome("hotel:1", "ok"), ItemOutcome("hotel:2", "ok")])
        conn.execute("UPDATE pipeline.dead_letters SET resolved_at = now() - interval '100 days', "
                     "last_failed_at = now() - interval '100 days' WHERE item_key = 'hotel:1'")
        conn.execute("UPDATE pipeline.dead_letters SET last_failed_at = now() - interval '400 days' "
                     "WHERE item_key = 'hotel:3'")  # old but unresolved: still work to do
        dead = conn.execute("SELECT id FROM pipeline.dead_letters WHERE item_key = 'hotel:1'").fetchone()[0]
        job_errors = {r[0] for r in conn.execute("SELECT id FROM pipeline.job_errors WHERE job_id <> %s", (j4,))}
    return {"staging.listings": {gone}, "sadie_gtm.audit_log": {hotel_rows[0][0]},
            "pipeline.dead_letters": {dead}, "pipeline.job_errors": job_errors}


def _counts(database):
    with database.connect() as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in (
            "staging.listings", "staging.listing_info", "sadie_gtm.audit_log", "pipeline.dead_letters",
            "pipeline.job_errors")}


def _archived(store):
    """{table: [rows]} of every archive file."""
    out: dict[str, list[dict]] = {}
    for key in store.list_keys(PREFIX):
        table = key[len(PREFIX):].split("/")[0]
        lines = gzip.decompress(store.get_bytes(key)).decode().splitlines()
        out.setdefault(table, []).extend(json.loads(line) for line in lines)
    return out


def test_old_rows_are_archived_then_deleted_and_a_rerun_does_nothing(database, s3_object_store, instance,
                                                                      old_and_new):
    before = _counts(database)
    result = retention_job.execute_in_process(
        instance=instance, resources={"database": database, "object_store": s3_object_store},
        run_config=RunConfig(ops={"archive_old_rows_op": RetentionConfig(days=90, batch_size=1)}))
    assert result.success
    after = _counts(database)
    assert {t: before[t] - after[t] for t in after} == {
        "staging.listings": 1, "staging.listing_info": 1, "sadie_gtm.audit_log": 1, "pipeline.dead_letters": 1,
        "pipeline.job_errors": 3}  # those of the promoted jobs j1-j3; j4 is not finished

    archived = _archived(s3_object_store)
    assert {r["id"] for r in archived["staging.listings"]} == old_and_new["staging.listings"]
    [listing] = archived["staging.listings"]
    assert listing["source_id"] == "a" and listing["listing_info"]["description"] == "about a"
    for table in ("sadie_gtm.audit_log", "pipeline.dead_letters", "pipeline.job_errors"):
        assert sorted(r["id"] for r in archived[table]) == sorted(old_and_new[table])
    with database.connect() as conn:
        source_ids = sorted(r[0] for r in conn.execute("SELECT source_id FROM staging.listings"))
    assert source_ids == ["b", "b", "c", "d", "e"]

    keys = s3_object_store.list_keys(PREFIX)
    again = archive_old_rows(database, s3_object_store, days=90)
    assert all(figures == {"rows": 0, "files": []} for figures in again.values())
    assert s3_object_store.list_keys(PREFIX) == keys and _counts(database) == after


def test_job_errors_of_unfinished_jobs_stay(database, local_object_store, old_and_new):
    archive_old_rows(database, local_object_store, days=90)
    with database.connect() as conn:
        stages = sorted(r[0] for r in conn.execute(
            "SELECT j.stage FROM pipeline.job_errors e JOIN pipeline.jobs j ON j.id = e.job_id"))
    assert stages == ["staged"]


def test_an_archive_that_cannot_be_written_deletes_nothing(database, s3_server, old_and_new):
    before = _counts(database)
    with pytest.raises(Exception, match="NoSuchBucket"):
        archive_old_rows(database, ObjectStore(bucket="no-such-bucket", endpoint_url=s3_server), days=90)
    assert _counts(database) == before


def test_the_schedule_passes_the_configured_age(monkeypatch):
    monkeypatch.setenv("SADIE_RETENTION_DAYS", "30")
    schedule = defs.get_schedule_def("retention_schedule")
    request = schedule(build_schedule_context())
    assert request.run_config["ops"]["archive_old_rows_op"]["config"]["days"] == 30
    assert request.tags["sadie/retention_days"] == "30"


def test_retention_is_opt_in():
    # it archives and deletes rows: like every schedule that deletes or sends, it starts stopped
    assert defs.get_schedule_def("retention_schedule").default_status == DefaultScheduleStatus.STOPPED


def test_a_run_killed_between_archive_and_delete_loses_nothing(database, s3_object_store, old_and_new):
    # The delete fails after the archive is written, as a kill before the commit would leave it.
    with database.connect() as conn:
        conn.execute("""CREATE FUNCTION public.test_killed() RETURNS trigger LANGUAGE plpgsql AS
                        $$ BEGIN RAISE EXCEPTION 'killed'; END $$""")
        conn.execute("CREATE TRIGGER killed BEFORE DELETE ON pipeline.dead_letters "
                     "FOR EACH ROW EXECUTE FUNCTION public.test_killed()")
    try:
        with pytest.raises(Exception, match="killed"):
            archive_old_rows(database, s3_object_store, days=90)
    finally:
        with database.connect() as conn:
            conn.execute("DROP FUNCTION public.test_killed() CASCADE")
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM pipeline.dead_letters").fetchone()[0] == 3
    written = s3_object_store.list_keys(PREFIX + "pipeline.dead_letters/")
    assert len(written) == 1  # archived, not deleted

    archive_old_rows(database, s3_object_store, days=90)  # the next run: same rows, same key
    assert s3_object_store.list_keys(PREFIX + "pipeline.dead_letters/") == written
    assert [r["id"] for r in _archived(s3_object_store)["pipeline.dead_letters"]] == sorted(
        old_and_new["pipeline.dead_letters"])
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM pipeline.dead_letters").fetchone()[0] == 2

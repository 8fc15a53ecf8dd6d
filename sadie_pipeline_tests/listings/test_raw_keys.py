"""The import records each raw record's keys; staging stages the unchanged ones thin from those keys
in SQL and reads and transforms only the other records."""

from __future__ import annotations

import threading
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from sadie_pipeline.listings.assets import listing_promotion, listing_raw_files, listing_stage
from sadie_pipeline.listings.raw_files import iter_jsonl_gz, iter_lines_gz, raw_metadata
from sadie_pipeline_tests.listings.helpers import (
    GRILL,
    INN,
    PUB,
    import_file,
    metadata,
    register,
    run_assets,
    until,
    waiting_on_a_lock,
    write_csv,
)
from sadie_pipeline_tests.listings.helpers import SIMPLE_CONFIG as CONFIG

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL

HALL = {"Name": "Harbour Hall", "Address": "2 Water St", "City": "Charlottetown", "Phone": "902-555-0177",
        "Description": "Concerts."}
CAFE = {"Name": "Bluefin Cafe", "Address": "9 Queen St", "City": "Charlottetown", "Phone": "902-555-0190",
        "Description": "Coffee."}
# Two records a file, so three records make two raw files.
SMALL_FILES = {**CONFIG, "import": {"max_records_per_file": 2}}


def _files(database, job_id: int, stage: str) -> list[tuple[int, str, int]]:
    with database.connect() as conn:
        return conn.execute("SELECT batch, s3_path, record_count FROM pipeline.job_files WHERE job_id = %s AND stage = %s"
                            " ORDER BY batch", (job_id, stage)).fetchall()


def _local_path(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def _local_key(store, uri: str) -> str:
    return str(_local_path(uri).relative_to(Path(store.local_root).resolve()))


def _import_only(database, store, instance, slug: str, path: Path) -> int:
    return import_file(database, store, instance, slug, path, assets=[listing_raw_files])[1]["job_id"]


def _raw_path(database, job_id: int, batch: int) -> Path:
    [uri] = [u for b, u, _ in _files(database, job_id, "raw") if b == batch]
    return _local_path(uri)


def test_the_import_records_the_keys_of_every_raw_record(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", SMALL_FILES)
    job_id = _import_only(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL, INN, PUB]))

    expected = set()
    for batch, uri, _ in _files(database, job_id, "raw"):
        for line in iter_lines_gz(local_object_store, _local_key(local_object_store, uri)):
            meta = raw_metadata(line)
            expected.add((batch, meta["rec_num"], meta["raw_hash"], meta["source_id"]))
    with database.connect() as conn:
        keys = set(conn.execute("SELECT file_seq, rec_num, raw_hash, source_id FROM staging.raw_keys WHERE job_id = %s",
                                (job_id,)).fetchall())
    assert keys == expected and {k[0] for k in keys} == {1, 2} and len(keys) == 3


def test_a_file_of_unchanged_records_only_is_not_read(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", SMALL_FILES)
    import_file(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL, INN, PUB]))
    changed = dict(PUB, Description="Irish pub with live music.")
    job_id = _import_only(database, local_object_store, instance, "dmo-a",
                          write_csv(tmp_path / "b.csv", [GRILL, INN, changed]))
    _raw_path(database, job_id, 1).unlink()  # GRILL and INN: unchanged, never read

    result = run_assets(database, local_object_store, instance, "dmo-a", assets=[listing_stage, listing_promotion])

    assert metadata(result, "listing_stage")["records_reused"] == 2
    with database.connect() as conn:
        actions = dict(conn.execute("SELECT rec_num, action FROM staging.listings WHERE job_id = %s", (job_id,)).fetchall())
    assert actions == {1: "unchanged", 2: "unchanged", 3: "update"}
    # The transformed files hold the records transformed: none of the first file, the changed one of the second.
    assert [(b, n) for b, _, n in _files(database, job_id, "transformed")] == [(1, 0), (2, 1)]
    [(_, uri, _)] = [f for f in _files(database, job_id, "transformed") if f[0] == 2]
    assert [r["description"] for r in iter_jsonl_gz(local_object_store, _local_key(local_object_store, uri))] == [changed["Description"]]


def _stage_refusing_thin_rows(tmp_path, database, store, instance) -> int:
    """A re-import with a changed record in each of its three files (read by worker processes) and
    two unchanged ones, GRILL and PUB, whose thin rows, staged by the stage's own transaction, a
    trigger refuses: the stage fails after the files committed their records. Returns the job."""
    register(database, instance, "dmo-a", SMALL_FILES)
    import_file(database, store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL, INN, PUB, HALL, CAFE]))
    rows = [GRILL, dict(INN, Description="Rooms and a spa."), PUB, dict(HALL, Description="Concerts and a bar."),
            dict(CAFE, Description="Coffee and cake.")]
    job_id = _import_only(database, store, instance, "dmo-a", write_csv(tmp_path / "b.csv", rows))
    with database.connect() as conn:
        conn.execute("""CREATE FUNCTION public.refuse_thin() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN IF NEW.reused_from IS NOT NULL THEN RAISE EXCEPTION 'thin row refused'; END IF;
                              RETURN NEW; END $$""")
        conn.execute("CREATE TRIGGER refuse_thin BEFORE INSERT ON staging.listings FOR EACH ROW"
                     " EXECUTE FUNCTION public.refuse_thin()")
    try:
        failed = run_assets(database, store, instance, "dmo-a", assets=[listing_stage], raise_on_error=False)
    finally:
        with database.connect() as conn:
            conn.execute("DROP TRIGGER refuse_thin ON staging.listings")
            conn.execute("DROP FUNCTION public.refuse_thin()")
    [failure] = [e for e in failed.all_events if e.event_type_value == "STEP_FAILURE"]
    assert "thin row refused" in failure.event_specific_data.error.to_string()
    with database.connect() as conn:
        staged = conn.execute("SELECT rec_num, reused_from IS NOT NULL FROM staging.listings WHERE job_id = %s"
                              " ORDER BY rec_num", (job_id,)).fetchall()
    # Each file kept the records it transformed; the unchanged ones went with the stage's transaction.
    assert staged == [(2, False), (4, False), (5, False)]
    assert [b for b, _, _ in _files(database, job_id, "transformed")] == [1, 2, 3]
    return job_id


def _staged_rows(database, job_id: int) -> list[tuple[int, str, bool]]:
    with database.connect() as conn:
        return conn.execute("SELECT rec_num, action, reused_from IS NOT NULL FROM staging.listings WHERE job_id = %s"
                            " ORDER BY rec_num", (job_id,)).fetchall()


def _retried_stage(database, store, instance) -> tuple[int, int, int]:
    """The stage run again: records reused, files resumed, files staged."""
    stage = metadata(run_assets(database, store, instance, "dmo-a", assets=[listing_stage]), "listing_stage")
    return stage["records_reused"], stage["files_resumed"], stage["files_staged"]


# The rows a whole stage of the re-import leaves: GRILL and PUB thin, the changed records updates.
RESTAGED = [(1, "unchanged", True), (2, "update", False), (3, "unchanged", True), (4, "update", False),
            (5, "update", False)]


def test_a_retry_stages_thin_the_unchanged_records_a_failed_stage_lost_without_reading_their_files(
        tmp_path, database, local_object_store, instance):
    job_id = _stage_refusing_thin_rows(tmp_path, database, local_object_store, instance)
    _raw_path(database, job_id, 2).unlink()  # finished: the retry must not read it again

    # GRILL and PUB, which the first two files skipped, are staged thin; no file is read again.
    assert _retried_stage(database, local_object_store, instance) == (2, 3, 0)
    assert _staged_rows(database, job_id) == RESTAGED


def test_a_retry_keeps_the_thin_rows_of_finished_files_and_clears_the_others(
        tmp_path, database, local_object_store, instance):
    """What an earlier release could leave after such a failure: thin rows staged before the files
    (GRILL's, in a file not staged yet; PUB's, in a finished file)."""
    job_id = _stage_refusing_thin_rows(tmp_path, database, local_object_store, instance)
    with database.connect() as conn:
        conn.execute("DELETE FROM staging.listings WHERE job_id = %s AND file_seq = 1", (job_id,))
        conn.execute("DELETE FROM pipeline.job_files WHERE job_id = %s AND stage = 'transformed' AND batch = 1",
                     (job_id,))
        conn.execute("""INSERT INTO staging.listings (id, job_id, dmo_id, file_seq, rec_num, raw_hash, source_id,
                                listing_match_hash, target_listing_id, target_listing_info_id, reused_from, match_method,
                                certainty_score, action, l_action, li_action, ok_to_promote, row_kind)
                         SELECT nextval('staging.listings_id_seq'), %(job)s, p.dmo_id, p.file_seq, p.rec_num,
                                p.raw_hash, p.source_id, p.listing_match_hash, p.target_listing_id,
                                p.target_listing_info_id, p.id, 'source_id', 1, 'unchanged', 'unchanged', 'unchanged',
                                true, 'thin'
                           FROM staging.listings p WHERE p.job_id = %(job)s - 1 AND p.rec_num IN (1, 3)""",
                     {"job": job_id})

    # The first file is staged, GRILL thin again; PUB's thin row stays with its finished file.
    assert _retried_stage(database, local_object_store, instance) == (1, 2, 1)
    assert _staged_rows(database, job_id) == RESTAGED


def test_a_retry_stages_again_a_file_whose_skipped_record_is_no_longer_unchanged(
        tmp_path, database, local_object_store, instance):
    job_id = _stage_refusing_thin_rows(tmp_path, database, local_object_store, instance)
    with database.connect() as conn:  # meanwhile PUB's listing is hidden: PUB is to be matched again
        conn.execute("UPDATE public.listings SET listing_visible = false WHERE name = %s", (PUB["Name"],))

    assert _retried_stage(database, local_object_store, instance) == (1, 2, 1)
    assert [(b, n) for b, _, n in _files(database, job_id, "transformed")] == [(1, 1), (2, 2), (3, 1)]
    assert _staged_rows(database, job_id) == [(1, "unchanged", True), (2, "update", False), (3, "update", False),
                                              (4, "update", False), (5, "update", False)]


def test_two_stages_of_one_job_at_once_stage_it_once(tmp_path, database, local_object_store, instance):
    from sadie_pipeline.listings.repository import get_dmo
    from sadie_pipeline.listings.stage import stage_dmo

    job_id = _stage_refusing_thin_rows(tmp_path, database, local_object_store, instance)
    with database.connect() as conn:
        dmo = get_dmo(conn, "dmo-a")
    results = []
    stages = [threading.Thread(target=lambda: results.append(stage_dmo(database, local_object_store, dmo)))
              for _ in range(2)]
    with database.connect() as blocker:  # both stages start, then wait: one for its first write, one for the job
        blocker.execute("LOCK TABLE staging.listings IN SHARE MODE")
        for stage in stages:
            stage.start()
        until(lambda: waiting_on_a_lock(database, 2))
    for stage in stages:
        stage.join(30)

    # One staged the job; the other, once it could hold the DMO, found it staged: it staged nothing,
    # and names the job waiting for promotion (whose figures its check judges).
    staged, waited = sorted(results, key=lambda r: r.job_id is None)
    assert (staged.job_id, staged.jobs_staged) == (job_id, [job_id])
    assert (waited.job_id, waited.jobs_staged, waited.waiting.job_id) == (None, [], job_id)
    assert _staged_rows(database, job_id) == RESTAGED


def test_a_retried_stage_stages_its_unchanged_records_once(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", SMALL_FILES)
    # Three raw files, staged by worker processes; the second one fails the first time.
    import_file(database, local_object_store, instance, "dmo-a",
                write_csv(tmp_path / "a.csv", [GRILL, INN, PUB, HALL, CAFE]))
    changed = dict(HALL, Description="Concerts and a bar.")
    job_id = _import_only(database, local_object_store, instance, "dmo-a",
                          write_csv(tmp_path / "b.csv", [GRILL, INN, PUB, changed, CAFE]))
    raw = _raw_path(database, job_id, 2)  # PUB, unchanged, and the changed HALL, which must be read
    kept = raw.read_bytes()
    raw.unlink()

    failed = run_assets(database, local_object_store, instance, "dmo-a", assets=[listing_stage], raise_on_error=False)
    assert not failed.success
    raw.write_bytes(kept)
    result = run_assets(database, local_object_store, instance, "dmo-a", assets=[listing_stage, listing_promotion])

    assert metadata(result, "listing_stage")["records_reused"] == 4
    with database.connect() as conn:
        rows = conn.execute("SELECT rec_num, action, reused_from IS NOT NULL FROM staging.listings WHERE job_id = %s"
                            " ORDER BY rec_num", (job_id,)).fetchall()
        description = conn.execute("SELECT description FROM public.listing_info li JOIN public.listings l"
                                   " ON l.id = li.listing_id WHERE l.name = %s", (HALL["Name"],)).fetchone()[0]
    assert rows == [(1, "unchanged", True), (2, "unchanged", True), (3, "unchanged", True), (4, "update", False),
                    (5, "unchanged", True)]
    assert description == changed["Description"]

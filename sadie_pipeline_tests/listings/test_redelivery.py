"""A file the DMO delivers again byte for byte is not parsed again: its raw files and raw keys are
derived from the earlier import's, as parsing would write them but for this import's own metadata."""

from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import pytest

from sadie_pipeline.listings.assets import listing_raw_files
from sadie_pipeline.listings.importer import import_inbox_file
from sadie_pipeline.listings.raw_files import import_metadata, iter_lines_gz, raw_metadata
from sadie_pipeline.listings.redelivery import NotDerivable, _replaced
from sadie_pipeline.listings.repository import upsert_dmo
from sadie_pipeline_tests.listings.helpers import (
    GRILL,
    INN,
    PUB,
    drop_in_inbox,
    import_file,
    metadata,
    register,
    write_csv,
)
from sadie_pipeline_tests.listings.helpers import SIMPLE_CONFIG as CONFIG

SMALL_FILES = {**CONFIG, "import": {"max_records_per_file": 2}}  # three records make two raw files


def _raw_lines(database, store, job_id: int) -> dict[int, list[dict]]:
    """The job's raw records by file."""
    with database.connect() as conn:
        files = conn.execute("SELECT batch, s3_path FROM pipeline.job_files WHERE job_id = %s AND stage = 'raw'"
                             " ORDER BY batch", (job_id,)).fetchall()
    root = Path(store.local_root).resolve()
    return {batch: [orjson.loads(line) for line in iter_lines_gz(store, str(Path(uri[len("file://"):]).relative_to(root)))]
            for batch, uri in files}


def _raw_keys(database, job_id: int) -> set[tuple]:
    with database.connect() as conn:
        return set(conn.execute("SELECT file_seq, rec_num, raw_hash, source_id FROM staging.raw_keys WHERE job_id = %s",
                                (job_id,)).fetchall())


def _import(database, store, instance, slug: str, path: Path) -> tuple[int, dict]:
    result, summary = import_file(database, store, instance, slug, path, assets=[listing_raw_files])
    return summary["job_id"], metadata(result, "listing_raw_files")


@pytest.mark.slow
def test_a_file_delivered_again_gets_the_raw_files_and_keys_parsing_would_give(tmp_path, database, local_object_store,
                                                                               instance):
    register(database, instance, "dmo-a", SMALL_FILES)
    path = write_csv(tmp_path / "a.csv", [GRILL, INN, PUB])
    first, _ = _import(database, local_object_store, instance, "dmo-a", path)
    again, meta = _import(database, local_object_store, instance, "dmo-a", path)

    assert meta["same_file_as_jobs"] == [first] and meta["records_read"] == 3 and meta["raw_files_written"] == 2
    before, after = _raw_lines(database, local_object_store, first), _raw_lines(database, local_object_store, again)
    [imported_at] = {r["imported_at"] for lines in after.values() for r in lines}
    assert imported_at >= before[1][0]["imported_at"]
    # Record for record, file for file, what the first import wrote, with this import's time.
    assert after == {b: [dict(r, imported_at=imported_at) for r in lines] for b, lines in before.items()}
    assert _raw_keys(database, again) == _raw_keys(database, first) and len(_raw_keys(database, again)) == 3
    with database.connect() as conn:
        jobs = conn.execute("SELECT id, records_read, source_sha256, source_bytes FROM pipeline.jobs ORDER BY id").fetchall()
    assert [j[1:] for j in jobs] == [(3, jobs[0][2], path.stat().st_size)] * 2


@pytest.mark.slow
def test_the_redelivered_file_stages_as_unchanged(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", SMALL_FILES)
    path = write_csv(tmp_path / "a.csv", [GRILL, INN, PUB])
    import_file(database, local_object_store, instance, "dmo-a", path)

    result, summary = import_file(database, local_object_store, instance, "dmo-a", path)

    assert metadata(result, "listing_raw_files")["same_file_as_jobs"] == [summary["job_id"] - 1]
    assert metadata(result, "listing_stage")["records_reused"] == 3
    assert (summary["unchanged"], summary["inserted"], summary["updated"]) == (3, 0, 0)


@pytest.mark.slow
def test_a_file_of_the_same_size_with_other_bytes_is_parsed(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", SMALL_FILES)
    first, _ = _import(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL, INN, PUB]))
    other = write_csv(tmp_path / "b.csv", [GRILL, INN, dict(PUB, Description="Irish bar.")])
    assert other.stat().st_size == (tmp_path / "a.csv").stat().st_size

    again, meta = _import(database, local_object_store, instance, "dmo-a", other)

    assert meta["same_file_as_jobs"] == []
    assert [r["Description"] for r in _raw_lines(database, local_object_store, again)[2]] == ["Irish bar."]
    assert len(_raw_keys(database, again) & _raw_keys(database, first)) == 2


@pytest.mark.slow
def test_a_file_delivered_again_under_another_config_is_parsed(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", SMALL_FILES)
    path = write_csv(tmp_path / "a.csv", [GRILL, INN, PUB])
    _import(database, local_object_store, instance, "dmo-a", path)
    register(database, instance, "dmo-a", {**CONFIG, "import": {"max_records_per_file": 3}})

    again, meta = _import(database, local_object_store, instance, "dmo-a", path)

    assert meta["same_file_as_jobs"] == []
    assert [len(lines) for lines in _raw_lines(database, local_object_store, again).values()] == [3]


def _dmo(database, slug: str):
    with database.connect() as conn:
        return upsert_dmo(conn, slug, slug, SMALL_FILES)


def test_an_importer_name_of_another_length_has_the_file_parsed(tmp_path, database, local_object_store):
    dmo = _dmo(database, "dmo-a")
    path = write_csv(tmp_path / "a.csv", [GRILL, INN, PUB])
    import_inbox_file(database, local_object_store, dmo, drop_in_inbox(local_object_store, "dmo-a", path))

    # "12" instead of "0": lines a byte longer, which could cut the files elsewhere
    again = import_inbox_file(database, local_object_store, dmo, drop_in_inbox(local_object_store, "dmo-a", path),
                              imported_by="12")

    assert again.same_file_as_job is None
    assert {r["imported_by"] for lines in _raw_lines(database, local_object_store, again.job_id).values()
            for r in lines} == {"12"}


def test_earlier_raw_files_that_do_not_read_as_expected_have_the_file_parsed(tmp_path, database, local_object_store):
    dmo = _dmo(database, "dmo-a")
    path = write_csv(tmp_path / "a.csv", [GRILL, INN, PUB])
    first = import_inbox_file(database, local_object_store, dmo, drop_in_inbox(local_object_store, "dmo-a", path))
    # The earlier second file loses its record: found only after the raw keys were copied.
    second = Path(local_object_store.local_root) / first.files[1].key
    second.write_bytes(gzip.compress(b""))

    again = import_inbox_file(database, local_object_store, dmo, drop_in_inbox(local_object_store, "dmo-a", path))

    assert again.same_file_as_job is None and again.records_read == 3
    # The keys copied before the failure went with it: each record once.
    assert len(_raw_keys(database, again.job_id)) == 3
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM staging.raw_keys WHERE job_id = %s", (again.job_id,)).fetchone()[0] == 3
    assert [len(lines) for lines in _raw_lines(database, local_object_store, again.job_id).values()] == [2, 1]


def _line(body: dict, imported_at: str) -> bytes:
    meta = b'"rec_num":1,"dmo_id":1,"source_id":"s"' + import_metadata(imported_at, "0") + b',"raw_hash":"h"}\n'
    return orjson.dumps(body)[:-1] + b"," + meta


def test_the_metadata_is_replaced_in_the_metadata_only():
    old, new = import_metadata("2026-01-01T00:00:00+00:00", "0"), import_metadata("2026-01-02T00:00:00+00:00", "0")
    # A record whose own columns spell the earlier metadata out
    tricky = _line({"imported_at": "2026-01-01T00:00:00+00:00", "imported_by": "0"}, "2026-01-01T00:00:00+00:00")
    plain = _line({"Name": "Inn"}, "2026-01-01T00:00:00+00:00")

    out = _replaced(tricky + plain, 2, old, new).splitlines()

    assert [raw_metadata(line)["imported_at"] for line in out] == ["2026-01-02T00:00:00+00:00"] * 2
    assert orjson.loads(out[0])["imported_at"] == "2026-01-02T00:00:00+00:00"  # the metadata wins, as in parsing
    assert out[0].count(b"2026-01-01") == 1  # the record's own value is kept
    with pytest.raises(NotDerivable):
        _replaced(_line({"Name": "Inn"}, "2025-12-31T00:00:00+00:00"), 1, old, new)


@pytest.mark.parametrize(("damage", "file"), [("gone", 0), ("gone", 1), ("not gzip", 0), ("not gzip", 1),
                                             ("not json", 0)])
def test_earlier_raw_files_gone_or_damaged_have_the_file_parsed(tmp_path, database, local_object_store, damage, file):
    dmo = _dmo(database, "dmo-a")
    path = write_csv(tmp_path / "a.csv", [GRILL, INN, PUB])
    first = import_inbox_file(database, local_object_store, dmo, drop_in_inbox(local_object_store, "dmo-a", path))
    earlier = Path(local_object_store.local_root) / first.files[file].key
    if damage == "gone":
        earlier.unlink()
    elif damage == "not gzip":
        earlier.write_bytes(b"not gzip at all")
    else:
        earlier.write_bytes(gzip.compress(b"not json\nat all\n"))

    again = import_inbox_file(database, local_object_store, dmo, drop_in_inbox(local_object_store, "dmo-a", path))

    assert again.same_file_as_job is None and again.records_read == 3
    assert [len(lines) for lines in _raw_lines(database, local_object_store, again.job_id).values()] == [2, 1]
    assert len(_raw_keys(database, again.job_id)) == 3

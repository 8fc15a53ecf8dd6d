"""Records a DMO sends again unchanged are staged thin (keys, targets, action 'unchanged', a pointer
to the staged row holding their data), and only when nothing about their listing changed since."""

from __future__ import annotations

from pathlib import Path

import pytest

from sadie_pipeline.listings.assets import listing_raw_files, listing_stage
from sadie_pipeline.listings.stage_files import INFO_COLUMNS, LISTING_COLUMNS
from sadie_pipeline_tests.listings.helpers import (
    GRILL,
    INN,
    PUB,
    drop_in_inbox,
    import_file,
    metadata,
    register,
    run_assets,
    write_csv,
)
from sadie_pipeline_tests.listings.helpers import SIMPLE_CONFIG as CONFIG

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL



def _staged(database, job_id: int) -> dict[str, dict]:
    """name (through the data row for thin rows) -> the staged row of the job."""
    with database.connect() as conn:
        rows = conn.execute(
            """SELECT coalesce(s.name, d.name), s.action, s.reused_from, s.duplicate_of, s.target_listing_id,
                      s.ok_to_promote, i.id IS NOT NULL, s.rec_num
                 FROM staging.listings s LEFT JOIN staging.listings d ON d.id = s.reused_from
                 LEFT JOIN staging.listing_info i ON i.id = s.id
                WHERE s.job_id = %s""", (job_id,)).fetchall()
    keys = ("action", "reused_from", "duplicate_of", "target_listing_id", "ok_to_promote", "has_info", "rec_num")
    return {r[0]: dict(zip(keys, r[1:])) for r in rows}


def test_unchanged_records_are_staged_thin_and_still_touched(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", CONFIG)
    path = write_csv(tmp_path / "a.csv", [GRILL, INN])
    _, first = import_file(database, local_object_store, instance, "dmo-a", path)
    with database.connect() as conn:
        seen_before = dict(conn.execute("SELECT id, last_seen_at FROM public.listing_info").fetchall())
    result, again = import_file(database, local_object_store, instance, "dmo-a", path)

    assert again["unchanged"] == 2 and again["inserted"] == again["updated"] == 0
    stage = metadata(result, "listing_stage")
    assert stage["records_reused"] == 2
    assert GRILL["Name"] in stage["preview"] and INN["Name"] in stage["preview"]  # named through their data row
    staged, earlier = _staged(database, again["job_id"]), _staged(database, first["job_id"])
    for name in (GRILL["Name"], INN["Name"]):
        row = staged[name]
        assert row["action"] == "unchanged" and row["ok_to_promote"] and not row["has_info"]
        assert row["target_listing_id"] == earlier[name]["target_listing_id"]
    with database.connect() as conn:
        data_rows = {r[0] for r in conn.execute(
            "SELECT reused_from FROM staging.listings WHERE job_id = %s", (again["job_id"],))}
        assert data_rows == {r[0] for r in conn.execute(
            "SELECT id FROM staging.listings WHERE job_id = %s", (first["job_id"],))}
        seen_after = dict(conn.execute("SELECT id, last_seen_at FROM public.listing_info").fetchall())
    assert all(seen_after[i] > seen_before[i] for i in seen_before)

    # A third import points at the row that holds the data, not at the thin row in between.
    _, third = import_file(database, local_object_store, instance, "dmo-a", path)
    assert third["unchanged"] == 2
    assert {r["reused_from"] for r in _staged(database, third["job_id"]).values()} == data_rows


def test_a_hidden_listing_is_not_reused_and_comes_back(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", CONFIG)
    path = write_csv(tmp_path / "a.csv", [GRILL, INN])
    import_file(database, local_object_store, instance, "dmo-a", path)
    with database.connect() as conn:
        conn.execute("""UPDATE public.listings SET listing_visible = false, listing_status = 'missing_from_import'
                         WHERE name = %s""", (GRILL["Name"],))
    result, again = import_file(database, local_object_store, instance, "dmo-a", path)

    assert metadata(result, "listing_stage")["records_reused"] == 1
    staged = _staged(database, again["job_id"])
    assert staged[GRILL["Name"]]["action"] == "update" and staged[GRILL["Name"]]["reused_from"] is None
    assert staged[INN["Name"]]["action"] == "unchanged" and staged[INN["Name"]]["reused_from"] is not None
    with database.connect() as conn:
        assert conn.execute("SELECT listing_visible FROM public.listings WHERE name = %s",
                            (GRILL["Name"],)).fetchone()[0] is True


def test_a_merged_listing_is_not_reused(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", CONFIG)
    path = write_csv(tmp_path / "a.csv", [GRILL, INN])
    import_file(database, local_object_store, instance, "dmo-a", path)
    with database.connect() as conn:  # merged by a person, still visible
        conn.execute("UPDATE public.listings SET listing_status = 'merged' WHERE name = %s", (GRILL["Name"],))
    result, again = import_file(database, local_object_store, instance, "dmo-a", path)

    assert metadata(result, "listing_stage")["records_reused"] == 1
    staged = _staged(database, again["job_id"])
    assert staged[GRILL["Name"]]["reused_from"] is None
    assert staged[INN["Name"]]["reused_from"] is not None


def test_a_listing_info_written_from_another_record_is_not_reused(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", CONFIG)
    path = write_csv(tmp_path / "a.csv", [GRILL, INN])
    import_file(database, local_object_store, instance, "dmo-a", path)
    with database.connect() as conn:  # as if another record had been promoted into it since
        conn.execute("""UPDATE public.listing_info li SET raw_hash = 'another record'
                          FROM public.listings l WHERE l.id = li.listing_id AND l.name = %s""", (INN["Name"],))
    _, again = import_file(database, local_object_store, instance, "dmo-a", path)

    staged = _staged(database, again["job_id"])
    # Transformed and matched again: found unchanged the long way, which records the raw hash again.
    assert staged[INN["Name"]]["reused_from"] is None and staged[INN["Name"]]["action"] == "unchanged"
    assert staged[GRILL["Name"]]["reused_from"] is not None
    _, third = import_file(database, local_object_store, instance, "dmo-a", path)
    assert all(r["reused_from"] is not None for r in _staged(database, third["job_id"]).values())


def test_an_unchanged_record_behind_a_new_one_with_its_source_id_is_a_full_duplicate(
        tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", CONFIG)
    import_file(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL, INN, PUB]))
    # The same name and city (so the same source_id) with another description now comes first.
    newer_grill = {**GRILL, "Description": "Seafood and steaks on the wharf."}
    _, again = import_file(database, local_object_store, instance, "dmo-a",
                           write_csv(tmp_path / "b.csv", [newer_grill, GRILL, INN, PUB]))

    assert (again["updated"], again["duplicate"], again["unchanged"]) == (1, 1, 2)
    with database.connect() as conn:
        rows = conn.execute(
            """SELECT s.rec_num, s.action, s.reused_from, s.name, s.l_hash IS NOT NULL, i.description, s.duplicate_of
                 FROM staging.listings s LEFT JOIN staging.listing_info i ON i.id = s.id
                WHERE s.job_id = %s AND s.name = %s ORDER BY s.rec_num""", (again["job_id"], GRILL["Name"])).fetchall()
        first_id = conn.execute("SELECT id FROM staging.listings WHERE job_id = %s AND rec_num = 1",
                                (again["job_id"],)).fetchone()[0]
    # The thin copy of the old record became a duplicate of the new one and got its own data back.
    assert rows == [(1, "update", None, GRILL["Name"], True, newer_grill["Description"], None),
                    (2, "duplicate", None, GRILL["Name"], True, GRILL["Description"], first_id)]


def test_a_new_record_fuzzily_matched_to_the_listing_of_an_unchanged_one_is_its_duplicate(
        tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", CONFIG)
    import_file(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL, INN]))
    # Another name (so another source id and match hash) that fuzzy matching puts on the same listing.
    the_grill = {**GRILL, "Name": "The " + GRILL["Name"]}
    _, again = import_file(database, local_object_store, instance, "dmo-a",
                           write_csv(tmp_path / "b.csv", [the_grill, GRILL, INN]))

    staged = _staged(database, again["job_id"])
    new, old = staged[the_grill["Name"]], staged[GRILL["Name"]]
    # The thin row takes part in the target collisions: exact, it ranks before the fuzzy match
    # that comes first in the file, and stays thin.
    assert (old["action"], old["has_info"]) == ("unchanged", False) and old["reused_from"] is not None
    with database.connect() as conn:
        old_id = conn.execute("SELECT id FROM staging.listings WHERE job_id = %s AND rec_num = 2",
                              (again["job_id"],)).fetchone()[0]
    assert (new["action"], new["duplicate_of"], new["ok_to_promote"]) == ("duplicate", old_id, False)


def test_a_listing_was_last_seen_when_its_latest_dmo_record_was(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", CONFIG)
    register(database, instance, "dmo-b", CONFIG)
    a, b = write_csv(tmp_path / "a.csv", [GRILL, INN]), write_csv(tmp_path / "b.csv", [GRILL])

    def last_seen() -> dict[str, tuple[int, str]]:
        with database.connect() as conn:
            return {name: (job, slug) for name, job, slug in conn.execute(
                """SELECT l.name, s.last_job_id, d.slug FROM public.listing_last_seen s
                     JOIN public.listings l ON l.id = s.listing_id JOIN public.dmos d ON d.id = s.dmo_id""")}

    _, first = import_file(database, local_object_store, instance, "dmo-a", a)
    _, other = import_file(database, local_object_store, instance, "dmo-b", b)
    assert last_seen() == {GRILL["Name"]: (other["job_id"], "dmo-b"), INN["Name"]: (first["job_id"], "dmo-a")}

    _, again = import_file(database, local_object_store, instance, "dmo-a", a)  # both unchanged: touched
    assert last_seen() == {GRILL["Name"]: (again["job_id"], "dmo-a"), INN["Name"]: (again["job_id"], "dmo-a")}


UNSURE = {"Name": "Harbourfront Grill Downtown", "Address": "12 Water St", "City": "Charlottetown"}  # 0.5-0.8 to GRILL


LISTING_DATA_COLUMNS = LISTING_COLUMNS[5:]
INFO_DATA_COLUMNS = INFO_COLUMNS[2:]


def _staged_data(database, job_id: int) -> list[tuple]:
    with database.connect() as conn:
        return conn.execute(
            f"""SELECT {", ".join("s." + c for c in LISTING_DATA_COLUMNS)}, {", ".join("i." + c for c in INFO_DATA_COLUMNS)},
                       s.action, s.review_status, s.review_reason, s.reused_from IS NULL
                  FROM staging.listings s JOIN staging.listing_info i ON i.id = s.id
                 WHERE s.job_id = %s AND s.rec_num IS NOT NULL ORDER BY s.rec_num""", (job_id,)).fetchall()


def test_a_record_still_under_review_sent_again_is_copied_not_transformed(tmp_path, database, local_object_store,
                                                                          instance):
    register(database, instance, "dmo-a", CONFIG)
    register(database, instance, "dmo-b", CONFIG)
    import_file(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL]))
    path = write_csv(tmp_path / "b.csv", [INN, UNSURE])
    _, first = import_file(database, local_object_store, instance, "dmo-b", path)
    assert first["needing_review"] == 1
    key = drop_in_inbox(local_object_store, "dmo-b", path)
    run_assets(database, local_object_store, instance, "dmo-b", key, assets=[listing_raw_files])
    with database.connect() as conn:
        job_id, raw_uri = conn.execute("""SELECT j.id, f.s3_path FROM pipeline.jobs j JOIN pipeline.job_files f
                                           ON f.job_id = j.id AND f.stage = 'raw' WHERE j.source_key = %s""",
                                       (key,)).fetchone()
    Path(raw_uri.removeprefix("file://")).unlink()  # INN thin, UNSURE copied: the raw file is not read

    result = run_assets(database, local_object_store, instance, "dmo-b", assets=[listing_stage])

    stage = metadata(result, "listing_stage")
    assert (stage["records_reused"], stage["records_copied"], stage["needs_review"]) == (1, 1, 1)
    again, before = _staged_data(database, job_id), _staged_data(database, first["job_id"])
    # UNSURE: a full row again, with the data, action and review reason of the row it was copied
    # from, which it supersedes
    *data, status, reason, full = again[-1]
    assert (tuple(data), reason, full) == (before[-1][:-3], before[-1][-2], True) and reason.startswith("fuzzy match")
    assert (status, before[-1][-3]) == ("pending", "superseded")

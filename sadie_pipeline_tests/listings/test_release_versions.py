"""Releases between the steps of the listings (issue 29, item 7): stored keys and forms of another key
version are keyed again by the next lookup; a job staged before a release and promoted after it
stores its keys under the job's version, not the running one; a failed stage retried after a
release starts again from raw. A release is the running versions changed (monkeypatched where they
are read, listings/versions.py); test_code_versions.py shows a rule added in any module the engine
imports changes them."""

from __future__ import annotations

import pytest

from sadie_pipeline.listings import match_keys, versions
from sadie_pipeline.listings.assets import listing_raw_files, listing_stage
from sadie_pipeline.listings.repository import get_dmo
from sadie_pipeline.listings.stage import stage_dmo
from sadie_pipeline_tests.listings.helpers import (
    GRILL,
    INN,
    PUB,
    SIMPLE_CONFIG,
    drop_in_inbox,
    import_file,
    promote,
    register,
    run_assets,
    write_csv,
)
from sadie_pipeline_tests.test_code_versions import A_RULE, copy_package, versions_of

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL

SLUG = "dmo-a"
RECORDS = [GRILL, INN, PUB]


def _keyed(conn) -> dict[int, tuple]:
    """Each listing's stored key version, form and keys."""
    return {r[0]: r[1:] for r in conn.execute(
        """SELECT k.listing_id, k.version, k.form,
                  ARRAY(SELECT key FROM pipeline.listing_match_keys m WHERE m.listing_id = k.listing_id ORDER BY key)
             FROM pipeline.listing_match_keyed k ORDER BY 1""")}


def test_a_rule_added_in_a_module_the_engine_imports_keys_stored_listings_again(
        tmp_path, database, local_object_store, instance, monkeypatch):
    package = copy_package(tmp_path, "next")
    with (package / "core/normalize.py").open("a") as fh:  # not one of the modules the old version listed
        fh.write(A_RULE)
    next_key = versions_of(package)["key"]
    assert next_key != versions.KEY_VERSION
    register(database, instance, SLUG, SIMPLE_CONFIG)
    import_file(database, local_object_store, instance, SLUG, write_csv(tmp_path / "a.csv", RECORDS))
    with database.connect() as conn:
        keyed = _keyed(conn)
        assert {v for v, _, _ in keyed.values()} == {versions.KEY_VERSION} and len(keyed) == len(RECORDS)
        # what the old rule made: other forms and keys, under the version that is running still
        conn.execute("UPDATE pipeline.listing_match_keyed SET form = '[\"made by the old rule\"]'")
        conn.execute("UPDATE pipeline.listing_match_keys SET key = key # 2")
        conn.commit()
        assert match_keys.refresh(conn) == 0  # their fields did not change: only a new version keys them

        monkeypatch.setattr(versions, "KEY_VERSION", next_key)  # the release runs
        assert match_keys.refresh(conn) == len(RECORDS)
        assert _keyed(conn) == {i: (next_key, form, keys) for i, (_, form, keys) in keyed.items()}
        assert match_keys.refresh(conn) == 0


def test_a_job_staged_before_a_release_and_promoted_after_it_is_keyed_again(
        tmp_path, database, local_object_store, instance, monkeypatch):
    register(database, instance, SLUG, SIMPLE_CONFIG)
    _, summary = import_file(database, local_object_store, instance, SLUG, write_csv(tmp_path / "a.csv", RECORDS),
                             assets=[listing_raw_files, listing_stage])
    assert summary["stage"] == "staged"
    staged_with = versions.KEY_VERSION
    monkeypatch.setattr(versions, "KEY_VERSION", "the next release's keys")
    monkeypatch.setattr(versions, "TRANSFORM_VERSION", "the next release's transform")

    assert promote(database, local_object_store, instance, SLUG).success
    with database.connect() as conn:
        job_version = conn.execute("SELECT key_version FROM pipeline.jobs WHERE id = %s",
                                   (summary["job_id"],)).fetchone()[0]
        assert job_version == staged_with
        # stored under the version its forms and keys were made by, so the next lookup keys them
        assert {v for v, _, _ in _keyed(conn).values()} == {staged_with}
        assert match_keys.refresh(conn) == len(RECORDS)
        assert {v for v, _, _ in _keyed(conn).values()} == {"the next release's keys"}


def test_a_failed_stage_retried_after_a_release_starts_again_from_raw(
        tmp_path, database, local_object_store, instance, monkeypatch):
    register(database, instance, SLUG, dict(SIMPLE_CONFIG, **{"import": {"max_records_per_file": 2}}))
    rows = [dict(GRILL, Name=f"Grill {i}", Address=f"{i} Water St") for i in range(5)]
    key = drop_in_inbox(local_object_store, SLUG, write_csv(tmp_path / "a.csv", rows))
    run_assets(database, local_object_store, instance, SLUG, key, assets=[listing_raw_files])
    # A stage that fails after its first two files: the third raw file is missing when it runs.
    third = sorted(local_object_store.list_keys(f"raw/listings/{SLUG}/"))[-1]
    saved = local_object_store.get_bytes(third)
    local_object_store.delete(third)
    with database.connect() as conn:
        dmo = get_dmo(conn, SLUG)
    with pytest.raises(FileNotFoundError):
        stage_dmo(database, local_object_store, dmo)
    local_object_store.put_bytes(third, saved)
    with database.connect() as conn:
        checkpoints = [r[0] for r in conn.execute("SELECT id FROM pipeline.job_files WHERE stage = 'transformed'")]
    assert len(checkpoints) == 2
    monkeypatch.setattr(versions, "TRANSFORM_VERSION", "the next release's transform")

    result = stage_dmo(database, local_object_store, dmo)

    assert (result.files_resumed, result.files_staged) == (0, 3)  # the earlier code's files staged again
    assert result.actions == {"insert": 5}
    with database.connect() as conn:
        files = [r[0] for r in conn.execute("SELECT id FROM pipeline.job_files WHERE stage = 'transformed'")]
        assert len(files) == 3 and not set(files) & set(checkpoints)
        assert conn.execute("SELECT count(*) FROM staging.listings").fetchone()[0] == 5
        assert conn.execute("SELECT transform_version FROM pipeline.jobs WHERE id = %s",
                            (result.job_id,)).fetchone()[0] == "the next release's transform"

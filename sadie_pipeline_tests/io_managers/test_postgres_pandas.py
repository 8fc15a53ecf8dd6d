"""The Postgres DataFrame IO manager on the real server: a partition's rows replaced in one
transaction (other partitions untouched, a failed write leaves the old rows), the schema from the
key prefix (or metadata, or the IO manager), values and types round-tripped through COPY, and
inputs loaded per partition, over several partitions, and by column."""

import datetime as dt
import threading

import pandas as pd
import psycopg
import pytest
from dagster import (
    AssetIn,
    BackfillPolicy,
    Config,
    MaterializeResult,
    StaticPartitionsDefinition,
    asset,
    materialize,
)

from sadie_pipeline.io_managers import POSTGRES_IO_MANAGER, PostgresPandasIOManager
from sadie_pipeline.partitions import range_tags

PARTS = StaticPartitionsDefinition(["a", "b", "c"])
SINGLE_RUN = {"partitions_def": PARTS, "backfill_policy": BackfillPolicy.single_run(),
              "io_manager_key": POSTGRES_IO_MANAGER}
UTC = dt.UTC


class Rows(Config):
    n: int = 2
    bad: bool = False
    extra_column: bool = False


def _frame(region: str, n: int) -> pd.DataFrame:
    return pd.DataFrame({
        "region": [region] * n,
        "hotel_id": list(range(1, n + 1)),
        "score": [0.5 + i for i in range(n)],
        "name": [f'Inn "{i}", {region}\nsecond line' for i in range(n)],
        "details": [{"points": i, "tags": ["x", region]} for i in range(n)],
        "seen_at": [dt.datetime(2026, 1, 1, 12, tzinfo=UTC)] * n,
        "live": [i % 2 == 0 for i in range(n)],
        "rooms": pd.array([None if i == 0 else i * 10 for i in range(n)], dtype="Int64"),
        "note": ["" if i == 0 else None for i in range(n)],
    })


@asset(key_prefix=["io_test"], metadata={"partition_expr": "region"}, **SINGLE_RUN)
def frames(context, config: Rows) -> pd.DataFrame:
    parts = [_frame(p, config.n) for p in context.partition_keys]
    frame = pd.concat(parts, ignore_index=True)
    if config.bad:  # text in an integer column: the COPY fails after the partition's delete
        frame["hotel_id"] = frame["hotel_id"].astype(object)
        frame.loc[frame.index[-1], "hotel_id"] = "not a number"
    if config.extra_column:
        frame["added"] = "later"
    return frame


@asset(key_prefix=["io_test"], ins={"frames": AssetIn(key_prefix=["io_test"])}, **SINGLE_RUN,
       metadata={"partition_expr": "region"})
def copies(frames: pd.DataFrame) -> MaterializeResult[pd.DataFrame]:
    return MaterializeResult(value=frames, metadata={"rows_loaded": len(frames)})


@asset(key_prefix=["io_test"], ins={"frames": AssetIn(key_prefix=["io_test"], metadata={"columns": ["hotel_id", "region"]})},
       **SINGLE_RUN, metadata={"partition_expr": "region"})
def ids_only(frames: pd.DataFrame) -> pd.DataFrame:
    return frames


@pytest.fixture
def io(database):
    with psycopg.connect(database.url, autocommit=True) as conn:
        for schema in ("io_test", "io_meta", "io_config"):
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    return {POSTGRES_IO_MANAGER: PostgresPandasIOManager(database=database)}


def _rows(database, sql="SELECT region, hotel_id FROM io_test.frames ORDER BY region, hotel_id"):
    with psycopg.connect(database.url) as conn:
        return conn.execute(sql).fetchall()


def _run(assets, io, instance, run_config=None, selection=None, **kw):
    return materialize(assets, selection=selection, resources=io, instance=instance, run_config=run_config, **kw)


def test_a_partition_is_replaced_and_the_others_are_untouched(database, io, instance):
    assert _run([frames], io, instance, partition_key="a").success
    assert _run([frames], io, instance, partition_key="b", run_config={"ops": {"io_test__frames": {"config": {"n": 3}}}}).success
    assert _rows(database) == [("a", 1), ("a", 2), ("b", 1), ("b", 2), ("b", 3)]
    result = _run([frames], io, instance, partition_key="a", run_config={"ops": {"io_test__frames": {"config": {"n": 1}}}})
    assert _rows(database) == [("a", 1), ("b", 1), ("b", 2), ("b", 3)]
    meta = result.asset_materializations_for_node("io_test__frames")[0].metadata
    assert meta["dagster/row_count"].value == 1
    assert meta["dagster/table_name"].value.endswith("io_test.frames")
    assert "region in ('a')" in meta["Query"].value.replace("IN", "in")
    columns = {c.name: c.type for c in meta["dagster/column_schema"].schema.columns}
    assert columns["hotel_id"] == "bigint" and columns["details"] == "jsonb" and columns["seen_at"].startswith("timestamp")
    with psycopg.connect(database.url) as conn:  # the partition column is indexed
        assert conn.execute("SELECT indexdef FROM pg_indexes WHERE schemaname = 'io_test' AND tablename = 'frames'"
                            ).fetchone()[0].endswith("(region)")


def test_a_run_of_several_partitions_replaces_each_of_them(database, io, instance):
    assert _run([frames], io, instance, partition_key="c").success
    assert _run([frames], io, instance, tags=range_tags("a", "b"),
                run_config={"ops": {"io_test__frames": {"config": {"n": 1}}}}).success
    assert _rows(database) == [("a", 1), ("b", 1), ("c", 1), ("c", 2)]


def test_a_failed_write_leaves_the_partition_as_it_was(database, io, instance):
    assert _run([frames], io, instance, partition_key="a").success
    failed = _run([frames], io, instance, partition_key="a", raise_on_error=False,
                  run_config={"ops": {"io_test__frames": {"config": {"n": 3, "bad": True}}}})
    assert not failed.success
    assert _rows(database) == [("a", 1), ("a", 2)]   # the delete was rolled back with the COPY


def test_readers_see_the_old_rows_or_the_new_never_none(database, io, instance):
    """The delete and the COPY are one transaction: a reader polling during the rewrite of a
    large partition always counts all old rows or all new ones."""
    config = {"ops": {"io_test__frames": {"config": {"n": 20_000}}}}
    assert _run([frames], io, instance, partition_key="a", run_config=config).success
    seen, done = set(), threading.Event()

    def poll():
        with psycopg.connect(database.url, autocommit=True) as conn:
            while not done.is_set():
                seen.add(conn.execute("SELECT count(*) FROM io_test.frames WHERE region = 'a'").fetchone()[0])

    reader = threading.Thread(target=poll)
    reader.start()
    try:
        assert _run([frames], io, instance, partition_key="a",
                    run_config={"ops": {"io_test__frames": {"config": {"n": 30_000}}}}).success
    finally:
        done.set()
        reader.join()
    assert seen <= {20_000, 30_000} and 20_000 in seen


def test_values_and_types_round_trip(database, io, instance):
    assert _run([frames, copies], io, instance, partition_key="a").success
    with psycopg.connect(database.url) as conn:
        row = conn.execute("SELECT details, rooms, note, live FROM io_test.copies ORDER BY hotel_id LIMIT 1").fetchone()
    assert row == ({"points": 0, "tags": ["x", "a"]}, None, "", True)   # "" stays "", None is NULL
    loaded = _loaded(io, instance, "a")
    expected = _frame("a", 2)
    assert loaded["hotel_id"].dtype == "int64" and loaded["rooms"].dtype == "Int64"
    assert loaded["name"].tolist() == expected["name"].tolist()
    assert loaded["details"].tolist() == expected["details"].tolist()
    assert loaded["seen_at"].tolist() == expected["seen_at"].tolist()
    assert loaded["live"].tolist() == [True, False] and loaded["score"].tolist() == [0.5, 1.5]
    assert loaded["note"].iloc[0] == "" and pd.isna(loaded["note"].iloc[1])


def _loaded(io, instance, partition_key=None, tags=None, node="io_test__copies", assets=None):
    """What the downstream asset loaded: the copy it wrote, read back through the IO manager."""
    captured = {}

    @asset(key_prefix=["io_test"], ins={"copies": AssetIn(key=["io_test", node.split("__")[1]])}, **SINGLE_RUN,
           metadata={"partition_expr": "region"})
    def probe(copies: pd.DataFrame) -> pd.DataFrame:
        captured["frame"] = copies
        return copies.head(0)

    upstream = assets or [frames, copies, ids_only]
    assert _run([*upstream, probe], io, instance, selection=[probe], partition_key=partition_key, tags=tags).success
    return captured["frame"].sort_values(["region", "hotel_id"]).reset_index(drop=True)


def test_inputs_load_their_partition_several_partitions_and_selected_columns(database, io, instance):
    assert _run([frames], io, instance, tags=range_tags("a", "c")).success
    one = _run([frames, copies], io, instance, selection=[copies], partition_key="b")
    assert one.asset_materializations_for_node("io_test__copies")[0].metadata["rows_loaded"].value == 2
    several = _run([frames, copies], io, instance, selection=[copies], tags=range_tags("a", "b"))
    assert several.asset_materializations_for_node("io_test__copies")[0].metadata["rows_loaded"].value == 4
    assert _loaded(io, instance, tags=range_tags("a", "b"))["region"].tolist() == ["a", "a", "b", "b"]
    assert _run([frames, ids_only], io, instance, selection=[ids_only], partition_key="c").success
    assert sorted(_loaded(io, instance, "c", node="io_test__ids_only").columns) == ["hotel_id", "region"]


def test_a_missing_table_is_a_clear_error(database, io, instance):
    result = _run([frames, copies], io, instance, selection=[copies], partition_key="a", raise_on_error=False)
    assert not result.success
    [failure] = [e for e in result.all_events if e.event_type_value == "STEP_FAILURE"]
    assert "io_test.frames does not exist" in str(failure.event_specific_data.error)


def test_a_later_frame_adds_its_new_columns(database, io, instance):
    assert _run([frames], io, instance, partition_key="a").success
    assert _run([frames], io, instance, partition_key="b",
                run_config={"ops": {"io_test__frames": {"config": {"extra_column": True}}}}).success
    assert _rows(database, "SELECT region, added FROM io_test.frames ORDER BY region, hotel_id") == [
        ("a", None), ("a", None), ("b", "later"), ("b", "later")]


def test_the_schema_comes_from_metadata_then_the_io_manager_then_the_key_prefix(database, io, instance):
    @asset(metadata={"schema": "io_meta"}, io_manager_key=POSTGRES_IO_MANAGER)
    def plain() -> pd.DataFrame:
        return pd.DataFrame({"x": [1, 2]})

    @asset(key_prefix=["io_test"], io_manager_key=POSTGRES_IO_MANAGER)
    def prefixed() -> pd.DataFrame:
        return pd.DataFrame({"x": [3]})

    assert _run([plain, prefixed], io, instance).success
    configured = {POSTGRES_IO_MANAGER: PostgresPandasIOManager(database=io[POSTGRES_IO_MANAGER].database,
                                                               schema="io_config")}
    assert _run([prefixed], configured, instance).success
    assert _rows(database, "SELECT x FROM io_meta.plain") == [(1,), (2,)]   # unpartitioned: the whole table replaced
    assert _rows(database, "SELECT x FROM io_test.prefixed") == [(3,)]
    assert _rows(database, "SELECT x FROM io_config.prefixed") == [(3,)]

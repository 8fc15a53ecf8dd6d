"""The object-store IO manager on a local folder and on moto's S3 server: JSON, bytes and files
under partition-keyed keys, a run of several partitions writing each under its own key, inputs
loaded per partition (a value) and over several (a mapping), through the ObjectStore resource."""

import tempfile
from pathlib import Path

import orjson
import pytest
from dagster import (
    AssetIn,
    BackfillPolicy,
    DagsterInstance,
    StaticPartitionsDefinition,
    asset,
    materialize,
)

from sadie_pipeline.io_managers import OBJECT_STORE_IO_MANAGER, ObjectStoreIOManager
from sadie_pipeline.partitions import range_tags

PARTS = StaticPartitionsDefinition(["a", "b", "c"])
SINGLE_RUN = {"partitions_def": PARTS, "backfill_policy": BackfillPolicy.single_run(),
              "io_manager_key": OBJECT_STORE_IO_MANAGER}
LOADED: dict[str, object] = {}


@asset(**SINGLE_RUN)
def figures(context) -> dict:
    return {p: {"region": p, "hotels": len(p) * 10, "cities": ["x", p]} for p in context.partition_keys}


@asset(**SINGLE_RUN, metadata={"extension": "xlsx"})
def workbook(context) -> bytes:
    [partition] = context.partition_keys
    return f"bytes of {partition}".encode()


@asset(io_manager_key=OBJECT_STORE_IO_MANAGER, metadata={"extension": "csv"})
def report_file() -> Path:
    path = Path(tempfile.mkdtemp()) / "report.csv"
    path.write_text("a,b\n1,2\n")
    return path


@asset(io_manager_key=OBJECT_STORE_IO_MANAGER)
def summary() -> list:
    return [{"total": 3}]


@asset(**SINGLE_RUN)
def reader(figures: dict) -> dict:
    LOADED["figures"] = figures
    return figures


@asset(**SINGLE_RUN, ins={"workbook": AssetIn()})
def byte_reader(workbook: bytes) -> dict:
    LOADED["workbook"] = workbook
    return {"size": len(workbook)}


@asset(io_manager_key=OBJECT_STORE_IO_MANAGER)
def file_reader(report_file: Path, summary: list) -> dict:
    LOADED["file"] = report_file.read_text()
    LOADED["summary"] = summary
    return {"ok": True}


@pytest.fixture(params=["local", "s3"])
def store(request: pytest.FixtureRequest):
    return request.getfixturevalue(f"{request.param}_object_store")


@pytest.fixture
def resources(store):
    LOADED.clear()
    return {OBJECT_STORE_IO_MANAGER: ObjectStoreIOManager(object_store=store)}


def _run(assets, resources, instance: DagsterInstance, selection=None, **kw):
    result = materialize(assets, selection=selection, resources=resources, instance=instance, **kw)
    assert result.success
    return result


def test_partitions_are_written_under_their_own_keys(store, resources, instance):
    result = _run([figures], resources, instance, tags=range_tags("a", "b"))
    assert store.list_keys("assets/") == ["assets/figures/a.json", "assets/figures/b.json"]
    meta = result.asset_materializations_for_node("figures")[0].metadata
    assert set(meta["paths"].value) == {"a", "b"}
    _run([figures], resources, instance, partition_key="a")   # a single partition may return its value alone too
    assert store.list_keys("assets/") == ["assets/figures/a.json", "assets/figures/b.json"]
    assert orjson.loads(store.get_bytes("assets/figures/b.json")) == {"region": "b", "hotels": 10, "cities": ["x", "b"]}


def test_inputs_load_one_partition_as_its_value_and_several_as_a_mapping(resources, instance):
    _run([figures], resources, instance, tags=range_tags("a", "c"))
    _run([figures, reader], resources, instance, selection=[reader], partition_key="b")
    assert LOADED["figures"] == {"region": "b", "hotels": 10, "cities": ["x", "b"]}
    _run([figures, reader], resources, instance, selection=[reader], tags=range_tags("a", "b"))
    assert set(LOADED["figures"]) == {"a", "b"} and LOADED["figures"]["a"]["region"] == "a"


def test_bytes_and_files_keep_their_extension(store, resources, instance):
    _run([workbook, byte_reader], resources, instance, partition_key="c")
    assert store.get_bytes("assets/workbook/c.xlsx") == b"bytes of c"
    assert LOADED["workbook"] == b"bytes of c"
    _run([report_file, summary, file_reader], resources, instance)
    assert store.get_bytes("assets/report_file.csv") == b"a,b\n1,2\n"
    assert LOADED["file"] == "a,b\n1,2\n" and LOADED["summary"] == [{"total": 3}]
    assert "assets/summary.json" in store.list_keys("assets/")


def test_several_partitions_need_a_value_per_partition(resources, instance):
    @asset(**SINGLE_RUN)
    def figures(context) -> dict:   # noqa: F811 - the same key, returning one value for two partitions
        return {"hotels": 1}

    result = materialize([figures], resources=resources, instance=instance, tags=range_tags("a", "b"),
                         raise_on_error=False)
    assert not result.success
    [failure] = [e for e in result.all_events if e.event_type_value == "STEP_FAILURE"]
    assert "must be a mapping of each partition key to its value" in str(failure.event_specific_data.error)


def test_a_missing_partition_is_an_error(resources, instance):
    _run([figures], resources, instance, partition_key="a")
    result = materialize([figures, reader], selection=[reader], resources=resources, instance=instance,
                         tags=range_tags("a", "b"), raise_on_error=False)
    assert not result.success

"""ObjectStore behaves the same on a moto S3 server and on a local folder."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.object_store import TEMP_PREFIX, ObjectStore

KEY = "raw/listings/visit-pei/20261125/job-000001-01.jsonl.gz"


@pytest.fixture(params=["local", "s3"])
def store(request: pytest.FixtureRequest) -> ObjectStore:
    return request.getfixturevalue(f"{request.param}_object_store")


def test_put_and_get_bytes(store: ObjectStore) -> None:
    uri = store.put_bytes("a/b.txt", b"hello", content_type="text/plain")
    assert uri == store.uri("a/b.txt")
    assert store.get_bytes("a/b.txt") == b"hello"
    store.put_bytes("a/b.txt", b"replaced")
    assert store.get_bytes("a/b.txt") == b"replaced"


def test_put_file_and_download_to(store: ObjectStore, tmp_path: Path) -> None:
    src = tmp_path / "src.bin"
    src.write_bytes(b"x" * 100_000)
    store.put_file("files/src.bin", src)
    dst = tmp_path / "out" / "dst.bin"
    store.download_to("files/src.bin", dst)
    assert dst.read_bytes() == src.read_bytes()


def test_open_write_publishes_on_success(store: ObjectStore) -> None:
    with store.open_write(KEY) as f:
        f.write(b"part 1 ")
        assert not store.exists(KEY)  # not visible while being written
        f.write(b"part 2")
    assert store.get_bytes(KEY) == b"part 1 part 2"


def test_open_write_failure_leaves_no_object(store: ObjectStore) -> None:
    with pytest.raises(RuntimeError, match="boom"):
        with store.open_write(KEY) as f:
            f.write(b"half written")
            raise RuntimeError("boom")
    assert not store.exists(KEY)
    assert store.list_keys("") == []


def test_open_write_failure_keeps_previous_version(store: ObjectStore) -> None:
    store.put_bytes(KEY, b"v1")
    with pytest.raises(RuntimeError):
        with store.open_write(KEY) as f:
            f.write(b"v2")
            raise RuntimeError("boom")
    assert store.get_bytes(KEY) == b"v1"


def test_list_keys_by_prefix(store: ObjectStore) -> None:
    for key in ["raw/b/2.txt", "raw/a/1.txt", "raw/a/deep/3.txt", "rawish.txt", "other/4.txt"]:
        store.put_bytes(key, b"x")
    assert store.list_keys("raw/") == ["raw/a/1.txt", "raw/a/deep/3.txt", "raw/b/2.txt"]
    assert store.list_keys("raw/a") == ["raw/a/1.txt", "raw/a/deep/3.txt"]
    assert store.list_keys("raw") == [
        "raw/a/1.txt",
        "raw/a/deep/3.txt",
        "raw/b/2.txt",
        "rawish.txt",
    ]
    assert store.list_keys("missing/") == []
    assert len(store.list_keys("")) == 5


def test_exists_size_delete(store: ObjectStore) -> None:
    assert not store.exists("k/v.bin")
    store.put_bytes("k/v.bin", b"12345")
    assert store.exists("k/v.bin")
    assert store.size("k/v.bin") == 5
    store.delete("k/v.bin")
    assert not store.exists("k/v.bin")
    store.delete("k/v.bin")  # deleting again is fine


def test_missing_object_raises_file_not_found(store: ObjectStore, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        store.get_bytes("nope.txt")
    with pytest.raises(FileNotFoundError):
        store.size("nope.txt")
    with pytest.raises(FileNotFoundError):
        store.download_to("nope.txt", tmp_path / "nope.txt")


def test_open_read_streams_into_gzip_and_text(store: ObjectStore) -> None:
    lines = [f'{{"row": {i}, "name": "Café {i}"}}\n' for i in range(5000)]
    with store.open_write(KEY) as raw, gzip.open(raw, "wt", encoding="utf-8") as out:
        out.writelines(lines)
    with store.open_read(KEY) as raw, gzip.open(raw, "rt", encoding="utf-8") as text:
        assert list(text) == lines

    store.put_bytes("plain.txt", "".join(lines).encode("utf-8"))
    with store.open_read("plain.txt") as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8")
        assert text.readline() == lines[0]
        assert sum(1 for _ in text) == len(lines) - 1


def test_uri_format(s3_object_store: ObjectStore, local_object_store: ObjectStore) -> None:
    assert s3_object_store.uri(KEY) == f"s3://{s3_object_store.bucket}/{KEY}"
    root = Path(local_object_store.local_root or "").resolve()
    assert local_object_store.uri(KEY) == f"file://{root}/{KEY}"
    assert s3_object_store.describe().startswith(f"s3://{s3_object_store.bucket} (endpoint http://")
    assert local_object_store.describe() == f"local folder {root}"


@pytest.mark.parametrize(
    "bad", ["", "/etc/passwd", "../outside", "a/../../outside", "a//b", "a\\b"]
)
def test_bad_keys_rejected(store: ObjectStore, bad: str) -> None:
    with pytest.raises(ValueError):
        store.put_bytes(bad, b"x")


def test_local_keys_cannot_escape_root(local_object_store: ObjectStore, tmp_path: Path) -> None:
    root = Path(local_object_store.local_root or "")
    root.mkdir(parents=True)
    (root / "link").symlink_to(tmp_path)
    with pytest.raises(ValueError):
        local_object_store.put_bytes("link/escaped.txt", b"x")
    assert not (tmp_path / "escaped.txt").exists()


def test_local_list_ignores_temp_files(local_object_store: ObjectStore) -> None:
    local_object_store.put_bytes("d/real.txt", b"x")
    root = Path(local_object_store.local_root or "")
    (root / "d" / f"{TEMP_PREFIX}abc").write_bytes(b"partial")
    assert local_object_store.list_keys("d/") == ["d/real.txt"]


def test_backend_from_environment_through_the_definitions(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, s3_server: str
) -> None:
    monkeypatch.delenv("SADIE_S3_BUCKET", raising=False)
    monkeypatch.setenv("SADIE_HOME", str(tmp_path / "home"))
    store = resolved(configured("object_store"))
    assert store.describe() == f"local folder {tmp_path / 'home' / 'objects'}"
    store.put_bytes("x.txt", b"local")
    assert (tmp_path / "home" / "objects" / "x.txt").read_bytes() == b"local"

    monkeypatch.setenv("SADIE_S3_BUCKET", "env-bucket")
    monkeypatch.setenv("SADIE_S3_ENDPOINT_URL", s3_server)
    assert store.describe().startswith("local folder")  # the resource reads no variable
    store = resolved(configured("object_store"))
    assert store.describe() == f"s3://env-bucket (endpoint {s3_server})"
    assert store.uri("x.txt") == "s3://env-bucket/x.txt"
    assert store.plain().describe() == store.describe()  # worker processes get the same settings


def test_default_local_root_is_relative_to_cwd(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("SADIE_S3_BUCKET", raising=False)
    monkeypatch.delenv("SADIE_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    assert ObjectStore().describe() == f"local folder {tmp_path.resolve() / '.sadie' / 'objects'}"


def test_describe_hides_endpoint_credentials() -> None:
    store = ObjectStore(bucket="b", endpoint_url="https://user:secret@minio.local:9000")
    assert store.describe() == "s3://b (endpoint https://minio.local:9000)"

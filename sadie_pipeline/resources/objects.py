"""Key/value object storage on S3 or on a local folder, chosen by configuration: the operations,
without Dagster, so that worker processes can use them without importing it (object_store.py
holds the Dagster resource).

Callers only ever see "/"-separated keys; the same keys work on both backends.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit, urlunsplit

DEFAULT_HOME = ".sadie"
DEFAULT_REGION = "us-east-1"
# Local temp files start with this so list_keys can skip half-written objects.
TEMP_PREFIX = ".sadie-tmp-"
# open_write on S3 keeps this much in memory before spilling to disk.
_SPOOL_MAX_BYTES = 8 * 1024 * 1024


def validate_key(key: str) -> str:
    """Reject keys that are empty, absolute or could escape the store's root."""
    if not key or key.startswith("/") or "\\" in key or "\x00" in key:
        raise ValueError(f"invalid object key: {key!r}")
    if any(part in ("", ".", "..") for part in key.split("/")):
        raise ValueError(f"invalid object key (empty, '.' or '..' segment): {key!r}")
    return key


def _without_userinfo(url: str) -> str:
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


class StoreOps:
    """The operations of a store whose settings are the attributes bucket, endpoint_url,
    region_name, local_root and home (S3 when a bucket is set, else the folder local_root, by
    default {home}/objects), with a boto3 client cached in _client / _client_settings."""

    bucket: str | None
    endpoint_url: str | None
    region_name: str | None
    local_root: str | None
    home: str

    # ----------------------------------------------------------------- settings

    def _bucket(self) -> str | None:
        return (self.bucket or "").strip() or None

    def _endpoint(self) -> str | None:
        return (self.endpoint_url or "").strip() or None

    def _region(self) -> str:
        return (self.region_name or "").strip() or DEFAULT_REGION

    def _root(self) -> Path:
        root = Path(self.local_root) if self.local_root else Path(self.home or DEFAULT_HOME) / "objects"
        return root.expanduser().resolve()

    @property
    def is_s3(self) -> bool:
        return self._bucket() is not None

    def _s3(self) -> Any:
        settings = (self._endpoint(), self._region())
        if self._client is None or self._client_settings != settings:
            import boto3  # deferred: local-only deployments never pay the import

            # Credentials deliberately come only from boto3's default chain.
            self._client = boto3.client(
                "s3", endpoint_url=settings[0], region_name=settings[1]
            )
            self._client_settings = settings
        return self._client

    def _path(self, key: str) -> Path:
        root = self._root()
        path = (root / validate_key(key)).resolve()
        # Also catches symlinks inside the root that point outside of it.
        if not path.is_relative_to(root):
            raise ValueError(f"object key escapes the local root: {key!r}")
        return path

    def describe(self) -> str:
        bucket = self._bucket()
        if bucket is None:
            return f"local folder {self._root()}"
        endpoint = self._endpoint()
        suffix = f" (endpoint {_without_userinfo(endpoint)})" if endpoint else ""
        return f"s3://{bucket}{suffix}"

    def uri(self, key: str) -> str:
        bucket = self._bucket()
        if bucket is None:
            return self._path(key).as_uri()
        return f"s3://{bucket}/{validate_key(key)}"

    # ------------------------------------------------------------------ writing

    def put_bytes(self, key: str, data: bytes, content_type: str | None = None) -> str:
        bucket = self._bucket()
        if bucket is None:
            with self.open_write(key) as f:
                f.write(data)
        else:
            extra = {"ContentType": content_type} if content_type else {}
            self._s3().put_object(Bucket=bucket, Key=validate_key(key), Body=data, **extra)
        return self.uri(key)

    def put_file(
        self, key: str, path: str | os.PathLike[str], content_type: str | None = None
    ) -> str:
        bucket = self._bucket()
        if bucket is None:
            with open(path, "rb") as src, self.open_write(key) as dst:
                shutil.copyfileobj(src, dst, 1024 * 1024)
        else:
            extra = {"ContentType": content_type} if content_type else None
            # upload_file switches to multipart uploads for big files.
            self._s3().upload_file(os.fspath(path), bucket, validate_key(key), ExtraArgs=extra)
        return self.uri(key)

    @contextmanager
    def open_write(self, key: str, content_type: str | None = None) -> Iterator[BinaryIO]:
        """Yield a writable binary file; the object appears only if the block succeeds."""
        bucket = self._bucket()
        if bucket is None:
            yield from self._open_write_local(key)
            return
        validate_key(key)
        with tempfile.SpooledTemporaryFile(max_size=_SPOOL_MAX_BYTES) as spool:
            yield spool  # type: ignore[misc]
            spool.seek(0)
            extra = {"ContentType": content_type} if content_type else None
            self._s3().upload_fileobj(spool, bucket, key, ExtraArgs=extra)

    def _open_write_local(self, key: str) -> Iterator[BinaryIO]:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=TEMP_PREFIX)
        try:
            with os.fdopen(fd, "wb") as f:
                yield f
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp_name, path)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise

    # ------------------------------------------------------------------ reading

    def _get_object(self, key: str) -> dict[str, Any]:
        client = self._s3()
        try:
            return client.get_object(Bucket=self._bucket(), Key=validate_key(key))
        except client.exceptions.NoSuchKey:
            raise FileNotFoundError(self.uri(key)) from None

    def get_bytes(self, key: str) -> bytes:
        with self.open_read(key) as f:
            return f.read()

    @contextmanager
    def open_read(self, key: str) -> Iterator[BinaryIO]:
        """Yield a readable binary stream (not seekable on S3)."""
        if self._bucket() is None:
            with open(self._path(key), "rb") as f:
                yield f
            return
        body = self._get_object(key)["Body"]
        # StreamingBody has no peek/read1, so IOBase.readline() on it reads one
        # byte per call; buffering gives fast readline and a normal file object.
        with io.BufferedReader(body, buffer_size=256 * 1024) as f:  # type: ignore[arg-type]
            yield f  # type: ignore[misc]

    def download_to(self, key: str, path: str | os.PathLike[str]) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        if self._bucket() is None:
            shutil.copyfile(self._path(key), path)
            return
        if not self.exists(key):
            raise FileNotFoundError(self.uri(key))
        self._s3().download_file(self._bucket(), key, os.fspath(path))

    # ----------------------------------------------------------------- metadata

    def _head(self, key: str) -> dict[str, Any] | None:
        from botocore.exceptions import ClientError

        try:
            return self._s3().head_object(Bucket=self._bucket(), Key=validate_key(key))
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return None
            raise

    def exists(self, key: str) -> bool:
        if self._bucket() is None:
            return self._path(key).is_file()
        return self._head(key) is not None

    def size(self, key: str) -> int:
        if self._bucket() is None:
            return self._path(key).stat().st_size
        head = self._head(key)
        if head is None:
            raise FileNotFoundError(self.uri(key))
        return int(head["ContentLength"])

    def list_keys(self, prefix: str = "") -> list[str]:
        """All keys starting with `prefix` (a string prefix, not a folder), sorted."""
        if ".." in prefix.split("/") or prefix.startswith("/"):
            raise ValueError(f"invalid key prefix: {prefix!r}")
        bucket = self._bucket()
        if bucket is None:
            return self._list_local(prefix)
        paginator = self._s3().get_paginator("list_objects_v2")
        keys = [
            obj["Key"]
            for page in paginator.paginate(Bucket=bucket, Prefix=prefix)
            for obj in page.get("Contents", [])
        ]
        return sorted(keys)

    def _list_local(self, prefix: str) -> list[str]:
        root = self._root()
        # Only walk the deepest folder that the prefix fully names.
        start = root / prefix.rsplit("/", 1)[0] if "/" in prefix else root
        if not start.is_dir():
            return []
        keys = []
        for dirpath, _dirnames, filenames in os.walk(start):
            rel_dir = Path(dirpath).relative_to(root).as_posix()
            for name in filenames:
                if name.startswith(TEMP_PREFIX):
                    continue
                key = name if rel_dir == "." else f"{rel_dir}/{name}"
                if key.startswith(prefix):
                    keys.append(key)
        return sorted(keys)

    def delete(self, key: str) -> None:
        """Delete an object; deleting a missing object is not an error."""
        if self._bucket() is None:
            self._path(key).unlink(missing_ok=True)
        else:
            self._s3().delete_object(Bucket=self._bucket(), Key=validate_key(key))


class PlainStore(StoreOps):
    """A store with the same settings as the ObjectStore resource, for processes without Dagster."""

    def __init__(self, bucket: str | None = None, endpoint_url: str | None = None, region_name: str | None = None,
                 local_root: str | None = None, home: str = DEFAULT_HOME) -> None:
        self.bucket, self.endpoint_url, self.region_name, self.local_root = bucket, endpoint_url, region_name, local_root
        self.home = home
        self._client = None
        self._client_settings = None

"""The object-store IO manager: asset values as objects under partition-keyed keys, through the
project's ObjectStore resource (S3 when a bucket is configured, else the local folder).

Keys: `{prefix}/{asset key path}/{partition key}.{extension}`, or `{prefix}/{asset key path}.{extension}`
for an unpartitioned asset. Values: bytes stored as they are, a file (a path) uploaded as it is,
anything else as JSON; the extension is the output's `extension` metadata, else json / bin. A run
of several partitions (the single-run backfills) returns a mapping {partition key: value} and
each value goes under its own key; an input of several partitions loads as the same mapping, of
one partition as its value (as Dagster's UPathIOManager loads). The input's type annotation says
how to read: bytes, a Path (downloaded to a temporary file), anything else JSON."""

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson
from dagster import (
    ConfigurableIOManager,
    DagsterInvariantViolationError,
    InputContext,
    MetadataValue,
    OutputContext,
    ResourceDependency,
)

from sadie_pipeline.resources.object_store import ObjectStore

EXTENSIONS = {"json": "json", "bytes": "bin", "file": "bin"}
_CONTENT_TYPES = {"json": "application/json", "bytes": "application/octet-stream"}
_JSON_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def value_format(value: Any) -> str:
    """How a value is stored: bytes, a file, or JSON."""
    if isinstance(value, bytes | bytearray | memoryview):
        return "bytes"
    if isinstance(value, os.PathLike):
        return "file"
    return "json"


def load_format(typing_type: Any) -> str:
    """How an input of this annotation is read back."""
    if isinstance(typing_type, type) and issubclass(typing_type, bytes | bytearray):
        return "bytes"
    if isinstance(typing_type, type) and issubclass(typing_type, os.PathLike):
        return "file"
    return "json"


def encode_json(value: Any) -> bytes:
    return orjson.dumps(value, default=str, option=_JSON_OPTIONS)


def per_partition(partition_keys: list[str], value: Any) -> dict[str, Any]:
    """The value of each partition: a run of several partitions returns {partition key: value};
    a run of one may return its value alone."""
    if isinstance(value, Mapping) and set(value) == set(partition_keys):
        return dict(value)
    if len(partition_keys) == 1:
        return {partition_keys[0]: value}
    raise DagsterInvariantViolationError(
        f"an output of {len(partition_keys)} partitions must be a mapping of each partition key to its value "
        f"(got {type(value).__name__} with keys {sorted(value)[:5] if isinstance(value, Mapping) else '-'})")


class ObjectStoreIOManager(ConfigurableIOManager):
    """Stores asset values (bytes, files, JSON) in the object store per partition (module docstring)."""

    object_store: ResourceDependency[ObjectStore]
    prefix: str = "assets"
    """The key prefix of every stored value."""

    def _base(self, context: InputContext | OutputContext) -> str:
        if context.has_asset_key:
            return "/".join([self.prefix, *context.asset_key.path])
        return "/".join([self.prefix, "runs", *context.get_identifier()])  # an op's output: per run and step

    def _keys(self, context: InputContext | OutputContext, extension: str) -> dict[str | None, str]:
        """The object key of each partition of the context (None: the asset is not partitioned)."""
        base = self._base(context)
        if not (context.has_asset_key and context.has_asset_partitions):
            return {None: f"{base}.{extension}"}
        return {str(p): f"{base}/{p}.{extension}" for p in context.asset_partition_keys}

    def _write(self, key: str, value: Any) -> str:
        kind = value_format(value)
        if kind == "file":
            return self.object_store.put_file(key, value)
        data = bytes(value) if kind == "bytes" else encode_json(value)
        return self.object_store.put_bytes(key, data, content_type=_CONTENT_TYPES[kind])

    def _read(self, key: str, kind: str) -> Any:
        if kind == "file":  # a fresh folder per load: the reading step owns (and may move) its copy
            path = Path(tempfile.mkdtemp(prefix="sadie-io-")) / key.rsplit("/", 1)[-1]
            self.object_store.download_to(key, path)
            return path
        data = self.object_store.get_bytes(key)
        return data if kind == "bytes" else orjson.loads(data)

    def handle_output(self, context: OutputContext, obj: Any) -> None:
        if obj is None:
            raise DagsterInvariantViolationError(
                "Unexpected None output: annotate the asset '-> None' if it stores nothing itself")
        metadata = context.definition_metadata or {}
        if context.has_asset_key and context.has_asset_partitions:
            values: dict[str | None, Any] = dict(per_partition([str(p) for p in context.asset_partition_keys], obj))
        else:
            values = {None: obj}
        uris = {}
        for partition, value in values.items():
            extension = metadata.get("extension") or EXTENSIONS[value_format(value)]
            key = self._keys(context, extension)[partition]
            uris[partition] = self._write(key, value)
        if len(uris) == 1:
            context.add_output_metadata({"path": MetadataValue.path(next(iter(uris.values())))})
        else:
            context.add_output_metadata({"paths": MetadataValue.json(uris)})

    def load_input(self, context: InputContext) -> Any:
        kind = load_format(context.dagster_type.typing_type)
        upstream = context.upstream_output.definition_metadata if context.upstream_output else None
        keys = self._keys(context, (upstream or {}).get("extension") or EXTENSIONS[kind])
        if list(keys) == [None]:
            return self._read(keys[None], kind)
        allow_missing = (context.definition_metadata or {}).get("allow_missing_partitions", False)
        values = {}
        for partition, key in keys.items():
            try:
                values[partition] = self._read(key, kind)
            except FileNotFoundError:
                if not allow_missing:
                    raise
                context.log.warning(f"partition {partition} of {context.asset_key.to_user_string()} is missing: skipped")
        return next(iter(values.values())) if len(keys) == 1 and values else values

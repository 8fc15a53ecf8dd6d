"""The object store as a Dagster resource: S3 (when a bucket is configured) or a local folder.
The operations are in objects.py."""

from __future__ import annotations

from typing import Any

from dagster import ConfigurableResource
from pydantic import PrivateAttr

from sadie_pipeline.resources.objects import DEFAULT_REGION, TEMP_PREFIX, PlainStore, StoreOps, validate_key

__all__ = ["DEFAULT_REGION", "TEMP_PREFIX", "ObjectStore", "PlainStore", "validate_key"]


class ObjectStore(ConfigurableResource, StoreOps):
    """Objects by key in S3 (when a bucket is configured) or in a local folder.

    Unset fields fall back to environment variables read at use time, so that
    importing the code location never depends on the environment.
    """

    bucket: str | None = None
    endpoint_url: str | None = None
    region_name: str | None = None
    local_root: str | None = None

    _client: Any = PrivateAttr(default=None)
    _client_settings: tuple[str | None, str] | None = PrivateAttr(default=None)

    def plain(self) -> PlainStore:
        """The same store, for a process without Dagster."""
        return PlainStore(self.bucket, self.endpoint_url, self.region_name, self.local_root)

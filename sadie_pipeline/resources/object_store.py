"""The object store as a Dagster resource: S3 (when a bucket is configured) or a local folder.
The operations are in objects.py."""

from __future__ import annotations

from typing import Any

from dagster import ConfigurableResource
from pydantic import Field, PrivateAttr

from sadie_pipeline.resources.objects import (
    DEFAULT_HOME,
    DEFAULT_REGION,
    TEMP_PREFIX,
    PlainStore,
    StoreOps,
    validate_key,
)

__all__ = ["DEFAULT_REGION", "TEMP_PREFIX", "ObjectStore", "PlainStore", "validate_key"]


class ObjectStore(ConfigurableResource, StoreOps):
    """Objects by key in S3 (when `bucket` is set) or in a local folder (`local_root`, by
    default {home}/objects). The definitions set them from SADIE_S3_BUCKET,
    SADIE_S3_ENDPOINT_URL, AWS_DEFAULT_REGION and SADIE_HOME."""

    bucket: str | None = Field(default=None, description="S3 bucket; None: the local folder")
    endpoint_url: str | None = Field(default=None, description="S3-compatible endpoint (MinIO, moto); None: AWS")
    region_name: str | None = Field(default=None, description=f"None: {DEFAULT_REGION}")
    local_root: str | None = Field(default=None, description="the local folder; None: {home}/objects")
    home: str = Field(default=DEFAULT_HOME, description="the local data folder")

    _client: Any = PrivateAttr(default=None)
    _client_settings: tuple[str | None, str] | None = PrivateAttr(default=None)

    def plain(self) -> PlainStore:
        """The same store, for a process without Dagster."""
        return PlainStore(self.bucket, self.endpoint_url, self.region_name, self.local_root, self.home)

"""The IO managers: pandas DataFrames in PostgreSQL tables replaced per partition
(postgres_pandas.py), and bytes, files and JSON in the object store per partition (object_store.py).
Assets choose one by its resource key."""

from __future__ import annotations

from typing import Any

from sadie_pipeline.io_managers.object_store import ObjectStoreIOManager
from sadie_pipeline.io_managers.postgres_pandas import PostgresPandasIOManager

POSTGRES_IO_MANAGER = "postgres_io_manager"
OBJECT_STORE_IO_MANAGER = "object_store_io_manager"

__all__ = ["OBJECT_STORE_IO_MANAGER", "POSTGRES_IO_MANAGER", "ObjectStoreIOManager", "PostgresPandasIOManager",
           "io_manager_resources"]


def io_manager_resources(database: Any, object_store: Any) -> dict[str, Any]:
    """Both IO managers under their resource keys, on the given Database and ObjectStore."""
    return {POSTGRES_IO_MANAGER: PostgresPandasIOManager(database=database),
            OBJECT_STORE_IO_MANAGER: ObjectStoreIOManager(object_store=object_store)}

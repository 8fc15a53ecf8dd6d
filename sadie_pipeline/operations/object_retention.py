"""Retention of the object store's raw material: raw API responses (Serper's pages, the LLMs'
answers) and hotels' website text are kept one year (seed 000), then deleted by the retention job.

An object's age is its store's own time: the local folder's file modification time, S3's
LastModified. `now` can be given (S3 cannot be backdated, so a test moves the clock instead)."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator, Sequence
from typing import Any

from sadie_pipeline.settings import env_count

DEFAULT_OBJECT_RETENTION_DAYS = 365
# seed 000's prefixes: api-responses/{serper,llm}/..., website-content/{state}/{city}/{id}.txt
DEFAULT_OBJECT_PREFIXES = ("api-responses/", "website-content/")
PREFIXES_ENV = "SADIE_OBJECT_RETENTION_PREFIXES"
DAYS_ENV = "SADIE_OBJECT_RETENTION_DAYS"


def object_retention_days() -> int:
    return env_count(DAYS_ENV, DEFAULT_OBJECT_RETENTION_DAYS)


def object_prefixes() -> list[str]:
    """The prefixes retention trims: SADIE_OBJECT_RETENTION_PREFIXES (comma-separated), else seed 000's."""
    given = [p.strip() for p in (os.environ.get(PREFIXES_ENV) or "").split(",") if p.strip()]
    return given or list(DEFAULT_OBJECT_PREFIXES)


def listed_with_times(store: Any, prefix: str) -> Iterator[tuple[str, dt.datetime]]:
    """(key, last modified, UTC) of every object under the prefix."""
    if store.is_s3:
        paginator = store._s3().get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=store._bucket(), Prefix=prefix):
            for obj in page.get("Contents", []):
                yield obj["Key"], obj["LastModified"].astimezone(dt.UTC)
        return
    for key in store.list_keys(prefix):
        mtime = store._path(key).stat().st_mtime
        yield key, dt.datetime.fromtimestamp(mtime, dt.UTC)


def delete_old_objects(store: Any, prefixes: Sequence[str], days: int,
                       now: dt.datetime | None = None) -> dict[str, dict[str, int]]:
    """Deletes objects under the prefixes last modified more than `days` days before `now`;
    {prefix: {"deleted": n, "kept": n}}."""
    cutoff = (now or dt.datetime.now(dt.UTC)) - dt.timedelta(days=days)
    result = {}
    for prefix in prefixes:
        deleted = kept = 0
        for key, modified in list(listed_with_times(store, prefix)):
            if modified < cutoff:
                store.delete(key)
                deleted += 1
            else:
                kept += 1
        result[prefix] = {"deleted": deleted, "kept": kept}
    return result

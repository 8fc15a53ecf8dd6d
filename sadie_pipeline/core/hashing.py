"""source_id, the listing match hash and the change hashes (seed 004)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from sadie_pipeline.core.normalize import match_key

# Cities repeat from record to record (names mostly do not): their match keys are worth keeping.
_city_key = lru_cache(maxsize=4096)(match_key)


def source_id_for(dmo_id: int, name: str | None, city: str | None, explicit_id: str | None = None) -> str:
    """The record's id in its source: the source's own id when it has one, else
    sha1(dmo_id|normalize(name)|normalize(city)), stable across import types (csv, API...)."""
    if explicit_id:
        return explicit_id
    city_key = _city_key(city) if isinstance(city, str) else match_key(city)
    return hashlib.sha1(f"{dmo_id}|{match_key(name)}|{city_key}".encode()).hexdigest()


def listing_match_hash(values: Iterable[str | None]) -> str:
    """sha256 of the normalised match fields (by default name, address1, city)."""
    return hashlib.sha256("|".join(match_key(v) for v in values).encode()).hexdigest()


def change_hash(values: Iterable[Any]) -> str:
    """A short digest of a group of fields, to tell changed from unchanged."""
    payload = "\x1f".join(["" if v is None else v if type(v) is str else str(v) for v in values])
    return hashlib.blake2b(payload.encode(), digest_size=16).hexdigest()

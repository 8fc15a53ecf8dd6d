"""Reading a hotel's stored website text (hotel_websites wrote it)."""

from __future__ import annotations

from typing import Any

from sadie_pipeline.resources.object_store import ObjectStore


def website_text(store: ObjectStore, hotel: dict[str, Any]) -> str:
    """The stored text of the hotel's website ('' when the site gave none)."""
    uri = hotel.get("website_content_s3_path")
    if not uri:
        return ""
    key = uri.split("/", 3)[3] if uri.startswith("s3://") else _local_key(store, uri)
    return store.get_bytes(key).decode("utf-8", "replace") if store.exists(key) else ""


def _local_key(store: ObjectStore, uri: str) -> str:
    marker = "/website-content/"
    return "website-content/" + uri.split(marker, 1)[1] if marker in uri else uri

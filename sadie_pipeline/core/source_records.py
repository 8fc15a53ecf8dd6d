"""A discovery record's text as PostgreSQL and people can take it, on the way into
sadie_gtm.hotel_sources: every source writes through `discovery.save_sources`, and crawled pages,
registers and APIs carry whatever their authors typed. The limits are a listing's
(`core.listing_fields`); a value past its limit is no value (a 600-character "name" is a page's
text, not a name), and a record whose name has no letter or digit is no hotel."""

from __future__ import annotations

from typing import Any

from sadie_pipeline.core.listing_fields import CONTROL_CHARS, DEFAULT_MAX_TEXT, MAX_TEXT

TEXT_KEYS = ("name", "address", "city", "state", "zip", "phone", "website")
_LIMITS = {"website": MAX_TEXT["website_url"]}


def clean_source_record(record: dict[str, Any]) -> dict[str, Any] | None:
    """The record with its text fields cleaned (control characters out, a value past its limit or
    blank dropped), or None when it has no usable name. Whitespace stays as the source wrote it."""
    out = dict(record)
    for key in TEXT_KEYS:
        value = out.get(key)
        if value is None:
            continue
        text = CONTROL_CHARS.sub("", str(value))
        out[key] = text if text.strip() and len(text) <= _LIMITS.get(key, DEFAULT_MAX_TEXT) else None
    name = out.get("name")
    return out if name and any(c.isalnum() for c in name) else None
